// collsynth simulate TOPOLOGY SCHEDULE --size BYTES [--chunks P] [--alpha SECONDS]
//   [--gamma SECONDS_PER_BYTE] [--bandwidth-unit UNIT] [--switch-model store-and-forward|
//   cut-through] [--mode sync|async] [--timeline FILE.csv] [--json]
//   MSCCL XML files (from `export msccl`): [--ranks FILE] [--routes FILE.routes.json]
//   [--profile executor|rccl|legacy] [--fifo-depth D]; replayed first (exit 1 if rejected).
// Discrete-event simulation of a checked schedule in exact rational time
// (simulate/, docs/simulate.md). The schedule is verified first (exit 1 when the checker
// rejects it); bad input is exit 2.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/command_registry.h"
#include "graphs/input_error.h"
#include "graphs/link_latency.h"
#include "graphs/topology_io.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/verify.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "simulate/chunk_choice.h"
#include "simulate/flow_simulation.h"
#include "simulate/msccl_simulation.h"
#include "simulate/pipeline_simulation.h"
#include "simulate/simulation_model.h"
#include "simulate/simulation_report.h"
#include "simulate/step_simulation.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct SimulateArgs {
  std::string topology, schedule;
  std::string size, chunks = "1", alpha = "0", gamma = "0", bandwidth_unit = "GB/s";
  std::string switch_model = "store-and-forward", mode = "sync";
  std::string timeline, chunks_sweep;
  std::string ranks, routes, profile = "executor", fifo_depth = "0";  // MSCCL XML only
  int root = 0;
  bool json = false;
};

// The schedule file is an MSCCL XML (its first character other than whitespace is '<').
bool IsXml(const std::string& text) {
  const std::size_t i = text.find_first_not_of(" \t\r\n");
  return i != std::string::npos && text[i] == '<';
}

