#include "graphs/generators/mesh.h"

#include <stdexcept>
#include <string>

#include "graphs/generators/family_args.h"

namespace collsynth {

Topology Mesh(const std::vector<int>& dims) {
  if (dims.empty()) throw std::invalid_argument("mesh needs at least one dimension");
  std::string name = "mesh(";
  BigInt nodes = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 2 || dims[i] > kMaxGeneratedNodes) {
      throw std::invalid_argument("mesh: dimension " + std::to_string(i + 1) + " = " +
                                  std::to_string(dims[i]) + " must be in [2, " +
                                  std::to_string(kMaxGeneratedNodes) + "]");
    }
    nodes *= dims[i];
    name += (i ? "," : "") + std::to_string(dims[i]);
  }
  name += ")";
  CheckTopologySize(nodes, nodes * 2 * dims.size(), name);
  const std::int64_t count = ToInt64(nodes);
  const std::size_t k = dims.size();
  std::vector<std::int64_t> stride(k);
  for (std::size_t p = k, s = 1; p-- > 0;) {
    stride[p] = static_cast<std::int64_t>(s);
    s *= static_cast<std::size_t>(dims[p]);
  }
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
  for (std::int64_t i = 0; i < count; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      if ((i / stride[p]) % dims[p] + 1 < dims[p]) {
        g.AddDuplexLink(static_cast<int>(i), static_cast<int>(i + stride[p]), Rational(1));
      }
    }
  }
  return g;
}

}  // namespace collsynth
