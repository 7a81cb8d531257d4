#include "theory/kautz_circulant_bounds.h"

#include <stdexcept>

#include "theory/moore_bound.h"

namespace collsynth {

std::int64_t GeneralizedKautzDiameterBound(std::int64_t d, std::int64_t m) {
  if (d < 2 || m < 1) throw std::invalid_argument("⌈log_d m⌉ needs d >= 2, m >= 1");
  std::int64_t k = 0;
  BigInt p = 1;
  while (p < m) {
    p *= d;
    ++k;
  }
  return k;
}

Theorem21Check CheckTheorem21(std::int64_t d, std::int64_t m, std::int64_t diameter) {
  if (d < 2 || m < d + 1) throw std::invalid_argument("Π_{d,m} needs d >= 2, m >= d+1");
  if (diameter < 1) throw std::invalid_argument("diameter must be >= 1");
  Theorem21Check c;
  c.moore_bound_k_minus_2 = diameter >= 2 ? MooreBound(d, diameter - 2) : BigInt(0);
  c.holds = BigInt(m) > c.moore_bound_k_minus_2;
  c.moore_optimal_steps = MooreOptimalSteps(m, d);
  c.gap = diameter - c.moore_optimal_steps;
  return c;
}

std::int64_t Theorem22Offset(std::int64_t n) {
  if (n <= 6) throw std::invalid_argument("Thm 22 needs n > 6");
  if (n > (std::int64_t{1} << 60)) throw std::invalid_argument("Thm 22 offset: n too large");
  // Start from ⌊(√(2n-1) - 1)/2⌋ and step up; at most two iterations.
  BigInt r = boost::multiprecision::sqrt(BigInt(2 * n - 1));
  BigInt m = r >= 1 ? (r - 1) / 2 : BigInt(0);
  while ((2 * m + 1) * (2 * m + 1) < 2 * n - 1) ++m;
  return ToInt64(m);
}

}  // namespace collsynth
