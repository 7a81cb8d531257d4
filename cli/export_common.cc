#include "cli/export_common.h"

#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "core/input_error.h"
#include "core/json_io.h"
#include "export/msccl_program.h"
#include "graphs/rank_map.h"
#include "graphs/topology_io.h"
#include "schedules/schedule_file.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

}  // namespace

bool ReadVerifiedInput(const ExportInput& source, VerifiedInput* in) {
  const std::string& ranks = source.ranks;
  std::optional<CheckedSchedule> checked;
  if (source.g != nullptr) {
    in->g = *source.g;
    checked =
        CheckLoadedSchedule(in->g, LoadScheduleText(in->g, source.text, "<python>"), "exported");
  } else {
    in->g = ReadTopologyFile(source.topology);
    checked = LoadCheckedSchedule(in->g, source.schedule, "exported");
  }
  if (!checked) return false;
  in->schedule = std::move(*checked);
  in->file = in->schedule.file;
  in->format = in->schedule.format;
  in->rank = ranks.empty() ? DefaultRanks(in->g) : ReadRankMapFile(in->g, ranks, "").rank_of_node;
  return true;
}

std::string OutputPath(const std::string& out, const std::string& generated_name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!out.empty() && (out.back() == '/' || fs::is_directory(out, ec))) {
    return (fs::path(out) / generated_name).string();
  }
  return out;
}

std::string RoutesPath(const std::string& path, const std::string& ext) {
  if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0) {
    return path.substr(0, path.size() - ext.size()) + ".routes.json";
  }
  return path + ".routes.json";
}

}  // namespace collsynth::cli
