#include "core/rational.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "test_util.h"

namespace collsynth {
namespace {

TEST(RationalTest, ParsesIntegersFractionsAndDecimalsExactly) {
  EXPECT_EQ(ParseRational("7"), Rational(7));
  EXPECT_EQ(ParseRational("5/2"), Rational(5, 2));
  EXPECT_EQ(ParseRational("10/4"), Rational(5, 2));  // lowest terms
  EXPECT_EQ(ParseRational("-3/9"), Rational(-1, 3));
  EXPECT_EQ(ParseRational("2.5"), Rational(5, 2));
  EXPECT_EQ(ParseRational("0.1"), Rational(1, 10));  // exact, not the double 0.1
  EXPECT_EQ(ParseRational(" 42 "), Rational(42));
  EXPECT_EQ(ParseRational("123456789012345678901234567890"),
            Rational(BigInt("123456789012345678901234567890")));
}

// Leading zeros are decimal, never octal (GMP's base guessing read "0.010" as 0.008).
TEST(RationalTest, LeadingZerosAreDecimal) {
  EXPECT_EQ(ParseRational("0.010"), Rational(1, 100));
  EXPECT_EQ(ParseRational("80.038"), Rational(80038, 1000));
  EXPECT_EQ(ParseRational("010"), Rational(10));
  EXPECT_EQ(ParseRational("09/007"), Rational(9, 7));
  EXPECT_EQ(ParseRational("-0.08"), Rational(-2, 25));
}

TEST(RationalTest, RejectsMalformedNumbers) {
  for (const char* bad : {"", "abc", "1/0", "1//2", "/2", "2/", "1.2.3", "1e5", "0x10", "--1",
                          "nan", "inf", "1/2/3", ". "}) {
    EXPECT_THROW(ParseRational(bad), std::invalid_argument) << "input: '" << bad << "'";
  }
}

TEST(RationalTest, RejectsAbsurdlyLongNumbers) {
  std::string huge(kMaxDigits + 1, '7');
  EXPECT_THROW(ParseRational(huge), std::invalid_argument);
}

TEST(RationalTest, PrintsCanonicalPOverQ) {
  EXPECT_EQ(ToString(Rational(6, 4)), "3/2");
  EXPECT_EQ(ToString(Rational(4, 2)), "2");
  EXPECT_EQ(ToString(Rational(-1, 3)), "-1/3");
  EXPECT_EQ(ToString(Rational(0)), "0");
}

TEST(RationalTest, RoundTripsRandomFractions) {
  std::mt19937_64 rng(testing::TestSeed());
  for (int i = 0; i < 1000; ++i) {
    BigInt p = static_cast<std::int64_t>(rng() % 2000001) - 1000000;
    BigInt q = static_cast<std::int64_t>(rng() % 1000000) + 1;
    Rational r(p, q);
    EXPECT_EQ(ParseRational(ToString(r)), r);
  }
}

TEST(RationalTest, FloorAndCeilMatchDefinitionIncludingNegatives) {
  EXPECT_EQ(Floor(Rational(7, 2)), 3);
  EXPECT_EQ(Ceil(Rational(7, 2)), 4);
  EXPECT_EQ(Floor(Rational(-7, 2)), -4);
  EXPECT_EQ(Ceil(Rational(-7, 2)), -3);
  EXPECT_EQ(Floor(Rational(6, 3)), 2);
  EXPECT_EQ(Ceil(Rational(6, 3)), 2);
}

TEST(RationalTest, ToInt64ReportsOverflow) {
  EXPECT_EQ(ToInt64(BigInt(123)), 123);
  EXPECT_THROW(ToInt64(BigInt("9223372036854775808")), std::overflow_error);
}

TEST(RationalTest, ClosestFractionRecoversBoundedDenominator) {
  // A float-like perturbation of 7/13 is reconstructed exactly with denominator bound 20.
  Rational noisy = Rational(7, 13) + Rational(1, 1000000000);
  EXPECT_EQ(ClosestFraction(noisy, 20), Rational(7, 13));
  // Best approximations of pi-ish value with bounded denominators (classic convergents).
  Rational pi(BigInt("314159265358979"), BigInt("100000000000000"));
  EXPECT_EQ(ClosestFraction(pi, 7), Rational(22, 7));
  EXPECT_EQ(ClosestFraction(pi, 113), Rational(355, 113));
  // Brute force: no fraction with denominator <= 50 is closer.
  std::mt19937_64 rng(testing::TestSeed());
  for (int it = 0; it < 200; ++it) {
    Rational x(static_cast<std::int64_t>(rng() % 100000), 99991);
    Rational best = ClosestFraction(x, 50);
    EXPECT_LE(Denominator(best), 50);
    for (int q = 1; q <= 50; ++q) {
      BigInt p = Floor(x * q);
      for (BigInt c : {p, BigInt(p + 1)}) {
        EXPECT_LE(abs(best - x), abs(Rational(c, q) - x)) << ToString(x) << " q=" << q;
      }
    }
  }
}

}  // namespace
}  // namespace collsynth
