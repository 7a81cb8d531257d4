// collsynth tune TOPOLOGY --sizes LIST -o DIR [--collective C] [--alpha T] [--gamma G]
//               [--bandwidth-unit U] [--switch-model M] [--chunks-sweep LIST] [--json]
// At each size, every candidate the topology admits (experiments/tune.h) is simulated; the
// fastest wins, its checked schedule is written to DIR/<algorithm>.json (read back and checked,
// cli/schedule_output.h), and the size's row reports its time, LB(M), the gap and every
// candidate's time (docs/tune.md).
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "cli/command_registry.h"
#include "cli/schedule_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/tune.h"
#include "graphs/link_latency.h"
#include "graphs/topology_io.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_report.h"
#include "simulate/simulation_run.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct TuneArgs {
  std::string topology, out_dir, collective = "allgather";
  std::vector<std::string> sizes;
  SimulationOptions model;
  std::string chunks_sweep = "1,2,4,8,16,32,64";
  bool json = false;
};

// Writes the candidate's schedule to `path`, checked (read back from the bytes on disk).
OutputCheck WriteCandidate(const Topology& g, const TuneCandidate& c, const std::string& path) {
  std::string text;
  if (c.symmetric) {
    text = SymmetricPipelineScheduleToJsonText(*c.symmetric, g);
  } else if (c.pipeline) {
    text = PipelineScheduleToJsonText(*c.pipeline, g);
  } else {
    text = StepScheduleToJsonText(*c.steps, g);
  }
  return WriteCheckedSchedule(g, text + "\n", path, {}, ExpectedCheck{});
}

int Tune(const TuneArgs& a) {
  SimulationOptions options = a.model;
  options.size = "1";  // set per size below
  SimulationModel model = ParseSimulationOptions(options);
  TopologyWithLatencies read = ReadTopologyWithLatencies(a.topology);
  const Topology& g = read.topology;
  model.link_latency = std::move(read.latency);
  const std::optional<Collective> collective = ParseCollective(a.collective);
  if (!collective) throw InputError("<args>", "--collective", "unknown '" + a.collective + "'");
  if (a.sizes.empty()) throw InputError("<args>", "--sizes", "give at least one size");
  std::vector<Rational> bytes;
  for (const std::string& s : a.sizes)
    bytes.push_back(ParseQuantity("--sizes", s, SizeUnits(), "B", false));
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec) throw InputError(a.out_dir, "-o", "cannot create the directory: " + ec.message());

  const TuneCandidates candidates = BuildTuneCandidates(g, *collective, a.topology);
  std::map<std::string, std::string> written;  // algorithm -> path
  json rows = json::array();
  std::vector<std::string> winners;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const TuneRow row = TuneSize(g, candidates, model, *collective, a.chunks_sweep, bytes[i]);
    const TuneEntry& best = row.entries[row.best];
    winners.push_back(best.algorithm);
    if (!written.count(best.algorithm)) {
      const std::string path =
          (std::filesystem::path(a.out_dir) / (best.algorithm + ".json")).string();
      for (const TuneCandidate& c : candidates.list) {
        if (c.algorithm != best.algorithm) continue;
        const OutputCheck out = WriteCandidate(g, c, path);
        if (!out.ok) {
          PrintFailure("tune: " + path + ": " + out.error + " (nothing written)");
          return kExitCheckFailed;
        }
      }
      written[best.algorithm] = path;
    }
    json cands = json::array();
    for (const TuneEntry& e : row.entries) {
      cands.push_back({{"algorithm", e.algorithm},
                       {"chunks", e.chunks},
                       {"time", ToString(e.time)},
                       {"time_seconds", DecimalString(e.time)}});
    }
    json skipped = json::array();
    for (const auto& [name, why] : row.skipped)
      skipped.push_back({{"algorithm", name}, {"why", why}});
    const Rational gap = row.lower_bound > 0 ? best.time / row.lower_bound : Rational(0);
    rows.push_back({{"size", a.sizes[i]},
                    {"bytes", ToString(row.bytes)},
                    {"algorithm", best.algorithm},
                    {"schedule", written[best.algorithm]},
                    {"chunks", best.chunks},
                    {"time", ToString(best.time)},
                    {"time_seconds", DecimalString(best.time)},
                    {"lower_bound", ToString(row.lower_bound)},
                    {"lower_bound_seconds", DecimalString(row.lower_bound)},
                    {"alpha_bound", ToString(row.alpha_bound)},
                    {"gap", row.lower_bound > 0 ? json(ToString(gap)) : json(nullptr)},
                    {"gap_decimal", row.lower_bound > 0 ? json(DecimalString(gap)) : json(nullptr)},
                    {"candidates", std::move(cands)},
                    {"skipped", std::move(skipped)}});
  }
  // Adjacent sizes with the same winner merge into one range [from, to] of the given sizes.
  json ranges = json::array();
  for (std::size_t i = 0; i < winners.size();) {
    std::size_t j = i;
    while (j + 1 < winners.size() && winners[j + 1] == winners[i]) ++j;
    ranges.push_back({{"from_bytes", rows[i]["bytes"]},
                      {"to_bytes", rows[j]["bytes"]},
                      {"algorithm", winners[i]},
                      {"schedule", written[winners[i]]}});
    i = j + 1;
  }
  json skipped = json::array();
  for (const auto& [name, why] : candidates.skipped)
    skipped.push_back({{"algorithm", name}, {"why", why}});
  json report = {
      {"topology", g.name()},
      {"collective", CollectiveName(*collective)},
      {"bandwidth_bound_ratio",
       candidates.bandwidth_bound ? json(ToString(*candidates.bandwidth_bound)) : json(nullptr)},
      {"bandwidth_bound_by", candidates.bandwidth_bound_by},
      {"sizes", std::move(rows)},
      {"ranges", std::move(ranges)},
      {"skipped", std::move(skipped)}};
  if (a.json) {
    std::cout << report.dump() << "\n";
    return kExitOk;
  }
  for (const json& r : report["sizes"]) {
    std::cout << r["size"].get<std::string>() << ": " << r["algorithm"].get<std::string>()
              << " (P = " << r["chunks"] << ") " << r["time_seconds"].get<std::string>()
              << " s, lower bound " << r["lower_bound_seconds"].get<std::string>() << " s, gap "
              << (r["gap_decimal"].is_null() ? std::string("-")
                                             : r["gap_decimal"].get<std::string>())
              << "\n";
  }
  std::cout << "schedules in " << a.out_dir
            << " (checked); candidates skipped: " << report["skipped"].size() << "\n";
  return kExitOk;
}

