#include "cli/topo_common.h"

#include "core/input_error.h"
#include "graphs/symmetry.h"

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

}  // namespace collsynth::cli
