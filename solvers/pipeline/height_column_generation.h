// Best ratio at a height by column generation over spanning arborescences of height <= h
// (docs/min_height.md "Column generation at a height").
//
// Problem: among pipeline schedules (schedules/pipeline_schedule.h, seed 004 §2) whose trees are
// at most h links tall (docs/formats.md "Height"), find one of least ratio. Seed 004 §2.3 names
// low-height trees as the open problem; the shortest-path-DAG family (min_height.h) only reaches
// the eccentricity bound, and on DGX-1 it stays above ratio* although trees of height 2 reach it.
//
// Master LP: per root r a weight x_{r,T} >= 0 on trees T of height <= h (compute-node
// arborescences whose edges are routed through switches only), Σ_T x_{r,T} = 1, and for every
// link Σ_{r,T} uses_T(e)·x_{r,T} <= b_e·z; minimise z. It is solved by CLP over the trees found
// so far (the restricted master). Pricing: with p_e >= 0 the duals of the link rows and σ_r the
// dual of root r's row, a tree improves the master when Σ_e p_e·uses_T(e) < σ_r: a min-cost
// spanning arborescence of height <= h (NP-hard in general). Each tree edge u -> t takes the
// cheapest switch-only route of at most ℓ links for each ℓ <= h (a layered shortest path), so
// the tree problem is on the compute nodes. A local search (re-parenting one node at a time
// under the height limit, started from the cheapest shortest-path tree and from the root's best
// column) prices first; when it finds nothing for any root, an exact hop-indexed ILP (CBC, node
// limit) prices every root of a small enough instance. The iterations stop after max_iterations
// master solves or max_trees columns; should CLP fail on a master (numerical trouble), the last
// master it solved is kept. `pricing_exhausted` is true only when that
// ILP proved, for every root, that no tree improves: then `lp_ratio` is (up to floating point)
// the least ratio of any fractional packing of trees of height <= h.
// Exact weights: the restricted master is re-solved exactly at CLP's final basis
// (solvers/backends/exact_basis.h); its rational weights, times the least common denominator k,
// are the trees' multiplicities (fallback: weights rounded to multiples of 1/10^6, the last tree
// of each root taking the rest). The schedule's ratio is recomputed exactly from its trees
// (PipelineScheduleRatio); callers check the schedule (proofs_check/pipeline_checker.h) like any
// other. Nothing here claims optimality at the height: that is the checker-evaluated ratio bound
// of height_bound.h, which callers compare with the checked ratio.
//
// Collectives: allgather; reduce-scatter as the allgather of G^T (as min_height.h); allreduce as
// reduce-scatter at height h1 then allgather at height h - h1 (heights add up, docs/formats.md),
// the split of least total ratio over h1 from the least up to the first at which the
// reduce-scatter reaches its ratio* (a larger h1 only takes height from the allgather), each
// phase cached per height.
// Size: at most HeightCgOptions::max_compute compute nodes (else `why` says so); the exact
// pricing only while its ILP has at most max_exact_pricing_arcs columns.
// Cost per master iteration: CLP on (N + E) rows and the columns so far, N·h·E for the route
// tables, N·(N²·h) per local-search pass; at most max_iterations iterations per phase.
// Preconditions: Eulerian, strongly connected, N >= 2 (std::invalid_argument, as the pipeline
// path), h >= 0.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_HEIGHT_COLUMN_GENERATION_H_
#define COLLSYNTH_SOLVERS_PIPELINE_HEIGHT_COLUMN_GENERATION_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

struct HeightCgOptions {
  Collective collective = Collective::kAllgather;  // allgather, reduce-scatter, allreduce
  int max_compute = 32;                            // larger topologies are skipped (`why`)
  std::int64_t max_exact_pricing_arcs = 20000;     // columns of one pricing ILP
  int max_iterations = 300;                        // master solves per phase and height
  std::int64_t max_trees = 2000;                   // columns of the master (then it stops)
  int cbc_max_nodes = 2000;                        // per pricing ILP (deterministic)
};

struct HeightCgResult {
  // The schedule (height <= the height asked), not yet checked; nullopt with `why` otherwise.
  std::optional<PipelineSchedule> schedule;
  std::string why;
  bool too_large = false;  // skipped for its size (HeightCgOptions::max_compute)
  Rational optimal_ratio;  // ratio* (the sum of the phases' for allreduce)
  double lp_ratio = 0;     // the restricted master's value (float hint; sum over phases)
  // Every phase's exact pricing proved that no tree of height <= its h improves its master.
  bool pricing_exhausted = false;
  int iterations = 0;                      // master solves, over the phases
  int trees = 0;                           // columns generated, over the phases
  std::int64_t phase_heights[2] = {0, 0};  // allreduce: the split (reduce-scatter, allgather)
};

// Column generation for one topology, per height; results of phases are kept per (phase,
// height), so asking for the next height or an allreduce split costs only what is new.
class HeightColumnGeneration {
 public:
  HeightColumnGeneration(const Topology& g, HeightCgOptions options = {});
  // The best schedule of height <= h found (see the header comment).
  HeightCgResult At(std::int64_t h);

 private:
  const HeightCgResult& Phase(bool reduce_scatter, std::int64_t h);

  const Topology& g_;
  Topology transpose_;
  HeightCgOptions options_;
  std::map<std::pair<bool, std::int64_t>, HeightCgResult> cache_;
};

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_HEIGHT_COLUMN_GENERATION_H_
