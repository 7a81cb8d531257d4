// collsynth schedule expand (--line | --degree N | --power K | --reverse | --bidir)
//                           TOPOLOGY SCHEDULE -o OUT [--topology-out T] [--json]
// Seed 000 Def. 2 (line graph), Def. 4 (degree), Def. 14 (Cartesian power), Def. 7 (reverse),
// App. F (unidirectional -> bidirectional). The output schedule refers to the expanded
// topology's node names; --topology-out writes that topology. Every output is run through the
// step checker first and refused (exit 1) when invalid.
//
// collsynth schedule expand TOPOLOGY SCHEDULE -o OUT [--json], SCHEDULE a "pipeline-symmetric"
// schedule (docs/formats.md "Symmetric pipeline schedule JSON", no transformation flag): writes its
// plain "pipeline" form on the same topology (ExpandSymmetricPipelineSchedule), checked by the
// pipeline checker in memory and again from the written bytes (exit 1, nothing written, when either
// fails).
//
// collsynth schedule expand TOPOLOGY SCHEDULE -o OUT [--json], SCHEDULE a "flows-symmetric"
// schedule (docs/formats.md "Symmetric flows schedule JSON"): writes its plain "flows" form
// (ExpandSymmetricFlowSchedule), checked by the flows checker in memory (it must agree with the
// compact check on T and its bound) and again from the written bytes.
#include <iostream>
#include <memory>

#include "cli/command_registry.h"
#include "cli/schedule_input.h"
#include "cli/schedule_output.h"
#include "cli/verify_json.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/topology_io.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/flow_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/schedule_file.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_flow_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "solvers/bfb/schedule_expansion.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct ScheduleExpandArgs {
  bool line = false, reverse = false, bidir = false;
  int degree = 0, power = 0;
  std::string topology, schedule, out, topology_out;
  bool json = false;
};

// The plain "pipeline" form of a "pipeline-symmetric" schedule (`text`, read from `file`).
int ExpandSymmetric(const ScheduleExpandArgs& a, const Topology& g, const std::string& text,
                    const std::string& file) {
  if (!a.topology_out.empty()) {
    throw InputError("<args>", "--topology-out",
                     "a pipeline-symmetric schedule expands on its own topology");
  }
  // The check `verify` runs on the file, then the plain check of the expansion.
  std::optional<CheckedSchedule> checked =
      CheckLoadedSchedule(g, LoadScheduleText(g, text, file), "expanded");
  if (!checked) return kExitCheckFailed;
  const PipelineSchedule& plain = *checked->pipeline;
  const std::size_t trees = plain.collective == Collective::kAllreduce
                                ? plain.phases[0].trees.size() + plain.phases[1].trees.size()
                                : plain.trees.size();
  const PipelineCheckReport& r = *checked->expansion_report;
  json report = CheckReportJson(r);
  ExpectedCheck expected = SameFigures(r);
  expected.height_hops.reset();
  OutputCheck out =
      WriteCheckedSchedule(g, PipelineScheduleToJsonText(plain, g) + "\n", a.out, {}, expected);
  if (!out.ok) {
    PrintFailure("schedule expand: " + a.out + ": " + out.error + " (nothing written)");
    return kExitCheckFailed;
  }
  std::ostream& info = a.out == "-" ? std::cerr : std::cout;  // keep stdout pure JSON
  if (a.json) {
    report["expansion"] = "pipeline-symmetric";
    report["collective"] = CollectiveName(plain.collective);
    report["trees"] = trees;
    AddOutputCheck(report, out);
    info << report.dump() << "\n";
  } else {
    info << "pipeline-symmetric -> pipeline: " << CollectiveName(plain.collective) << ", " << trees
         << " trees, ratio " << ToString(r.ratio) << ", " << PipelineVerdictName(r.verdict)
         << "; output verified\n";
  }
  return kExitOk;
}

