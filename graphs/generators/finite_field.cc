#include "graphs/generators/finite_field.h"

#include <stdexcept>
#include <string>

namespace collsynth {
namespace {

using Poly = std::vector<int>;  // coefficients low -> high over F_p

// Remainder of a modulo the monic polynomial m (degree >= 1), coefficients mod p.
Poly PolyMod(Poly a, const Poly& m, int p) {
  const int dm = static_cast<int>(m.size()) - 1;
  for (int i = static_cast<int>(a.size()) - 1; i >= dm; --i) {
    int c = a[static_cast<std::size_t>(i)];
    if (c == 0) continue;
    for (int j = 0; j <= dm; ++j) {
      int& t = a[static_cast<std::size_t>(i - dm + j)];
      t = ((t - c * m[static_cast<std::size_t>(j)]) % p + p) % p;
    }
  }
  a.resize(static_cast<std::size_t>(dm));
  return a;
}

bool IsZero(const Poly& a) {
  for (int c : a) {
    if (c != 0) return false;
  }
  return true;
}

// Monic polynomial of degree d whose low coefficients are the base-p digits of code.
Poly MonicFromCode(std::int64_t code, int d, int p) {
  Poly m(static_cast<std::size_t>(d) + 1, 0);
  for (int i = 0; i < d; ++i) {
    m[static_cast<std::size_t>(i)] = static_cast<int>(code % p);
    code /= p;
  }
  m[static_cast<std::size_t>(d)] = 1;
  return m;
}

std::int64_t IntPow(std::int64_t b, int e) {
  std::int64_t r = 1;
  while (e-- > 0) r *= b;
  return r;
}

bool IsIrreducible(const Poly& f, int p) {
  const int k = static_cast<int>(f.size()) - 1;
  for (int d = 1; d <= k / 2; ++d) {
    const std::int64_t count = IntPow(p, d);
    for (std::int64_t code = 0; code < count; ++code) {
      if (IsZero(PolyMod(f, MonicFromCode(code, d, p), p))) return false;
    }
  }
  return true;
}

std::vector<std::int64_t> PrimeFactors(std::int64_t n) {
  std::vector<std::int64_t> f;
  for (std::int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) {
      f.push_back(d);
      while (n % d == 0) n /= d;
    }
  }
  if (n > 1) f.push_back(n);
  return f;
}

}  // namespace

bool IsPrime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) return false;
  }
  return true;
}

std::optional<std::pair<std::int64_t, int>> PrimePowerDecomposition(std::int64_t q) {
  if (q < 2) return std::nullopt;
  std::int64_t p = q;
  for (std::int64_t d = 2; d * d <= q; ++d) {
    if (q % d == 0) {
      p = d;
      break;
    }
  }
  int k = 0;
  while (q % p == 0) {
    q /= p;
    ++k;
  }
  if (q != 1) return std::nullopt;
  return std::make_pair(p, k);
}

