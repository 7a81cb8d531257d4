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
// Complexity: O(#root-sets · N · maxflow) in practice; Bérczi-Frank bound O(m n^2) μ's.
// Preconditions: every root in V_c, m_j >= 1, capacities >= 0; if the trees do not exist
// the result has ok = false (no exception). Number types: BigInt.
#ifndef COLLSYNTH_SOLVERS_ARBORESCENCE_PACKING_H_
#define COLLSYNTH_SOLVERS_ARBORESCENCE_PACKING_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "graphs/rational.h"
#include "graphs/topology.h"
#include "solvers/edge_splitting.h"

namespace collsynth {

struct PackedTree {
  int root = -1;
  BigInt multiplicity;
  std::vector<std::pair<int, int>> edges;  // (parent, child), in order of addition
};

struct PackingResult {
  bool ok = false;  // false: the demands violate Theorem 9's condition
  std::vector<PackedTree> trees;
  std::int64_t mu_evaluations = 0;  // Theorem 12 max-flows
};

// `graph` is over g's node ids and must only use compute nodes.
PackingResult PackArborescences(const Topology& g, const CapacityGraph& graph,
                                const std::vector<std::pair<int, BigInt>>& demands);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_ARBORESCENCE_PACKING_H_
