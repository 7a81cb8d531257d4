#include "theory/polarstar_bounds.h"

#include <stdexcept>

#include "graphs/generators/finite_field.h"

namespace collsynth {

std::string SupernodeKindName(SupernodeKind kind) {
  return kind == SupernodeKind::kInductiveQuad ? "iq" : "paley";
}

BigInt ErOrder(std::int64_t q) { return BigInt(q) * q + q + 1; }

bool InductiveQuadFeasible(std::int64_t d_prime) {
  return d_prime >= 0 && (d_prime % 4 == 0 || d_prime % 4 == 3);
}

bool PaleyFeasible(std::int64_t d_prime) {
  return d_prime >= 2 && d_prime % 2 == 0 && IsPrimePower(2 * d_prime + 1);
}

BigInt PolarStarOrder(std::int64_t q, std::int64_t d_prime, SupernodeKind kind) {
  if (!IsPrimePower(q))
    throw std::invalid_argument("q = " + std::to_string(q) + " is not a prime power");
  const bool iq = kind == SupernodeKind::kInductiveQuad;
  if (iq ? !InductiveQuadFeasible(d_prime) : !PaleyFeasible(d_prime)) {
    throw std::invalid_argument("no " + SupernodeKindName(kind) + " supernode of degree " +
                                std::to_string(d_prime));
  }
  return ErOrder(q) * (BigInt(2) * d_prime + (iq ? 2 : 1));
}

std::vector<PolarStarConfig> PolarStarDesignSpace(std::int64_t radix) {
  std::vector<PolarStarConfig> out;
  for (std::int64_t q = 2; q + 1 <= radix; ++q) {
    if (!IsPrimePower(q)) continue;
    const std::int64_t d = radix - q - 1;
    for (SupernodeKind kind : {SupernodeKind::kInductiveQuad, SupernodeKind::kPaley}) {
      const bool ok =
          kind == SupernodeKind::kInductiveQuad ? InductiveQuadFeasible(d) : PaleyFeasible(d);
      if (ok) out.push_back({radix, q, d, kind, PolarStarOrder(q, d, kind)});
    }
  }
  return out;
}

std::optional<PolarStarConfig> LargestPolarStar(std::int64_t radix) {
  std::optional<PolarStarConfig> best;
  for (const PolarStarConfig& c : PolarStarDesignSpace(radix)) {
    // Strictly larger wins, so ties keep the earlier entry (smaller q; IQ before Paley at
    // equal q); an IQ entry also displaces an equal-order Paley one.
    if (!best || c.order > best->order ||
        (c.order == best->order && c.kind == SupernodeKind::kInductiveQuad &&
         best->kind == SupernodeKind::kPaley)) {
      best = c;
    }
  }
  return best;
}

BigInt MooreBoundDiameter3(std::int64_t d) {
  BigInt bd = d;
  return 1 + bd + bd * (bd - 1) + bd * (bd - 1) * (bd - 1);
}

}  // namespace collsynth