// The plain "flows" form of a "flows-symmetric" schedule: the compact check (verify's), the plain
// check of the expansion, which must agree with it on T and on the lengths' bound, then the
// checked write.
int ExpandSymmetricFlows(const ScheduleExpandArgs& a, const Topology& g, const std::string& text,
                         const std::string& file) {
  if (!a.topology_out.empty()) {
    throw InputError("<args>", "--topology-out",
                     "a flows-symmetric schedule expands on its own topology");
  }
  std::optional<CheckedSchedule> checked =
      CheckLoadedSchedule(g, LoadScheduleText(g, text, file), "expanded", /*accept_flows=*/true);
  if (!checked) return kExitCheckFailed;
  const FlowCheckReport& compact = std::get<FlowCheckReport>(checked->verified.report);
  const FlowCheckReport& plain = *checked->flows_expansion_report;
  if (compact.time != plain.time || compact.time_lower_bound != plain.time_lower_bound) {
    PrintFailure("schedule expand: " + file +
                 ": the compact and the plain checks disagree on T or on its bound (nothing "
                 "written)");
    return kExitCheckFailed;
  }
  FlowSchedule flows = std::move(*checked->flows);
  const OutputCheck out = WriteCheckedSchedule(
      g, [&](std::ostream& o) { WriteFlowSchedule(o, flows, g); }, [&] { flows = FlowSchedule(); },
      a.out, {}, SameFigures(plain));
  if (!out.ok) {
    PrintFailure("schedule expand: " + a.out + ": " + out.error + " (nothing written)");
    return kExitCheckFailed;
  }
  std::ostream& info = a.out == "-" ? std::cerr : std::cout;  // keep stdout pure JSON
  if (a.json) {
    json report = CheckReportJson(plain);
    report["expansion"] = "flows-symmetric";
    AddOutputCheck(report, out);
    info << report.dump() << "\n";
  } else {
    info << "flows-symmetric -> flows: " << plain.pairs << " pairs, " << plain.paths
         << " paths, T = " << ToString(*plain.time) << ", " << FlowVerdictName(plain.verdict)
         << "; output verified\n";
  }
  return kExitOk;
}

