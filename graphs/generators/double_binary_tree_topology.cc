#include "graphs/generators/double_binary_tree_topology.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/generators/family_args.h"

namespace collsynth {
std::vector<std::int64_t> InOrderTreeParents(std::int64_t n) {
  // Iterative, so deep inputs cannot overflow the stack.
  struct Range {
    std::int64_t lo, hi, up;
  };
  std::vector<std::int64_t> parent(static_cast<size_t>(std::max<std::int64_t>(n, 0)), -1);
  std::vector<Range> todo = {{0, n, -1}};
  while (!todo.empty()) {
    const Range r = todo.back();
    todo.pop_back();
    if (r.lo >= r.hi) continue;
    const std::int64_t mid = (r.lo + r.hi) / 2;
    parent[static_cast<size_t>(mid)] = r.up;
    todo.push_back({r.lo, mid, mid});
    todo.push_back({mid + 1, r.hi, mid});
  }
  return parent;
}

Topology DoubleBinaryTreeTopology(std::int64_t n) {
  if (n < 2 || n > kMaxGeneratedNodes) {
    throw std::invalid_argument("dbtree needs 2 <= n <= " + std::to_string(kMaxGeneratedNodes));
  }
  Topology g("dbtree(" + std::to_string(n) + ")");
  for (std::int64_t i = 0; i < n; ++i) g.AddCompute(std::to_string(i));
  const std::vector<std::int64_t> parent = InOrderTreeParents(n);
  for (int shift = 0; shift < 2; ++shift) {  // tree A, then tree B (positions + 1)
    for (std::int64_t p = 0; p < n; ++p) {
      if (parent[p] < 0) continue;
      const int a = static_cast<int>((p + shift) % n),
                b = static_cast<int>((parent[p] + shift) % n);
      g.AddLink(a, b, Rational(1));
      g.AddLink(b, a, Rational(1));
    }
  }
  return g;
}

}  // namespace collsynth
