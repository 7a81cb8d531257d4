#include "graphs/generators/topoopt.h"

#include <numeric>
#include <stdexcept>
#include <string>

#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

BigInt Pow(const BigInt& b, std::int64_t e) {
  BigInt r = 1;
  for (std::int64_t i = 0; i < e; ++i) r *= b;
  return r;
}

}  // namespace

std::vector<std::int64_t> TotientShifts(std::int64_t k) {
  if (k < 2)
    throw std::invalid_argument("TotientPerms: group size " + std::to_string(k) + " must be >= 2");
  CheckTopologySize(BigInt(k), BigInt(k) * k, "totientperms(" + std::to_string(k) + ")");
  std::vector<std::int64_t> out;
  for (std::int64_t p = 1; p < k; ++p) {
    if (std::gcd(p, k) == 1) out.push_back(p);
  }
  return out;
}

std::vector<std::int64_t> SelectPermutations(std::int64_t n, std::int64_t d) {
  std::vector<std::int64_t> candidates = TotientShifts(n);
  if (d < 1 || d > static_cast<std::int64_t>(candidates.size())) {
    throw std::invalid_argument("selectperms: d = " + std::to_string(d) + " must be in [1, " +
                                std::to_string(candidates.size()) + "] (the coprime shifts of " +
                                std::to_string(n) + ")");
  }
  std::vector<std::int64_t> chosen = {candidates.front()};
  std::vector<char> used(candidates.size(), 0);
  used[0] = 1;
  std::int64_t q = candidates.front();
  const BigInt target_pow_base = BigInt(n);  // (x·q)^d = n·q^d
  for (std::int64_t i = 1; i < d; ++i) {
    const BigInt t = target_pow_base * Pow(BigInt(q), d);  // (x·q)^d
    std::size_t best = candidates.size();
    for (std::size_t j = 0; j < candidates.size(); ++j) {
      if (used[j]) continue;
      if (best == candidates.size()) {
        best = j;
        continue;
      }
      // candidates are increasing: r1 = candidates[best] < r2 = candidates[j]. r2 is strictly
      // closer to x·q iff x·q > (r1 + r2)/2 iff 2^d·n·q^d > (r1 + r2)^d.
      if (Pow(BigInt(2), d) * t > Pow(BigInt(candidates[best] + candidates[j]), d)) best = j;
    }
    used[best] = 1;
    q = candidates[best];
    chosen.push_back(q);
  }
  return chosen;
}

Topology RingPermutations(std::int64_t n, const std::vector<std::int64_t>& shifts,
                          const std::string& name) {
  if (n < 2) throw std::invalid_argument(name + ": n = " + std::to_string(n) + " must be >= 2");
  CheckTopologySize(BigInt(n), BigInt(n) * shifts.size(), name);
  Topology g(name);
  for (std::int64_t i = 0; i < n; ++i) g.AddCompute("s" + std::to_string(i));
  for (std::int64_t p : shifts) {
    for (std::int64_t i = 0; i < n; ++i)
      g.AddLink(static_cast<int>(i), static_cast<int>((i + p) % n), Rational(1));
  }
  // Every shift commutes with the rotation i -> i+1: a Cayley graph of Z_n.
  std::vector<int> rotation(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) rotation[i] = static_cast<int>((i + 1) % n);
  g.set_automorphisms({std::move(rotation)});
  return g;
}

Topology TotientPerms(std::int64_t n) {
  return RingPermutations(n, TotientShifts(n), "totientperms(" + std::to_string(n) + ")");
}

Topology SelectPerms(std::int64_t n, std::int64_t d) {
  return RingPermutations(n, SelectPermutations(n, d),
                          "selectperms(" + std::to_string(n) + "," + std::to_string(d) + ")");
}

Topology ShiftedRing(std::int64_t n) {
  if (n < 3) throw std::invalid_argument("shiftedring: n = " + std::to_string(n) + " must be >= 3");
  std::int64_t second = 1;
  for (std::int64_t p = 2; p < n - 1; ++p) {
    if (std::gcd(p, n) == 1) {
      second = p;
      break;
    }
  }
  return RingPermutations(n, {1, n - 1, second, n - second},
                          "shiftedring(" + std::to_string(n) + ")");
}

}  // namespace collsynth
