// Broadcast and allreduce bandwidth lower bounds (seed 004 Appendices A-B).
//
// Problems (all values exact, via max-flows on the topology's bandwidths):
//  * (5) broadcast from r: T_B >= M / λ_r, λ_r = min_{v∈V_c} F(r, v; G) (attained by the
//    pipeline broadcast of Appendix A); certificate: the min cut S (r ∈ S, S ⊉ V_c).
//  * (6) allreduce: T_B >= M / λ_min, λ_min = min_{S∩V_c ∉ {∅, V_c}} B+(S)
//    = min_{v≠v0} F(v0, v; G) on Eulerian G (Theorem 16).
//  * (7) allreduce: T_B >= (2M(N-1)/N) / max_v μ_v, μ_v = min_{S∩V_c={v}} B+(S), a max-flow from
//    v to a super-sink fed by all other compute nodes with infinite arcs (Corollary 18);
//    certificate: one min cut S_v per compute node (memory O(N·|V|)).
//  * Theorem 19: RS+AG (ratio 2·ratio*) is optimal if (a) |S*∩V_c| = N/2 or (b)
//    S*∩V_c = {v'} with μ_{v'} = max_v μ_v.
// All allreduce figures are reported as T_B/(M/N) (the unit of the pipeline "ratio").
// Complexity: O(N) max-flows each. Preconditions: Eulerian, strongly connected, N >= 2.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_COLLECTIVE_BOUNDS_H_
#define COLLSYNTH_SOLVERS_PIPELINE_COLLECTIVE_BOUNDS_H_

#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "solvers/pipeline/allgather_optimum.h"

namespace collsynth {

struct BroadcastBound {
  int root = -1;
  Rational min_cut;      // λ_r
  Rational ratio;        // 1/λ_r = T_B / M
  std::vector<int> cut;  // S with r ∈ S, B+(S) = λ_r
};
BroadcastBound ComputeBroadcastBound(const Topology& g, int root);

struct AllreduceBounds {
  Rational min_cut;              // λ_min of (6)
  std::vector<int> min_cut_set;  // a set attaining it
  Rational bound6;               // N / λ_min        (T_B/(M/N))
  Rational max_single_cut;       // max_v μ_v of (7)
  Rational bound7;               // 2(N-1) / max_v μ_v
  // Certificate of (7): for the i-th compute node v (Topology::ComputeNodes() order) a set
  // S_v with S_v ∩ V_c = {v} and B+(S_v) = μ_v (the source side of the min cut of its
  // max-flow). Any such sets give a valid bound 2(N-1) / max_v B+(S_v); these attain (7).
  std::vector<std::vector<int>> single_cuts;
  Rational lower_bound;  // max(bound6, bound7)
  Rational rs_ag_ratio;  // 2 · ratio*
  bool theorem19_a = false;
  bool theorem19_b = false;
  bool rs_ag_optimal = false;  // Theorem 19 (a) or (b), or rs_ag_ratio == lower_bound
};
AllreduceBounds ComputeAllreduceBounds(const Topology& g, const AllgatherOptimum& optimum);

// Bound (7)'s ingredients for the given compute nodes only: μ_v = min B+(S) over S with
// S ∩ V_c = {v}, and a set S_v attaining it (node ids ascending). One max-flow per node with
// switches, none without. Used by ComputeAllreduceBounds (all compute nodes) and by the
// symmetric allreduce (one node per orbit: μ and S map along automorphisms).
struct SingleNodeCut {
  Rational mu;
  std::vector<int> cut;
};
std::vector<SingleNodeCut> ComputeSingleNodeCuts(const Topology& g, const std::vector<int>& nodes);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_COLLECTIVE_BOUNDS_H_
