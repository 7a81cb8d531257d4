// Finite fields F_q for prime powers q = p^k (seed 003 §6.1.2: ER_q is built over F_q;
// §6.2 / Table 2: Paley supernodes over F_r).
//
// Elements are the ints 0..q-1; the base-p digits of an element are the coefficients of a
// polynomial over F_p of degree < k (digit i = coefficient of x^i), reduced modulo a monic
// irreducible polynomial of degree k found by search (the first in increasing base-p order of
// its low coefficients that has no monic factor of degree 1..k/2, tested by trial division).
// 0 and 1 are the field's zero and one; for k = 1 the element is the residue mod p.
// Multiplication goes through discrete log / exp tables of a primitive element (the
// smallest element whose order is q-1). Construction O(q·k^2 + sqrt(q)·...); Add O(k),
// Mul/Inv O(1). Exact integer arithmetic only; q <= kMaxFieldOrder (std::invalid_argument
// otherwise, or when q is not a prime power).
#ifndef COLLSYNTH_GRAPHS_GENERATORS_FINITE_FIELD_H_
#define COLLSYNTH_GRAPHS_GENERATORS_FINITE_FIELD_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace collsynth {

inline constexpr std::int64_t kMaxFieldOrder = std::int64_t{1} << 16;

// Trial division; n < 2 is not prime.
bool IsPrime(std::int64_t n);
// (p, k) with q = p^k, k >= 1, or nullopt when q is not a prime power (q < 2 is not).
std::optional<std::pair<std::int64_t, int>> PrimePowerDecomposition(std::int64_t q);
inline bool IsPrimePower(std::int64_t q) { return PrimePowerDecomposition(q).has_value(); }

class FiniteField {
 public:
  explicit FiniteField(std::int64_t q);

  int order() const { return q_; }
  int characteristic() const { return p_; }
  int degree() const { return k_; }
  // Coefficients c_0..c_k (c_k = 1) of the irreducible modulus; {0, 1} (x) when k = 1.
  const std::vector<int>& modulus() const { return modulus_; }
  int primitive_element() const { return primitive_; }

  int Add(int a, int b) const;
  int Neg(int a) const;
  int Sub(int a, int b) const { return Add(a, Neg(b)); }
  int Mul(int a, int b) const;
  // Precondition a != 0 (std::logic_error otherwise).
  int Inv(int a) const;
  // g^e for the primitive element g (e taken mod q-1, e >= 0).
  int Exp(std::int64_t e) const { return exp_[static_cast<std::size_t>(e % (q_ - 1))]; }
  // Discrete log base g; precondition a != 0 (std::logic_error otherwise).
  int Log(int a) const;
  // a is a nonzero square (a quadratic residue); 0 is not. In characteristic 2 every
  // nonzero element is a square.
  bool IsNonzeroSquare(int a) const;

 private:
  // Polynomial product of a and b reduced mod modulus_, digit by digit (used to build tables).
  int SlowMul(int a, int b) const;
  int q_ = 0, p_ = 0, k_ = 0, primitive_ = 0;
  std::vector<int> modulus_;
  std::vector<int> exp_, log_;  // exp_[i] = g^i (i < q-1); log_[a] for a != 0
  std::vector<int> neg_;
};

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_FINITE_FIELD_H_
