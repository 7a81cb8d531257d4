// collsynth simulate TOPOLOGY SCHEDULE --size BYTES [--chunks P] [--alpha SECONDS]
//   [--gamma SECONDS_PER_BYTE] [--bandwidth-unit UNIT] [--switch-model store-and-forward|
//   cut-through] [--mode sync|async] [--timeline FILE.csv]
//   [--timeline-svg FILE.svg] [--json]
//   MSCCL XML files (from `export msccl`): [--ranks FILE] [--routes FILE.routes.json]
//   [--profile executor|rccl|legacy] [--fifo-depth D]; replayed first (exit 1 if rejected).
// Schedules: steps, steps-compact, pipeline, pipeline-symmetric, flows (all-to-all, --chunks per
// path). Discrete-event simulation of a checked schedule in exact rational time
// (simulate/, docs/simulate.md). The schedule is verified first (exit 1 when the checker
// rejects it); bad input is exit 2.
#include <fstream>
#include <iostream>
#include <memory>
#include <utility>

#include "cli/command_registry.h"
#include "cli/draw.h"
#include "cli/schedule_input.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/link_latency.h"
#include "graphs/rank_map.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/verify.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "simulate/msccl_simulation.h"
#include "simulate/simulation_model.h"
#include "simulate/simulation_report.h"
#include "simulate/simulation_run.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct SimulateArgs {
  std::string topology, schedule;
  SimulationOptions model;  // --size, --chunks, --alpha, --gamma, ... (simulate/simulation_run.h)
  std::string timeline, timeline_svg, chunks_sweep;
  std::string ranks, routes, profile = "executor", fifo_depth = "0";  // MSCCL XML only
  int root = 0;
  bool json = false;
  const CLI::App* command = nullptr;  // the subcommand, for which options were given
  // Which options the command line gave (set by RunSimulate before Simulate).
  bool mode_given = false, chunks_given = false;
  std::string xml_option_given;  // the first MSCCL-XML-only option given, or ""
};

// The schedule file is an MSCCL XML (its first character other than whitespace is '<').
bool IsXml(const std::string& text) {
  const std::size_t i = text.find_first_not_of(" \t\r\n");
  return i != std::string::npos && text[i] == '<';
}

// --timeline-svg: the Gantt chart of the run (docs/simulate.md "Timeline picture"); false
// (after printing why) when the written file is rejected.
bool WriteTimelinePicture(const SimulateArgs& a, const SimulationRun& run,
                          TimelineColouring colouring,
                          const std::vector<std::vector<std::string>>& key_names,
                          const std::string& file) {
  if (a.timeline_svg.empty()) return true;
  const std::string title = "simulate " + file + ": completion " +
                            DecimalString(run.result.completion) + " s (" +
                            ToString(run.result.completion) + ")";
  const CheckedOutput written = WriteTimelineSvg(*run.sim, run.result, colouring, key_names, title,
                                                 a.timeline_svg, "--timeline-svg");
  if (!written.ok) PrintFailure("simulate: " + written.error);
  return written.ok;
}

// An exported MSCCL XML file: replayed first (exit 1 when the checker rejects it), then read
// with the checker's reader and simulated for P = --chunks iterations of the chunk loop.
int SimulateXml(const SimulateArgs& a, SimulationModel model, const Topology& g,
                const std::string& file, const std::string& text) {
  const ReplayOptions ro = ParseMscclSimulationOptions(a.profile, a.fifo_depth, a.root);
  const ReplayResult replay = ReplayMscclXml(text, file, ro);
  if (!replay.ok) {
    const std::string first = replay.violations.empty()
                                  ? std::string("rejected")
                                  : std::string(ReplayStageName(replay.violations[0].stage)) +
                                        ": " + replay.violations[0].message;
    PrintFailure(file + ": the replay checker rejects the MSCCL XML, nothing simulated: " + first);
    return kExitCheckFailed;
  }
  const msccl::Algo algo = ReadMscclProgram(text, file, ro);
  CheckMscclProgramRanks(algo, g, file);
  MscclRouting routing;
  routing.node_of_rank = a.ranks.empty() ? DefaultRankMap(g).node_of_rank
                                         : ReadRankMapFile(g, a.ranks, "ranks").node_of_rank;
  if (!a.routes.empty()) {
    const json side = ParseJsonText(ReadTextFile(a.routes), a.routes);
    try {
      ReadMscclRoutes(g, algo, side, a.routes, !a.ranks.empty(), &routing);
    } catch (const json::exception& e) {  // a missing or mistyped field
      throw InputError(a.routes, "routes", std::string("malformed side file: ") + e.what());
    }
  }
  const SimulationRun run =
      SimulateMscclProgram(algo, g, std::move(routing), std::move(model), ro.fifo_depth, file);
  if (!a.timeline.empty()) {
    std::ofstream out(a.timeline);
    if (!out) throw InputError(a.timeline, "timeline", "cannot be written");
    WriteMscclTimelineCsv(*run.sim, run.result, out);
    out.close();
    if (!out) throw InputError(a.timeline, "timeline", "write failed");
  }
  if (!WriteTimelinePicture(a, run, TimelineColouring::kGpu, {}, file)) return kExitCheckFailed;
  json report =
      SimulationReportJson(*run.sim, run.result, run.model, "msccl", MscclCollective(algo));
  report["model"]["fifo_depth"] = MscclFifoDepth(algo, ro.fifo_depth);
  report["model"]["nchunksperloop"] = algo.nchunks;
  report["model"]["proto"] = algo.proto;
  report["model"]["routes"] = a.routes.empty() ? "shortest-path" : "side-file";
  if (a.json) {
    std::cout << report.dump() << "\n";
  } else {
    std::cout << SimulationReportText(report);
  }
  return kExitOk;
}

