// Closed-form performance of expanded allgather algorithms (seed 000 §5, Table 3, App. C/J):
// the formulas the topology finder ranks candidates by, without building schedules.
//
// An N-node degree-d allgather algorithm (G, A) is summarised by T_L = latency_steps·α and
// T_B = bandwidth·M/B, where B = d·b is a node's total egress bandwidth (seed 000 §3). The
// theorems give the expanded algorithm's (N', d', T_L', T_B'):
//   Thm 1       L(G):       dN,  d,  T_L+1, T_B ≤ T_B + 1/N                   (upper bound)
//   Cor 1.1     L^n(G):     d^nN, d, T_L+n, T_B ≤ T_B + d/(d-1)·(1/N - 1/(d^nN))
//   Thm 10 /    L^n(G) from the optimal BFB schedule of G with |N^+(u)| > 1: the same with
//   Cor 10.1    equality (and the result is the optimal BFB schedule of L^n(G))
//   Thm 2       BW-optimal G: T_B(L^n)/T_B*(d^nN) ≤ 1 + 1/((d-1)N)
//   Thm 11      G*n:        nN,  nd, T_L+1, T_B + (n-1)/(nN)
//   Thm 12      G^{□n}:     N^n, nd, n·T_L, T_B·N/(N-1)·(N^n-1)/N^n
//   Thm 13      G_1□...□G_k, each with a BW-optimal BFB schedule: ΠN_i, Σd_i, ΣD(G_i),
//               (ΠN_i - 1)/ΠN_i (BW optimal)
//   App. F      G ∪ G^T (reverse-symmetric G): N, 2d, T_L, T_B
// Theorems 1, 11, 12 assume T_B(A_G, M, B) = τ·M/B (true for every schedule here).
// Exact: BigInt sizes, Rational T_B, checked int64 step counts (std::overflow_error).
// Preconditions are checked (std::invalid_argument). All O(n) or O(k) arithmetic.
#ifndef COLLSYNTH_THEORY_EXPANSION_BOUNDS_H_
#define COLLSYNTH_THEORY_EXPANSION_BOUNDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/rational.h"

namespace collsynth {

struct AllgatherPerformance {
  BigInt nodes;                    // N
  std::int64_t degree = 0;         // d
  std::int64_t latency_steps = 0;  // T_L / α
  Rational bandwidth;              // T_B / (M/B)
  // True when `bandwidth` is only proven to be an upper bound (Thm 1, Cor 1.1).
  bool bandwidth_is_upper_bound = false;
  // The chain of theorems that produced this value, e.g. "base; Cor 10.1 (n=3)".
  std::string derivation;
};

// A BW-optimal base algorithm, T_B = T_B*(N) = (N-1)/N, with `latency_steps` steps
// (for a BFB schedule, the diameter: Thm 15). N >= 2, d >= 1, latency_steps >= 1.
AllgatherPerformance BandwidthOptimalBase(const BigInt& nodes, std::int64_t degree,
                                          std::int64_t latency_steps, const std::string& name);

// True when T_B equals T_B*(N) exactly (and is not merely an upper bound).
bool IsBandwidthOptimal(const AllgatherPerformance& p);

AllgatherPerformance LineGraphBound(const AllgatherPerformance& base);              // Thm 1
AllgatherPerformance LineGraphPowerBound(const AllgatherPerformance& base, int n);  // Cor 1.1
// Thm 10 (n = 1) / Cor 10.1: base must be the optimal BFB schedule of G, degree >= 2.
AllgatherPerformance LineGraphPowerBfb(const AllgatherPerformance& base, int n);
// Thm 2: the limit 1 + 1/((d-1)N) of T_B(L^n)/T_B*(d^nN) for a BW-optimal base; d >= 2.
Rational LineGraphBandwidthRatioLimit(const BigInt& nodes, std::int64_t degree);
// Figure 3's curve: T_B(L^n(G))/T_B*(d^nN) for a BW-optimal N-node degree-d base with its
// optimal BFB schedule (Cor 10.1, an equality; eq. (14) of Thm 2's proof), in closed form
// (D = d^n): [D(N-1) + d(D-1)/(d-1)] / (DN - 1). 1 at n = 0, increasing to the Thm 2 limit.
// N >= 2, d >= 2, n >= 0 (std::invalid_argument otherwise); O(n) multiplications.
Rational LineGraphBandwidthRatio(const BigInt& nodes, std::int64_t degree, int n);
AllgatherPerformance DegreeExpansionPerformance(const AllgatherPerformance& base, int n);  // Thm 11
AllgatherPerformance CartesianPowerPerformance(const AllgatherPerformance& base, int n);   // Thm 12
// Thm 13: every factor must be BW optimal (exactly) with latency = its diameter.
AllgatherPerformance CartesianProductPerformance(const std::vector<AllgatherPerformance>& factors);
AllgatherPerformance BidirectionalPerformance(const AllgatherPerformance& base);  // App. F

// Allreduce = reduce-scatter + allgather, the reduce-scatter being the reversed allgather
// (Thm 3/4) with the same T_L and T_B: Table 4 reports these doubled values.
std::int64_t AllreduceLatencySteps(const AllgatherPerformance& p);
Rational AllreduceBandwidth(const AllgatherPerformance& p);

}  // namespace collsynth

#endif  // COLLSYNTH_THEORY_EXPANSION_BOUNDS_H_
