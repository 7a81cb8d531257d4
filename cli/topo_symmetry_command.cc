// collsynth topo symmetry FILE          search automorphisms; generators and orbits; with
//                                       failed links also the set-wise stabiliser
#include <iostream>
#include <optional>
#include <stdexcept>

#include "cli/command_registry.h"
#include "cli/topo_common.h"
#include "core/json_io.h"
#include "graphs/failed_links.h"
#include "graphs/perm_group_schreier_sims.h"
#include "graphs/symmetry.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct TopoSymmetryArgs {
  std::string file, write;
  bool json = false;
  std::int64_t budget = SymmetrySearchOptions().max_work;
};

void AddTopoSymmetryOptions(CLI::App* cmd, TopoSymmetryArgs* args) {
  cmd->add_option("file", args->file, "topology file (JSON or edge list)")->required();
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_option("--budget", args->budget, "work budget (node and link visits of the refinements)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 62));
  cmd->add_option("--write", args->write,
                  "write the topology with the generators found as \"automorphisms\" (JSON)");
}

// A topology with failed links (docs/formats.md "Failed links"): the generators of the intact
// topology (declared, else searched), the automorphisms among them that map the failed set onto
// itself (graphs/perm_group_schreier_sims.h), and the search on the degraded topology started
// from those.
struct Failures {
  std::size_t failed = 0;
  std::size_t intact_generators = 0;
  bool intact_declared = false;
  FailedLinkStabiliser stabiliser;
};

Failures StabiliseFailures(const TopologyWithFailures& t, const std::string& file,
                           const SymmetrySearchOptions& options) {
  RequireAutomorphisms(t.intact, file);
  Failures f;
  f.failed = t.failed.size();
  f.intact_declared = !t.intact.automorphisms().empty();
  const std::vector<std::vector<int>> generators =
      f.intact_declared ? t.intact.automorphisms()
                        : FindAutomorphisms(t.intact, {}, options).generators;
  f.intact_generators = generators.size();
  f.stabiliser = StabiliseFailedLinks(t, generators, options.max_work);
  return f;
}

json StabiliserJson(const Topology& degraded, const Failures& f) {
  const SetStabiliserResult& s = f.stabiliser.stabiliser;
  json j;
  j["failed_links"] = f.failed;
  j["intact_generators"] = f.intact_generators;
  j["intact_generators_from"] = f.intact_declared ? "declared" : "search";
  j["intact_group_order"] =
      f.stabiliser.group_complete ? json(ToString(f.stabiliser.group_order)) : json(nullptr);
  j["complete"] = s.complete;
  j["order"] = s.order == 0 ? json(nullptr) : json(ToString(s.order));
  j["generators"] = s.generators;
  j["orbits"] = Orbits(degraded.num_nodes(), s.generators).size();
  j["compute_orbits"] = OrbitNames(degraded, ComputeOrbits(degraded, s.generators));
  j["work"] = s.work;
  j["search_nodes"] = s.search_nodes;
  return j;
}

int RunTopoSymmetry(const TopoSymmetryArgs& a) {
  TopologyWithFailures read = ReadTopologyWithFailures(a.file);
  SymmetrySearchOptions options;
  options.max_work = a.budget;
  std::optional<Failures> failures;
  if (!read.failed.empty()) failures = StabiliseFailures(read, a.file, options);
  Topology g = read.failed.empty() ? std::move(read.intact) : DegradedTopology(read);
  if (failures) {
    // Each stabiliser element is checked to be an automorphism of the degraded topology (a
    // failure here is a defect of the stabiliser, not of the input).
    for (const std::vector<int>& p : failures->stabiliser.stabiliser.generators) {
      if (const AutomorphismCheck c = CheckAutomorphism(g, p); !c.ok)
        throw std::logic_error("set-wise stabiliser: not an automorphism: it " + c.problem);
    }
    g.set_automorphisms(failures->stabiliser.stabiliser.generators);
  }
  RequireAutomorphisms(g, a.file);
  SymmetrySearchResult r = FindAutomorphisms(g, g.automorphisms(), options);
  const auto orbits = Orbits(g.num_nodes(), r.generators);
  const auto compute_orbits = ComputeOrbits(g, r.generators);
  if (!a.write.empty()) {
    g.set_automorphisms(r.generators);
    WriteTextFile(a.write, WriteTopologyJson(g));
  }
  if (a.json) {
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
    if (failures) j["stabiliser"] = StabiliserJson(g, *failures);
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "topology            " << g.name() << "\n"
              << "generators          " << r.generators.size() - static_cast<std::size_t>(r.found)
              << " declared, " << r.found << " found\n"
              << "search              "
              << (r.complete ? "complete: the orbits are those of the full automorphism group"
                             : "incomplete (budget spent): the orbits may be too fine")
              << "; " << r.searches << " searches, " << r.search_nodes << " nodes, " << r.work
              << " work\n"
              << "node orbits         " << OrbitSummary(orbits) << "\n"
              << "compute orbits      " << OrbitSummary(compute_orbits) << "\n";
    if (failures) {
      const json s = StabiliserJson(g, *failures);
      const auto& gens = failures->stabiliser.stabiliser.generators;
      std::cout << "failed links        " << failures->failed
                << "; intact group: " << failures->intact_generators << " generators ("
                << s["intact_generators_from"].get<std::string>() << "), order "
                << (s["intact_group_order"].is_null() ? std::string("unknown (budget spent)")
                                                      : s["intact_group_order"].get<std::string>())
                << "\n"
                << "stabiliser          " << gens.size() << " generators, order "
                << (s["order"].is_null() ? std::string("unknown") : s["order"].get<std::string>())
                << (failures->stabiliser.stabiliser.complete
                        ? " (complete: every element of the intact group keeping the failed set)"
                        : " (incomplete, budget spent: a subgroup)")
                << "\n"
                << "stabiliser orbits   " << OrbitSummary(ComputeOrbits(g, gens)) << " compute\n";
    }
    for (std::size_t i = 0; i < r.generators.size() && g.num_nodes() <= 64; ++i) {
      std::cout << "generator " << i << ":";
      for (int x : r.generators[i]) std::cout << ' ' << x;
      std::cout << "\n";
    }
  }
  return kExitOk;
}

CommandRegistrar reg_topo_symmetry(12, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("topo"), "symmetry",
             "Search automorphisms (node permutations keeping kinds, links and bandwidths): print "
             "generators and orbits (docs/cli.md)",
             AddTopoSymmetryOptions, RunTopoSymmetry);
});

}  // namespace
}  // namespace collsynth::cli
