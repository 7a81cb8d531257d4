#include "theory/expansion_bounds.h"

#include <stdexcept>

#include "theory/moore_bound.h"

namespace collsynth {
namespace {

std::int64_t CheckedAdd(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("step count overflows int64");
  return r;
}

std::int64_t CheckedMul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("step count overflows int64");
  return r;
}

void RequireValid(const AllgatherPerformance& p) {
  if (p.nodes < 2) throw std::invalid_argument("an allgather algorithm needs N >= 2 nodes");
  if (p.degree < 1) throw std::invalid_argument("degree must be >= 1");
  if (p.latency_steps < 1) throw std::invalid_argument("latency must be >= 1 step");
  if (p.bandwidth <= 0) throw std::invalid_argument("T_B must be positive");
}

void RequireCount(int n, int lo, const char* what) {
  if (n < lo) throw std::invalid_argument(std::string(what) + " needs n >= " + std::to_string(lo));
}

BigInt Pow(const BigInt& b, int n) {
  BigInt r = 1;
  for (int i = 0; i < n; ++i) r *= b;
  return r;
}

// d/(d-1)·(1/N - 1/(d^n N)) = Σ_{i=0}^{n-1} 1/(d^i N), which also covers d = 1.
Rational LineGraphExtra(const BigInt& nodes, std::int64_t d, int n) {
  Rational extra = 0;
  BigInt di = 1;
  for (int i = 0; i < n; ++i) {
    extra += Rational(BigInt(1), di * nodes);
    di *= d;
  }
  return extra;
}

AllgatherPerformance LineGraphPowerImpl(const AllgatherPerformance& base, int n, bool bfb) {
  RequireValid(base);
  RequireCount(n, 0, "line graph power");
  AllgatherPerformance r = base;
  r.nodes = base.nodes * Pow(base.degree, n);
  r.latency_steps = CheckedAdd(base.latency_steps, n);                        // (1), (5)
  r.bandwidth = base.bandwidth + LineGraphExtra(base.nodes, base.degree, n);  // (2), (6), (7)
  if (!bfb) r.bandwidth_is_upper_bound = base.bandwidth_is_upper_bound || n > 0;
  r.derivation += std::string(bfb ? "; Cor 10.1" : "; Cor 1.1") + " L^" + std::to_string(n);
  return r;
}

}  // namespace

AllgatherPerformance BandwidthOptimalBase(const BigInt& nodes, std::int64_t degree,
                                          std::int64_t latency_steps, const std::string& name) {
  AllgatherPerformance p;
  p.nodes = nodes;
  p.degree = degree;
  p.latency_steps = latency_steps;
  if (nodes < 2) throw std::invalid_argument("an allgather algorithm needs N >= 2 nodes");
  p.bandwidth = BandwidthLowerBound(nodes);
  p.derivation = name + " (BW optimal, T_L = " + std::to_string(latency_steps) + ")";
  RequireValid(p);
  return p;
}

bool IsBandwidthOptimal(const AllgatherPerformance& p) {
  return !p.bandwidth_is_upper_bound && p.bandwidth == BandwidthLowerBound(p.nodes);
}

AllgatherPerformance LineGraphBound(const AllgatherPerformance& base) {
  AllgatherPerformance r = LineGraphPowerImpl(base, 1, false);
  r.derivation = base.derivation + "; Thm 1 L";
  return r;
}

AllgatherPerformance LineGraphPowerBound(const AllgatherPerformance& base, int n) {
  return LineGraphPowerImpl(base, n, false);
}

AllgatherPerformance LineGraphPowerBfb(const AllgatherPerformance& base, int n) {
  if (base.degree < 2) {
    throw std::invalid_argument("Thm 10 needs |N^+(u)| > 1, i.e. degree >= 2");
  }
  return LineGraphPowerImpl(base, n, true);
}

