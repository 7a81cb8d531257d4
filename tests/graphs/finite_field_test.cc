// F_q for prime powers (seed 003 §6.1.2 builds ER_q over F_q; Table 2's Paley supernode over
// F_r). The field axioms are checked exhaustively on small fields: a wrong modulus (one that
// factors) shows up as zero divisors, a wrong primitive element as a repeated power.
#include "graphs/generators/finite_field.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "test_util.h"

namespace collsynth {
namespace {

TEST(FiniteField, PrimePowerDecomposition) {
  EXPECT_FALSE(IsPrimePower(0));
  EXPECT_FALSE(IsPrimePower(1));
  EXPECT_FALSE(IsPrimePower(6));
  EXPECT_FALSE(IsPrimePower(12));
  EXPECT_FALSE(IsPrimePower(100));
  EXPECT_EQ(PrimePowerDecomposition(2), std::make_pair(std::int64_t{2}, 1));
  EXPECT_EQ(PrimePowerDecomposition(125), std::make_pair(std::int64_t{5}, 3));
  EXPECT_EQ(PrimePowerDecomposition(1024), std::make_pair(std::int64_t{2}, 10));
  EXPECT_EQ(PrimePowerDecomposition(127), std::make_pair(std::int64_t{127}, 1));
  // Brute force against the definition for every n < 600.
  for (std::int64_t n = 2; n < 600; ++n) {
    bool expected = false;
    for (std::int64_t p = 2; p <= n && !expected; ++p) {
      if (!IsPrime(p)) continue;
      for (std::int64_t x = p; x <= n; x *= p) {
        if (x == n) expected = true;
      }
    }
    EXPECT_EQ(IsPrimePower(n), expected) << n;
  }
}

TEST(FiniteField, AxiomsHoldExhaustivelyOnSmallFields) {
  for (int q : {2, 3, 4, 5, 7, 8, 9, 16, 25, 27}) {
    FiniteField f(q);
    ASSERT_EQ(f.order(), q);
    for (int a = 0; a < q; ++a) {
      EXPECT_EQ(f.Add(a, 0), a);
      EXPECT_EQ(f.Mul(a, 1), a);
      EXPECT_EQ(f.Add(a, f.Neg(a)), 0);
      if (a != 0) {
        EXPECT_EQ(f.Mul(a, f.Inv(a)), 1) << q << " " << a;
      }
      for (int b = 0; b < q; ++b) {
        EXPECT_EQ(f.Add(a, b), f.Add(b, a));
        EXPECT_EQ(f.Mul(a, b), f.Mul(b, a));
        if (a != 0 && b != 0) {
          EXPECT_NE(f.Mul(a, b), 0) << "zero divisor in F_" << q;
        }
        for (int c = 0; c < q; ++c) {
          ASSERT_EQ(f.Mul(a, f.Mul(b, c)), f.Mul(f.Mul(a, b), c));
          ASSERT_EQ(f.Add(a, f.Add(b, c)), f.Add(f.Add(a, b), c));
          ASSERT_EQ(f.Mul(a, f.Add(b, c)), f.Add(f.Mul(a, b), f.Mul(a, c)));
        }
      }
    }
    // Characteristic p: adding 1 to itself p times gives 0.
    int x = 0;
    for (int i = 0; i < f.characteristic(); ++i) x = f.Add(x, 1);
    EXPECT_EQ(x, 0);
  }
}

TEST(FiniteField, PrimitiveElementGeneratesAndSquaresAreHalf) {
  for (int q : {3, 4, 5, 8, 9, 13, 25, 27, 49, 64, 81, 121, 125, 128, 243, 256}) {
    FiniteField f(q);
    std::set<int> powers;
    for (int e = 0; e < q - 1; ++e) powers.insert(f.Exp(e));
    EXPECT_EQ(static_cast<int>(powers.size()), q - 1) << q;
    EXPECT_EQ(powers.count(0), 0u);
    // Nonzero squares: (q-1)/2 of them for odd q, all for even q; x is a square iff x = y^2.
    std::set<int> squares;
    for (int y = 1; y < q; ++y) squares.insert(f.Mul(y, y));
    for (int a = 0; a < q; ++a)
      EXPECT_EQ(f.IsNonzeroSquare(a), squares.count(a) == 1) << q << " " << a;
    EXPECT_EQ(static_cast<int>(squares.size()), q % 2 == 1 ? (q - 1) / 2 : q - 1);
    EXPECT_FALSE(q % 2 == 1 && f.IsNonzeroSquare(f.primitive_element()));
    EXPECT_EQ(static_cast<int>(f.modulus().size()), f.degree() + 1);
    EXPECT_EQ(f.modulus().back(), 1);
  }
}

TEST(FiniteField, RejectsNonPrimePowersAndHugeOrders) {
  EXPECT_THROW(FiniteField(1), std::invalid_argument);
  EXPECT_THROW(FiniteField(6), std::invalid_argument);
  EXPECT_THROW(FiniteField(0), std::invalid_argument);
  EXPECT_THROW(FiniteField(kMaxFieldOrder * 2), std::invalid_argument);
}

TEST(FiniteField, InverseAndLogOfZeroAreProgramFaults) {
  // Not bad input (exit 2) but a broken precondition of the caller (exit 3).
  FiniteField f(5);
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { f.Inv(0); }));
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { f.Log(0); }));
}

}  // namespace
}  // namespace collsynth
