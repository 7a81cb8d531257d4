// collsynth topo info FILE [--json]     metrics, regularity, Moore bound, T_B lower bound
#include <iostream>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/progress.h"
#include "cli/topo_common.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/symmetry.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

std::string InfoText(const json& j) {
  std::ostringstream o;
  auto s = [](const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  o << "topology            " << s(j["name"]) << "\n"
    << "compute nodes       " << j["compute_nodes"] << "\n"
    << "switch nodes        " << j["switch_nodes"] << "\n"
    << "links               " << j["links"] << " (" << j["unit_links"] << " unit links)\n"
    << "out-degree range    " << j["out_degree_range"][0] << ".." << j["out_degree_range"][1]
    << "\n"
    << "in-degree range     " << j["in_degree_range"][0] << ".." << j["in_degree_range"][1] << "\n"
    << "regular             " << (j["regular"].get<bool>() ? "yes, degree " + s(j["degree"]) : "no")
    << "\n"
    << "eulerian            " << (j["eulerian"].get<bool>() ? "yes" : "no") << "\n"
    << "strongly connected  " << (j["strongly_connected"].get<bool>() ? "yes" : "no") << "\n"
    << "diameter            " << s(j["diameter"]) << "\n"
    << "average distance    " << s(j["average_distance"]) << "\n"
    << "distance histogram  ";
  const auto& h = j["distance_distribution"];
  for (std::size_t k = 1; k < h.size(); ++k) o << k << ":" << h[k] << (k + 1 < h.size() ? " " : "");
  o << "\n";
  if (!j["moore_optimal_steps"].is_null()) {
    o << "Moore-optimal steps T_L*(N,d) = " << j["moore_optimal_steps"] << "; diameter "
      << (j["moore_optimal"].is_boolean() && j["moore_optimal"].get<bool>()
              ? "reaches it (Moore optimal)"
              : "does not reach it")
      << "\n"
      << "Moore bound M_{d,D} = " << s(j["moore_bound"]) << "\n"
      << "BW lower bound T_B* = " << s(j["bandwidth_lower_bound"]["coefficient_of_M_over_B"])
      << " · M/B  (B = " << s(j["bandwidth_lower_bound"]["B"]) << ")\n";
  }
  const auto n_auto = j["automorphisms"].get<std::size_t>();
  o << "automorphisms       "
    << (n_auto == 0
            ? std::string("none declared")
            : std::to_string(n_auto) + " generator" + (n_auto == 1 ? "" : "s") + ", verified")
    << "\n";
  std::vector<std::vector<int>> sizes;
  for (const auto& orbit : j["compute_orbits"]) sizes.emplace_back(orbit.size());
  o << "compute orbits      " << OrbitSummary(sizes) << "\n";
  return o.str();
}

struct TopoInfoArgs {
  std::string file;
  bool json = false;
  unsigned threads = 0;
};

void AddTopoInfoOptions(CLI::App* cmd, TopoInfoArgs* args) {
  cmd->add_option("file", args->file, "topology file (JSON or edge list)")->required();
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_option("--threads", args->threads, "BFS threads (0 = all cores)");
}

int RunTopoInfo(const TopoInfoArgs& a) {
  ProgressPrinter progress("topo info");
  Topology g = ReadTopologyFile(a.file);
  RequireAutomorphisms(g, a.file);
  json j = InfoJson(g, a.threads, progress.Counter("sources", "distances "));
  if (a.json)
    std::cout << j.dump() << "\n";
  else
    std::cout << InfoText(j);
  return kExitOk;
}

CommandRegistrar reg_topo_info(10, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("topo"), "info",
             "Metrics of a topology: sizes, degrees, diameter, Moore bound", AddTopoInfoOptions,
             RunTopoInfo);
});

}  // namespace
}  // namespace collsynth::cli
