#include "graphs/generators/kary_n_tree.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

std::string S(std::int64_t v) { return std::to_string(v); }

void Validate(std::int64_t k, std::int64_t n) {
  if (k < 2 || k > kMaxGeneratedNodes)
    throw std::invalid_argument("karyntree: k = " + S(k) + " must be in [2, " +
                                S(kMaxGeneratedNodes) + "]");
  if (n < 1 || n > 20)
    throw std::invalid_argument("karyntree: n = " + S(n) + " must be in [1, 20]");
}

BigInt Pow(std::int64_t k, std::int64_t e) {
  BigInt r = 1;
  for (std::int64_t i = 0; i < e; ++i) r *= k;
  return r;
}

// The `len` base-k digits of x, most significant first.
std::string Digits(std::int64_t x, std::int64_t k, std::int64_t len) {
  std::vector<std::int64_t> d(static_cast<std::size_t>(len));
  for (std::int64_t i = len - 1; i >= 0; --i) {
    d[static_cast<std::size_t>(i)] = x % k;
    x /= k;
  }
  std::string s;
  for (std::int64_t i = 0; i < len; ++i)
    s += (i && k > 10 ? "." : "") + S(d[static_cast<std::size_t>(i)]);
  return s;
}

}  // namespace

BigInt KaryNTreeSwitches(std::int64_t k, std::int64_t n) {
  Validate(k, n);
  return Pow(k, n - 1) * n;
}

BigInt KaryNTreeEndpoints(std::int64_t k, std::int64_t n) {
  Validate(k, n);
  return Pow(k, n);
}

Topology KaryNTree(std::int64_t k, std::int64_t n) {
  const std::string name = "karyntree(" + S(k) + "," + S(n) + ")";
  const BigInt switches = KaryNTreeSwitches(k, n), hosts = KaryNTreeEndpoints(k, n);
  // Directed links: 2 per endpoint link, 2·k per switch of levels 1..n−1.
  CheckTopologySize(switches + hosts, hosts * 2 + Pow(k, n - 1) * (n - 1) * k * 2, name);
  const std::int64_t per_level = ToInt64(Pow(k, n - 1));
  Topology g(name);
  for (std::int64_t l = 0; l < n; ++l) {
    for (std::int64_t w = 0; w < per_level; ++w)
      g.AddSwitch("s" + S(l) + (n > 1 ? "_" + Digits(w, k, n - 1) : ""));
  }
  auto sw = [per_level](std::int64_t l, std::int64_t w) {
    return static_cast<int>(l * per_level + w);
  };
  const Rational one(1);
  // Digit l of a word of n−1 digits (most significant first) has weight k^(n−2−l).
  for (std::int64_t l = 0; l + 1 < n; ++l) {
    const std::int64_t weight = ToInt64(Pow(k, n - 2 - l));
    for (std::int64_t w = 0; w < per_level; ++w) {
      const std::int64_t digit = (w / weight) % k;
      for (std::int64_t other = 0; other < k; ++other) {
        g.AddDuplexLink(sw(l, w), sw(l + 1, w + (other - digit) * weight), one);
      }
    }
  }
  const std::int64_t num_hosts = ToInt64(hosts);
  for (std::int64_t h = 0; h < num_hosts; ++h) {
    const int host = g.AddCompute("h" + Digits(h, k, n));
    g.AddDuplexLink(host, sw(n - 1, h / k), one);
  }
  return g;
}

}  // namespace collsynth
