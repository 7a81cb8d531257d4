// Exact numbers for collsynth.
//
// Rational is GMP's mpq_t through Boost.Multiprecision; BigInt is mpz_t. Every value that
// decides optimality is one of these (or a checked int64). Parsing accepts "p", "p/q",
// "-p/q" and finite decimals such as "2.5" (read exactly as 5/2); it rejects anything else,
// and numbers with more than kMaxDigits digits, with a std::invalid_argument whose message
// says what is wrong (callers add the file and item).
#ifndef COLLSYNTH_CORE_RATIONAL_H_
#define COLLSYNTH_CORE_RATIONAL_H_

#include <boost/multiprecision/gmp.hpp>
#include <cstdint>
#include <string>
#include <string_view>

namespace collsynth {

using Rational = boost::multiprecision::mpq_rational;
using BigInt = boost::multiprecision::mpz_int;

// Upper bound on the digits of one number in any input (an "absurd size" guard).
inline constexpr std::size_t kMaxDigits = 1000000;

// Parses an exact rational; throws std::invalid_argument("...") on malformed input.
Rational ParseRational(std::string_view text);

// "p" when integral, "p/q" otherwise (canonical, lowest terms, sign on p).
std::string ToString(const Rational& r);
std::string ToString(const BigInt& z);

// Numerator and denominator as BigInt.
BigInt Numerator(const Rational& r);
BigInt Denominator(const Rational& r);

// floor and ceil of a rational.
BigInt Floor(const Rational& r);
BigInt Ceil(const Rational& r);

// Converts when the value fits, otherwise throws std::overflow_error.
std::int64_t ToInt64(const BigInt& z);

// Best rational approximation with denominator <= max_den to x (continued fractions);
// used to reconstruct exact values from floating-point solver hints.
Rational ClosestFraction(const Rational& x, const BigInt& max_den);

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_RATIONAL_H_
