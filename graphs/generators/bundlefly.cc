#include "graphs/generators/bundlefly.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graphs/generators/family_args.h"
#include "graphs/generators/finite_field.h"
#include "graphs/generators/polarstar.h"
#include "graphs/generators/slimfly.h"

namespace collsynth {
namespace {

std::string S(std::int64_t v) { return std::to_string(v); }

void CheckSupernode(std::int64_t d_prime) {
  if (d_prime < 2 || d_prime % 2 != 0 || d_prime > kMaxFieldOrder ||
      !IsPrimePower(2 * d_prime + 1)) {
    throw std::invalid_argument(
        "bundlefly: the Paley supernode needs d' even, d' >= 2 and 2d'+1 "
        "a prime power; got d' = " +
        S(d_prime));
  }
}

}  // namespace

BigInt BundleflyOrder(std::int64_t q, std::int64_t d_prime) {
  CheckSupernode(d_prime);
  return SlimFlyOrder(q) * (2 * d_prime + 1);
}

std::int64_t BundleflyRadix(std::int64_t q, std::int64_t d_prime) {
  CheckSupernode(d_prime);
  return SlimFlyDegree(q) + d_prime;
}

Topology Bundlefly(std::int64_t q, std::int64_t d_prime) {
  const std::string name = "bundlefly(" + S(q) + "," + S(d_prime) + ")";
  const BigInt order = BundleflyOrder(q, d_prime);
  CheckTopologySize(order, order * BundleflyRadix(q, d_prime), name);
  const auto mms = MmsGraph(q);
  const SupernodeGraph sn = PaleySupernode(static_cast<int>(2 * d_prime + 1));
  const int n = static_cast<int>(mms.size()), m = sn.size();
  Topology g(name);
  for (int x = 0; x < n; ++x) {
    const std::string base = MmsNodeName(q, x) + "n";
    for (int v = 0; v < m; ++v) g.AddCompute(base + S(v));
  }
  auto id = [m](int x, int v) { return x * m + v; };
  std::vector<std::pair<int, int>> edges;
  for (int x = 0; x < n; ++x) {
    for (int v = 0; v < m; ++v) {
      for (int w : sn.adjacency[static_cast<std::size_t>(v)]) {
        if (v < w) edges.emplace_back(id(x, v), id(x, w));
      }
    }
    for (int y : mms[static_cast<std::size_t>(x)]) {
      if (x < y) {  // arc x -> y: (x, v) ~ (y, f(v))
        for (int v = 0; v < m; ++v)
          edges.emplace_back(id(x, v), id(y, sn.f[static_cast<std::size_t>(v)]));
      }
    }
  }
  const Rational one(1);
  for (auto [a, b] : edges) g.AddDuplexLink(a, b, one);
  return g;
}

}  // namespace collsynth
