// Sweeps of seed 004's theorems (bandwidth-optimal pipeline schedules) over seeded random
// Eulerian topologies with switches (duplex links, integer bandwidths 1..3) and the paper's
// families: Thm 1 (ratio* by flows = brute force over all cuts), Thm 5 (k trees per root
// exist at the optimum: the built schedule passes the pipeline checker at ratio*), Thm 8
// (edge splitting keeps min_v F(s,v) >= N·k), Thm 10 (switchless: cut condition iff flow
// condition, brute force), Thm 15 (fixed k: U*/k <= ratio* + 1/(k·min b_e)), Thm 19 (RS+AG is
// optimal allreduce under (a) or (b)), and Thm 5 on §2.4's floor graphs G({⌊U*·b_e⌋}) of
// random directed Eulerian switch topologies (which need not be Eulerian), against the
// brute-force packing of proofs_check/tree_packing_brute_force.h in both tree models
// (Steiner: Theorem 13's out-trees, which may branch at a switch; routed: the schedule
// format, which the edge-splitting construction builds). Range: instance indices (one
// seeded topology each).
#ifndef COLLSYNTH_EXPERIMENTS_SWEEPS_PIPELINE_SWEEPS_H_
#define COLLSYNTH_EXPERIMENTS_SWEEPS_PIPELINE_SWEEPS_H_

#include <functional>

#include "core/rational.h"
#include "experiments/sweeps/sweep.h"
#include "graphs/topology.h"
#include "proofs_check/tree_packing_brute_force.h"

namespace collsynth::sweeps {

// Seeded random topology number i: 3..6 compute nodes, 0..2 switches, Eulerian, connected.
Topology RandomEulerianTopology(std::int64_t i);

// ratio_fn(g): the value to compare with the brute-force max cut ratio (default: ratio*).
SweepReport SweepPipelineTheorem1(const SweepRange& r,
                                  const std::function<Rational(const Topology&)>& ratio_fn);
SweepReport SweepPipelineTheorem5(const SweepRange& r);
// Seeded random directed Eulerian topology number i (sums of directed cycles, integer
// bandwidths 2..7): 2..4 compute nodes, 1..3 switches.
Topology RandomDirectedEulerianTopology(std::int64_t i);
// Theorem 5 at U* = FixedKMinimalU (k = 1, 2) on G({⌊U*·b_e⌋}): the flow test passes, so k
// trees per root of `model` must fit (and none fit at the breakpoint below U*).
SweepReport SweepPipelineTheorem5Floor(const SweepRange& r, TreeModel model);
// The check of SweepPipelineTheorem5Floor on one topology g (k = 1, 2): instances and
// counterexamples go to *rep; adds to *non_eulerian the cases whose floor graph is not
// Eulerian and to *skipped those the brute force could not decide within its budget.
void CheckTheorem5Floor(const Topology& g, TreeModel model, SweepReport* rep, int* non_eulerian,
                        int* skipped);
SweepReport SweepPipelineTheorem8(const SweepRange& r);
SweepReport SweepPipelineTheorem10(const SweepRange& r);
SweepReport SweepPipelineTheorem15(const SweepRange& r);
SweepReport SweepPipelineTheorem19(const SweepRange& r);

}  // namespace collsynth::sweeps

#endif  // COLLSYNTH_EXPERIMENTS_SWEEPS_PIPELINE_SWEEPS_H_
