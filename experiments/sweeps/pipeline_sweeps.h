// Sweeps of seed 004's theorems (bandwidth-optimal pipeline schedules) over seeded random
// Eulerian topologies with switches (duplex links, integer bandwidths 1..3) and the paper's
// families: Thm 1 (ratio* by flows = brute force over all cuts), Thm 5 (k trees per root
// exist at the optimum: the built schedule passes the pipeline checker at ratio*), Thm 8
// (edge splitting keeps min_v F(s,v) >= N·k), Thm 10 (switchless: cut condition iff flow
// condition, brute force), Thm 15 (fixed k: U*/k <= ratio* + 1/(k·min b_e)), Thm 19 (RS+AG is
// optimal allreduce under (a) or (b)). Range: instance indices (one seeded topology each).
#ifndef COLLSYNTH_EXPERIMENTS_SWEEPS_PIPELINE_SWEEPS_H_
#define COLLSYNTH_EXPERIMENTS_SWEEPS_PIPELINE_SWEEPS_H_

#include <functional>

#include "experiments/sweeps/sweep.h"
#include "graphs/rational.h"
#include "graphs/topology.h"

namespace collsynth::sweeps {

// Seeded random topology number i: 3..6 compute nodes, 0..2 switches, Eulerian, connected.
Topology RandomEulerianTopology(std::int64_t i);

// ratio_fn(g): the value to compare with the brute-force max cut ratio (default: ratio*).
SweepReport SweepPipelineTheorem1(const SweepRange& r, const std::function<Rational(const Topology&)>& ratio_fn);
SweepReport SweepPipelineTheorem5(const SweepRange& r);
SweepReport SweepPipelineTheorem8(const SweepRange& r);
SweepReport SweepPipelineTheorem10(const SweepRange& r);
SweepReport SweepPipelineTheorem15(const SweepRange& r);
SweepReport SweepPipelineTheorem19(const SweepRange& r);

}  // namespace collsynth::sweeps

#endif  // COLLSYNTH_EXPERIMENTS_SWEEPS_PIPELINE_SWEEPS_H_