FiniteField::FiniteField(std::int64_t q) {
  if (q > kMaxFieldOrder) {
    throw std::invalid_argument("field order " + std::to_string(q) + " exceeds the limit " +
                                std::to_string(kMaxFieldOrder));
  }
  auto pk = PrimePowerDecomposition(q);
  if (!pk) throw std::invalid_argument(std::to_string(q) + " is not a prime power");
  q_ = static_cast<int>(q);
  p_ = static_cast<int>(pk->first);
  k_ = pk->second;
  if (k_ == 1) {
    modulus_ = {0, 1};
  } else {
    for (std::int64_t code = 1;; ++code) {  // code 0 would make x a factor
      Poly f = MonicFromCode(code, k_, p_);
      if (f[0] != 0 && IsIrreducible(f, p_)) {
        modulus_ = f;
        break;
      }
    }
  }
  neg_.resize(static_cast<std::size_t>(q_));
  for (int a = 0; a < q_; ++a) {
    int r = 0, scale = 1;
    for (int i = 0, t = a; i < k_; ++i, t /= p_, scale *= p_) r += ((p_ - t % p_) % p_) * scale;
    neg_[static_cast<std::size_t>(a)] = r;
  }
  // Primitive element: the smallest g with g^((q-1)/r) != 1 for every prime r | q-1.
  auto power = [&](int g, std::int64_t e) {
    int result = 1, base = g;
    while (e > 0) {
      if (e & 1) result = SlowMul(result, base);
      base = SlowMul(base, base);
      e >>= 1;
    }
    return result;
  };
  const auto factors = PrimeFactors(q_ - 1);
  for (int g = 1; g < q_; ++g) {
    bool primitive = true;
    for (std::int64_t r : factors) {
      if (power(g, (q_ - 1) / r) == 1) {
        primitive = false;
        break;
      }
    }
    if (primitive) {
      primitive_ = g;
      break;
    }
  }
  exp_.resize(static_cast<std::size_t>(q_ - 1));
  log_.assign(static_cast<std::size_t>(q_), -1);
  int x = 1;
  for (int i = 0; i < q_ - 1; ++i) {
    exp_[static_cast<std::size_t>(i)] = x;
    log_[static_cast<std::size_t>(x)] = i;
    x = SlowMul(x, primitive_);
  }
}

int FiniteField::SlowMul(int a, int b) const {
  if (k_ == 1) return static_cast<int>(static_cast<std::int64_t>(a) * b % p_);
  Poly pa(static_cast<std::size_t>(k_)), pb(static_cast<std::size_t>(k_));
  for (int i = 0; i < k_; ++i, a /= p_, b /= p_) {
    pa[static_cast<std::size_t>(i)] = a % p_;
    pb[static_cast<std::size_t>(i)] = b % p_;
  }
  Poly prod(static_cast<std::size_t>(2 * k_ - 1), 0);
  for (int i = 0; i < k_; ++i) {
    for (int j = 0; j < k_; ++j) {
      int& t = prod[static_cast<std::size_t>(i + j)];
      t = (t + pa[static_cast<std::size_t>(i)] * pb[static_cast<std::size_t>(j)]) % p_;
    }
  }
  Poly r = PolyMod(prod, modulus_, p_);
  int out = 0;
  for (int i = k_ - 1; i >= 0; --i) out = out * p_ + r[static_cast<std::size_t>(i)];
  return out;
}

int FiniteField::Add(int a, int b) const {
  if (k_ == 1) return (a + b) % p_;
  if (p_ == 2) return a ^ b;
  int r = 0, scale = 1;
  for (int i = 0; i < k_; ++i, a /= p_, b /= p_, scale *= p_) r += ((a % p_ + b % p_) % p_) * scale;
  return r;
}

int FiniteField::Neg(int a) const { return neg_[static_cast<std::size_t>(a)]; }

int FiniteField::Mul(int a, int b) const {
  if (a == 0 || b == 0) return 0;
  int e = log_[static_cast<std::size_t>(a)] + log_[static_cast<std::size_t>(b)];
  if (e >= q_ - 1) e -= q_ - 1;
  return exp_[static_cast<std::size_t>(e)];
}

int FiniteField::Inv(int a) const {
  if (a == 0) throw std::logic_error("FiniteField::Inv(0)");
  int e = log_[static_cast<std::size_t>(a)];
  return exp_[static_cast<std::size_t>(e == 0 ? 0 : q_ - 1 - e)];
}

int FiniteField::Log(int a) const {
  if (a == 0) throw std::logic_error("FiniteField::Log(0)");
  return log_[static_cast<std::size_t>(a)];
}

bool FiniteField::IsNonzeroSquare(int a) const {
  if (a == 0) return false;
  return p_ == 2 || log_[static_cast<std::size_t>(a)] % 2 == 0;
}

}  // namespace collsynth
