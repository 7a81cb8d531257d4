// collsynth topo info FILE [--json]     metrics, regularity, Moore bound, T_B lower bound
#include <iostream>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/progress.h"
#include "cli/topo_common.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "graphs/symmetry.h"
#include "graphs/topology_io.h"
#include "theory/moore_bound.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

json InfoJson(const Topology& g, unsigned threads, const ProgressCallback& progress) {
  json j;
  j["name"] = g.name();
  j["compute_nodes"] = g.num_compute();
  j["switch_nodes"] = g.num_switches();
  j["links"] = g.num_links();
  std::int64_t unit_links = 0;
  for (const Link& l : g.links()) unit_links += l.multiplicity;
  j["unit_links"] = unit_links;
  DegreeReport deg = ComputeDegrees(g);
  j["out_degree_range"] = {deg.min_out, deg.max_out};
  j["in_degree_range"] = {deg.min_in, deg.max_in};
  j["self_loops"] = deg.self_loops;
  j["multi_links"] = deg.multi_links;
  j["regular"] = deg.regular;
  j["degree"] = deg.regular ? json(deg.degree) : json(nullptr);
  j["link_bandwidth"] = deg.link_bandwidth ? RationalToJson(*deg.link_bandwidth) : json(nullptr);
  EulerianReport eu = CheckEulerian(g);
  j["eulerian"] = eu.eulerian;
  if (!eu.eulerian) {
    j["non_eulerian_node"] = {{"node", g.node(eu.node).name},
                              {"in", RationalToJson(eu.in_bandwidth)},
                              {"out", RationalToJson(eu.out_bandwidth)}};
  }
  ConnectivityReport sc = CheckStronglyConnected(g);
  j["strongly_connected"] = sc.strongly_connected;
  DistanceStats ds = ComputeDistanceStats(g, threads, progress);
  j["diameter"] = sc.strongly_connected ? json(ds.diameter) : json(nullptr);
  j["distance_distribution"] = ds.histogram;  // [k] = ordered compute pairs at distance k
  j["unreachable_pairs"] = ds.unreachable_pairs;
  std::int64_t pairs = 0;
  for (auto c : ds.histogram) pairs += c;
  j["average_distance"] =
      pairs > 0 ? RationalToJson(Rational(ds.total_distance, pairs)) : json(nullptr);
  BigInt n = g.num_compute();
  j["moore_bound"] = nullptr;
  j["moore_optimal_steps"] = nullptr;
  j["moore_optimal"] = nullptr;
  j["bandwidth_lower_bound"] = nullptr;
  if (deg.regular && deg.degree >= 1) {
    std::int64_t steps = MooreOptimalSteps(n, deg.degree);
    j["moore_optimal_steps"] = steps;
    if (sc.strongly_connected) {
      j["moore_bound"] = ToString(MooreBound(deg.degree, ds.diameter));  // M_{d,D(G)}
      j["moore_optimal"] = ds.diameter == steps;
    }
    // T_B* = (N-1)/N · M/B with B = d·b the node's total egress bandwidth.
    Rational b_total = *deg.link_bandwidth * deg.degree;
    j["bandwidth_lower_bound"] = {
        {"coefficient_of_M_over_B", RationalToJson(BandwidthLowerBound(n))},
        {"B", RationalToJson(b_total)},
        {"coefficient_of_M", RationalToJson(BandwidthLowerBound(n) / b_total)}};
  }
  // Declared automorphisms (verified by the caller) and the orbits of compute nodes under the
  // group they generate (singletons when there are none).
  j["automorphisms"] = g.automorphisms().size();
  j["compute_orbits"] = OrbitNames(g, ComputeOrbits(g, g.automorphisms()));
  return j;
}

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