// The simulation of one schedule file (a JSON schedule of any format, or an MSCCL XML file).
int Simulate(const SimulateArgs& a) {
  SimulationModel model = ParseSimulationOptions(a.model);
  TopologyWithLatencies read = ReadTopologyWithLatencies(a.topology);
  const Topology& g = read.topology;
  model.link_latency = std::move(read.latency);
  const std::string file = a.schedule == "-" ? "<stdin>" : a.schedule;
  std::string text = ReadTextFile(a.schedule);
  if (IsXml(text)) {
    if (a.mode_given) {
      throw InputError("<args>", "--mode",
                       "applies to step schedules only, " + file + " is an MSCCL XML file");
    }
    if (!a.chunks_sweep.empty()) {
      throw InputError("<args>", "--chunks-sweep",
                       "applies to pipeline schedules only, " + file + " is an MSCCL XML file");
    }
    return SimulateXml(a, std::move(model), g, file, text);
  }
  if (!a.xml_option_given.empty()) {
    throw InputError(
        "<args>", a.xml_option_given,
        std::string("applies to MSCCL XML files only, ") + file + " is a JSON schedule");
  }
  std::optional<CheckedSchedule> checked =
      CheckLoadedSchedule(g, LoadScheduleText(g, text, file), "simulated", true);
  if (!checked) return kExitCheckFailed;
  text = std::string();
  const bool pipeline = checked->pipeline.has_value();
  const bool flows = checked->flows.has_value();  // docs/simulate.md "All-to-all flows"
  const bool chunked = pipeline || flows;
  // As before the single loader: a pipeline-symmetric file reports its expansion.
  const std::string format = pipeline ? "pipeline" : checked->format;
  if (chunked && a.mode_given) {
    throw InputError("<args>", "--mode",
                     "applies to step schedules only, " + file + " is a " + format + " schedule");
  }
  if (!a.chunks_sweep.empty() && (!chunked || a.chunks_given)) {
    throw InputError("<args>", "--chunks-sweep",
                     chunked ? std::string("replaces --chunks, give one of them")
                             : "applies to pipeline and flows schedules only, " + file + " is a " +
                                   checked->format + " schedule");
  }
  if (!chunked && a.chunks_given) {
    throw InputError("<args>", "--chunks",
                     "applies to pipeline and flows schedules only, " + file + " is a " +
                         checked->format + " schedule (its chunks are in the file)");
  }
  const SimulationRun run =
      pipeline ? SimulatePipelineSchedule(*checked->pipeline, g, std::move(model), a.chunks_sweep)
      : flows  ? SimulateAlltoallSchedule(*checked->flows, g, std::move(model), a.chunks_sweep)
               : SimulateStepSchedule(*checked->steps, g, std::move(model));
  if (!a.timeline.empty()) {
    std::ofstream out(a.timeline);
    if (!out) throw InputError(a.timeline, "timeline", "cannot be written");
    if (flows) {
      WriteAlltoallTimelineCsv(*run.sim, run.result, *checked->flows, out);
    } else {
      WriteTimelineCsv(*run.sim, run.result, !pipeline, out);
    }
    out.close();
    if (!out) throw InputError(a.timeline, "timeline", "write failed");
  }
  if (!WriteTimelinePicture(a, run, pipeline ? TimelineColouring::kTree : TimelineColouring::kStep,
                            pipeline ? PipelineTreeRoots(g, *checked->pipeline)
                                     : std::vector<std::vector<std::string>>{},
                            file)) {
    return kExitCheckFailed;
  }
  json report =
      SimulationReportJson(*run.sim, run.result, run.model, format, checked->collective());
  if (flows) {  // the flow checker's T and the bound it gives
    const FlowCheckReport& check = std::get<FlowCheckReport>(checked->verified.report);
    AddAlltoallBound(&report, *check.time, run.model, g.num_compute());
  }
  json sweep = json::array();
  for (const auto& [p, t] : run.sweep) {
    sweep.push_back({{"chunks", p},
                     {"completion_time", ToString(t)},
                     {"completion_seconds", DecimalString(t)}});
  }
  if (!sweep.empty()) {
    report["chunk_sweep"] = sweep;
    report["best_chunks"] = run.model.chunks;
  }
  if (a.json) {
    std::cout << report.dump() << "\n";
  } else {
    if (!sweep.empty()) {
      std::cout << "chunk sweep (simulated time per P):\n";
      for (const json& row : sweep) {
        std::cout << "  P = " << row["chunks"] << ": "
                  << row["completion_seconds"].get<std::string>() << " s\n";
      }
      std::cout << "best P = " << run.model.chunks << "; its simulation:\n";
    }
    std::cout << SimulationReportText(report);
  }
  return kExitOk;
}

