// Shared helpers of the theorem sweeps: build a schedule (BFB or an expansion), run the
// independent step checker and express its T_B in units of M/B. Internal to experiments/sweeps.
#ifndef COLLSYNTH_EXPERIMENTS_SWEEPS_SWEEP_UTIL_H_
#define COLLSYNTH_EXPERIMENTS_SWEEPS_SWEEP_UTIL_H_

#include <string>

#include "core/rational.h"
#include "graphs/topology.h"
#include "proofs_check/step_checker.h"
#include "schedules/step_schedule.h"
#include "theory/expansion_bounds.h"

namespace collsynth::sweeps {

struct CheckedSchedule {
  Topology topology;
  StepSchedule schedule;
  StepCheckReport report;  // the checker's verdict, T_L and T_B (shard units)
  Rational tb;             // the checker's T_B in units of M/B (B = a node's egress)
};

// Runs the checker (BFB property checked when check_bfb) on (g, s).
CheckedSchedule Check(Topology g, StepSchedule s, bool check_bfb = false);
// Optimal BFB allgather schedule on the topology of a `topo gen` expression, checked.
CheckedSchedule BfbChecked(const std::string& expr);
CheckedSchedule BfbChecked(Topology g);

// (N, d, T_L, T_B) of a checked schedule on a regular topology, for the theory formulas.
AllgatherPerformance PerformanceOf(const CheckedSchedule& c);

std::string Describe(const Rational& r);  // "p/q"

}  // namespace collsynth::sweeps

#endif  // COLLSYNTH_EXPERIMENTS_SWEEPS_SWEEP_UTIL_H_
