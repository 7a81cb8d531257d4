// PolarStar design space (seed 003 §7.1, Table 2, Table 3) and the diameter-3 Moore bound.
#include "theory/polarstar_bounds.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <tuple>

#include "graphs/generators/polarstar.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

// Seed 003 §7.1: "the largest PolarStar order for degrees k ∈ [8, 128] is constructed with the
// Inductive-Quad supernode, except k = 23, 50, 56, 80, where Paley supernode gives a larger
// topology."
TEST(PolarStarBounds, PaleyWinsExactlyAtRadix23_50_56_80) {
  std::set<std::int64_t> paley_wins;
  for (std::int64_t k = 8; k <= 128; ++k) {
    auto best = LargestPolarStar(k);
    ASSERT_TRUE(best.has_value()) << k;  // "PolarStar offers a construction for every radix"
    EXPECT_EQ(best->radix, k);
    if (best->kind == SupernodeKind::kPaley) paley_wins.insert(k);
    // The winner is the maximum over the listed design space, compared separately per kind.
    BigInt best_iq = 0, best_paley = 0;
    for (const auto& c : PolarStarDesignSpace(k)) {
      BigInt& best_of_kind = c.kind == SupernodeKind::kInductiveQuad ? best_iq : best_paley;
      if (c.order > best_of_kind) best_of_kind = c.order;
    }
    EXPECT_EQ(best->order, std::max(best_iq, best_paley));
    EXPECT_EQ(best->kind == SupernodeKind::kPaley, best_paley > best_iq) << k;
  }
  EXPECT_EQ(paley_wins, (std::set<std::int64_t>{23, 50, 56, 80}));
}

// Table 3: PS-IQ with d = 12 (q = 11), d' = 3 has radix 15 and 1,064 routers — the largest
// at radix 15. PS-Pal with d = 9, d' = 6: 73 · 13 = 949 (the printed 993 is inconsistent).
TEST(PolarStarBounds, TableThreeOrders) {
  EXPECT_EQ(PolarStarOrder(11, 3, SupernodeKind::kInductiveQuad), BigInt(1064));
  EXPECT_EQ(PolarStarOrder(8, 6, SupernodeKind::kPaley), BigInt(949));
  auto best = LargestPolarStar(15);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->q, 11);
  EXPECT_EQ(best->d_prime, 3);
  EXPECT_EQ(best->order, BigInt(1064));
  EXPECT_THROW(PolarStarOrder(11, 5, SupernodeKind::kInductiveQuad), std::invalid_argument);
  EXPECT_THROW(PolarStarOrder(10, 3, SupernodeKind::kInductiveQuad), std::invalid_argument);
  EXPECT_THROW(PolarStarOrder(11, 10, SupernodeKind::kPaley), std::invalid_argument);  // 21 = 3·7
  EXPECT_EQ(PolarStarOrder(11, 4, SupernodeKind::kPaley), BigInt(133 * 9));            // 9 = 3^2
}

// Differential: the enumeration's feasibility against the generator itself. For every radix
// up to 11 and every q < K, polarstar(q, K-q-1, kind) builds iff the design space lists it,
// and then has exactly the listed order and maximum degree K.
TEST(PolarStarBounds, DesignSpaceMatchesTheGenerator) {
  for (std::int64_t k = 1; k <= 11; ++k) {
    std::set<std::tuple<std::int64_t, std::int64_t, int>> listed;
    for (const auto& c : PolarStarDesignSpace(k)) {
      EXPECT_EQ(c.q + 1 + c.d_prime, k);
      listed.insert({c.q, c.d_prime, static_cast<int>(c.kind)});
      Topology g = PolarStar(static_cast<int>(c.q), static_cast<int>(c.d_prime), c.kind);
      EXPECT_EQ(BigInt(g.num_nodes()), c.order) << g.name();
      EXPECT_EQ(ComputeDegrees(g).max_out, k) << g.name();
    }
    for (std::int64_t q = 1; q < k; ++q) {
      for (SupernodeKind kind : {SupernodeKind::kInductiveQuad, SupernodeKind::kPaley}) {
        bool builds = true;
        try {
          PolarStar(static_cast<int>(q), static_cast<int>(k - q - 1), kind);
        } catch (const std::invalid_argument&) {
          builds = false;
        }
        EXPECT_EQ(builds, listed.count({q, k - q - 1, static_cast<int>(kind)}) == 1)
            << "q=" << q << " d'=" << k - q - 1 << " " << SupernodeKindName(kind);
      }
    }
  }
  EXPECT_FALSE(LargestPolarStar(2).has_value());
  EXPECT_TRUE(LargestPolarStar(3).has_value());  // ER_2 * IQ_0
}

// Moore bound for diameter 3: C_7 (d = 2) and the known values 22 (d = 3), 53 (d = 4).
// PolarStar never exceeds it and approaches 8/27 of it (§7.1).
TEST(PolarStarBounds, MooreBoundDiameterThree) {
  EXPECT_EQ(MooreBoundDiameter3(2), BigInt(7));
  EXPECT_EQ(MooreBoundDiameter3(3), BigInt(22));
  EXPECT_EQ(MooreBoundDiameter3(4), BigInt(53));
  for (std::int64_t k = 3; k <= 128; ++k) {
    EXPECT_LE(LargestPolarStar(k)->order, MooreBoundDiameter3(k)) << k;
  }
  Rational efficiency(LargestPolarStar(128)->order, MooreBoundDiameter3(128));
  EXPECT_GT(efficiency, Rational(8, 27));
  EXPECT_LT(efficiency, Rational(8, 27) + Rational(1, 100));
}

}  // namespace
}  // namespace collsynth
