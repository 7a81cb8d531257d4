#include "theory/moore_bound.h"

#include <stdexcept>

namespace collsynth {

BigInt MooreBound(std::int64_t d, std::int64_t k) {
  if (d < 1) throw std::invalid_argument("Moore bound needs degree d >= 1");
  if (k < -1) throw std::invalid_argument("Moore bound needs k >= -1");
  BigInt sum = 0, term = 1;
  for (std::int64_t i = 0; i <= k; ++i) {
    sum += term;
    term *= d;
  }
  return sum;
}

std::int64_t MooreOptimalSteps(const BigInt& n, std::int64_t d) {
  if (n < 1) throw std::invalid_argument("T_L* needs N >= 1");
  if (d < 1) throw std::invalid_argument("T_L* needs degree d >= 1");
  BigInt sum = 1, term = 1;  // M_{d,0}
  std::int64_t k = 0;
  while (sum < n) {
    term *= d;
    sum += term;
    ++k;
  }
  return k;
}

bool IsMooreOptimal(const BigInt& n, std::int64_t d, std::int64_t steps) {
  return n > MooreBound(d, steps - 1);
}

Rational BandwidthLowerBound(const BigInt& n) {
  if (n < 1) throw std::invalid_argument("T_B* needs N >= 1");
  return Rational(n - 1, n);
}

}  // namespace collsynth
