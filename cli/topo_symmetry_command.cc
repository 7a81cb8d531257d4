// collsynth topo symmetry FILE          search automorphisms; generators and orbits
#include <iostream>

#include "cli/command_registry.h"
#include "cli/topo_common.h"
#include "core/json_io.h"
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

int RunTopoSymmetry(const TopoSymmetryArgs& a) {
  Topology g = ReadTopologyFile(a.file);
  RequireAutomorphisms(g, a.file);
  SymmetrySearchOptions options;
  options.max_work = a.budget;
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
