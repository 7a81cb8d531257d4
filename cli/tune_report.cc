#include "cli/tune_report.h"

#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

#include "cli/schedule_output.h"
#include "cli/tune_export.h"
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

// The candidate's height, as the checker measured it (docs/formats.md "Height"): in links
// and in α-time (exact seconds, with a decimal); null for a step schedule.
void AddHeights(const TuneCandidate& c, json& j) {
  j["height_hops"] = c.height_hops ? json(*c.height_hops) : json(nullptr);
  j["height_alpha"] = c.height_alpha ? json(ToString(*c.height_alpha)) : json(nullptr);
  j["height_alpha_seconds"] = c.height_alpha ? json(DecimalString(*c.height_alpha)) : json(nullptr);
}

// " height H links (α-height T s)", or "" for a step schedule.
std::string HeightText(const json& j) {
  if (j["height_hops"].is_null()) return "";
  return ", height " + std::to_string(j["height_hops"].get<std::int64_t>()) + " links (" +
         j["height_alpha_seconds"].get<std::string>() + " s of latency)";
}

// Writes the schedule of candidate `algorithm` to OUT/<algorithm>.json once (checked, read back);
// "" or the failure.
std::string WriteOnce(const Topology& g, const TuneCandidates& candidates,
                      const std::string& algorithm, const std::string& out_dir,
                      std::map<std::string, std::string>& written) {
  if (written.count(algorithm)) return "";
  const std::string path = (std::filesystem::path(out_dir) / (algorithm + ".json")).string();
  for (const TuneCandidate& c : candidates.list) {
    if (c.algorithm != algorithm) continue;
    const OutputCheck out = WriteCandidate(g, c, path);
    if (!out.ok) return "tune: " + path + ": " + out.error + " (nothing written)";
  }
  written[algorithm] = path;
  return "";
}

// A row's "nccl": the fastest candidate NCCL itself runs (docs/tune.md "NCCL tuner table"), its
// NCCL name, P, time and its time over the row's winner's; null when none was simulated.
json NcclRowJson(const TuneRow& row, const std::optional<std::size_t>& nccl, Collective c) {
  if (!nccl) return nullptr;
  const TuneEntry& e = row.entries[*nccl];
  const Rational over = e.time / row.entries[row.best].time;
  return {{"algorithm", e.algorithm},
          {"nccl_algorithm", *TuneNcclAlgorithm(c, e.algorithm)},
          {"chunks", e.chunks},
          {"time", ToString(e.time)},
          {"time_seconds", DecimalString(e.time)},
          {"over_best", ToString(over)},
          {"over_best_decimal", DecimalString(over)}};
}

// What an exported range selects: "ALGORITHM (replay accepted)", "ALGORITHM as NCCL's NAME"
// for the NCCL table, or "NCCL's own tuning" for its ranges without a line.
std::string ExportRangeText(const json& r) {
  if (!r.contains("nccl_algorithm")) {
    return r["algorithm"].get<std::string>() + " (replay accepted)";
  }
  if (r["nccl_algorithm"].is_null()) return "no line (NCCL's own tuning)";
  return r["algorithm"].get<std::string>() + " as NCCL's " +
         r["nccl_algorithm"].get<std::string>() + " (table checked)";
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

  TuneCandidates candidates = BuildTuneCandidates(g, *collective, a.topology);
  MeasureTuneAlphaHeights(g, model, candidates);
  std::map<std::string, std::string> written;  // algorithm -> path
  json rows = json::array();
  std::vector<std::string> winners, nccl_winners;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const TuneRow row = TuneSize(g, candidates, model, *collective, a.chunks_sweep, bytes[i]);
    const TuneEntry& best = row.entries[row.best];
    winners.push_back(best.algorithm);
    if (std::string e = WriteOnce(g, candidates, best.algorithm, a.out_dir, written); !e.empty()) {
      return OutcomeFailed(e);
    }
    const std::optional<std::size_t> nccl = TuneNcclBest(row, *collective);
    nccl_winners.push_back(nccl ? row.entries[*nccl].algorithm : std::string());
    if (nccl && a.export_target == "nccl-tuner") {
      std::string e = WriteOnce(g, candidates, nccl_winners.back(), a.out_dir, written);
      if (!e.empty()) return OutcomeFailed(e);
    }
    json cands = json::array();
    for (const TuneEntry& e : row.entries) {
      json c = {{"algorithm", e.algorithm},
                {"chunks", e.chunks},
                {"time", ToString(e.time)},
                {"time_seconds", DecimalString(e.time)}};
      AddHeights(candidates.list[e.candidate], c);
      cands.push_back(std::move(c));
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
                    {"alpha_beta_bound", ToString(row.alpha_beta_bound)},
                    {"gap", row.lower_bound > 0 ? json(ToString(gap)) : json(nullptr)},
                    {"gap_decimal", row.lower_bound > 0 ? json(DecimalString(gap)) : json(nullptr)},
                    {"height_hops", cands[row.best]["height_hops"]},
                    {"height_alpha", cands[row.best]["height_alpha"]},
                    {"height_alpha_seconds", cands[row.best]["height_alpha_seconds"]},
                    {"candidates", std::move(cands)},
                    {"skipped", std::move(skipped)},
                    {"nccl", NcclRowJson(row, nccl, *collective)}});
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
  json exported;
  if (!a.export_target.empty()) {
    TuneExportRequest e;
    e.target = a.export_target;
    e.topology = a.g != nullptr ? std::string() : a.topology;
    e.g = &g;
    e.out_dir = a.out_dir;
    e.sizes = a.sizes;
    e.bytes = bytes;
    e.winners = winners;
    for (const json& r : rows) e.schedules.push_back(r["schedule"].get<std::string>());
    e.collective = *collective;
    e.nccl_winners = nccl_winners;
    for (const std::string& w : nccl_winners)
      e.nccl_schedules.push_back(w.empty() ? "" : written[w]);
    CommandOutcome out = ExportTuneRanges(e);
    if (!out.ok) return out;
    exported = std::move(out.json);
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
  if (!exported.is_null()) report["export"] = exported;
  TuneOutcome outcome;
  std::ostringstream o;
  for (const json& r : report["sizes"]) {
    o << r["size"].get<std::string>() << ": " << r["algorithm"].get<std::string>()
      << " (P = " << r["chunks"] << ") " << r["time_seconds"].get<std::string>()
      << " s, lower bound " << r["lower_bound_seconds"].get<std::string>() << " s, gap "
      << (r["gap_decimal"].is_null() ? std::string("-") : r["gap_decimal"].get<std::string>())
      << HeightText(r) << "\n";
    for (const json& c : r["candidates"]) {
      o << "  " << c["algorithm"].get<std::string>() << " (P = " << c["chunks"] << ") "
        << c["time_seconds"].get<std::string>() << " s" << HeightText(c) << "\n";
    }
  }
  o << "schedules in " << a.out_dir
    << " (checked); candidates skipped: " << report["skipped"].size() << "\n";
  if (!exported.is_null()) {
    for (const json& r : exported["ranges"]) {
      o << a.export_target << " bytes " << r["min_bytes"].get<std::int64_t>() << ".."
        << (r["max_bytes"].is_null() ? std::string("")
                                     : std::to_string(r["max_bytes"].get<std::int64_t>()))
        << ": " << ExportRangeText(r) << " -> " << r["file"].get<std::string>() << "\n";
    }
    o << "index: " << exported["index"].get<std::string>() << "\n";
  }
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
