// Bandwidth-optimal pipeline schedules (seed 004 §2, §2.4, Appendices A-B).
//
// Problem: build a PipelineSchedule (schedules/pipeline_schedule.h) for allgather,
// reduce-scatter, allreduce or broadcast on an arbitrary Eulerian switch topology:
//  * allgather: ratio* and (U, k) (solvers/pipeline/allgather_optimum.h), edge splitting of
//    G({U·b_e}) with source capacities k and threshold N·k (solvers/pipeline/edge_splitting.h),
//    then k spanning out-trees per compute node in G* (solvers/pipeline/arborescence_packing.h),
//    mapped back to physical routes. Achieves T_B = (M/N)·ratio*, certified by the bottleneck cut.
//  * reduce-scatter: the allgather of the transpose G^T, written unchanged (trees
//    parent -> child); data flows child -> parent along the reversed paths, which are links
//    of G. Same ratio on Eulerian G.
//  * allreduce: reduce-scatter then allgather (Appendix B); ratio = sum of the phases; the
//    result also reports Theorem 19's optimality conditions (solvers/pipeline/collective_bounds.h).
//    When the sum meets bound (6) the schedule carries its cut ("bottleneck_cut"); when it
//    meets bound (7), one min cut per compute node ("single_node_cuts", O(N·|V|) names).
//  * broadcast from r: λ = min_v F(r, v; G), U/k = 1/λ (T_B = M/λ, bound (5)); splitting with
//    source capacity k at r only and threshold k; k trees rooted at r.
//  * fixed k (§2.4, Theorems 13-15): the least U* with N·k trees edge-disjoint in
//    G({⌊U·b_e⌋}), by the paper's binary search to width 1/max(b)^2 and continued fractions.
//    On switch topologies G({⌊U*·b_e⌋}) need not be Eulerian, and then Algorithm 1 may be
//    unable to isolate a switch (Theorem 7 needs Eulerian; packing out-trees that span V_c
//    through Steiner nodes is NP-hard in general, so Theorem 5's flow test is only a lower
//    bound there). Splitting then runs in relaxed mode (solvers/pipeline/edge_splitting.h); if it
//    still fails, the next breakpoints of ⌊U·b_e⌋ above U* are tried (at most
//    PipelineOptions::fixed_k_breakpoints), and
//    last the least U' >= U* with every U'·b_e integral (G({U'·b_e}) is Eulerian and
//    feasible; U' - U* < gcd-step L/G of the bandwidths). When U > U* the result says so
//    (FixedKResult::searches: U*, a lower bound on any k-tree schedule by Theorem 13 +
//    Theorem 5's necessary direction, the values tried, and whether U = U'), and the schedule
//    file carries the same as "fixed_k_least_U", "fixed_k_breakpoints_tried" and
//    "fixed_k_eulerian_fallback" (docs/formats.md); with U = U' its ratio U/k may exceed
//    Theorem 15's bound (by less than the gcd step over k). A fixed-k schedule that attains U*
//    carries "fixed_k_cut" (a failing Theorem-5 cut just below U*), which the checker verifies
//    as the certificate that no schedule with k trees per root has a smaller ratio.
// "ratio" is always max over links of load/(k·b_e): T_B/(M/N) for allgather/reduce-scatter
// (and the sum of the phases for allreduce), T_B/M for broadcast.
// Complexity: dominated by the max-flows of the three stages (see the stage headers).
// Preconditions: Eulerian, strongly connected, >= 2 compute nodes (std::invalid_argument).
// Number types: exact (Rational / BigInt) throughout.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_PIPELINE_SCHEDULE_BUILDER_H_
#define COLLSYNTH_SOLVERS_PIPELINE_PIPELINE_SCHEDULE_BUILDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"
#include "solvers/pipeline/arborescence_packing.h"
#include "solvers/pipeline/edge_splitting.h"
#include "solvers/pipeline/rs_ag_allreduce.h"

