// Scale of diameter-3 topologies against PolarStar (seed 003 §1.3, §7.2, §9.5, Fig. 1).
//
// For a network radix K (router-to-router ports), the largest router count of each family
// the paper compares, from closed forms:
//   PolarStar   LargestPolarStar(K) (theory/polarstar_bounds.h)
//   Bundlefly   2q²(2d'+1), K = (3q−δ)/2 + d', q = 4w+δ a prime power (δ ∈ {−1,0,1}),
//               d' >= 2 even with 2d'+1 a prime power (graphs/generators/bundlefly.h)
//   Dragonfly   a(ah+1), K = (a−1) + h, a, h >= 1 (every split; graphs/generators/
//               switch_topologies.h counts the same routers)
//   3-D HyperX  S_1·S_2·S_3, K = Σ(S_i − 1), S_i >= 2 as equal as possible (AM–GM)
//   Spectralfly LPS X^{p,q}, K = p+1 (p an odd prime), over the odd primes q != p whose graph
//               is simple with diameter <= 3 (BFS, LpsDiameterAtMost); order q(q²−1)/2 or
//               q(q²−1) (graphs/generators/spectralfly.h). Only orders up to the diameter-3
//               Moore bound are tried, largest first; the first that passes wins.
//   Kautz, bidirectional (Fig. 1, §1.2): K(d, 2) with every arc used both ways, d = K/2 (K
//               even): d²(d+1) routers, `bidir(kautz(d,2))`, diameter 3; its share of the
//               Moore bound tends to 1/8, "2.4×" below PolarStar's 8/27 (64/27).
// The paper's ratios ("1.3× over Bundlefly, 1.9× over Dragonfly, 6.7× over 3-D HyperX, 12.8×
// over Spectralfly", radix in [8, 128]) are reproduced by: at every radix K in [lo, hi] where
// the competitor has a design of radix exactly K, ratio(K) = PolarStar(K) / competitor(K);
// the figure is the geometric mean of those ratios (docs/reproduction notes in
// docs/topologies.md). GeometricMeanFloor computes it exactly to the printed digits.
// Exact BigInt / Rational arithmetic; the closed forms are O(K·sqrt(K)) each, Spectralfly
// O(Σ BFS) with each BFS O(K³) hash operations.
#ifndef COLLSYNTH_THEORY_DIAMETER3_SCALE_H_
#define COLLSYNTH_THEORY_DIAMETER3_SCALE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"

namespace collsynth {

enum class Diameter3Family {
  kPolarStar,
  kBundlefly,
  kDragonfly,
  kHyperX3,
  kSpectralfly,
  kKautzBidirectional
};

// "polarstar", "bundlefly", "dragonfly", "hyperx3", "spectralfly", "kautz-bidir".
std::string Diameter3FamilyName(Diameter3Family family);
// Every family, in the order above.
std::vector<Diameter3Family> AllDiameter3Families();

struct ScaleDesign {
  Diameter3Family family = Diameter3Family::kPolarStar;
  std::int64_t radix = 0;
  std::string expression;  // a `topo gen` expression of the design (dragonfly with p = 1)
  BigInt routers;
};

// The largest design of the family with network radix exactly `radix`, or nullopt when the
// family has none (ties: the first found in the order documented in the .cc).
std::optional<ScaleDesign> LargestDiameter3Design(Diameter3Family family, std::int64_t radix);

// floor(10^digits · (Π ratios)^(1/n)) / 10^digits as a decimal string ("1.312"), exactly.
// ratios non-empty and positive (std::invalid_argument otherwise); 0 <= digits <= 9.
std::string GeometricMeanFloor(const std::vector<Rational>& ratios, int digits);

}  // namespace collsynth

#endif  // COLLSYNTH_THEORY_DIAMETER3_SCALE_H_
