// Brute-force simulation of a step schedule (seed 000 App. A Def. 6), a second, deliberately
// naive method to cross-check the step checker on tiny instances. For every source shard and
// every midpoint x of the elementary intervals cut by that source's chunk endpoints, it
// simulates the schedule step by step: allgather/broadcast forward (who holds x after step t;
// a send of x by a node that does not hold it counts as not-held), reduce-scatter backward
// from the owner (whose contribution to x can still reach the owner after step t; a send to
// a node that cannot pass x on counts as not-held), allreduce as both, split at rs_steps.
// T_B sums, per step, the max over links of (measure of each chunk, by midpoints)/b_e.
// Sends outside 1..T (T = claimed tl, else the last step) and rs_steps outside 0..T are errors.
// Cost O(sources · elements · T · sends): for tests only. Exact (Rational midpoints).
#ifndef COLLSYNTH_PROOFS_CHECK_BRUTE_FORCE_SIMULATOR_H_
#define COLLSYNTH_PROOFS_CHECK_BRUTE_FORCE_SIMULATOR_H_

#include <set>
#include <utility>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/step_schedule.h"

namespace collsynth {

struct BruteForceResult {
  bool valid = false;
  int tl = 0;
  Rational tb;
  std::set<std::pair<int, int>> missing;  // (source, node): some element never delivered
  std::set<int> not_held;                 // send indices that move an element illegally
  std::set<int> bad_sends;                // sends over missing links or of inadmissible sources
  // Reduce-scatter (and allreduce's first phase), simulated forward in time with counts: every
  // node's partial of element x of v is a vector of contribution counts, a send adds the
  // sender's pre-step partial to the receiver's. (v, u): u's contribution reaches v more than
  // once, a wrong sum.
  std::set<std::pair<int, int>> reduced_twice;
  std::set<int> out_of_range;  // sends whose step is outside 1..T
  bool bad_rs_steps = false;   // allreduce rs_steps outside 0..T
};

BruteForceResult SimulateStepSchedule(const Topology& g, const StepSchedule& s);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_BRUTE_FORCE_SIMULATOR_H_
