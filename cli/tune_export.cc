#include "cli/tune_export.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

#include "cli/export_msccl.h"
#include "cli/export_mscclpp.h"
#include "core/checked_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "proofs_check/nccl_tuner_table.h"
#include "schedules/collective.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// One range's file through the exporter's own path (lowered, written, read back, replayed).
CommandOutcome ExportRange(const TuneExportRequest& a, const TuneByteRange& r,
                           const std::string& dir) {
  const std::string& schedule = a.schedules[r.first];
  ExportInput source;
  if (!a.topology.empty()) {
    source.topology = a.topology;
    source.schedule = schedule;
  } else {
    source.g = a.g;
    source.text = ReadTextFile(schedule);
  }
  auto fill = [&](ExportTargetArgs& args) {
    args.output = dir + "/";
    args.min_bytes = r.min_bytes;
    args.max_bytes = r.max_bytes.value_or(0);  // 0: no upper bound, in both runtimes' reading
  };
  if (a.target == "msccl") {
    ExportMscclArgs args;  // the executor profile: inclusive [minBytes, maxBytes]
    fill(args);
    return ExportMsccl(args, source);
  }
  ExportMscclppArgs args;
  fill(args);
  return ExportMscclpp(args, source);
}

// The index entries of the NCCL table: one per range of the NCCL winners.
json NcclIndexRanges(const TuneExportRequest& a, const std::vector<TuneByteRange>& ranges,
                     const std::string& file) {
  json entries = json::array();
  for (const TuneByteRange& r : ranges) {
    const std::string& winner = a.nccl_winners[r.first];
    const std::optional<std::string> nccl = TuneNcclAlgorithm(a.collective, winner);
    json sizes = json::array(), bytes = json::array();
    for (std::size_t i = r.first; i <= r.last; ++i) {
      sizes.push_back(a.sizes[i]);
      bytes.push_back(ToString(a.bytes[i]));
    }
    entries.push_back({{"min_bytes", r.min_bytes},
                       {"max_bytes", r.max_bytes ? json(*r.max_bytes) : json(nullptr)},
                       {"algorithm", nccl ? json(winner) : json(nullptr)},
                       {"nccl_algorithm", nccl ? json(*nccl) : json(nullptr)},
                       {"protocol", nccl ? json("simple") : json(nullptr)},
                       {"schedule", nccl ? json(a.nccl_schedules[r.first]) : json(nullptr)},
                       {"file", file},
                       {"sizes", std::move(sizes)},
                       {"bytes", std::move(bytes)}});
  }
  return entries;
}

// The CSV the plugin reads: a comment header, then one line per range with an NCCL algorithm:
// collective,min_bytes,max_bytes,algorithm,simple,channels -1 (NCCL's default),nNodes -1 (any),
// nRanks N,numPipeOps -1 (any),regBuff -1 (any).
void WriteNcclTable(std::ostream& out, const json& index) {
  const std::string collective = index["collective"].get<std::string>();
  const std::string ranks = std::to_string(index["ngpus"].get<int>());
  out << "# collsynth tune --export nccl-tuner (docs/tune.md \"NCCL tuner table\"): " << collective
      << ", " << ranks << " ranks\n"
      << "# collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,"
         "numPipeOps,regBuff\n";
  for (const json& r : index["ranges"]) {
    if (r["nccl_algorithm"].is_null()) continue;
    out << collective << "," << r["min_bytes"].get<std::int64_t>() << ","
        << (r["max_bytes"].is_null()
                ? kNcclTunerNoUpperBound
                : static_cast<std::uint64_t>(r["max_bytes"].get<std::int64_t>()))
        << "," << r["nccl_algorithm"].get<std::string>() << ",simple,-1,-1," << ranks << ",-1,-1\n";
  }
}

// CheckNcclTunerTable's expectation, from the index as read back.
std::vector<NcclTunerExpectedRange> ExpectedNcclRanges(const json& index) {
  std::vector<NcclTunerExpectedRange> out;
  for (const json& r : index.at("ranges")) {
    NcclTunerExpectedRange e;
    e.min_bytes = r.at("min_bytes").get<std::uint64_t>();
    if (!r.at("max_bytes").is_null()) e.max_bytes = r["max_bytes"].get<std::uint64_t>();
    if (!r.at("nccl_algorithm").is_null()) e.algorithm = r["nccl_algorithm"].get<std::string>();
    for (const json& b : r.at("bytes")) e.sizes.push_back(std::stoull(b.get<std::string>()));
    out.push_back(std::move(e));
  }
  return out;
}

