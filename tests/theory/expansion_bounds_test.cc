// Closed forms of seed 000 §5 / App. C / App. J (theory/expansion_bounds.h) and Thm 21/22
// (theory/kautz_circulant_bounds.h), checked against Table 4's published values and against
// BFS on the topologies they describe.
#include "theory/expansion_bounds.h"

#include <gtest/gtest.h>

#include <numeric>

#include "graphs/expansions.h"
#include "graphs/generators/seed000_generators.h"
#include "graphs/metrics.h"
#include "theory/kautz_circulant_bounds.h"
#include "theory/moore_bound.h"

namespace collsynth {
namespace {

// Rounds x to 3 decimals (half up), as Table 4 prints T_B.
Rational RoundTo3(const Rational& x) { return Rational(Floor(x * 1000 + Rational(1, 2)), 1000); }

TEST(ExpansionBoundsTest, Table4LineGraphOfCirculant) {
  // L^3(C(16,{3,4})): C(16,{3,4}) has a BW-optimal BFB schedule (App. E.4, k = 2 proven)
  // with T_L = D = 3; Cor 10.1 gives the exact expanded T_B. Table 4: 12α, 2.039 M/B.
  AllgatherPerformance base = BandwidthOptimalBase(16, 4, 3, "C(16,{3,4})");
  AllgatherPerformance l3 = LineGraphPowerBfb(base, 3);
  EXPECT_EQ(l3.nodes, 1024);
  EXPECT_EQ(l3.degree, 4);
  EXPECT_EQ(AllreduceLatencySteps(l3), 12);
  EXPECT_EQ(AllreduceBandwidth(l3), Rational(261, 128));  // 2·(15/16 + 4/3·(1/16 - 1/1024))
  EXPECT_EQ(RoundTo3(AllreduceBandwidth(l3)), Rational(2039, 1000));
  EXPECT_FALSE(l3.bandwidth_is_upper_bound);
  // The built topology has the diameter this T_L implies.
  EXPECT_EQ(ComputeDistanceStats(LineGraphPower(Circulant(16, {3, 4}, true), 3)).diameter,
            l3.latency_steps);
}

TEST(ExpansionBoundsTest, Table4ProductOfUniRingsSquared) {
  // (UniRing(1,4) □ UniRing(1,8))^□2: rings are BW optimal with T_L = m - 1 (Table 9);
  // Thm 13 then Thm 12. Table 4: 40α, 1.998 M/B (= the lower bound 2·1023/1024).
  AllgatherPerformance r4 = BandwidthOptimalBase(4, 1, 3, "UniRing(1,4)");
  AllgatherPerformance r8 = BandwidthOptimalBase(8, 1, 7, "UniRing(1,8)");
  AllgatherPerformance prod = CartesianProductPerformance({r4, r8});
  EXPECT_EQ(prod.nodes, 32);
  EXPECT_EQ(prod.degree, 2);
  EXPECT_EQ(prod.latency_steps, 10);
  EXPECT_TRUE(IsBandwidthOptimal(prod));
  AllgatherPerformance sq = CartesianPowerPerformance(prod, 2);
  EXPECT_EQ(sq.nodes, 1024);
  EXPECT_EQ(sq.degree, 4);
  EXPECT_EQ(AllreduceLatencySteps(sq), 40);
  EXPECT_EQ(AllreduceBandwidth(sq), Rational(1023, 512));
  EXPECT_EQ(RoundTo3(AllreduceBandwidth(sq)), Rational(1998, 1000));
  EXPECT_TRUE(IsBandwidthOptimal(sq));  // Cor 12.1
  Topology r4g = UniRing(1, 4), r8g = UniRing(1, 8);
  EXPECT_EQ(ComputeDistanceStats(CartesianPower(CartesianProduct(r4g, r8g), 2)).diameter,
            sq.latency_steps);
  // Table 4's "theoretical lower bound" row: 1.998 M/B for N = 1024.
  EXPECT_EQ(2 * BandwidthLowerBound(1024), AllreduceBandwidth(sq));
}

TEST(ExpansionBoundsTest, Theorem1AndCorollary11AgreeAndAreUpperBounds) {
  AllgatherPerformance base = BandwidthOptimalBase(9, 4, 2, "H(2,3)");
  AllgatherPerformance once = LineGraphBound(base);
  EXPECT_EQ(once.nodes, 36);
  EXPECT_EQ(once.latency_steps, 3);
  EXPECT_EQ(once.bandwidth, Rational(8, 9) + Rational(1, 9));  // T_B + 1/N
  EXPECT_TRUE(once.bandwidth_is_upper_bound);
  EXPECT_FALSE(IsBandwidthOptimal(once));
  // Applying Thm 1 n times (with N growing d-fold) equals Cor 1.1's closed form.
  AllgatherPerformance iter = base;
  for (int n = 1; n <= 5; ++n) {
    iter = LineGraphBound(iter);
    AllgatherPerformance closed = LineGraphPowerBound(base, n);
    EXPECT_EQ(iter.bandwidth, closed.bandwidth) << n;
    EXPECT_EQ(iter.nodes, closed.nodes);
    EXPECT_EQ(iter.latency_steps, closed.latency_steps);
    // Cor 1.1 (6): d/(d-1)·(1/N - 1/(d^n N)).
    BigInt dn = 1;
    for (int i = 0; i < n; ++i) dn *= 4;
    EXPECT_EQ(closed.bandwidth - base.bandwidth,
              Rational(4, 3) * (Rational(1, 9) - Rational(BigInt(1), dn * 9)));
  }
}

TEST(ExpansionBoundsTest, Theorem2RatioStaysBelowTheLimitAndApproachesIt) {
  for (std::int64_t d : {2, 3, 4, 8}) {
    for (int n0 : {3, 5, 16}) {
      BigInt nodes = n0;
      AllgatherPerformance base = BandwidthOptimalBase(nodes, d, 2, "base");
      Rational limit = LineGraphBandwidthRatioLimit(nodes, d);
      Rational prev = 0;
      for (int n = 1; n <= 12; ++n) {
        AllgatherPerformance l = LineGraphPowerBfb(base, n);
        Rational ratio = l.bandwidth / BandwidthLowerBound(l.nodes);
        EXPECT_LE(ratio, limit);
        EXPECT_GT(ratio, prev);  // increasing towards the limit (proof of Thm 2)
        prev = ratio;
      }
      EXPECT_LT(limit - prev, Rational(1, 1000));
    }
  }
}

TEST(ExpansionBoundsTest, Theorem9LineGraphsPreserveMooreOptimality) {
  for (std::int64_t d = 2; d <= 5; ++d) {
    for (std::int64_t nodes = d + 1; nodes <= 60; ++nodes) {
      for (std::int64_t k = 1; k <= 4; ++k) {
        bool base = IsMooreOptimal(nodes, d, k);
        AllgatherPerformance p = LineGraphPowerBound(BandwidthOptimalBase(nodes, d, k, "G"), 3);
        EXPECT_EQ(IsMooreOptimal(p.nodes, d, p.latency_steps), base)
            << nodes << " " << d << " " << k;
      }
    }
  }
}

TEST(ExpansionBoundsTest, Theorem11DegreeExpansionPreservesBandwidthOptimality) {
  // Cor 11.1, and sizes of Table 3 matched against the built G*n.
  for (int n = 1; n <= 4; ++n) {
    AllgatherPerformance base = BandwidthOptimalBase(6, 5, 1, "K6");
    AllgatherPerformance e = DegreeExpansionPerformance(base, n);
    EXPECT_EQ(e.nodes, 6 * n);
    EXPECT_EQ(e.degree, 5 * n);
    EXPECT_EQ(e.latency_steps, 2);
    EXPECT_EQ(e.bandwidth, base.bandwidth + Rational(n - 1, 6 * n));
    EXPECT_TRUE(IsBandwidthOptimal(e));
    Topology built = DegreeExpansion(Complete(6), n);
    EXPECT_EQ(built.num_nodes(), e.nodes);
    EXPECT_EQ(built.OutDegree(0), e.degree);
    // T_L = D + 1 is achieved only when G*n actually needs the extra step (n >= 2).
    if (n >= 2) {
      EXPECT_EQ(ComputeDistanceStats(built).diameter, e.latency_steps);
    }
  }
  // A non-optimal base stays non-optimal by exactly (n-1)/(nN) more.
  AllgatherPerformance slow = BandwidthOptimalBase(8, 2, 3, "x");
  slow.bandwidth += Rational(1, 10);
  EXPECT_FALSE(IsBandwidthOptimal(DegreeExpansionPerformance(slow, 3)));
}

TEST(ExpansionBoundsTest, Theorem12PowerOfNonOptimalBase) {
  // (11) with a base T_B = τ ≠ (N-1)/N: T_B·N/(N-1)·(N^n-1)/N^n.
  AllgatherPerformance base = BandwidthOptimalBase(5, 2, 2, "x");
  base.bandwidth = Rational(9, 10);
  AllgatherPerformance p = CartesianPowerPerformance(base, 3);
  EXPECT_EQ(p.nodes, 125);
  EXPECT_EQ(p.degree, 6);
  EXPECT_EQ(p.latency_steps, 6);
  EXPECT_EQ(p.bandwidth, Rational(9, 10) * Rational(5, 4) * Rational(124, 125));
  EXPECT_FALSE(IsBandwidthOptimal(p));
  // Thm 13 refuses a factor that is not BW optimal.
  EXPECT_THROW(CartesianProductPerformance({base, base}), std::invalid_argument);
  EXPECT_THROW(LineGraphPowerBfb(BandwidthOptimalBase(4, 1, 3, "ring"), 1), std::invalid_argument);
  AllgatherPerformance bi = BidirectionalPerformance(base);
  EXPECT_EQ(bi.degree, 4);
  EXPECT_EQ(bi.bandwidth, base.bandwidth);
}

TEST(KautzCirculantBoundsTest, Theorem21HoldsForGeneralizedKautzUpTo500) {
  // Thm 21 for Π_{d,m}, d ∈ {2,3,4}, m up to 500, with the diameter measured by BFS.
  for (int d = 2; d <= 4; ++d) {
    for (int m = d + 1; m <= 500; ++m) {
      Topology g = GeneralizedKautz(d, m);
      DistanceStats stats = ComputeDistanceStats(g, 1);  // BFS from every node
      ASSERT_EQ(stats.unreachable_pairs, 0) << d << "," << m;
      int diameter = stats.diameter;
      Theorem21Check c = CheckTheorem21(d, m, diameter);
      EXPECT_TRUE(c.holds) << "d=" << d << " m=" << m << " D=" << diameter;
      EXPECT_LE(c.gap, 1) << "d=" << d << " m=" << m;
      EXPECT_GE(c.gap, 0);  // no digraph beats the Moore bound
      EXPECT_LE(diameter, GeneralizedKautzDiameterBound(d, m)) << "d=" << d << " m=" << m;
    }
  }
  // Π_{4,1024} (Table 4: 10α allreduce) has diameter 5 = T_L*(1024, 4).
  EXPECT_EQ(ComputeDistanceStats(GeneralizedKautz(4, 1024)).diameter, 5);
  EXPECT_EQ(MooreOptimalSteps(1024, 4), 5);
  // The inequality can fail: a made-up diameter 12 for m = 20, d = 2 violates it.
  EXPECT_FALSE(CheckTheorem21(2, 20, 12).holds);
}

int CirculantDiameter(int n, int a, int b) {
  // Vertex-transitive: BFS from node 0 is enough. -1 when disconnected.
  if (std::gcd(n, std::gcd(a, b)) != 1) return -1;
  Topology c = Circulant(n, {a, b}, true);
  int diameter = 0;
  for (int x : BfsDistances(c, 0)) {
    if (x < 0) return -1;
    diameter = std::max(diameter, x);
  }
  return diameter;
}

TEST(KautzCirculantBoundsTest, Theorem22DiameterForEveryNFrom7To300) {
  for (int n = 7; n <= 300; ++n) {
    int m = static_cast<int>(Theorem22Offset(n));
    // m = ⌈(-1 + √(2n-1))/2⌉ ⇔ (2m-1)^2 < 2n-1 <= (2m+1)^2.
    EXPECT_LT((2 * m - 1) * (2 * m - 1), 2 * n - 1);
    EXPECT_GE((2 * m + 1) * (2 * m + 1), 2 * n - 1);
    EXPECT_EQ(CirculantDiameter(n, m, m + 1), m) << "n=" << n;
  }
  EXPECT_EQ(Theorem22Offset(16), 3);  // C(16,{3,4}) of Table 4
  EXPECT_THROW(Theorem22Offset(6), std::invalid_argument);
}

TEST(KautzCirculantBoundsTest, Theorem22IsTheMinimumOverAllTwoOffsetCirculants) {
  // Brute force over every connected C(n, {a1, a2}) for small n.
  for (int n = 7; n <= 40; ++n) {
    int best = 1 << 30;
    for (int a = 1; a <= n / 2; ++a) {
      for (int b = a + 1; b <= n / 2; ++b) {
        int d = CirculantDiameter(n, a, b);
        if (d >= 0) best = std::min(best, d);
      }
    }
    EXPECT_EQ(best, Theorem22Offset(n)) << "n=" << n;
  }
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// Figure 3's curve in closed form against Cor 10.1 and the paper's printed values.
TEST(ExpansionBounds, LineGraphBandwidthRatioIsFigure3sCurve) {
  // The four degree-4 bases of Figure 3: K_{4,4} (8), K_5 (5), C(6,{1..4}) (6), H(2,3) (9).
  for (int n0 : {5, 6, 8, 9}) {
    BigInt nodes = n0;
    AllgatherPerformance base = BandwidthOptimalBase(nodes, 4, 2, "base");
    EXPECT_EQ(LineGraphBandwidthRatio(nodes, 4, 0), 1);
    for (int n = 1; n <= 8; ++n) {
      AllgatherPerformance l = LineGraphPowerBfb(base, n);
      EXPECT_EQ(LineGraphBandwidthRatio(nodes, 4, n), l.bandwidth / BandwidthLowerBound(l.nodes));
      EXPECT_LT(LineGraphBandwidthRatio(nodes, 4, n), LineGraphBandwidthRatioLimit(nodes, 4));
    }
  }
  // Exact points: K_{4,4} -> L(K_{4,4}) (32 nodes): (4·7 + 4·3/3)/(31) = 32/31.
  EXPECT_EQ(LineGraphBandwidthRatio(8, 4, 1), Rational(32, 31));
  EXPECT_EQ(LineGraphBandwidthRatio(5, 4, 2), Rational(16 * 4 + 4 * 15 / 3, 79));  // K_5, N = 80
  // Table 4 (allreduce = 2 x allgather, printed to 4 digits): L^3(C(16,{3,4})) 2.039 M/B and
  // L^2(Diamond^{□2}) (a 64-node BW-optimal base) 2.008 M/B; bound 1.998 = 2·1023/1024.
  const Rational tb_star = BandwidthLowerBound(1024);
  EXPECT_EQ(2 * LineGraphBandwidthRatio(16, 4, 3) * tb_star, Rational(1044, 512));  // 2.0390625
  EXPECT_EQ(2 * LineGraphBandwidthRatio(64, 4, 2) * tb_star, Rational(1028, 512));  // 2.0078125
  EXPECT_EQ(2 * tb_star, Rational(1023, 512));                                      // 1.998046875
  EXPECT_THROW(LineGraphBandwidthRatio(8, 1, 1), std::invalid_argument);
  EXPECT_THROW(LineGraphBandwidthRatio(8, 4, -1), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
