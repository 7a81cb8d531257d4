#include "cli/baseline_request.h"

#include <sstream>

#include "cli/alltoall_report.h"
#include "cli/verify_json.h"
#include "core/input_error.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"
#include "schedules/demand_io.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "solvers/alltoall/alltoall_baselines.h"
#include "solvers/alltoall/alltoall_optimum.h"
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

// An all-to-all baseline (flows format), checked by the flow checker, reported next to the
// certified optimum.
CheckedBaseline AlltoallBaselineChecked(const Topology& g, const BaselineRequest& a) {
  const std::string& name = a.options.name;
  std::string names;
  for (const std::string& n : AlltoallBaselineNames()) names += (names.empty() ? "" : ", ") + n;
  const std::optional<AlltoallBaseline> which = ParseAlltoallBaseline(name);
  if (!which) {
    throw InputError("<args>", "name",
                     "unknown all-to-all baseline '" + name + "' (" + names + ")");
  }
  if (*which == AlltoallBaseline::kTopoOptForwarding && !a.relay) {
    throw InputError("<args>", "--no-relay",
                     "topoopt-forwarding is host-based forwarding: every host relays");
  }
  if (g.num_compute() < 2) throw InputError(a.topology, "nodes", "needs at least 2 compute nodes");
  const DemandMatrix demand = a.demand.empty() ? UniformDemand(g) : ReadDemandFile(a.demand, g);
  const std::string cut = DisconnectedDemandPair(g, demand, a.relay);
  if (!cut.empty()) {
    throw InputError(
        a.topology, "pair " + cut,
        a.relay ? "no path (not strongly connected)" : "no path through switches only");
  }
  AlltoallBaselineOptions o;
  o.which = *which;
  o.relay = a.relay;
  o.uniform = a.demand.empty();
  FlowSchedule s = BuildAlltoallBaseline(g, demand, o, a.topology);
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  CheckedBaseline b = FromCheck(r, "flows", name, Collective::kAlltoall);
  if (!b.ok) return b;
  std::ostringstream text;
  WriteFlowSchedule(text, s, g);
  b.text = text.str();
  b.report["relay"] = a.relay;
  b.report["demand"] = a.demand.empty() ? nlohmann::json("uniform") : nlohmann::json(a.demand);
  b.line = name + " on " + g.name() + ": alltoall, T = " + ToString(*r.time) +
           (a.demand.empty() ? " (M/N per unit bandwidth)" : " (demand units per unit bandwidth)") +
           ", bottleneck " + r.bottleneck_link + ", " + std::to_string(r.paths) + " paths";
  if (a.optimum) {
    const AlltoallReport opt = ComputeAlltoallReport(g, a.topology, a.demand, a.relay, nullptr);
    if (opt.certified) {
      const Rational t_star = 1 / ParseRational(opt.json["lambda"].get<std::string>());
      b.report["optimal_time"] = ToString(t_star);
      b.report["ratio_to_optimum"] = ToString(*r.time / t_star);
      b.line +=
          "; certified optimum T* = " + ToString(t_star) + ", T/T* = " + ToString(*r.time / t_star);
    } else {
      b.report["optimal_time"] = nullptr;
      b.report["ratio_to_optimum"] = nullptr;
      b.report["optimum_failure"] = opt.failure;
      b.line += "; the optimum was not certified (--json: optimum_failure)";
    }
  }
  b.line += "; flows format, output verified";
  return b;
}

}  // namespace

CheckedBaseline BuildCheckedBaseline(const Topology& g, const BaselineRequest& a) {
  if (a.collective == "alltoall") return AlltoallBaselineChecked(g, a);
  if (!a.relay || !a.demand.empty() || !a.optimum) {
    throw InputError("<args>",
                     !a.relay            ? "--no-relay"
                     : !a.demand.empty() ? "--demand"
                                         : "--no-optimum",
                     "applies to --collective alltoall only");
  }
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
