// Scale of the diameter-3 comparison families against PolarStar (seed 003 §1.3, §7.2, Fig. 1,
// Table 3): the closed forms against built instances, and the paper's geometric-mean ratios.
#include "theory/diameter3_scale.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "graphs/expression.h"
#include "graphs/metrics.h"
#include "theory/polarstar_bounds.h"

namespace collsynth {
namespace {

// Routers of a built design: every node of a direct topology, the switches of a dragonfly.
std::int64_t Routers(const Topology& g) {
  return g.num_switches() > 0 ? g.num_switches() : g.num_nodes();
}

// Table 3's radix-15 rows and the DF / HX rows are the largest designs of their radix.
TEST(Diameter3ScaleTest, Table3RowsAreTheLargestDesignsOfTheirRadix) {
  auto ps = LargestDiameter3Design(Diameter3Family::kPolarStar, 15);
  ASSERT_TRUE(ps.has_value());
  EXPECT_EQ(ps->expression, "polarstar(11,3,iq)");
  EXPECT_EQ(ps->routers, 1064);
  auto bf = LargestDiameter3Design(Diameter3Family::kBundlefly, 15);
  ASSERT_TRUE(bf.has_value());
  EXPECT_EQ(bf->expression, "bundlefly(7,4)");
  EXPECT_EQ(bf->routers, 882);
  auto df = LargestDiameter3Design(Diameter3Family::kDragonfly, 17);
  ASSERT_TRUE(df.has_value());
  EXPECT_EQ(df->expression, "dragonfly(12,1,6)");
  EXPECT_EQ(df->routers, 876);
  auto hx = LargestDiameter3Design(Diameter3Family::kHyperX3, 23);
  ASSERT_TRUE(hx.has_value());
  EXPECT_EQ(hx->expression, "hyperx(9,9,8)");
  EXPECT_EQ(hx->routers, 648);
}

// Every closed form equals the router count and radix of the built design, with diameter 3,
// at small radix.
TEST(Diameter3ScaleTest, ClosedFormsMatchBuiltDesignsAtSmallRadix) {
  for (Diameter3Family fam : {Diameter3Family::kPolarStar, Diameter3Family::kBundlefly,
                              Diameter3Family::kDragonfly, Diameter3Family::kHyperX3}) {
    for (std::int64_t k = 8; k <= 11; ++k) {
      auto d = LargestDiameter3Design(fam, k);
      ASSERT_TRUE(d.has_value()) << Diameter3FamilyName(fam) << " " << k;
      Topology g = EvaluateTopologyExpression(d->expression);
      EXPECT_EQ(BigInt(Routers(g)), d->routers) << d->expression;
      if (g.num_switches() == 0) {
        for (int v = 0; v < g.num_nodes(); ++v) ASSERT_LE(g.OutDegree(v), k) << d->expression;
        EXPECT_EQ(ComputeDistanceStats(g, 1).diameter, 3) << d->expression;
      }
    }
  }
  // Bundlefly: radix 9 = MMS(5) (degree 7) + Paley(5) beats MMS(3) + Paley(9) (250 > 162);
  // radix 22 has none (d' = 22 − (3q−δ)/2 is odd, or q = 8, 4 with 2d'+1 = 21, 33 not a
  // prime power). 12 of the 121 radixes in [8, 128] have none.
  EXPECT_EQ(LargestDiameter3Design(Diameter3Family::kBundlefly, 8)->expression, "bundlefly(4,2)");
  EXPECT_EQ(LargestDiameter3Design(Diameter3Family::kBundlefly, 9)->expression, "bundlefly(5,2)");
  EXPECT_EQ(LargestDiameter3Design(Diameter3Family::kBundlefly, 9)->routers, 250);
  EXPECT_FALSE(LargestDiameter3Design(Diameter3Family::kBundlefly, 22).has_value());
}

TEST(Diameter3ScaleTest, SpectralflyIsTheLargestDiameterThreeLpsGraph) {
  // Radix 24 (p = 23): PSL(2,13) with 1,092 routers, as in Table 3's SF row.
  auto sf = LargestDiameter3Design(Diameter3Family::kSpectralfly, 24);
  ASSERT_TRUE(sf.has_value());
  EXPECT_EQ(sf->expression, "spectralfly(23,13)");
  EXPECT_EQ(sf->routers, 1092);
  EXPECT_FALSE(
      LargestDiameter3Design(Diameter3Family::kSpectralfly, 9).has_value());  // 8 not prime
}

// Abstract / §7.2: 1.3× over Bundlefly, 1.9× over Dragonfly, 6.7× over 3-D HyperX, as the
// geometric mean over the radixes in [8, 128] where the competitor exists.
TEST(Diameter3ScaleTest, PaperGeometricMeansOverRadix8To128) {
  for (auto [fam, expected, count] : {std::tuple<Diameter3Family, const char*, std::size_t>{
                                          Diameter3Family::kBundlefly, "1.311", 109},
                                      {Diameter3Family::kDragonfly, "1.905", 121},
                                      {Diameter3Family::kHyperX3, "6.726", 121}}) {
    std::vector<Rational> ratios;
    for (std::int64_t k = 8; k <= 128; ++k) {
      auto d = LargestDiameter3Design(fam, k);
      if (!d) continue;
      ratios.push_back(Rational(LargestPolarStar(k)->order) / Rational(d->routers));
    }
    EXPECT_EQ(ratios.size(), count);
    EXPECT_EQ(GeometricMeanFloor(ratios, 3), expected) << Diameter3FamilyName(fam);
  }
}

// §1.2: bidirectional Kautz K(d,2) (radix 2d) has d²(d+1) routers and diameter 3; its Moore
// share d²(d+1) / Moore(2d) tends to 1/8 from above ("< 13%"), and (8/27) / (1/8) = 64/27 ≈ 2.37
// ("2.4×").
TEST(Diameter3ScaleTest, BidirectionalKautzClosedFormAndAsymptoticShare) {
  for (std::int64_t k : {4, 6, 8}) {
    auto d = LargestDiameter3Design(Diameter3Family::kKautzBidirectional, k);
    ASSERT_TRUE(d.has_value());
    Topology g = EvaluateTopologyExpression(d->expression);
    EXPECT_EQ(BigInt(g.num_nodes()), d->routers) << d->expression;
    for (int v = 0; v < g.num_nodes(); ++v) EXPECT_EQ(g.OutDegree(v), k) << d->expression;
    EXPECT_EQ(ComputeDistanceStats(g, 1).diameter, 3) << d->expression;
  }
  EXPECT_FALSE(LargestDiameter3Design(Diameter3Family::kKautzBidirectional, 9).has_value());
  auto big = LargestDiameter3Design(Diameter3Family::kKautzBidirectional, 2000);
  const Rational share = Rational(big->routers) / Rational(MooreBoundDiameter3(2000));
  EXPECT_GT(share, Rational(1, 8));     // from above
  EXPECT_LT(share, Rational(13, 100));  // "< 13%"
  EXPECT_LT(share, Rational(1, 8) + Rational(1, 1000));
  EXPECT_EQ(GeometricMeanFloor({Rational(64, 27)}, 1), "2.3");  // 2.370..., printed as 2.4
}

TEST(Diameter3ScaleTest, GeometricMeanFloorIsExact) {
  EXPECT_EQ(GeometricMeanFloor({Rational(2), Rational(8)}, 3), "4.000");
  EXPECT_EQ(GeometricMeanFloor({Rational(1, 2), Rational(1)}, 3), "0.707");  // sqrt(1/2)
  EXPECT_EQ(GeometricMeanFloor({Rational(2)}, 0), "2");
  EXPECT_EQ(GeometricMeanFloor({Rational(1000)}, 2), "1000.00");
  EXPECT_THROW(GeometricMeanFloor({}, 3), std::invalid_argument);
  EXPECT_THROW(GeometricMeanFloor({Rational(0)}, 3), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
