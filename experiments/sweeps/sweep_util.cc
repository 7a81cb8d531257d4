#include "experiments/sweeps/sweep_util.h"

#include "graphs/expression.h"
#include "solvers/bfb/bfb_schedule.h"

namespace collsynth::sweeps {

CheckedSchedule Check(Topology g, StepSchedule s, bool check_bfb) {
  StepCheckOptions o;
  o.check_bfb = check_bfb;
  CheckedSchedule c{std::move(g), std::move(s), {}, {}};
  c.report = CheckStepSchedule(c.topology, c.schedule, o);
  c.tb = c.report.tb * c.topology.OutBandwidth(0) / c.topology.num_nodes();
  return c;
}

CheckedSchedule BfbChecked(Topology g) {
  BfbOptions o;
  o.certificates = false;
  o.file = g.name();
  StepSchedule s = GenerateBfbSchedule(g, o).schedule;
  return Check(std::move(g), std::move(s), true);
}

CheckedSchedule BfbChecked(const std::string& expr) {
  return BfbChecked(EvaluateTopologyExpression(expr));
}

AllgatherPerformance PerformanceOf(const CheckedSchedule& c) {
  AllgatherPerformance p;
  p.nodes = c.topology.num_nodes();
  p.degree = c.topology.OutDegree(0);
  p.latency_steps = c.report.tl;
  p.bandwidth = c.tb;
  return p;
}

std::string Describe(const Rational& r) { return ToString(r); }

}  // namespace collsynth::sweeps
