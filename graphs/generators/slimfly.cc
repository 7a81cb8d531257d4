#include "graphs/generators/slimfly.h"

#include <algorithm>
#include <stdexcept>

#include "graphs/generators/family_args.h"
#include "graphs/generators/finite_field.h"

namespace collsynth {
namespace {

std::string S(std::int64_t v) { return std::to_string(v); }

}  // namespace

int SlimFlyDelta(std::int64_t q) {
  if (q < 3 || q > kMaxFieldOrder || !IsPrimePower(q)) {
    throw std::invalid_argument("slimfly: q = " + S(q) + " must be a prime power in [3, " +
                                S(kMaxFieldOrder) + "]");
  }
  switch (q % 4) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 3:
      return -1;
    default:
      throw std::invalid_argument("slimfly: q = " + S(q) + " is not of the form 4w + δ");
  }
}

BigInt SlimFlyOrder(std::int64_t q) {
  SlimFlyDelta(q);
  return BigInt(2) * q * q;
}

std::int64_t SlimFlyDegree(std::int64_t q) { return (3 * q - SlimFlyDelta(q)) / 2; }

std::vector<std::vector<int>> MmsGraph(std::int64_t q64) {
  const int delta = SlimFlyDelta(q64);
  const BigInt order = SlimFlyOrder(q64);
  CheckTopologySize(order, order * SlimFlyDegree(q64), "slimfly(" + S(q64) + ")");
  const int q = static_cast<int>(q64);
  FiniteField field(q);
  // Exponents of X; X' = ξ·X.
  std::vector<int> exps;
  if (delta == 1 || delta == 0) {
    // Even exponents up to q − 2: that is q − 3 for odd q (δ = 1), q − 2 for q = 2^k.
    for (int e = 0; e <= q - 2; e += 2) exps.push_back(e);
  } else {
    const int w = (q + 1) / 4;
    for (int e = 0; e <= 2 * w - 2; e += 2) exps.push_back(e);
    for (int e = 2 * w - 1; e <= 4 * w - 3; e += 2) exps.push_back(e);
  }
  std::vector<int> x_set, xp_set;
  for (int e : exps) {
    x_set.push_back(field.Exp(e));
    xp_set.push_back(field.Exp(e + 1));
  }
  const int qq = q * q;
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(2 * qq));
  for (int a = 0; a < q; ++a) {
    for (int b = 0; b < q; ++b) {
      auto& zero = adj[static_cast<std::size_t>(a * q + b)];      // (0, x=a, y=b)
      auto& one = adj[static_cast<std::size_t>(qq + a * q + b)];  // (1, m=a, c=b)
      for (int s : x_set) zero.push_back(a * q + field.Add(b, s));
      for (int s : xp_set) one.push_back(qq + a * q + field.Add(b, s));
      // (0,x,y) ~ (1,m,c) iff c = y − m·x: one neighbour per m.
      for (int m = 0; m < q; ++m) zero.push_back(qq + m * q + field.Sub(b, field.Mul(m, a)));
      // (1,m,c) ~ (0,x,y) iff y = m·x + c: one neighbour per x.
      for (int x = 0; x < q; ++x) one.push_back(x * q + field.Add(field.Mul(a, x), b));
    }
  }
  for (auto& list : adj) std::sort(list.begin(), list.end());
  return adj;
}

std::string MmsNodeName(std::int64_t q, int v) {
  const std::int64_t qq = q * q;
  if (v < qq) return "a" + S(v / q) + "_" + S(v % q);
  return "b" + S((v - qq) / q) + "_" + S((v - qq) % q);
}

Topology SlimFly(std::int64_t q) {
  const auto adj = MmsGraph(q);
  Topology g("slimfly(" + S(q) + ")");
  for (int v = 0; v < static_cast<int>(adj.size()); ++v) g.AddCompute(MmsNodeName(q, v));
  const Rational one(1);
  for (int v = 0; v < static_cast<int>(adj.size()); ++v) {
    for (int w : adj[static_cast<std::size_t>(v)]) {
      if (v < w) g.AddDuplexLink(v, w, one);
    }
  }
  return g;
}

}  // namespace collsynth
