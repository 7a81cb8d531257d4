// Experiment kind "time-gap" (docs/experiments.md "`time-gap`", docs/tune.md "How far from the
// bound"): `collsynth tune`'s choice (experiments/tune.h) on many topologies, collectives and
// sizes, with the gap of the winner to LB(M) and, for the rows that miss their target, the reason
// in terms of a certified bound: the least time any tree schedule (the pipeline format, which
// every candidate but BFB has) can take in the simulator's model, TreeScheduleTimeBound below.
//
// params:
//   "collectives": ["allgather", "reduce-scatter", "allreduce"] (default: all three)
//   "cases": [{"topology": EXPR, "label": "optional"}]
//   "sizes": ["1KB", ..., "1GB"]   as `tune --sizes` (KB/MB/GB = 2^10/2^20/2^30 bytes)
//   "alpha_us": "1"                α of every link, µs (exact)
//   "link_gbps": "8"               one unit of topology bandwidth, Gbit/s (8: tune's 1 GB/s)
//   "chunks": [1, 2, 4, ..., 64]   tune's --chunks-sweep
//   "height_bounds_max_compute": 32  ratio bounds at each height (experiments/pareto.h
//                                  HeightRatioBounds) up to this many compute nodes; above it the
//                                  tree bound uses ratio* and the height lower bound only
// One task per (case, collective): tune's candidates are built and checked once, then every size
// is tuned. One row per size (columns in docs/experiments.md).
#ifndef COLLSYNTH_EXPERIMENTS_TIME_GAP_H_
#define COLLSYNTH_EXPERIMENTS_TIME_GAP_H_

#include <cstdint>
#include <optional>
#include <string>

#include "core/rational.h"
#include "experiments/pareto.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// A lower bound on the simulated completion time (simulate's model, docs/simulate.md, either
// switch model, any P) of every schedule in the pipeline format for `collective` at
// model.size, with its proof in docs/tune.md "The tree bound":
// * allgather, reduce-scatter: the least over heights H of
//     max(H·α_min, D_α, α_min + R(H)·shard/b),
//   R(H) = max(ratio*, the certified ratio bound at height H from `bounds`) (ratio* alone when
//   `bounds` is null, its program was not solved, or H is above `max_height`), H from the height
//   lower bound `height_lb` up; α_min the least link latency, D_α TuneAlphaDiameter.
// * allreduce: max(max_r (in_α(r) + out_α(r)), ratio*·shard/b): the allgather trees of root r
//   start only once r holds its reduced shard (docs/simulate.md), so every root's farthest input
//   and farthest output are crossed one after the other; in_α(r), out_α(r) are the largest
//   α-distances into and out of r from and to compute nodes.
// `ratio_star`: the certified ratio bound of the collective (tune's bandwidth_bound; nullopt: 0).
struct TreeTimeBound {
  Rational seconds;
  std::optional<std::int64_t> height_hops;  // the H attaining it (allgather, reduce-scatter)
  std::string by;                           // which term decides, e.g. "height-ratio at H = 3"
};
TreeTimeBound TreeScheduleTimeBound(const Topology& g, Collective collective,
                                    const SimulationModel& model,
                                    const std::optional<Rational>& ratio_star,
                                    std::int64_t height_lb, HeightRatioBounds* bounds,
                                    std::int64_t max_height);

// The gap target of docs/tune.md "Targets": 5/4 at sizes up to 1 KB (1,024 bytes) and from
// 256 MB (2^28 bytes) on, 2 between.
Rational TimeGapTarget(const Rational& bytes);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPERIMENTS_TIME_GAP_H_
