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

void AddExportTargetOptions(CLI::App* cmd, ExportTargetArgs* args, const ExportTargetHelp& help) {
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule,
                  "schedule JSON (pipeline, steps, steps-compact, flows)")
      ->required();
  cmd->add_option("-o,--output", args->output, help.output)->required();
  cmd->add_option("--proto", args->proto, help.proto);
  auto* ip = cmd->add_flag("--inplace", args->inplace, help.inplace);
  auto* oop = cmd->add_flag("--outofplace", args->outofplace, help.outofplace);
  ip->excludes(oop);
  cmd->add_option("--min-bytes", args->min_bytes, help.min_bytes)->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-bytes", args->max_bytes, help.max_bytes)->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-tbs", args->max_tbs, "thread blocks per GPU (default 64)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--max-chunks", args->max_chunks, help.max_chunks)
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  cmd->add_option("--instances", args->instances,
                  "copies of the schedule on fresh chunks and channels (default 1)")
      ->check(CLI::Range(1, 32));
  cmd->add_option("--ranks", args->ranks,
                  "JSON: compute node names in rank order, or {name: rank}");
  cmd->add_option("--name", args->name, help.name);
  cmd->add_flag("--json", args->json, "print one JSON summary object");
}

void RequireOutputFile(const std::string& output, const char* what) {
  if (output == "-") {
    throw InputError("<args>", "-o",
                     std::string("'-' (stdout) is not supported: the ") + what +
                         " is replayed from the written file before it is kept; give a file or "
                         "a directory");
  }
}

bool ReadVerifiedInput(const ExportInput& source, VerifiedInput* in) {
  const std::string& ranks = source.ranks;
  std::optional<CheckedSchedule> checked;
  if (source.g != nullptr) {
    in->g = *source.g;
    checked =
        CheckLoadedSchedule(in->g, LoadScheduleText(in->g, source.text, "<python>"), "exported",
                            /*accept_flows=*/true);
  } else {
    in->g = ReadTopologyFile(source.topology);
    checked = LoadCheckedSchedule(in->g, source.schedule, "exported", /*accept_flows=*/true);
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
