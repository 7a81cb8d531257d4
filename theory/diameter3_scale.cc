#include "theory/diameter3_scale.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "graphs/generators/bundlefly.h"
#include "graphs/generators/finite_field.h"
#include "graphs/generators/hyperx.h"
#include "graphs/generators/slimfly.h"
#include "graphs/generators/spectralfly.h"
#include "theory/polarstar_bounds.h"

namespace collsynth {
namespace {

std::string S(std::int64_t v) { return std::to_string(v); }

// Slim Fly q with q mod 4 != 2, q >= 3, prime power.
bool SlimFlyQ(std::int64_t q) { return q >= 3 && q % 4 != 2 && IsPrimePower(q); }

// Ties: smallest q (the first found).
std::optional<ScaleDesign> Bundlefly(std::int64_t radix) {
  std::optional<ScaleDesign> best;
  for (std::int64_t q = 3; q <= kMaxFieldOrder; ++q) {
    if (!SlimFlyQ(q)) continue;
    const std::int64_t d = SlimFlyDegree(q);
    if (d > radix - 2) break;  // d grows with q
    const std::int64_t dp = radix - d;
    if (dp % 2 != 0 || !IsPrimePower(2 * dp + 1)) continue;
    BigInt n = BundleflyOrder(q, dp);
    if (!best || n > best->routers) {
      best = ScaleDesign{Diameter3Family::kBundlefly, radix,
                         "bundlefly(" + S(q) + "," + S(dp) + ")", n};
    }
  }
  return best;
}

// Ties: smallest a.
std::optional<ScaleDesign> Dragonfly(std::int64_t radix) {
  std::optional<ScaleDesign> best;
  for (std::int64_t a = 1; a <= radix; ++a) {
    const std::int64_t h = radix + 1 - a;
    BigInt n = BigInt(a) * (BigInt(a) * h + 1);
    if (!best || n > best->routers) {
      best = ScaleDesign{Diameter3Family::kDragonfly, radix,
                         "dragonfly(" + S(a) + ",1," + S(h) + ")", n};
    }
  }
  return best;
}

std::optional<ScaleDesign> HyperX3(std::int64_t radix) {
  if (radix < 3) return std::nullopt;
  const std::int64_t sum = radix + 3;
  std::vector<std::int64_t> sides(3, sum / 3);
  for (std::int64_t i = 0; i < sum % 3; ++i) ++sides[static_cast<std::size_t>(i)];
  return ScaleDesign{Diameter3Family::kHyperX3, radix,
                     "hyperx(" + S(sides[0]) + "," + S(sides[1]) + "," + S(sides[2]) + ")",
                     HyperXOrder(sides)};
}

std::optional<ScaleDesign> Spectralfly(std::int64_t radix) {
  const std::int64_t p = radix - 1;
  if (p < 3 || !IsPrime(p)) return std::nullopt;
  const BigInt moore = MooreBoundDiameter3(radix);
  std::vector<std::pair<BigInt, std::int64_t>> candidates;  // (order, q)
  for (std::int64_t q = 3; q <= 1021; ++q) {
    if (q == p || !IsPrime(q)) continue;
    BigInt n = SpectralflyOrder(p, q);
    if (n > moore) {
      if (BigInt(q) * (q * q - 1) / 2 > moore) break;  // orders only grow with q
      continue;
    }
    candidates.emplace_back(n, q);
  }
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (const auto& [n, q] : candidates) {
    if (LpsDiameterAtMost(p, q, 3)) {
      return ScaleDesign{Diameter3Family::kSpectralfly, radix,
                         "spectralfly(" + S(p) + "," + S(q) + ")", n};
    }
  }
  return std::nullopt;
}

}  // namespace

std::string Diameter3FamilyName(Diameter3Family family) {
  switch (family) {
    case Diameter3Family::kPolarStar:
      return "polarstar";
    case Diameter3Family::kBundlefly:
      return "bundlefly";
    case Diameter3Family::kDragonfly:
      return "dragonfly";
    case Diameter3Family::kHyperX3:
      return "hyperx3";
    case Diameter3Family::kSpectralfly:
      return "spectralfly";
    case Diameter3Family::kKautzBidirectional:
      return "kautz-bidir";
  }
  return "?";
}

std::vector<Diameter3Family> AllDiameter3Families() {
  return {Diameter3Family::kPolarStar,   Diameter3Family::kBundlefly,
          Diameter3Family::kDragonfly,   Diameter3Family::kHyperX3,
          Diameter3Family::kSpectralfly, Diameter3Family::kKautzBidirectional};
}

std::optional<ScaleDesign> LargestDiameter3Design(Diameter3Family family, std::int64_t radix) {
  if (radix < 1) throw std::invalid_argument("radix must be >= 1, got " + S(radix));
  switch (family) {
    case Diameter3Family::kPolarStar: {
      auto c = LargestPolarStar(radix);
      if (!c) return std::nullopt;
      return ScaleDesign{
          family, radix,
          "polarstar(" + S(c->q) + "," + S(c->d_prime) + "," + SupernodeKindName(c->kind) + ")",
          c->order};
    }
    case Diameter3Family::kBundlefly:
      return Bundlefly(radix);
    case Diameter3Family::kDragonfly:
      return Dragonfly(radix);
    case Diameter3Family::kHyperX3:
      return HyperX3(radix);
    case Diameter3Family::kSpectralfly:
      return Spectralfly(radix);
    case Diameter3Family::kKautzBidirectional: {
      if (radix < 4 || radix % 2 != 0) return std::nullopt;
      const std::int64_t d = radix / 2;
      return ScaleDesign{family, radix, "bidir(kautz(" + S(d) + ",2))", BigInt(d) * d * (d + 1)};
    }
  }
  return std::nullopt;
}

std::string GeometricMeanFloor(const std::vector<Rational>& ratios, int digits) {
  if (ratios.empty()) throw std::invalid_argument("geometric mean of no ratios");
  if (digits < 0 || digits > 9) throw std::invalid_argument("digits must be in [0, 9]");
  Rational product(1);
  for (const Rational& r : ratios) {
    if (r <= 0) throw std::invalid_argument("geometric mean of a non-positive ratio");
    product *= r;
  }
  const std::size_t n = ratios.size();
  BigInt scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  // Largest m with (m / scale)^n <= product, i.e. m^n · den <= num · scale^n.
  const BigInt num = Numerator(product), den = Denominator(product);
  BigInt scale_n = 1;
  for (std::size_t i = 0; i < n; ++i) scale_n *= scale;
  auto fits = [&](const BigInt& m) {
    BigInt p = 1;
    for (std::size_t i = 0; i < n; ++i) p *= m;
    return p * den <= num * scale_n;
  };
  BigInt lo = 0, hi = scale;
  while (fits(hi)) hi *= 2;
  while (hi - lo > 1) {  // fits(lo), !fits(hi)
    BigInt mid = (lo + hi) / 2;
    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const std::string whole = ToString(BigInt(lo / scale));
  const std::string frac = ToString(BigInt(lo % scale));
  if (digits == 0) return whole;
  return whole + "." + std::string(static_cast<std::size_t>(digits) - frac.size(), '0') + frac;
}

}  // namespace collsynth
