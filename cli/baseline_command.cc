// collsynth baseline NAME TOPOLOGY -o SCHEDULE.json [--collective C] [--chunks P]
//                   [--order a,b,..] [--dims 4,4] [--shifts 1,5] [--fan-out K]
// Builds a baseline schedule (solvers/baselines/baselines.h: uniring, biring, biring-bfb, torus,
// recursive-doubling, recursive-halving, dbtree, shiftedring, shiftedbfbring, multitree),
// runs the step checker and writes it only when valid (exit 1 otherwise). A topology that does
// not fit the baseline is bad input (exit 2). The routed baselines (direct, routed-ring,
// routed-recursive-doubling; solvers/baselines/routed_baselines.h) run on any topology, switches
// included, and are written as pipeline schedules, checked by the pipeline checker.
#include <iostream>
#include <memory>

#include "cli/command_registry.h"
#include "cli/schedule_output.h"
#include "cli/verify_json.h"
#include "core/input_error.h"
#include "graphs/topology_io.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/step_schedule.h"
#include "solvers/baselines/baselines.h"
#include "solvers/baselines/routed_baselines.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct BaselineArgs {
  BaselineOptions options;
  std::string collective;  // --collective as given; empty: the baseline's default
  std::string topology, out;
  bool json = false;
  int ecmp_routes = 64;  // routed baselines: shortest routes per tree edge
};

// A routed baseline (pipeline format): built, checked, written and read back like `pipeline`.
int RunRoutedBaseline(const BaselineArgs& a, const Topology& g) {
  RoutedBaselineOptions o;
  o.name = a.options.name;
  o.order = a.options.order;
  if (a.ecmp_routes < 1) throw InputError("<args>", "--ecmp-routes", "must be at least 1");
  o.max_routes_per_edge = a.ecmp_routes;
  if (!a.collective.empty()) o.collective = ParseBaselineCollective(a.collective);
  PipelineSchedule s = BuildRoutedBaseline(g, o, a.topology);
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  if (!r.ok) {  // never written unchecked
    PrintFailure("baseline " + o.name +
                 " failed the checker: " + (r.errors.empty() ? std::string("?") : r.errors[0]));
    return kExitCheckFailed;
  }
  OutputCheck out =
      WriteCheckedSchedule(g, PipelineScheduleToJsonText(s, g) + "\n", a.out, {}, SameFigures(r));
  if (!out.ok) {
    PrintFailure("baseline " + o.name + ": " + a.out + ": " + out.error + " (nothing written)");
    return kExitCheckFailed;
  }
  std::ostream& info = a.out == "-" ? std::cerr : std::cout;  // keep stdout pure JSON
  if (a.json) {
    json j = CheckReportJson(r);
    j["baseline"] = o.name;
    j["collective"] = CollectiveName(s.collective);
    j["k"] = PipelineBigIntToJson(s.k);
    AddOutputCheck(j, out);
    info << j.dump() << "\n";
  } else {
    info << o.name << " on " << g.name() << ": " << CollectiveName(s.collective) << ", ratio "
         << ToString(r.ratio) << " (T_B in units of M/N), height " << r.height_hops
         << " links (lower bound " << r.height_lower_bound_hops
         << "); pipeline format, output verified\n";
  }
  return kExitOk;
}

// Every baseline name, step and routed, comma-separated (the help texts list them).
std::string AllBaselineNames() {
  std::string names;
  for (const auto& n : BaselineNames()) names += (names.empty() ? "" : ", ") + n;
  for (const auto& n : RoutedBaselineNames()) names += ", " + n;
  return names;
}

void AddBaselineOptions(CLI::App* cmd, BaselineArgs* args) {
  cmd->add_option("name", args->options.name, "baseline: " + AllBaselineNames())->required();
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("-o,--output", args->out, "output schedule JSON ('-' = stdout)")->required();
  cmd->add_option("--collective", args->collective,
                  "allgather, reduce-scatter or allreduce (default: the baseline's own)");
  cmd->add_option("--chunks", args->options.chunks, "pipeline chunks P (dbtree)");
  cmd->add_option("--order", args->options.order, "ring order, node names (rings, dbtree)")
      ->delimiter(',');
  cmd->add_option("--dims", args->options.dims,
                  "grid dimensions, row-major node ids (torus, multitree)")
      ->delimiter(',');
  cmd->add_option("--shifts", args->options.shifts, "ring shifts p, gcd(p, N) = 1 (shifted rings)")
      ->delimiter(',');
  cmd->add_option("--fan-out", args->options.fan_out, "k-ary cap on MultiTree children (0 = none)");
  cmd->add_option("--ecmp-routes", args->ecmp_routes,
                  "routed baselines: at most this many shortest routes per tree edge, the "
                  "tree split evenly over them (default 64)");
  cmd->add_flag("--json", args->json, "print the check report as JSON");
}

int RunBaseline(const BaselineArgs& a) {
  Topology g = ReadTopologyFile(a.topology);
  if (IsRoutedBaseline(a.options.name)) return RunRoutedBaseline(a, g);
  BaselineOptions options = a.options;
  if (!a.collective.empty()) {
    RequireKnownBaseline(options.name);  // an unknown name is reported first
    options.collective = ParseBaselineCollective(a.collective);
  }
  StepSchedule s = BuildBaseline(g, options, a.topology);
  StepCheckReport r = CheckStepSchedule(g, s);
  if (!r.ok) {  // never written unchecked
    PrintFailure("baseline " + a.options.name +
                 " failed the checker: " + (r.errors.empty() ? std::string("?") : r.errors[0]));
    return kExitCheckFailed;
  }
  s.claimed_tl = r.tl;
  s.claimed_tb = r.tb;
  // The written bytes are the checked artifact (schedule_output.h).
  OutputCheck out =
      WriteCheckedSchedule(g, StepScheduleToJsonText(s, g) + "\n", a.out, {}, SameFigures(r));
  if (!out.ok) {
    PrintFailure("baseline " + a.options.name + ": " + a.out + ": " + out.error +
                 " (nothing written)");
    return kExitCheckFailed;
  }
  std::ostream& info = a.out == "-" ? std::cerr : std::cout;  // keep stdout pure JSON
  if (a.json) {
    json j = CheckReportJson(r);
    j["baseline"] = a.options.name;
    j["collective"] = CollectiveName(s.collective);
    AddOutputCheck(j, out);
    info << j.dump() << "\n";
  } else {
    info << a.options.name << " on " << g.name() << ": " << CollectiveName(s.collective)
         << ", T_L = " << r.tl << ", T_B = " << ToString(r.tb)
         << " (shard units); output verified\n";
  }
  return kExitOk;
}

CommandRegistrar reg_baseline(0, [](CLI::App& app) {
  AddCommand(app, "baseline", "Baseline collective schedules, checked (" + AllBaselineNames() + ")",
             AddBaselineOptions, RunBaseline);
});

}  // namespace
}  // namespace collsynth::cli
