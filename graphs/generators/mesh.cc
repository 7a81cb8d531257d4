#include "graphs/generators/mesh.h"

#include <stdexcept>
#include <string>

#include "graphs/generators/family_args.h"
#include "graphs/generators/generator_parts.h"

namespace collsynth {

Topology Mesh(const std::vector<int>& dims) {
  if (dims.empty()) throw std::invalid_argument("mesh needs at least one dimension");
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 2 || dims[i] > kMaxGeneratedNodes) {
      throw std::invalid_argument("mesh: dimension " + std::to_string(i + 1) + " = " +
                                  std::to_string(dims[i]) + " must be in [2, " +
                                  std::to_string(kMaxGeneratedNodes) + "]");
    }
  }
  Topology g = GridNodes("mesh", dims);
  const std::int64_t count = g.num_nodes();
  const std::size_t k = dims.size();
  const std::vector<std::int64_t> stride = GridStrides(dims);
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
