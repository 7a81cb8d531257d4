// Minimum-height pipeline schedules: the shortest-path-DAG family (docs/min_height.md).
//
// Problem: among pipeline schedules (schedules/pipeline_schedule.h) of ratio* (seed 004 §2.1),
// find one of least height (docs/formats.md "Height"). Seed 004 §2.3 names low-height trees as
// the open problem; edge-disjoint spanning trees of minimum height are NP-complete in general.
//
// Family: for a root r let λ_r(v) = dist(r, v) in links. A tree whose every compute node t ≠ r
// gets its parent u through a route with only switches inside and λ_r(u) + len(route) =
// λ_r(t) reaches t after exactly λ_r(t) links, so its height is ecc(r), and the schedule's
// height is max_r ecc(r) = PipelineHeightLowerBound: minimal. ANY choice of one such route
// per node is a tree (λ strictly increases along parents). So the family is described by
// per-root integer flows F_r on the links of the shortest-path DAG of r (arcs a -> b with
// λ_r(b) = λ_r(a) + 1): switches conserve flow, every compute node t ≠ r receives exactly k
// units, compute nodes emit any amount. Flow decomposition gives k trees per root, and the
// load of link e is Σ_r F_r(e). Minimising max_e load_e / (k·b_e) is an integer program; its
// LP relaxation (CLP) tells whether the family can reach ratio* at all (a floating-point
// hint, never a claim); CBC with a deterministic node limit then searches integer flows for
// k = m·k0 (m = 1..max_k_multiple, k0 Proposition 3's k for ratio*). The result's ratio is
// recomputed exactly from the integer trees (PipelineScheduleRatio) and, like every schedule,
// must pass the checker (proofs_check/pipeline_checker.h), which measures ratio and height.
//
// Collectives: allgather; reduce-scatter as the allgather of G^T written unchanged (as
// pipeline_schedule_builder.h does); allreduce as reduce-scatter then allgather (seed 004
// App. B), with the allreduce bound certificates attached when the sum meets them.
// Size: the program has N·|arcs of the DAGs| integer columns; above options.max_columns no
// program is built (`why` says so). Cost: O(N·(|V| + |E|)) for the DAGs, then CLP and CBC
// (bounded by max_nodes per solve), then O(N·k·N) for the trees.
// Preconditions: Eulerian, strongly connected, N >= 2 (std::invalid_argument, as the
// pipeline path).
#ifndef COLLSYNTH_SOLVERS_PIPELINE_MIN_HEIGHT_H_
#define COLLSYNTH_SOLVERS_PIPELINE_MIN_HEIGHT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

struct MinHeightOptions {
  Collective collective = Collective::kAllgather;  // allgather, reduce-scatter, allreduce
  std::int64_t max_columns = 40000;                // integer columns of one program (N · DAG arcs)
  int max_nodes = 2000;    // CBC branch-and-bound nodes per solve (deterministic)
  int max_k_multiple = 3;  // k = m·k0 tried for m = 1..this
};

struct MinHeightResult {
  // The schedule, not yet checked (callers check it: STYLE.md, never trust the producer);
  // nullopt when the family could not be built (`why`).
  std::optional<PipelineSchedule> schedule;
  std::string why;
  Rational optimal_ratio;  // ratio* (the sum of the phases' for allreduce)
  // The LP relaxation's value (a floating-point hint; the sum over phases for allreduce):
  // the least ratio the family can reach with fractional trees.
  double lp_ratio = 0;
  std::int64_t columns = 0;  // integer columns of the largest program
  int solves = 0;            // CBC solves
};

MinHeightResult BuildShortestPathDagSchedule(const Topology& g, const MinHeightOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_MIN_HEIGHT_H_
