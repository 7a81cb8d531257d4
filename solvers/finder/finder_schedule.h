// The schedule behind a topology-finder candidate (solvers/finder/finder.h), built for real so that
// the checker can confirm the finder's predicted (T_L, T_B): BFB (solvers/bfb/bfb_schedule.h)
// directly on the topology for bases, products (Thm 13) and directly computed candidates;
// the schedule expansions of solvers/bfb/schedule_expansion.h (line graph Thm 10, degree Thm 11,
// Cartesian power Thm 12) on the operand's schedule otherwise. A line graph's operand is
// always given its optimal BFB schedule (Thm 10's hypothesis).
// Complexity: that of the BFB solver on the base plus the expansion's output size.
// Preconditions: a candidate produced by TopologyFinder (InputError from the producers
// otherwise). The caller runs the step checker (proofs_check/step_checker.h).
#ifndef COLLSYNTH_SOLVERS_FINDER_FINDER_SCHEDULE_H_
#define COLLSYNTH_SOLVERS_FINDER_FINDER_SCHEDULE_H_

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/step_schedule.h"
#include "solvers/finder/finder.h"

namespace collsynth {

struct FinderSchedule {
  Topology topology;
  StepSchedule schedule;  // allgather
};

// need_bfb: the caller needs the optimal BFB schedule (a line-graph operand). kBidir (App. F)
// throws std::invalid_argument (BidirectionalSchedule's contract) when the operand has a pair
// of opposite links (their union is then a multi-link that App. F's split does not cover).
FinderSchedule BuildFinderSchedule(const FinderCandidate& c, bool need_bfb = false);

// Converts a checker T_B (shard units over link bandwidth) to units of M/B on a topology whose
// nodes all have egress bandwidth B: tb_shard · B / N.
Rational ShardTbToMOverB(const Topology& g, const Rational& tb_shard);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_FINDER_FINDER_SCHEDULE_H_
