// PolarStar design space and the diameter-3 Moore bound (seed 003 §7.1, Table 2).
//
// A PolarStar of radix (degree) K is ER_q * G' with ER_q of degree q+1 (q a prime power,
// order q^2+q+1) and a supernode G' of degree d' = K - q - 1:
//   Inductive-Quad: d' >= 0, d' ≡ 0 or 3 (mod 4), order 2d'+2  -> (q^2+q+1)(2d'+2)
//   Paley:          d' >= 2 even, 2d'+1 a prime power, order 2d'+1 -> (q^2+q+1)(2d'+1)
// PolarStarDesignSpace(K) lists every feasible (q, d', kind); LargestPolarStar(K) picks the
// largest order (ties: Inductive-Quad, then smaller q). §7.1: over K in [8, 128] the Paley
// supernode wins exactly at K = 23, 50, 56, 80. The order is maximized near the real
// q* = ((K-1) + sqrt((K-1)(K+2)))/3 ≈ 2K/3 (eq. (1) with the README erratum).
// Moore bound for diameter 3 and undirected degree d: 1 + d + d(d-1) + d(d-1)^2; PolarStar
// approaches 8/27 of it. Exact BigInt / Rational; O(K·sqrt(K)) for the enumeration.
#ifndef COLLSYNTH_THEORY_POLARSTAR_BOUNDS_H_
#define COLLSYNTH_THEORY_POLARSTAR_BOUNDS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/generators/polarstar.h"

namespace collsynth {

struct PolarStarConfig {
  std::int64_t radix = 0;  // q + 1 + d'
  std::int64_t q = 0;
  std::int64_t d_prime = 0;
  SupernodeKind kind = SupernodeKind::kInductiveQuad;
  BigInt order;  // number of routers
};

// "iq" or "paley".
std::string SupernodeKindName(SupernodeKind kind);

BigInt ErOrder(std::int64_t q);  // q^2 + q + 1
bool InductiveQuadFeasible(std::int64_t d_prime);
bool PaleyFeasible(std::int64_t d_prime);
// (q^2+q+1)·|G'|; precondition: the supernode is feasible (std::invalid_argument otherwise)
// and q is a prime power.
BigInt PolarStarOrder(std::int64_t q, std::int64_t d_prime, SupernodeKind kind);

// Every feasible configuration of radix K (K >= 1), by increasing q, IQ before Paley.
std::vector<PolarStarConfig> PolarStarDesignSpace(std::int64_t radix);
// The largest, or nullopt when none is feasible (e.g. K < 3).
std::optional<PolarStarConfig> LargestPolarStar(std::int64_t radix);

// 1 + d + d(d-1) + d(d-1)^2 for d >= 0.
BigInt MooreBoundDiameter3(std::int64_t d);

}  // namespace collsynth

#endif  // COLLSYNTH_THEORY_POLARSTAR_BOUNDS_H_
