// Brute-force tree packing (seed 004 §2.4, Theorem 13; Theorem 5 on tiny instances): do k
// trees per compute root fit edge-disjointly in G({⌊U·b_e⌋})? Written from the definitions,
// independent of the producers (no max-flow, no edge splitting, no arborescence packing), to
// cross-check them and to test Theorem 5 numerically. Two models of a tree:
//  * kRouted (the pipeline schedule format, docs/formats.md): an arborescence on the compute
//    nodes whose every arc is routed along one simple physical path with switch interiors; a
//    link's load counts every route through it (a switch forwards, it does not replicate).
//  * kSteiner (Theorem 13's statement): an out-tree of G containing every compute node, which
//    may branch at a switch (the switch replicates: its in-link is used once).
// Every minimal tree of the model is enumerated, then a packing is searched depth first
// (trees of one root as a multiset). Complexity: exponential (trees: Π in-degrees per switch
// subset, or (N-1)^(N-1) arborescences times route choices; packing: their (N·k)-subsets),
// for <= kMaxTreePackingNodes nodes; the search stops after `budget` nodes (std::nullopt).
// Number types: Rational U and bandwidths, capacities clamped to int64 (a link never carries
// more than N·k·|V| routes, so larger capacities are equivalent).
#ifndef COLLSYNTH_PROOFS_CHECK_TREE_PACKING_BRUTE_FORCE_H_
#define COLLSYNTH_PROOFS_CHECK_TREE_PACKING_BRUTE_FORCE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

enum class TreeModel { kRouted, kSteiner };

constexpr int kMaxTreePackingNodes = 8;
constexpr std::int64_t kMaxTreePackingK = 64;

// Every minimal tree of `model` rooted at compute node `root` that contains every compute
// node, as sorted link ids (a link repeats when several routes of a routed tree use it).
std::vector<std::vector<int>> EnumerateSpanningTrees(const Topology& g, int root, TreeModel model);

// std::logic_error: more than kMaxTreePackingNodes nodes, fewer than 2 compute nodes.
class TreePackingBruteForce {
 public:
  TreePackingBruteForce(const Topology& g, TreeModel model);

  // Whether k trees per compute root fit in G({⌊U·b_e⌋}); std::nullopt when the search
  // exceeds `budget` nodes. std::logic_error: k < 1 or k > kMaxTreePackingK, U < 0.
  std::optional<bool> Fits(const BigInt& k, const Rational& u, std::int64_t budget);

 private:
  bool Search(std::size_t r, int count, std::size_t from);

  const Topology& g_;
  std::vector<std::vector<std::vector<int>>> trees_;  // per compute root
  std::vector<std::int64_t> cap_;
  int k_ = 0;
  std::int64_t left_ = 0;
};

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_TREE_PACKING_BRUTE_FORCE_H_