// Both written files, read back: the index by CheckTuneExportIndex, then the CSV against it.
std::string CheckNcclExport(const std::vector<std::string>& partials) {
  const json index = ParseJsonText(ReadTextFile(partials[1]), partials[1]);
  if (std::string e = CheckTuneExportIndex(index); !e.empty()) return partials[1] + ": " + e;
  std::string e = CheckNcclTunerTable(ReadTextFile(partials[0]), index.at("collective"),
                                      index.at("ngpus").get<int>(), ExpectedNcclRanges(index));
  return e.empty() ? e : partials[0] + ": " + e;
}

CommandOutcome ExportNcclTunerTable(const TuneExportRequest& a) {
  const std::vector<TuneByteRange> ranges = TuneByteRanges(a.bytes, a.nccl_winners);
  const std::string file = (std::filesystem::path(a.out_dir) / "nccl_tuner.conf").string();
  const std::string path = (std::filesystem::path(a.out_dir) / "nccl-tuner-index.json").string();
  json index = {{"format", "collsynth-tune-index"},
                {"target", a.target},
                {"profile", "nccl-tuner-example"},
                {"topology", a.g->name()},
                {"ngpus", a.g->num_compute()},
                {"collective", TuneNcclCollectiveName(a.collective)},
                {"selection", "min_bytes <= bytes <= max_bytes (max_bytes null: no upper bound)"},
                {"ranges", NcclIndexRanges(a, ranges, file)}};
  const CheckedOutput written =
      WriteChecked({{file, [&](std::ostream& out) { WriteNcclTable(out, index); }},
                    {path, [&](std::ostream& out) { out << index.dump(2) << "\n"; }}},
                   CheckNcclExport);
  if (!written.ok) return OutcomeFailed("tune --export: " + written.error + "; nothing written");
  index["index"] = path;
  CommandOutcome outcome;
  outcome.json = std::move(index);
  return outcome;
}

}  // namespace

CommandOutcome ExportTuneRanges(const TuneExportRequest& a) {
  if (a.target != "msccl" && a.target != "mscclpp" && a.target != "nccl-tuner") {
    throw InputError("<args>", "--export",
                     "expected msccl, mscclpp or nccl-tuner, got '" + a.target + "'");
  }
  if (a.target == "nccl-tuner") {
    if (TuneNcclCollectiveName(a.collective).empty()) {
      throw InputError("<args>", "--export", "nccl-tuner: NCCL's tuner has no such collective");
    }
    return ExportNcclTunerTable(a);
  }
  const std::vector<TuneByteRange> ranges = TuneByteRanges(a.bytes, a.winners);
  const std::string dir = (std::filesystem::path(a.out_dir) / a.target).string();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir, "--export", "cannot create the directory: " + ec.message());
  json entries = json::array();
  for (const TuneByteRange& r : ranges) {
    CommandOutcome out = ExportRange(a, r, dir);
    if (!out.ok) return out;
    json sizes = json::array(), bytes = json::array();
    for (std::size_t i = r.first; i <= r.last; ++i) {
      sizes.push_back(a.sizes[i]);
      bytes.push_back(ToString(a.bytes[i]));
    }
    entries.push_back({{"min_bytes", r.min_bytes},
                       {"max_bytes", r.max_bytes ? json(*r.max_bytes) : json(nullptr)},
                       {"algorithm", a.winners[r.first]},
                       {"schedule", a.schedules[r.first]},
                       {"file", out.json["file"]},
                       {"routes_file", out.json["routes_file"]},
                       {"sizes", std::move(sizes)},
                       {"bytes", std::move(bytes)}});
  }
  json index = {{"format", "collsynth-tune-index"},
                {"target", a.target},
                {"profile", a.target == "msccl" ? "executor" : "mscclpp"},
                {"topology", a.g->name()},
                {"ngpus", a.g->num_compute()},
                {"selection", "min_bytes <= bytes <= max_bytes (max_bytes null: no upper bound)"},
                {"ranges", std::move(entries)}};
  const std::string path = (std::filesystem::path(a.out_dir) / (a.target + "-index.json")).string();
  const CheckedOutput written = WriteChecked(
      {{path, [&](std::ostream& out) { out << index.dump(2) << "\n"; }}},
      [](const std::vector<std::string>& partials) {
        return CheckTuneExportIndex(ParseJsonText(ReadTextFile(partials[0]), partials[0]));
      });
  if (!written.ok) return OutcomeFailed("tune --export: " + written.error + "; index not written");
  index["index"] = path;
  CommandOutcome outcome;
  outcome.json = std::move(index);
  return outcome;
}

}  // namespace collsynth::cli
