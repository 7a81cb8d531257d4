// collsynth topo info FILE [--json]     metrics, regularity, Moore bound, T_B lower bound
// collsynth topo convert IN OUT         JSON <-> edge list (by OUT's extension)
// collsynth topo symmetry FILE          search automorphisms; generators and orbits
#include <iostream>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/progress.h"
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

// InputError(file, "automorphisms[i]", ...) for the first declared automorphism that is not
// one (naming one offending node or link).
void RequireAutomorphisms(const Topology& g, const std::string& file) {
  for (std::size_t i = 0; i < g.automorphisms().size(); ++i) {
    AutomorphismCheck c = CheckAutomorphism(g, g.automorphisms()[i]);
    if (!c.ok) {
      throw InputError(file, "automorphisms[" + std::to_string(i) + "]",
                       "is not an automorphism: it " + c.problem);
    }
  }
}

// Orbits as lists of node names.
json OrbitNames(const Topology& g, const std::vector<std::vector<int>>& orbits) {
  json out = json::array();
  for (const auto& orbit : orbits) {
    json names = json::array();
    for (int v : orbit) names.push_back(g.node(v).name);
    out.push_back(std::move(names));
  }
  return out;
}

// "3 (sizes 8, 8, 4)", at most 10 sizes shown.
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

CommandRegistrar reg_topo(0, [](CLI::App& app) {
  auto* topo = app.add_subcommand("topo", "Topology tools: info, convert, gen");
  topo->require_subcommand(1);

  struct InfoArgs {
    std::string file;
    bool json = false;
    unsigned threads = 0;
  };
  auto info_args = std::make_shared<InfoArgs>();
  auto* info =
      topo->add_subcommand("info", "Metrics of a topology: sizes, degrees, diameter, Moore bound");
  info->add_option("file", info_args->file, "topology file (JSON or edge list)")->required();
  info->add_flag("--json", info_args->json, "print one JSON object");
  info->add_option("--threads", info_args->threads, "BFS threads (0 = all cores)");
  info->callback([info_args]() {
    RunCommand([&]() {
      ProgressPrinter progress("topo info");
      Topology g = ReadTopologyFile(info_args->file);
      RequireAutomorphisms(g, info_args->file);
      json j = InfoJson(g, info_args->threads, progress.Counter("sources", "distances "));
      if (info_args->json)
        std::cout << j.dump() << "\n";
      else
        std::cout << InfoText(j);
      return kExitOk;
    });
  });

  struct ConvertArgs {
    std::string in, out;
  };
  auto conv = std::make_shared<ConvertArgs>();
  auto* convert = topo->add_subcommand(
      "convert", "Convert JSON <-> edge list (by the output's extension: .json or other)");
  convert->add_option("input", conv->in, "input topology")->required();
  convert->add_option("output", conv->out, "output file ('-' = JSON to stdout)")->required();
  convert->callback([conv]() {
    RunCommand([&]() {
      WriteTopologyFile(ReadTopologyFile(conv->in), conv->out);
      return kExitOk;
    });
  });

  struct SymmetryArgs {
    std::string file, write;
    bool json = false;
    std::int64_t budget = SymmetrySearchOptions().max_work;
  };
  auto sym = std::make_shared<SymmetryArgs>();
  auto* symmetry = topo->add_subcommand(
      "symmetry",
      "Search automorphisms (node permutations keeping kinds, links and bandwidths): print "
      "generators and orbits (docs/cli.md)");
  symmetry->add_option("file", sym->file, "topology file (JSON or edge list)")->required();
  symmetry->add_flag("--json", sym->json, "print one JSON object");
  symmetry
      ->add_option("--budget", sym->budget, "work budget (node and link visits of the refinements)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 62));
  symmetry->add_option("--write", sym->write,
                       "write the topology with the generators found as \"automorphisms\" (JSON)");
  symmetry->callback([sym]() {
    RunCommand([&]() {
      Topology g = ReadTopologyFile(sym->file);
      RequireAutomorphisms(g, sym->file);
      SymmetrySearchOptions options;
      options.max_work = sym->budget;
      SymmetrySearchResult r = FindAutomorphisms(g, g.automorphisms(), options);
      const auto orbits = Orbits(g.num_nodes(), r.generators);
      const auto compute_orbits = ComputeOrbits(g, r.generators);
      if (!sym->write.empty()) {
        g.set_automorphisms(r.generators);
        WriteTextFile(sym->write, WriteTopologyJson(g));
      }
      if (sym->json) {
        json j;
        j["name"] = g.name();
        j["declared"] = r.generators.size() - static_cast<std::size_t>(r.found);
        j["found"] = r.found;
        j["complete"] = r.complete;
        j["searches"] = r.searches;
        j["search_nodes"] = r.search_nodes;
        j["work"] = r.work;
        j["generators"] = r.generators;
        j["orbits"] = orbits.size();
        j["compute_orbits"] = OrbitNames(g, compute_orbits);
        std::cout << j.dump() << "\n";
      } else {
        std::cout << "topology            " << g.name() << "\n"
                  << "generators          "
                  << r.generators.size() - static_cast<std::size_t>(r.found) << " declared, "
                  << r.found << " found\n"
                  << "search              "
                  << (r.complete ? "complete: the orbits are those of the full automorphism group"
                                 : "incomplete (budget spent): the orbits may be too fine")
                  << "; " << r.searches << " searches, " << r.search_nodes << " nodes, " << r.work
                  << " work\n"
                  << "node orbits         " << OrbitSummary(orbits) << "\n"
                  << "compute orbits      " << OrbitSummary(compute_orbits) << "\n";
        for (std::size_t i = 0; i < r.generators.size() && g.num_nodes() <= 64; ++i) {
          std::cout << "generator " << i << ":";
          for (int x : r.generators[i]) std::cout << ' ' << x;
          std::cout << "\n";
        }
      }
      return kExitOk;
    });
  });
});

}  // namespace
}  // namespace collsynth::cli
