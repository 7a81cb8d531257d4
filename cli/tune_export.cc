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

}  // namespace

CommandOutcome ExportTuneRanges(const TuneExportRequest& a) {
  if (a.target != "msccl" && a.target != "mscclpp") {
    throw InputError("<args>", "--export", "expected msccl or mscclpp, got '" + a.target + "'");
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
