// Traditional torus allgather (seed 000 §5.3 and §8.2 "traditional torus schedule [57]"):
// rings dimension by dimension. For a k-dimensional torus the shard is cut into k slices;
// slice i runs the ring allgather along dimension (i + j) mod k in phase j, forwarding all data
// gathered in earlier phases, so the k slices use different dimensions at once when all
// dimensions are equal (then this is the Cartesian-power schedule of Thm 12, BW optimal).
// Each ring is the classic bidirectional ring (half each way) on a bidirectional torus, or the
// unidirectional ring on a directed torus (+1 links only).
// T_L = Σ_q (d_q - 1). T_B (shard units, bandwidth b, equal dims d, bidirectional) =
// (d^k - 1)/(2·k·b), the BW optimum (N-1)/(2k·b).
// Complexity O(k·N²) sends. Precondition: grid from InferGrid whose ±1 links exist (checked;
// InputError otherwise).
#ifndef COLLSYNTH_SOLVERS_BASELINES_TORUS_BASELINE_H_
#define COLLSYNTH_SOLVERS_BASELINES_TORUS_BASELINE_H_

#include <string>

#include "graphs/topology.h"
#include "schedules/step_schedule.h"
#include "solvers/baselines/baseline_structure.h"

namespace collsynth {

StepSchedule TraditionalTorusAllgather(const Topology& g, const Grid& grid,
                                       const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_TORUS_BASELINE_H_
