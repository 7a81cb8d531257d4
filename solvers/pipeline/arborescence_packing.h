// Packing spanning arborescences with given roots (seed 004 §2.3, Algorithm 2,
// Theorems 9-12; Bérczi & Frank).
//
// Problem: given an integer-capacity digraph D* = (V_c, E*) with capacities g and root
// demands (r_j, m_j), find m_j out-trees rooted at r_j spanning V_c for every j, such that
// each arc e is used by at most g(e) trees. They exist iff c(S, S̄) >= Σ{m_j : r_j ∈ S} for
// every S ≠ V_c (Theorem 9 / Edmonds); for allgather (all m_j = k) this is Theorem 10's
// test. Algorithm 2 grows root-sets R_i (each standing for m(R_i) identical trees): for an
// arc (x, y) leaving R_1 it adds μ copies, μ = min{g(x,y), m(R_1), F(x, y; D̄) - Σ_{i≠1}
// m(R_i)} (Theorem 12, one max-flow), splitting R_1 when μ < m(R_1). Identical trees stay
// grouped with a multiplicity, so the running time does not depend on the demands.
// Simplifications of D̄ (exact): root-sets equal to V_c or containing y add exactly m(R_i)
// to every finite x-y cut and are left out; a singleton root-set {r} becomes an arc x -> r.
// Order (free in Algorithm 2): a copy made by a split is grown right after its set, so D̄
// only holds a few partial root-sets; arcs are tried breadth first (consecutive flows share
// their source and warm-start); a pair with μ = 0 is not retried while the same set grows.
// Batch certification (PackingOptions::batch_certify, the default): before going arc by
// arc, the set being grown (and any copy a split left partial) gets a greedy spanning
// proposal (Prim-like, most remaining capacity first); if the configuration with those
// trees completed still satisfies condition (3) — with only singleton and complete
// root-sets left, (3) is a rooted-connectivity test from a super-root, one Hao-Orlin
// min-cut run (LEMON HaoOrlin::calculateOut) — all its arcs are added at once. Each of them
// then has Theorem 12's μ = m(R) (a completion of the final configuration completes every
// intermediate one), so the output is a run of Algorithm 2; only the certificate of μ
// differs. A rejected proposal costs one min cut; the set goes on arc by arc and proposes
// again after growing by a quarter of what is missing. 32x32 torus: 1,135 min cuts and
// 11,023 flows instead of 1.57M flows (docs/performance.md).
// Complexity: O(#root-sets · N · maxflow) arc by arc; Bérczi-Frank bound O(m n^2) μ's.
// Preconditions: every root in V_c, m_j >= 1, capacities >= 0; if the trees do not exist
// the result has ok = false (no exception). Number types: BigInt.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_ARBORESCENCE_PACKING_H_
#define COLLSYNTH_SOLVERS_PIPELINE_ARBORESCENCE_PACKING_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "solvers/pipeline/edge_splitting.h"

namespace collsynth {

struct PackedTree {
  int root = -1;
  BigInt multiplicity;
  std::vector<std::pair<int, int>> edges;  // (parent, child), in order of addition
};

struct PackingResult {
  bool ok = false;  // false: the demands violate Theorem 9's condition
  std::vector<PackedTree> trees;
  std::int64_t mu_evaluations = 0;      // Theorem 12 max-flows
  std::int64_t condition_checks = 0;    // condition (3) tests (one Hao-Orlin run each)
  std::int64_t batch_arcs = 0;          // tree arcs whose μ = m(R) was certified by (3)
  std::int64_t rejected_proposals = 0;  // spanning proposals that failed (3)
  double condition_check_seconds = 0;   // time in those min-cut tests
};

struct PackingOptions {
  // Grow each root-set by a greedy proposal and certify its longest valid prefix with
  // condition (3) (one min-cut computation per test, bisection on the prefix length)
  // instead of one Theorem-12 flow per arc; the arc where a proposal stops gets its μ from
  // Theorem 12. Same guarantees; false gives the arc-by-arc Algorithm 2.
  bool batch_certify = true;
};

// `graph` is over g's node ids and must only use compute nodes.
PackingResult PackArborescences(const Topology& g, const CapacityGraph& graph,
                                const std::vector<std::pair<int, BigInt>>& demands,
                                const PackingOptions& options = {});

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_ARBORESCENCE_PACKING_H_
