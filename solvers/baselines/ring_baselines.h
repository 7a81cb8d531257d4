// Ring allgather baselines as step schedules (seed 000 App. B Cor. 6.1 and App. E.1; seed 001
// §II-B; seed 002 TotientPerms/ShiftedRing as read in papers/README.md).
//
//   UniRingAllgather      order[i] -> order[i+1]; step t: node i forwards the shard of node
//                         i-t+1. T_L = N-1, T_B = (N-1)/b shards.
//   BiRingAllgather       classic: [0,1/2) clockwise, [1/2,1) counterclockwise, each a uniring.
//                         T_L = N-1, T_B = (N-1)/(2b).
//   BiRingBfbAllgather    App. E.1 BFB ring: the whole shard both ways for ⌊(N-1)/2⌋ steps; for
//                         even N the opposite node gets one half from each side at step N/2.
//                         T_L = ⌊N/2⌋, T_B = (N-1)/(2b) (BW optimal).
//   ShiftedRingAllgather  k rings i <-> i+p_j (gcd(p_j, N) = 1) superposed; ring j moves the
//                         data slice [j/k, (j+1)/k) with the classic (or BFB) bidirectional ring.
//
// Complexity O(N²) sends. Preconditions: `order` is a ring of g as returned by RingOrder
// (bidirectional for the BiRing variants), N >= 2; shifts as from CirculantRingShifts.
// Numbers: chunk endpoints are exact Rationals.
#ifndef COLLSYNTH_SOLVERS_BASELINES_RING_BASELINES_H_
#define COLLSYNTH_SOLVERS_BASELINES_RING_BASELINES_H_

#include <vector>

#include "graphs/topology.h"
#include "schedules/step_schedule.h"

namespace collsynth {

// Adds the uniring allgather of slice [lo, hi) of every shard along `order`, steps 1..N-1;
// direction +1 sends order[i] -> order[i+1], -1 the reverse.
void AppendRingAllgather(const std::vector<int>& order, int direction, const Rational& lo,
                         const Rational& hi, StepSchedule& out);
// Same slice by the BFB ring of App. E.1 (both directions, T_L = ⌊N/2⌋).
void AppendBfbRingAllgather(const std::vector<int>& order, const Rational& lo, const Rational& hi,
                            StepSchedule& out);

StepSchedule UniRingAllgather(const std::vector<int>& order);
StepSchedule BiRingAllgather(const std::vector<int>& order);
StepSchedule BiRingBfbAllgather(const std::vector<int>& order);
// node_of[i] = node id of the node named i (0..N-1).
StepSchedule ShiftedRingAllgather(const std::vector<int>& node_of, const std::vector<int>& shifts,
                                  bool bfb);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_RING_BASELINES_H_