Rational LineGraphBandwidthRatioLimit(const BigInt& nodes, std::int64_t degree) {
  if (degree < 2) throw std::invalid_argument("Thm 2 needs degree >= 2");
  if (nodes < 2) throw std::invalid_argument("Thm 2 needs N >= 2");
  return 1 + Rational(BigInt(1), BigInt(degree - 1) * nodes);
}

Rational LineGraphBandwidthRatio(const BigInt& nodes, std::int64_t degree, int n) {
  if (degree < 2) throw std::invalid_argument("Cor 10.1 needs degree >= 2");
  if (nodes < 2) throw std::invalid_argument("Cor 10.1 needs N >= 2");
  RequireCount(n, 0, "line graph power");
  const BigInt big_d = Pow(BigInt(degree), n);
  const BigInt num = big_d * (nodes - 1) * (degree - 1) + BigInt(degree) * (big_d - 1);
  const BigInt den = (big_d * nodes - 1) * (degree - 1);
  return Rational(num, den);
}

AllgatherPerformance DegreeExpansionPerformance(const AllgatherPerformance& base, int n) {
  RequireValid(base);
  RequireCount(n, 1, "degree expansion");
  AllgatherPerformance r = base;
  r.nodes = base.nodes * n;
  r.degree = CheckedMul(base.degree, n);
  r.latency_steps = CheckedAdd(base.latency_steps, 1);                             // (8)
  r.bandwidth = base.bandwidth + Rational(BigInt(n - 1), BigInt(n) * base.nodes);  // (9)
  r.derivation += "; Thm 11 *" + std::to_string(n);
  return r;
}

AllgatherPerformance CartesianPowerPerformance(const AllgatherPerformance& base, int n) {
  RequireValid(base);
  RequireCount(n, 1, "Cartesian power");
  AllgatherPerformance r = base;
  BigInt nn = Pow(base.nodes, n);
  r.nodes = nn;
  r.degree = CheckedMul(base.degree, n);
  r.latency_steps = CheckedMul(base.latency_steps, n);  // (10)
  r.bandwidth =
      base.bandwidth * Rational(base.nodes, base.nodes - 1) * Rational(nn - 1, nn);  // (11)
  r.derivation += "; Thm 12 ^" + std::to_string(n);
  return r;
}

AllgatherPerformance CartesianProductPerformance(const std::vector<AllgatherPerformance>& factors) {
  if (factors.empty()) throw std::invalid_argument("Thm 13 needs at least one factor");
  AllgatherPerformance r;
  r.nodes = 1;
  r.derivation = "Thm 13 product(";
  for (std::size_t i = 0; i < factors.size(); ++i) {
    const AllgatherPerformance& f = factors[i];
    RequireValid(f);
    if (!IsBandwidthOptimal(f)) {
      throw std::invalid_argument(
          "Thm 13 needs every factor to have a BW-optimal BFB schedule; factor " +
          std::to_string(i + 1) + " has T_B = " + ToString(f.bandwidth) + " != (N-1)/N");
    }
    r.nodes *= f.nodes;
    r.degree = CheckedAdd(r.degree, f.degree);
    r.latency_steps = CheckedAdd(r.latency_steps, f.latency_steps);
    r.derivation += (i ? ", " : "") + f.derivation;
  }
  r.derivation += ")";
  r.bandwidth = BandwidthLowerBound(r.nodes);
  return r;
}

AllgatherPerformance BidirectionalPerformance(const AllgatherPerformance& base) {
  RequireValid(base);
  AllgatherPerformance r = base;
  r.degree = CheckedMul(base.degree, 2);
  r.derivation += "; App. F bidir";
  return r;
}

std::int64_t AllreduceLatencySteps(const AllgatherPerformance& p) {
  return CheckedMul(p.latency_steps, 2);
}

Rational AllreduceBandwidth(const AllgatherPerformance& p) { return 2 * p.bandwidth; }

}  // namespace collsynth
