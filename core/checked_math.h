// Checked integer arithmetic shared by every layer: saturating uint64 sums and products (a
// count that saturates is reported as "too large" by its caller, never wrapped) and the least
// common multiple of exact big integers. O(1) per uint64 operation; Lcm costs one GMP gcd.
#ifndef COLLSYNTH_CORE_CHECKED_MATH_H_
#define COLLSYNTH_CORE_CHECKED_MATH_H_

#include <cstdint>
#include <limits>

#include "core/rational.h"

namespace collsynth {

// a + b, or UINT64_MAX when the sum does not fit.
inline std::uint64_t SatAdd(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

// a * b, or UINT64_MAX when the product does not fit.
inline std::uint64_t SatMul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return a * b;
}

// The least common multiple of two positive integers (exact).
inline BigInt Lcm(const BigInt& a, const BigInt& b) {
  return a / boost::multiprecision::gcd(a, b) * b;
}

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_CHECKED_MATH_H_