void AddScheduleExpandOptions(CLI::App* cmd, ScheduleExpandArgs* args) {
  auto* line = cmd->add_flag("--line", args->line, "line graph L(G), Def. 2 (T_L + 1, Thm 1)");
  auto* degree = cmd->add_option("--degree", args->degree, "degree expansion G*N, Def. 4 (Thm 11)");
  auto* power = cmd->add_option("--power", args->power, "Cartesian power G^K, Def. 14 (Thm 12)");
  auto* reverse = cmd->add_flag("--reverse", args->reverse,
                                "reverse schedule on G^T, Def. 7 (allgather <-> reduce-scatter)");
  auto* bidir = cmd->add_flag("--bidir", args->bidir, "unidirectional -> bidirectional, App. F");
  line->excludes(degree, power, reverse, bidir);
  degree->excludes(power, reverse, bidir);
  power->excludes(reverse, bidir);
  reverse->excludes(bidir);
  cmd->add_option("topology", args->topology, "base topology (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule, "base schedule (steps or pipeline-symmetric JSON)")
      ->required();
  cmd->add_option("-o,--output", args->out, "output schedule JSON ('-' = stdout)")->required();
  cmd->add_option("--topology-out", args->topology_out,
                  "write the expanded topology here (.json or edge list)");
  cmd->add_flag("--json", args->json, "print the check report as JSON");
}

int RunScheduleExpand(const ScheduleExpandArgs& a) {
  int chosen = a.line + a.reverse + a.bidir + (a.degree != 0) + (a.power != 0);
  auto choose_one = [] {
    throw InputError("<args>", "schedule expand",
                     "choose exactly one of --line, --degree N, --power K, --reverse, --bidir");
  };
  if (chosen > 1) choose_one();
  if (a.degree < 0 || a.power < 0) {
    throw InputError("<args>", a.degree < 0 ? "--degree" : "--power", "must be >= 1");
  }
  Topology g = ReadTopologyFile(a.topology);
  const std::string text = ReadTextFile(a.schedule);
  const std::string format = JsonTopLevelFormat(text, a.schedule);
  if (format == "pipeline-symmetric") {
    if (chosen != 0) {
      throw InputError("<args>", "schedule expand",
                       "--line, --degree, --power, --reverse and --bidir expand step "
                       "schedules; a pipeline-symmetric schedule is expanded without them");
    }
    return ExpandSymmetric(a, g, text, a.schedule);
  }
  if (format == "flows-symmetric") {
    if (chosen != 0) {
      throw InputError("<args>", "schedule expand",
                       "--line, --degree, --power, --reverse and --bidir expand step "
                       "schedules; a flows-symmetric schedule is expanded without them");
    }
    return ExpandSymmetricFlows(a, g, text, a.schedule);
  }
  if (format != "steps") {
    // Not a schedule this command reads: the file is at fault, whatever the options say.
    if (!format.empty()) {
      throw InputError(a.schedule, "format",
                       "expected \"steps\", \"pipeline-symmetric\" or \"flows-symmetric\", got "
                       "\"" +
                           format + "\"");
    }
    StepScheduleFromJson(ParseJsonText(text, a.schedule), g, a.schedule);  // says why
  }
  if (chosen != 1) choose_one();
  StepSchedule base = StepScheduleFromJson(ParseJsonText(text, a.schedule), g, a.schedule);
  // The expansions' theorems assume a valid base: check it first (exit 1 otherwise).
  if (StepCheckReport b = CheckStepSchedule(g, base); !b.ok) {
    PrintFailure("schedule expand: " + a.schedule + ": the base schedule fails the checker: " +
                 (b.errors.empty() ? std::string("?") : b.errors[0]));
    return kExitCheckFailed;
  }
  ExpandedSchedule x;
  std::string what;
  if (a.line) {
    x = LineGraphSchedule(g, base, a.schedule);
    what = "line";
  } else if (a.degree) {
    x = DegreeExpandedSchedule(g, base, a.degree, a.schedule);
    what = "degree " + std::to_string(a.degree);
  } else if (a.power) {
    x = CartesianPowerSchedule(g, base, a.power, a.schedule);
    what = "power " + std::to_string(a.power);
  } else if (a.reverse) {
    x = ReverseSchedule(g, base, a.schedule);
    what = "reverse";
  } else {
    x = BidirectionalSchedule(g, base, a.schedule);
    what = "bidir";
  }
  x.schedule.extra["expansion"] = what;
  x.schedule.extra["base_topology"] = g.name();
  x.schedule.claimed_tl.reset();
  x.schedule.claimed_tb.reset();
  StepCheckReport r = CheckStepSchedule(x.topology, x.schedule);
  if (!r.ok) {  // never written unchecked
    PrintFailure("expanded schedule failed the checker: " +
                 (r.errors.empty() ? std::string("?") : r.errors[0]));
    return kExitCheckFailed;
  }
  x.schedule.claimed_tl = r.tl;
  x.schedule.claimed_tb = r.tb;
  if (!a.topology_out.empty()) WriteTopologyFile(x.topology, a.topology_out);
  // The written bytes are the checked artifact (schedule_output.h).
  OutputCheck out = WriteCheckedSchedule(
      x.topology, StepScheduleToJsonText(x.schedule, x.topology) + "\n", a.out, {}, SameFigures(r));
  if (!out.ok) {
    PrintFailure("schedule expand: " + a.out + ": " + out.error + " (nothing written)");
    return kExitCheckFailed;
  }
  std::ostream& info = a.out == "-" ? std::cerr : std::cout;  // keep stdout pure JSON
  if (a.json) {
    json j = CheckReportJson(r);
    j["nodes"] = x.topology.num_nodes();
    j["expansion"] = what;
    AddOutputCheck(j, out);
    info << j.dump() << "\n";
  } else {
    info << what << ": " << x.topology.name() << ", " << x.topology.num_nodes() << " nodes, "
         << CollectiveName(x.schedule.collective) << ", T_L = " << r.tl
         << ", T_B = " << ToString(r.tb) << " (shard units); output verified\n";
  }
  return kExitOk;
}

CommandRegistrar reg_schedule_expand(10, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("schedule"), "expand",
             "Expand an allgather step schedule to a larger topology (seed 000 §5, App. A, F), or "
             "a pipeline-symmetric schedule to the plain pipeline form (no flag)",
             AddScheduleExpandOptions, RunScheduleExpand);
});

}  // namespace
}  // namespace collsynth::cli
