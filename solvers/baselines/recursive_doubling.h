// Recursive doubling allgather on the hypercube Q_k (the classic MPI algorithm; seed 000 App. I
// compares it with BFB): at step s = 1..k every node exchanges everything it holds with its
// neighbour across dimension s-1, so it forwards 2^{s-1} shards. T_L = k = log2 N,
// T_B = (N-1)/b shards (one link per step busy: a factor d = k off the bound on Q_k).
// Recursive halving reduce-scatter is its reverse (Def. 7) on the same (symmetric) hypercube.
// Complexity O(N² ) sends. Precondition: labels from HypercubeLabels (a bijection onto
// [0, 2^k) with every v ~ v ^ 2^j linked).
#ifndef COLLSYNTH_SOLVERS_BASELINES_RECURSIVE_DOUBLING_H_
#define COLLSYNTH_SOLVERS_BASELINES_RECURSIVE_DOUBLING_H_

#include <vector>

#include "schedules/step_schedule.h"

namespace collsynth {

StepSchedule RecursiveDoublingAllgather(const std::vector<int>& label);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_RECURSIVE_DOUBLING_H_
