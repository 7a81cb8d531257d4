#include "graphs/generators/megafly.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

std::string S(std::int64_t v) { return std::to_string(v); }

void Validate(std::int64_t rho, std::int64_t a, std::int64_t p) {
  if (rho < 1 || rho > kMaxGeneratedNodes)
    throw std::invalid_argument("megafly: rho = " + S(rho) + " must be in [1, " +
                                S(kMaxGeneratedNodes) + "]");
  if (a < 2 || a % 2 != 0 || a > kMaxGeneratedNodes)
    throw std::invalid_argument("megafly: a = " + S(a) + " must be even and in [2, " +
                                S(kMaxGeneratedNodes) + "]");
  if (p < 1 || p > kMaxGeneratedNodes)
    throw std::invalid_argument("megafly: p = " + S(p) + " must be in [1, " +
                                S(kMaxGeneratedNodes) + "]");
}

}  // namespace

BigInt MegaflyGroups(std::int64_t rho, std::int64_t a, std::int64_t p) {
  Validate(rho, a, p);
  return BigInt(a / 2) * rho + 1;
}

BigInt MegaflyRouters(std::int64_t rho, std::int64_t a, std::int64_t p) {
  return MegaflyGroups(rho, a, p) * a;
}

BigInt MegaflyEndpoints(std::int64_t rho, std::int64_t a, std::int64_t p) {
  return MegaflyGroups(rho, a, p) * (a / 2) * p;
}

Topology Megafly(std::int64_t rho, std::int64_t a, std::int64_t p) {
  const std::string name = "megafly(" + S(rho) + "," + S(a) + "," + S(p) + ")";
  const BigInt groups = MegaflyGroups(rho, a, p);
  const BigInt nodes = MegaflyRouters(rho, a, p) + MegaflyEndpoints(rho, a, p);
  // Directed links: 2·(endpoint + bipartite + global) per group.
  const BigInt links = groups * 2 * ((a / 2) * p + (a / 2) * (a / 2)) + groups * (a / 2) * rho;
  CheckTopologySize(nodes, links, name);
  const int g = static_cast<int>(ToInt64(groups));
  const int half = static_cast<int>(a / 2);
  Topology t(name);
  std::vector<int> spine(static_cast<std::size_t>(g) * half);
  std::vector<int> leaf(static_cast<std::size_t>(g) * half);
  const Rational one(1);
  for (int G = 0; G < g; ++G) {
    for (int i = 0; i < half; ++i) {
      const std::string base = "g" + S(G) + "l" + S(i);
      const int r = t.AddSwitch(base);
      leaf[static_cast<std::size_t>(G) * half + i] = r;
      for (std::int64_t e = 0; e < p; ++e) t.AddDuplexLink(r, t.AddCompute(base + "t" + S(e)), one);
    }
    for (int j = 0; j < half; ++j)
      spine[static_cast<std::size_t>(G) * half + j] = t.AddSwitch("g" + S(G) + "s" + S(j));
    for (int i = 0; i < half; ++i) {
      for (int j = 0; j < half; ++j) {
        t.AddDuplexLink(leaf[static_cast<std::size_t>(G) * half + i],
                        spine[static_cast<std::size_t>(G) * half + j], one);
      }
    }
  }
  // Global links: port o of group G -> group H = (G + o + 1) mod g, port g − 2 − o there.
  for (int G = 0; G < g; ++G) {
    for (int o = 0; o < g - 1; ++o) {
      const int H = (G + o + 1) % g;
      if (H < G) continue;  // each group pair once
      const int back = g - 2 - o;
      t.AddDuplexLink(spine[static_cast<std::size_t>(G) * half + o / rho],
                      spine[static_cast<std::size_t>(H) * half + back / rho], one);
    }
  }
  return t;
}

}  // namespace collsynth
