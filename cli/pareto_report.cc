#include "cli/pareto_report.h"

#include <filesystem>
#include <iomanip>
#include <sstream>
#include <utility>

#include "cli/height_choice.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/properties.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {

using nlohmann::json;

ParetoOutcome RunParetoRequest(const ParetoRequest& a) {
  const std::optional<Collective> collective = ParseCollective(a.collective);
  if (!collective || *collective == Collective::kBroadcast) {
    throw InputError("<args>", "--collective",
                     "'" + a.collective + "' is not allgather, reduce-scatter or allreduce");
  }
  const Topology g = a.g != nullptr ? *a.g : ReadTopologyFile(a.file);
  RequireEulerianStronglyConnected(g, a.file);
  if (g.num_compute() < 2) throw InputError(a.file, "nodes", "needs at least 2 compute nodes");
  if (!a.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.out_dir, ec);
    if (ec) throw InputError(a.out_dir, "-o", "cannot create the directory: " + ec.message());
  }
  HeightCandidates all = BuildHeightCandidates(g, *collective, a.file);
  if (all.list.empty()) {
    return OutcomeFailed("pareto: no candidate passed the checker");
  }
  json points = json::array();
  HeightRatioBounds bounds(g, *collective);
  for (std::size_t i : ParetoFront(all)) {
    const HeightCandidate& c = all.list[i];
    json p = HeightCandidateJson(all, c);
    p["ratio_lower_bound"] =
        all.ratio_lower_bound ? json(RationalToJson(*all.ratio_lower_bound)) : json(nullptr);
    p.update(RatioBoundAtHeightJson(all, bounds, c.height_hops, c.ratio));
    if (!a.out_dir.empty()) {
      const std::string path =
          (std::filesystem::path(a.out_dir) /
           ("height" + std::to_string(c.height_hops) + "-" + c.algorithm + ".json"))
              .string();
      OutputCheck written = WriteHeightCandidate(g, c, path);
      if (!written.ok) {
        return OutcomeFailed("pareto: " + path + ": " + written.error + " (nothing written)");
      }
      p["schedule"] = path;
    }
    points.push_back(p);
  }
  ParetoOutcome outcome;
  {
    json& out = outcome.json;
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
  }
  std::ostringstream text;
  text << CollectiveName(*collective) << " on " << a.file << ": height lower bound "
       << all.height_lower_bound_hops << " links, ratio lower bound "
       << (all.ratio_lower_bound
               ? ToString(*all.ratio_lower_bound) + " (" + all.ratio_lower_bound_by + ")"
               : std::string("none certified"))
       << "\n  height  ratio             algorithm                 minimal height  optimal ratio  "
          "bound at this height\n";
  for (const json& p : points) {
    std::string ratio =
        p["ratio"].get<std::string>() + " (" + p["ratio_decimal"].get<std::string>() + ")";
    text << "  " << std::left << std::setw(6) << p["height_hops"].get<std::int64_t>() << "  "
         << std::setw(16) << ratio << "  " << std::setw(24) << p["algorithm"].get<std::string>()
         << "  " << std::setw(14) << (p["height_minimal"].get<bool>() ? "yes" : "no") << "  "
         << std::setw(13) << (p["ratio_optimal"].get<bool>() ? "yes" : "no") << "  "
         << (p["ratio_lower_bound_at_height"].is_null()
                 ? std::string("none")
                 : p["ratio_lower_bound_at_height"].get<std::string>() +
                       (p["ratio_optimal_at_height"].get<bool>() ? " (met)" : ""));
    if (p.contains("schedule")) text << "  " << p["schedule"].get<std::string>();
    text << "\n";
  }
  for (const auto& [name, why] : all.skipped) text << "  skipped " << name << ": " << why << "\n";
  outcome.text = text.str();
  return outcome;
}

}  // namespace collsynth::cli
