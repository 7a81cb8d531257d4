#include "core/rational.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace collsynth {
namespace {

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Base 10 explicitly: Boost's string assignment lets GMP guess the base, which reads a
// leading 0 as octal ("010" -> 8, "08" -> error) and so broke decimals like "0.010".
BigInt ParseDigits(std::string_view s) {
  BigInt z;
  mpz_set_str(z.backend().data(), std::string(s).c_str(), 10);  // s is all digits
  return z;
}

}  // namespace

Rational ParseRational(std::string_view text) {
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) throw std::invalid_argument("empty number");
  // An "absurd size" guard: more than kMaxDigits digits in all (numerator and denominator).
  if (static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) > kMaxDigits) {
    throw std::invalid_argument("number has more than " + std::to_string(kMaxDigits) + " digits");
  }
  bool negative = false;
  if (s.front() == '-' || s.front() == '+') {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  // At most 40 bytes of the text in messages, cut at a UTF-8 character boundary.
  std::size_t cut = std::min<std::size_t>(text.size(), 40);
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80)
    --cut;
  const std::string shown = std::string(text.substr(0, cut)) + (cut < text.size() ? "..." : "");
  auto bad = [&]() {
    return std::invalid_argument("'" + shown +
                                 "' is not an exact number (expected p, p/q or a decimal)");
  };
  Rational value;
  auto slash = s.find('/');
  auto dot = s.find('.');
  if (slash != std::string_view::npos) {
    std::string_view num = s.substr(0, slash), den = s.substr(slash + 1);
    if (!AllDigits(num) || !AllDigits(den)) throw bad();
    BigInt d = ParseDigits(den);
    if (d == 0) throw std::invalid_argument("zero denominator in '" + shown + "'");
    value = Rational(ParseDigits(num), d);
  } else if (dot != std::string_view::npos) {
    std::string_view ip = s.substr(0, dot), fp = s.substr(dot + 1);
    if ((!ip.empty() && !AllDigits(ip)) || (!fp.empty() && !AllDigits(fp)) ||
        (ip.empty() && fp.empty())) {
      throw bad();
    }
    BigInt scale = boost::multiprecision::pow(BigInt(10), static_cast<unsigned>(fp.size()));
    BigInt whole = ip.empty() ? BigInt(0) : ParseDigits(ip);
    BigInt frac = fp.empty() ? BigInt(0) : ParseDigits(fp);
    value = Rational(whole * scale + frac, scale);
  } else {
    if (!AllDigits(s)) throw bad();
    value = Rational(ParseDigits(s));
  }
  return negative ? Rational(-value) : value;
}

std::string ToString(const Rational& r) {
  if (Denominator(r) == 1) return Numerator(r).str();
  return Numerator(r).str() + "/" + Denominator(r).str();
}

std::string ToString(const BigInt& z) { return z.str(); }

BigInt Numerator(const Rational& r) { return boost::multiprecision::numerator(r); }
BigInt Denominator(const Rational& r) { return boost::multiprecision::denominator(r); }

BigInt Floor(const Rational& r) {
  BigInt n = Numerator(r), d = Denominator(r);
  BigInt q = n / d;  // truncates toward zero
  if (n < 0 && q * d != n) q -= 1;
  return q;
}

BigInt Ceil(const Rational& r) { return -Floor(-r); }

std::int64_t ToInt64(const BigInt& z) {
  static const BigInt kMin(std::numeric_limits<std::int64_t>::min());
  static const BigInt kMax(std::numeric_limits<std::int64_t>::max());
  if (z < kMin || z > kMax) throw std::overflow_error("integer " + z.str() + " exceeds int64");
  return z.convert_to<std::int64_t>();
}

Rational ClosestFraction(const Rational& x, const BigInt& max_den) {
  // Stern-Brocot / continued-fraction best approximation with bounded denominator.
  BigInt p0 = 0, q0 = 1, p1 = 1, q1 = 0;
  BigInt n = Numerator(x), d = Denominator(x);
  while (true) {
    BigInt a = n / d;
    if (n < 0 && a * d != n) a -= 1;  // floor
    BigInt q2 = q0 + a * q1;
    if (q2 > max_den) break;
    BigInt p2 = p0 + a * p1;
    p0 = p1;
    q0 = q1;
    p1 = p2;
    q1 = q2;
    BigInt r = n - a * d;
    if (r == 0) return Rational(p1, q1);
    n = d;
    d = r;
  }
  // Semiconvergent candidate.
  BigInt k = (max_den - q0) / q1;
  Rational bound1(p0 + k * p1, q0 + k * q1);
  Rational bound2(p1, q1);
  Rational e1 = abs(bound1 - x), e2 = abs(bound2 - x);
  return e1 < e2 ? bound1 : bound2;
}

}  // namespace collsynth
