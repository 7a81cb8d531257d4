#include "cli/tune_report.h"

#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

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

TuneOutcome Tune(const TuneRequest& a) {
  SimulationOptions options = a.model;
  options.size = "1";  // set per size below
  SimulationModel model = ParseSimulationOptions(options);
  TopologyWithLatencies read;
  if (a.g != nullptr) {  // in memory; the latencies are the file's, if there is one
    read.topology = *a.g;
    if (!a.topology.empty()) read.latency = ReadTopologyWithLatencies(a.topology).latency;
  } else {
    read = ReadTopologyWithLatencies(a.topology);
  }
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
          return OutcomeFailed("tune: " + path + ": " + out.error + " (nothing written)");
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
  TuneOutcome outcome;
  std::ostringstream o;
  for (const json& r : report["sizes"]) {
    o << r["size"].get<std::string>() << ": " << r["algorithm"].get<std::string>()
      << " (P = " << r["chunks"] << ") " << r["time_seconds"].get<std::string>()
      << " s, lower bound " << r["lower_bound_seconds"].get<std::string>() << " s, gap "
      << (r["gap_decimal"].is_null() ? std::string("-") : r["gap_decimal"].get<std::string>())
      << "\n";
  }
  o << "schedules in " << a.out_dir
    << " (checked); candidates skipped: " << report["skipped"].size() << "\n";
  outcome.text = o.str();
  outcome.json = std::move(report);
  return outcome;
}

}  // namespace

TuneOutcome RunTuneRequest(const TuneRequest& request) {
  try {
    return Tune(request);
  } catch (const SimulationTimeResolutionError& e) {
    throw InputError("<args>", "--alpha", e.what());
  }
}

}  // namespace collsynth::cli