void AddSimulateOptions(CLI::App* cmd, SimulateArgs* args) {
  args->command = cmd;
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule, "schedule JSON file ('-' = stdin)")->required();
  cmd->add_option("--size", args->model.size,
                  "message size M in bytes (B, KB = 2^10 B, MB = 2^20 B, GB = 2^30 B; "
                  "allgather: the output, shard = M/N)")
      ->required();
  cmd->add_option("--chunks", args->model.chunks,
                  "pipeline schedules: chunks P per tree share; flows: chunks P per path; MSCCL "
                  "XML: iterations of the runtime's chunk (gridOffset) loop (default 1)");
  cmd->add_option("--alpha", args->model.alpha,
                  "latency of links without a 'latency' field (s, ms, us, ns; bare = s; "
                  "default 0)");
  cmd->add_option("--gamma", args->model.gamma,
                  "reduction cost per byte at a compute node (s/B, ms/B, us/B, ns/B, ps/B; "
                  "default 0)");
  cmd->add_option("--bandwidth-unit", args->model.bandwidth_unit,
                  "what one unit of topology bandwidth is (default GB/s = 10^9 B/s; B/s, KB/s, "
                  "MB/s, TB/s, KiB/s, MiB/s, GiB/s, bps..Tbps, or bytes/s)");
  cmd->add_option("--switch-model", args->model.switch_model,
                  "pipeline routes through switches: store-and-forward (default) or cut-through");
  cmd->add_option("--mode", args->model.mode, "step schedules: sync (default) or async");
  cmd->add_option("--chunks-sweep", args->chunks_sweep,
                  "pipeline and flows schedules: simulate each P of the list (e.g. 1,2,4,8), "
                  "report the times and simulate the fastest");
  cmd->add_option("--timeline", args->timeline, "write the per-transfer CSV (Gantt chart) here");
  cmd->add_option("--timeline-svg", args->timeline_svg,
                  "draw the Gantt chart (one row per link, one bar per transfer on it) as SVG");
  cmd->add_option("--ranks", args->ranks,
                  "MSCCL XML: rank mapping as for export msccl (default: compute nodes in "
                  "topology order, or the --routes file's ranks)");
  cmd->add_option("--routes", args->routes,
                  "MSCCL XML: the export side file OUT.routes.json (switch hops and route "
                  "shares; default: shortest paths)");
  cmd->add_option("--profile", args->profile,
                  "MSCCL XML: runtime profile for the replay check (executor, rccl, legacy)");
  cmd->add_option("--fifo-depth", args->fifo_depth,
                  "MSCCL XML: one-chunk transfers a connector holds (default: the kernel's, 2 "
                  "on Simple, 8 on LL/LL128)");
  cmd->add_option("--root", args->root,
                  "MSCCL XML broadcast: the root rank the replay checks (default 0)");
  cmd->add_flag("--json", args->json, "print one JSON object");
}

int RunSimulate(const SimulateArgs& args) {
  SimulateArgs a = args;
  a.mode_given = a.command->count("--mode") > 0;
  a.chunks_given = a.command->count("--chunks") > 0;
  for (const char* xml_only : {"--ranks", "--routes", "--profile", "--fifo-depth", "--root"}) {
    if (a.xml_option_given.empty() && a.command->count(xml_only) > 0) {
      a.xml_option_given = xml_only;
    }
  }
  try {
    return Simulate(a);
  } catch (const SimulationTimeResolutionError& e) {
    // The inputs' digits, not the run, are at fault: bad input (docs/simulate.md).
    throw InputError(a.topology, "exact time resolution", e.what());
  }
}

CommandRegistrar reg_simulate(0, [](CLI::App& app) {
  AddCommand(app, "simulate",
             "Discrete-event simulation of a schedule in exact time (alpha-beta-gamma model, "
             "docs/simulate.md)",
             AddSimulateOptions, RunSimulate);
});

}  // namespace
}  // namespace collsynth::cli