// An exported MSCCL XML file: replayed first (exit 1 when the checker rejects it), then read
// with the checker's reader and simulated for P = --chunks iterations of the chunk loop.
int SimulateXml(const SimulateArgs& a, SimulationModel model, const Topology& g,
                const std::string& file, const std::string& text) {
  ReplayOptions ro;
  if (a.profile == "executor") {
    ro.profile = MscclProfile::kExecutor;
  } else if (a.profile == "rccl") {
    ro.profile = MscclProfile::kRccl;
  } else if (a.profile == "legacy") {
    ro.profile = MscclProfile::kLegacy;
  } else {
    throw InputError("<args>", "--profile", "'" + a.profile + "' is not executor, rccl or legacy");
  }
  const std::int64_t depth =
      a.fifo_depth == "0" ? 0 : ParseChunkCount("--fifo-depth", a.fifo_depth, 1 << 20);
  ro.fifo_depth = static_cast<int>(depth);
  ro.root = a.root;
  const ReplayResult replay = ReplayMscclXml(text, file, ro);
  if (!replay.ok) {
    const std::string first = replay.violations.empty()
                                  ? std::string("rejected")
                                  : std::string(ReplayStageName(replay.violations[0].stage)) +
                                        ": " + replay.violations[0].message;
    PrintFailure(file + ": the replay checker rejects the MSCCL XML, nothing simulated: " + first);
    return kExitCheckFailed;
  }
  const msccl::Algo algo = ReadMscclProgram(text, file);
  if (algo.ngpus != g.num_compute()) {
    throw InputError(file, "ngpus",
                     std::to_string(algo.ngpus) + " GPUs, but the topology has " +
                         std::to_string(g.num_compute()) + " compute nodes");
  }
  MscclRouting routing;
  routing.node_of_rank =
      a.ranks.empty() ? DefaultRankNodes(g)
                      : ReadRankNodes(g, ParseJsonText(ReadTextFile(a.ranks), a.ranks), a.ranks);
  if (!a.routes.empty()) {
    const json side = ParseJsonText(ReadTextFile(a.routes), a.routes);
    try {
      ReadMscclRoutes(g, algo, side, a.routes, !a.ranks.empty(), &routing);
    } catch (const json::exception& e) {  // a missing or mistyped field
      throw InputError(a.routes, "routes", std::string("malformed side file: ") + e.what());
    }
  }
  if (MscclTransferCount(algo, routing, g, model) > kMaxSimulatedTransfers) {
    throw InputError("<args>", "--chunks",
                     "P = " + std::to_string(model.chunks) + " gives more than " +
                         std::to_string(kMaxSimulatedTransfers) +
                         " transfers (units x P x hops), above the simulator's limit");
  }
  const FlowSimulation sim =
      BuildMscclSimulation(algo, g, std::move(routing), model, ro.fifo_depth);
  const FlowSimulationResult result = sim.Run();
  if (!a.timeline.empty()) {
    std::ofstream out(a.timeline);
    if (!out) throw InputError(a.timeline, "timeline", "cannot be written");
    WriteMscclTimelineCsv(sim, result, out);
    out.close();
    if (!out) throw InputError(a.timeline, "timeline", "write failed");
  }
  json report = SimulationReportJson(sim, result, model, "msccl", MscclCollective(algo));
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

SimulationModel ParseModel(const SimulateArgs& a) {
  SimulationModel m;
  m.size = ParseQuantity("--size", a.size, SizeUnits(), "B", false);
  m.default_alpha = ParseQuantity("--alpha", a.alpha, TimeUnits(), "s", true);
  m.gamma = ParseQuantity("--gamma", a.gamma, TimePerByteUnits(), "s/B", true);
  m.bytes_per_unit = ParseBandwidthUnit("--bandwidth-unit", a.bandwidth_unit);
  m.chunks = ParseChunkCount("--chunks", a.chunks, kMaxSimulatedTransfers);
  auto sw = ParseSwitchModel(a.switch_model);
  if (!sw) {
    throw InputError("<args>", "--switch-model",
                     "'" + a.switch_model + "' is not store-and-forward or cut-through");
  }
  m.switch_model = *sw;
  auto mode = ParseStepMode(a.mode);
  if (!mode) throw InputError("<args>", "--mode", "'" + a.mode + "' is not sync or async");
  m.step_mode = *mode;
  return m;
}

CommandRegistrar reg_simulate(0, [](CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  auto* cmd = app.add_subcommand(
      "simulate",
      "Discrete-event simulation of a schedule in exact time (alpha-beta-gamma model, "
      "docs/simulate.md)");
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule, "schedule JSON file ('-' = stdin)")->required();
  cmd->add_option("--size", args->size,
                  "message size M in bytes (B, KB = 2^10 B, MB = 2^20 B, GB = 2^30 B; "
                  "allgather: the output, shard = M/N)")
      ->required();
  auto* chunks =
      cmd->add_option("--chunks", args->chunks,
                      "pipeline schedules: chunks P per tree share; MSCCL XML: iterations of the "
                      "runtime's chunk (gridOffset) loop (default 1)");
  cmd->add_option("--alpha", args->alpha,
                  "latency of links without a 'latency' field (s, ms, us, ns; bare = s; "
                  "default 0)");
  cmd->add_option("--gamma", args->gamma,
                  "reduction cost per byte at a compute node (s/B, ms/B, us/B, ns/B, ps/B; "
                  "default 0)");
  cmd->add_option("--bandwidth-unit", args->bandwidth_unit,
                  "what one unit of topology bandwidth is (default GB/s = 10^9 B/s; B/s, KB/s, "
                  "MB/s, TB/s, KiB/s, MiB/s, GiB/s, bps..Tbps, or bytes/s)");
  cmd->add_option("--switch-model", args->switch_model,
                  "pipeline routes through switches: store-and-forward (default) or cut-through");
  auto* mode = cmd->add_option("--mode", args->mode, "step schedules: sync (default) or async");
  cmd->add_option("--chunks-sweep", args->chunks_sweep,
                  "pipeline schedules: simulate each P of the list (e.g. 1,2,4,8), report the "
                  "times and simulate the fastest");
  cmd->add_option("--timeline", args->timeline, "write the per-transfer CSV (Gantt chart) here");
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
  cmd->callback([args, chunks, mode, cmd_ptr = cmd]() {
    RunCommand([&]() {
      SimulationModel model = ParseModel(*args);
      TopologyWithLatencies read = ReadTopologyWithLatencies(args->topology);
      const Topology& g = read.topology;
      model.link_latency = std::move(read.latency);
      const std::string file = args->schedule == "-" ? "<stdin>" : args->schedule;
      std::string text = ReadTextFile(args->schedule);
      if (IsXml(text)) {
        if (mode->count() > 0) {
          throw InputError("<args>", "--mode",
                           "applies to step schedules only, " + file + " is an MSCCL XML file");
        }
        if (!args->chunks_sweep.empty()) {
          throw InputError("<args>", "--chunks-sweep",
                           "applies to pipeline schedules only, " + file + " is an MSCCL XML file");
        }
        return SimulateXml(*args, model, g, file, text);
      }
      for (const char* xml_only : {"--ranks", "--routes", "--profile", "--fifo-depth", "--root"}) {
        if (cmd_ptr->count(xml_only) > 0) {
          throw InputError(
              "<args>", xml_only,
              std::string("applies to MSCCL XML files only, ") + file + " is a JSON schedule");
        }
      }
      // A "pipeline-symmetric" schedule is simulated as its plain expansion.
      if (auto plain = ExpandedPipelineScheduleText(g, text, file)) text = std::move(*plain);
      VerifyResult verified = VerifyScheduleText(g, text, file);
      if (!verified.ok) {
        std::string first = verified.report["errors"].empty()
                                ? std::string(ScheduleVerdictName(verified.verdict))
                                : verified.report["errors"][0].get<std::string>();
        PrintFailure(file + ": the schedule does not verify, nothing simulated: " + first);
        return kExitCheckFailed;
      }
      StreamedPipelineTrees trees;
      json doc = ParseJsonText(text, file, PipelineTreeStreamHook(g, file, &trees));
      const std::string format = doc.value("format", "");
      const bool pipeline = format == "pipeline";
      if (pipeline && mode->count() > 0) {
        throw InputError("<args>", "--mode",
                         "applies to step schedules only, " + file + " is a pipeline schedule");
      }
      if (!args->chunks_sweep.empty() && (!pipeline || chunks->count() > 0)) {
        throw InputError("<args>", "--chunks-sweep",
                         pipeline ? std::string("replaces --chunks, give one of them")
                                  : "applies to pipeline schedules only, " + file + " is a " +
                                        format + " schedule");
      }
      if (!pipeline && chunks->count() > 0) {
        throw InputError("<args>", "--chunks",
                         "applies to pipeline schedules only, " + file + " is a " + format +
                             " schedule (its chunks are in the file)");
      }
      std::unique_ptr<FlowSimulation> sim;
      json sweep = json::array();
      Collective collective;
      if (pipeline) {
        PipelineSchedule s = PipelineScheduleFromJson(doc, g, file, &trees);
        doc = json();
        trees.clear();
        collective = s.collective;
        if (!args->chunks_sweep.empty()) {
          const std::vector<std::int64_t> list =
              ParseChunkList("--chunks-sweep", args->chunks_sweep, kMaxSimulatedTransfers);
          for (std::int64_t p : list) {
            SimulationModel mp = model;
            mp.chunks = p;
            if (PipelineTransferCount(s, mp) > kMaxSimulatedTransfers) {
              throw InputError("<args>", "--chunks-sweep",
                               "P = " + std::to_string(p) + " gives more than " +
                                   std::to_string(kMaxSimulatedTransfers) +
                                   " transfers (routes x P x hops), above the simulator's limit");
            }
          }
          ChunkChoice choice = ChooseChunkCount(s, g, model, list);
          model.chunks = choice.best;
          for (const auto& [p, t] : choice.times) {
            sweep.push_back({{"chunks", p},
                             {"completion_time", ToString(t)},
                             {"completion_seconds", DecimalString(t)}});
          }
        }
        if (PipelineTransferCount(s, model) > kMaxSimulatedTransfers) {
          throw InputError("<args>", "--chunks",
                           "P = " + std::to_string(model.chunks) + " gives more than " +
                               std::to_string(kMaxSimulatedTransfers) +
                               " transfers (routes x P x hops), above the simulator's limit");
        }
        sim = std::make_unique<FlowSimulation>(BuildPipelineSimulation(s, g, model));
      } else {
        StepSchedule s = format == "steps-compact"
                             ? StepsFromCompact(CompactStepScheduleFromJson(doc, g, file))
                             : StepScheduleFromJson(doc, g, file);
        doc = json();
        collective = s.collective;
        sim = std::make_unique<FlowSimulation>(BuildStepSimulation(s, g, model));
      }
      const FlowSimulationResult result = sim->Run();
      if (!args->timeline.empty()) {
        std::ofstream out(args->timeline);
        if (!out) throw InputError(args->timeline, "timeline", "cannot be written");
        WriteTimelineCsv(*sim, result, !pipeline, out);
        out.close();
        if (!out) throw InputError(args->timeline, "timeline", "write failed");
      }
      json report = SimulationReportJson(*sim, result, model, format, collective);
      if (!sweep.empty()) {
        report["chunk_sweep"] = sweep;
        report["best_chunks"] = model.chunks;
      }
      if (args->json) {
        std::cout << report.dump() << "\n";
      } else {
        if (!sweep.empty()) {
          std::cout << "chunk sweep (simulated time per P):\n";
          for (const json& row : sweep) {
            std::cout << "  P = " << row["chunks"] << ": "
                      << row["completion_seconds"].get<std::string>() << " s\n";
          }
          std::cout << "best P = " << model.chunks << "; its simulation:\n";
        }
        std::cout << SimulationReportText(report);
      }
      return kExitOk;
    });
  });
});

}  // namespace
}  // namespace collsynth::cli
