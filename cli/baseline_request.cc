#include "cli/baseline_request.h"

#include "cli/verify_json.h"
#include "core/input_error.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "solvers/baselines/routed_baselines.h"

namespace collsynth::cli {
namespace {

// The parts every baseline's outcome shares: the verdict of the check `r` (a step or pipeline
// report), its figures and the report `baseline --json` prints.
template <typename Report>
CheckedBaseline FromCheck(const Report& r, const char* format, const std::string& name,
                          Collective collective) {
  CheckedBaseline b;
  b.format = format;
  b.ok = r.ok;
  if (!r.ok) {  // never written unchecked
    b.error = r.errors.empty() ? std::string("?") : r.errors[0];
    return b;
  }
  b.expected = SameFigures(r);
  b.report = CheckReportJson(r);
  b.report["baseline"] = name;
  b.report["collective"] = CollectiveName(collective);
  return b;
}

// A routed baseline (pipeline format), checked like `pipeline`.
CheckedBaseline RoutedBaseline(const Topology& g, const BaselineRequest& a) {
  RoutedBaselineOptions o;
  o.name = a.options.name;
  o.order = a.options.order;
  if (a.ecmp_routes < 1) throw InputError("<args>", "--ecmp-routes", "must be at least 1");
  o.max_routes_per_edge = a.ecmp_routes;
  if (!a.collective.empty()) o.collective = ParseBaselineCollective(a.collective);
  PipelineSchedule s = BuildRoutedBaseline(g, o, a.topology);
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  CheckedBaseline b = FromCheck(r, "pipeline", o.name, s.collective);
  if (!b.ok) return b;
  b.text = PipelineScheduleToJsonText(s, g) + "\n";
  b.report["k"] = PipelineBigIntToJson(s.k);
  b.line = o.name + " on " + g.name() + ": " + CollectiveName(s.collective) + ", ratio " +
           ToString(r.ratio) + " (T_B in units of M/N), height " + std::to_string(r.height_hops) +
           " links (lower bound " + std::to_string(r.height_lower_bound_hops) +
           "); pipeline format, output verified";
  return b;
}

}  // namespace

CheckedBaseline BuildCheckedBaseline(const Topology& g, const BaselineRequest& a) {
  if (IsRoutedBaseline(a.options.name)) return RoutedBaseline(g, a);
  BaselineOptions options = a.options;
  if (!a.collective.empty()) {
    RequireKnownBaseline(options.name);  // an unknown name is reported first
    options.collective = ParseBaselineCollective(a.collective);
  }
  StepSchedule s = BuildBaseline(g, options, a.topology);
  StepCheckReport r = CheckStepSchedule(g, s);
  CheckedBaseline b = FromCheck(r, "steps", a.options.name, s.collective);
  if (!b.ok) return b;
  s.claimed_tl = r.tl;
  s.claimed_tb = r.tb;
  b.text = StepScheduleToJsonText(s, g) + "\n";
  b.line = a.options.name + " on " + g.name() + ": " + CollectiveName(s.collective) +
           ", T_L = " + std::to_string(r.tl) + ", T_B = " + ToString(r.tb) +
           " (shard units); output verified";
  return b;
}

}  // namespace collsynth::cli
