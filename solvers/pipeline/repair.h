// Re-synthesis after a failure (docs/repair.md): a plain "pipeline" schedule that was optimal on a
// topology, repaired for the same topology with some links failed (docs/formats.md "Failed
// links"), at the exact optimum of the degraded topology and with its certificate.
//
// Problem: given g (the degraded topology) and OLD (allgather or reduce-scatter, k_old trees per
// root, routes over g's nodes, some of them crossing links g no longer has), find a valid schedule
// whose ratio is ratio*(g) (seed 004 §1.1 eq. (1)), changing as little of OLD as it can:
//  1. Target: the largest cut ratio among OLD's bottleneck cut and the single-node cuts V - v,
//     evaluated on g (lower bounds on ratio*, bound (1)); when the repair cannot reach it, the
//     exact optimum by ComputeAllgatherOptimum (Dinkelbach) and the repair again. k = lcm(k_old,
//     k*) with k* Proposition 3's least k for the target, so OLD's multiplicities scale by an
//     integer and every link gets the integer capacity ⌊k·target·b_e⌋.
//  2. Keep every route that uses only links of g; its load is charged to the residual capacity.
//  3. Reroute: each route that crosses a missing link (a tree edge u -> v between compute nodes)
//     gets paths u -> v through switches with residual capacity (breadth first, the route's
//     multiplicity split in halves when no single path has room). A tree whose broken routes
//     cannot all be rerouted is dropped (replaced), its surviving routes released.
//  4. Residual packing of the replaced trees' demand per root: on a topology without switches by
//     Bérczi–Frank (solvers/pipeline/arborescence_packing.h) in the residual capacities; with
//     switches by trees grown breadth first through switches with residual capacity.
//  5. When that fails, or the result is not at the target: a fresh synthesis
//     (BuildPipelineSchedule), which always attains the optimum.
// The schedule carries the bottleneck cut whose value equals its ratio (the certificate the
// checker verifies) and is self-checked in debug builds.
// Complexity: O(routes of OLD) to classify, one breadth-first search O(V + E) per broken route and
// per tree of the residual packing; plus one optimum (N max-flows per Dinkelbach test with
// switches) only when the cheap cuts do not certify, and a fresh synthesis only as the fallback.
// Preconditions: g Eulerian, strongly connected, N >= 2; OLD a structurally valid schedule over
// g's nodes (trees spanning the compute nodes, routes between compute nodes through switches,
// each root's trees summing to k): the CLI checks this with the pipeline checker and reports
// anything else as bad input. std::invalid_argument for other collectives.
// Number types: exact (Rational target, BigInt capacities and multiplicities).
#ifndef COLLSYNTH_SOLVERS_PIPELINE_REPAIR_H_
#define COLLSYNTH_SOLVERS_PIPELINE_REPAIR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {

enum class RepairMethod {
  kUnchanged,        // no route crossed a missing link: OLD's trees as they were
  kRerouted,         // every affected tree kept, its broken routes rerouted
  kResidualPacking,  // some trees replaced by trees packed into the residual capacity
  kFresh,            // a fresh synthesis (the repair could not reach the optimum)
};
const char* RepairMethodName(RepairMethod m);

struct RepairStats {
  std::int64_t trees_old = 0;       // tree groups of OLD
  std::int64_t trees_kept = 0;      // no route changed
  std::int64_t trees_rerouted = 0;  // kept, with broken routes replaced
  std::int64_t trees_replaced = 0;  // dropped; their demand was packed anew
  std::int64_t trees_added = 0;     // tree groups packed for the replaced ones
  std::int64_t routes_broken = 0;   // routes of OLD crossing a missing link
  std::int64_t routes_removed = 0;  // routes of OLD not in the output
  std::int64_t routes_added = 0;    // routes of the output not in OLD
  int attempts = 0;                 // targets tried (1: the cheap cut certified)
  bool optimum_computed = false;    // the exact optimum was computed (Dinkelbach)
  double optimum_seconds = 0, repair_seconds = 0, fresh_seconds = 0;
};

struct RepairResult {
  PipelineSchedule schedule;  // for g, certified optimal (its bottleneck_cut)
  // The certificate: ratio = target, bottleneck_cut, cut_compute, cut_bandwidth, U and k of the
  // target (on g^T for reduce-scatter); `tests` and `max_flow_calls` are 0 unless computed.
  AllgatherOptimum optimum;
  Rational old_ratio;  // OLD's claimed ratio (checked on the topology it was made for)
  RepairMethod method = RepairMethod::kUnchanged;
  std::string why_fresh;  // why the repair fell back to a fresh synthesis
  RepairStats stats;
};

// `fresh` is used for the fallback (packing and splitting variants); its collective is OLD's.
// OLD is taken by value (callers move it in: its trees become the output's kept trees).
RepairResult RepairPipelineSchedule(const Topology& g, PipelineSchedule old,
                                    const PipelineOptions& fresh = {});

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_REPAIR_H_