namespace collsynth {

struct PipelineOptions {
  Collective collective = Collective::kAllgather;  // every collective (schedules/collective.h)
  int root = -1;                                   // broadcast root (node id of a compute node)
  std::optional<BigInt> fixed_k;                   // §2.4: exactly k trees per root
  // Fixed k on switch topologies: breakpoints of ⌊U·b_e⌋ above U* tried (after U* itself)
  // before the Eulerian fallback U'.
  int fixed_k_breakpoints = 16;
  PackingOptions packing;      // Algorithm 2 variant (batch certification by default)
  SplittingOptions splitting;  // Algorithm 1 variant (whole-switch fast path by default)
};

struct PipelineStats {
  std::int64_t optimum_max_flows = 0;
  std::int64_t splitting_max_flows = 0;
  std::int64_t split_operations = 0;
  std::int64_t split_whole_switches = 0;      // switches split off by the cyclic fast path
  std::int64_t split_rooted_cuts = 0;         // Hao-Orlin runs of that fast path
  std::int64_t packing_max_flows = 0;         // Theorem 12 evaluations
  std::int64_t packing_condition_checks = 0;  // condition (3) min-cut tests (batch mode)
  std::int64_t packing_batch_arcs = 0;        // tree arcs certified by those tests
  std::int64_t packing_rejected_proposals = 0;
  double packing_check_seconds = 0;  // part of packing_seconds spent in those tests
  std::int64_t trees = 0;            // distinct trees (groups)
  double optimum_seconds = 0, splitting_seconds = 0, packing_seconds = 0;
};

// Fixed k (§2.4) on a switch topology: how one single-phase schedule's U was found when it
// is above Theorem 14's least U* (the header comment above).
struct FixedKSearch {
  Rational least_u;           // U*: no schedule with k trees per root has a smaller U
  int breakpoints_tried = 0;  // values of U tried, from U* up through the breakpoints of ⌊U·b_e⌋
  bool eulerian_fallback = false;  // U = U', the least U' >= U* with every U'·b_e integral
};

// What a fixed-k build found besides the schedule (the schedule's fixed_k_cut is its certificate).
struct FixedKResult {
  // Theorem 15's bound ratio* + 1/(k·min b_e) on the achieved ratio (the sum over the phases
  // for allreduce).
  Rational theorem15_bound;
  // U*/k (the sum over the phases for allreduce), a lower bound on the ratio of any schedule
  // with k trees per root: its integral loads fit in G({⌊k·ratio·b_e⌋}), which then passes
  // Theorem 14's flow test (Theorem 5's necessary direction). A schedule whose ratio equals
  // it is certified best for that k.
  Rational lower_bound;
  // One entry per single-phase schedule (the schedule itself; for allreduce its
  // reduce-scatter and allgather phases, in that order): the search when that schedule's U is
  // above U*, std::nullopt when U = U*. Also written into that schedule's `extra`
  // ("fixed_k_least_U", "fixed_k_breakpoints_tried", "fixed_k_eulerian_fallback").
  std::vector<std::optional<FixedKSearch>> searches;
};

struct PipelineBuildResult {
  PipelineSchedule schedule;
  Rational optimal_ratio;  // ratio* (allgather/RS), sum for allreduce, 1/λ for broadcast
  std::optional<FixedKResult> fixed_k;  // fixed k only (PipelineOptions::fixed_k)
  PipelineStats stats;
  std::optional<RsAgCertificate> allreduce;  // allreduce only (rs_ag_allreduce.h)
};

PipelineBuildResult BuildPipelineSchedule(const Topology& g, const PipelineOptions& options);

// What RoutedTreesFor does with a capacity graph that is not Eulerian.
enum class NonEulerianSplit {
  kRefuse,  // Algorithm 1 with require_eulerian (Theorem 7's precondition)
  kTry,     // relaxed mode when d is not Eulerian (fixed k, §2.4; the residual of a repair,
            // solvers/pipeline/repair.h), std::nullopt if stuck
};

// The building block of every builder above: splitting (Algorithm 1) of d with the source
// capacities and threshold, packing (Algorithm 2) of `demands` in the result, each tree's
// edges mapped back to physical routes. std::nullopt when d is not Eulerian (only with
// NonEulerianSplit::kTry) and Algorithm 1 cannot isolate a switch: Theorem 7 needs an Eulerian
// graph. Precondition: min_v F(s, v; D_c) >= threshold (std::logic_error otherwise).
std::optional<std::vector<PipelineTree>> RoutedTreesFor(
    const Topology& g, const CapacityGraph& d, const std::vector<BigInt>& source_capacity,
    const BigInt& threshold, const std::vector<std::pair<int, BigInt>>& demands,
    NonEulerianSplit non_eulerian, const PipelineOptions& options, PipelineStats* stats);

// Recomputes a (single-phase) schedule's ratio max_e load_e / (k·b_e) from its routes; for
// reduce-scatter the loads are on the reversed paths. Independent of how it was built.
Rational PipelineScheduleRatio(const Topology& g, const PipelineSchedule& s);

// §2.4 Theorem 14: the least U with min_v F(s, v; G_k(⌊U·b_e⌋)) >= N·k.
Rational FixedKMinimalU(const Topology& g, const BigInt& k, std::int64_t* max_flow_calls = nullptr);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_PIPELINE_SCHEDULE_BUILDER_H_
