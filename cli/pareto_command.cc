// collsynth pareto TOPOLOGY [--collective C] [-o DIR] [--json]
//   The non-dominated (height, ratio) points among the checked pipeline schedules the workbench
//   builds (experiments/pareto.h, docs/min_height.md), from the least height to the least ratio.
//   Each point is a schedule the checker accepted; with -o each is written to DIR (read back and
//   checked, cli/schedule_output.h). Bad input exits 2, a failed check 1.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli/command_registry.h"
#include "cli/height_choice.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/properties.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct ParetoArgs {
  std::string file, collective = "allgather", out_dir;
  bool json = false;
};

void AddParetoOptions(CLI::App* cmd, ParetoArgs* args) {
  cmd->add_option("file", args->file, "topology file (JSON or edge list)")->required();
  cmd->add_option("--collective", args->collective,
                  "allgather (default), reduce-scatter, allreduce");
  cmd->add_option("-o,--output", args->out_dir, "write each point's schedule into this folder");
  cmd->add_flag("--json", args->json, "print one JSON object");
}

int RunPareto(const ParetoArgs& a) {
  const std::optional<Collective> collective = ParseCollective(a.collective);
  if (!collective || *collective == Collective::kBroadcast) {
    throw InputError("<args>", "--collective",
                     "'" + a.collective + "' is not allgather, reduce-scatter or allreduce");
  }
  Topology g = ReadTopologyFile(a.file);
  RequireEulerianStronglyConnected(g, a.file);
  if (g.num_compute() < 2) throw InputError(a.file, "nodes", "needs at least 2 compute nodes");
  if (!a.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.out_dir, ec);
    if (ec) throw InputError(a.out_dir, "-o", "cannot create the directory: " + ec.message());
  }
  HeightCandidates all = BuildHeightCandidates(g, *collective, a.file);
  if (all.list.empty()) {
    PrintFailure("pareto: no candidate passed the checker");
    return kExitCheckFailed;
  }
  json points = json::array();
  for (std::size_t i : ParetoFront(all)) {
    const HeightCandidate& c = all.list[i];
    json p = HeightCandidateJson(all, c);
    p["ratio_lower_bound"] =
        all.ratio_lower_bound ? json(RationalToJson(*all.ratio_lower_bound)) : json(nullptr);
    if (!a.out_dir.empty()) {
      const std::string path =
          (std::filesystem::path(a.out_dir) /
           ("height" + std::to_string(c.height_hops) + "-" + c.algorithm + ".json"))
              .string();
      OutputCheck written = WriteHeightCandidate(g, c, path);
      if (!written.ok) {
        PrintFailure("pareto: " + path + ": " + written.error + " (nothing written)");
        return kExitCheckFailed;
      }
      p["schedule"] = path;
    }
    points.push_back(p);
  }
  if (a.json) {
    json out;
    out["collective"] = CollectiveName(*collective);
    out["height_lower_bound_hops"] = all.height_lower_bound_hops;
    out["ratio_lower_bound"] =
        all.ratio_lower_bound ? json(RationalToJson(*all.ratio_lower_bound)) : json(nullptr);
    out["ratio_lower_bound_by"] = all.ratio_lower_bound_by;
    out["points"] = points;
    json cands = json::array();
    for (const HeightCandidate& c : all.list) cands.push_back(HeightCandidateJson(all, c));
    out["candidates"] = cands;
    json skipped = json::array();
    for (const auto& [name, why] : all.skipped)
      skipped.push_back({{"algorithm", name}, {"why", why}});
    out["skipped"] = skipped;
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  std::cout << CollectiveName(*collective) << " on " << a.file << ": height lower bound "
            << all.height_lower_bound_hops << " links, ratio lower bound "
            << (all.ratio_lower_bound
                    ? ToString(*all.ratio_lower_bound) + " (" + all.ratio_lower_bound_by + ")"
                    : std::string("none certified"))
            << "\n  height  ratio             algorithm            minimal height  optimal ratio\n";
  for (const json& p : points) {
    std::string ratio =
        p["ratio"].get<std::string>() + " (" + p["ratio_decimal"].get<std::string>() + ")";
    std::cout << "  " << std::left << std::setw(6) << p["height_hops"].get<std::int64_t>() << "  "
              << std::setw(16) << ratio << "  " << std::setw(19)
              << p["algorithm"].get<std::string>() << "  " << std::setw(14)
              << (p["height_minimal"].get<bool>() ? "yes" : "no") << "  "
              << (p["ratio_optimal"].get<bool>() ? "yes" : "no");
    if (p.contains("schedule")) std::cout << "  " << p["schedule"].get<std::string>();
    std::cout << "\n";
  }
  for (const auto& [name, why] : all.skipped)
    std::cout << "  skipped " << name << ": " << why << "\n";
  return kExitOk;
}

CommandRegistrar reg_pareto(0, [](CLI::App& app) {
  AddCommand(app, "pareto", "Non-dominated (height, ratio) points among checked pipeline schedules",
             AddParetoOptions, RunPareto);
});

}  // namespace
}  // namespace collsynth::cli
