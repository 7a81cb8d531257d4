#include "cli/topo_common.h"

#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "graphs/symmetry.h"
#include "theory/moore_bound.h"

namespace collsynth::cli {

using nlohmann::json;

void RequireAutomorphisms(const Topology& g, const std::string& file) {
  for (std::size_t i = 0; i < g.automorphisms().size(); ++i) {
    AutomorphismCheck c = CheckAutomorphism(g, g.automorphisms()[i]);
    if (!c.ok) {
      throw InputError(file, "automorphisms[" + std::to_string(i) + "]",
                       "is not an automorphism: it " + c.problem);
    }
  }
}

void AddFailFile(TopologyWithFailures& t, const std::string& fail_file) {
  if (fail_file.empty()) return;
  const json doc = ParseJsonText(ReadTextFile(fail_file), fail_file);
  AppendFailedLinks(t.intact, FailedLinkList(doc, fail_file), fail_file, "failed_links", t.failed);
}

json OrbitNames(const Topology& g, const std::vector<std::vector<int>>& orbits) {
  json out = json::array();
  for (const auto& orbit : orbits) {
    json names = json::array();
    for (int v : orbit) names.push_back(g.node(v).name);
    out.push_back(std::move(names));
  }
  return out;
}

std::string OrbitSummary(const std::vector<std::vector<int>>& orbits) {
  std::string s = std::to_string(orbits.size()) + " (sizes ";
  for (std::size_t i = 0; i < orbits.size() && i < 10; ++i)
    s += (i ? ", " : "") + std::to_string(orbits[i].size());
  return s + (orbits.size() > 10 ? ", ...)" : ")");
}

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

}  // namespace collsynth::cli
