#include "graphs/generators/generator_parts.h"

#include <utility>

#include "graphs/generators/family_args.h"

namespace collsynth {

std::vector<std::int64_t> GridStrides(const std::vector<int>& dims) {
  std::vector<std::int64_t> stride(dims.size());
  std::int64_t s = 1;
  for (std::size_t p = dims.size(); p-- > 0;) {
    stride[p] = s;
    s *= dims[p];
  }
  return stride;
}

Topology GridNodes(const std::string& family, const std::vector<int>& dims) {
  std::string name = family + "(";
  BigInt nodes = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    nodes *= dims[i];
    name += (i ? "," : "") + std::to_string(dims[i]);
  }
  name += ")";
  CheckTopologySize(nodes, nodes * 2 * dims.size(), name);
  const std::int64_t count = ToInt64(nodes);
  const std::size_t k = dims.size();
  Topology g(name);
  std::vector<int> x(k, 0);
  for (std::int64_t i = 0; i < count; ++i) {
    std::string n = "t";
    for (std::size_t p = 0; p < k; ++p) n += (p ? "_" : "") + std::to_string(x[p]);
    g.AddCompute(n);
    for (std::size_t p = k; p-- > 0;) {
      if (++x[p] < dims[p]) break;
      x[p] = 0;
    }
  }
  return g;
}

void SetAutomorphisms(Topology& g, const std::vector<std::function<int(int)>>& images) {
  std::vector<std::vector<int>> generators;
  for (const auto& image : images) {
    std::vector<int> p(static_cast<std::size_t>(g.num_nodes()));
    bool identity = true;
    for (int v = 0; v < g.num_nodes(); ++v) {
      p[v] = image(v);
      identity = identity && p[v] == v;
    }
    if (!identity) generators.push_back(std::move(p));
  }
  g.set_automorphisms(std::move(generators));
}

}  // namespace collsynth
