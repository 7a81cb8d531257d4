#include "theory/moore_bound.h"

#include <gtest/gtest.h>

namespace collsynth {
namespace {

TEST(MooreBoundTest, Definition11ClosedFormAgreesWithSum) {
  // M_{d,k} = (d^{k+1} - 1)/(d - 1) for d >= 2 (seed 000 Def. 11).
  for (int d = 2; d <= 9; ++d) {
    for (int k = 0; k <= 12; ++k) {
      BigInt closed = (boost::multiprecision::pow(BigInt(d), k + 1) - 1) / (d - 1);
      EXPECT_EQ(MooreBound(d, k), closed) << d << "," << k;
    }
  }
  EXPECT_EQ(MooreBound(1, 5), 6);
  EXPECT_EQ(MooreBound(4, 40), (boost::multiprecision::pow(BigInt(4), 41) - 1) / 3);  // no overflow
}

TEST(MooreBoundTest, MooreOptimalStepsIsSmallestKWithBoundAtLeastN) {
  for (int d = 1; d <= 6; ++d) {
    for (int n = 1; n <= 500; ++n) {
      std::int64_t k = MooreOptimalSteps(n, d);
      EXPECT_GE(MooreBound(d, k), n);
      if (k > 0) {
        EXPECT_LT(MooreBound(d, k - 1), n);
      }
      EXPECT_TRUE(IsMooreOptimal(n, d, k));
      EXPECT_FALSE(IsMooreOptimal(n, d, k + 1));
    }
  }
}

TEST(MooreBoundTest, KnownValuesFromSeed000) {
  // Kautz K(2,3): 2^3·3 = 24 nodes, degree 2, diameter 4 is Moore optimal: M_{2,3} = 15 < 24 <= 31.
  EXPECT_EQ(MooreOptimalSteps(24, 2), 4);
  // Table 4: N = 1024, d = 4: M_{4,4} = 341 < 1024 <= 1365 = M_{4,5}.
  EXPECT_EQ(MooreOptimalSteps(1024, 4), 5);
  // Unidirectional ring: d = 1 needs N - 1 steps.
  EXPECT_EQ(MooreOptimalSteps(8, 1), 7);
}

TEST(MooreBoundTest, BandwidthLowerBound) {
  EXPECT_EQ(BandwidthLowerBound(4), Rational(3, 4));
  EXPECT_EQ(BandwidthLowerBound(1), 0);
  EXPECT_THROW(BandwidthLowerBound(0), std::invalid_argument);
  EXPECT_THROW(MooreOptimalSteps(5, 0), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