void AddTuneOptions(CLI::App* cmd, TuneArgs* args) {
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("--sizes", args->sizes, "message sizes M (B, KB, MB, GB; e.g. 1KB,1MB,256MB)")
      ->delimiter(',')
      ->required();
  cmd->add_option("-o,--output-dir", args->out_dir, "directory for the winning schedules")
      ->required();
  cmd->add_option("--collective", args->collective,
                  "allgather (default), reduce-scatter, allreduce");
  cmd->add_option("--alpha", args->model.alpha, "latency of links without a 'latency' field");
  cmd->add_option("--gamma", args->model.gamma, "reduction cost per byte");
  cmd->add_option("--bandwidth-unit", args->model.bandwidth_unit,
                  "what one unit of topology bandwidth is (default GB/s)");
  cmd->add_option("--switch-model", args->model.switch_model,
                  "store-and-forward (default) or cut-through");
  cmd->add_option("--chunks-sweep", args->chunks_sweep,
                  "P values tried for pipeline schedules (default 1,2,4,8,16,32,64)");
  cmd->add_flag("--json", args->json, "print the report as JSON");
}

int RunTune(const TuneArgs& a) {
  try {
    return Tune(a);
  } catch (const SimulationTimeResolutionError& e) {
    throw InputError("<args>", "--alpha", e.what());
  }
}

CommandRegistrar reg_tune(0, [](CLI::App& app) {
  AddCommand(app, "tune",
             "Fastest checked schedule per message size, with its gap to the lower bound",
             AddTuneOptions, RunTune);
});

}  // namespace
}  // namespace collsynth::cli
