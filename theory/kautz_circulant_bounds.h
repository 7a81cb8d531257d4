// Latency guarantees for two generative families (seed 000 App. E.2, E.4, App. J):
//   Thm 21  If D(Π_{d,m}) = k then m > M_{d,k-2}: the generalized Kautz digraph is at most one
//           step from Moore optimal (T_L <= T_L*(m, d) + 1). Its proof uses D(Π_{d,m}) <=
//           ⌈log_d m⌉ (Imase & Itoh [33]).
//   Thm 22  For n > 6 and m = ⌈(-1 + √(2n-1))/2⌉, the circulant C(n, {m, m+1}) has diameter m,
//           the minimum over all C(n, {a_1, a_2}) (Boesch & Wang [17]).
// Exact integer arithmetic (the square root is decided by comparing squares); O(log m).
#ifndef COLLSYNTH_THEORY_KAUTZ_CIRCULANT_BOUNDS_H_
#define COLLSYNTH_THEORY_KAUTZ_CIRCULANT_BOUNDS_H_

#include <cstdint>

#include "core/rational.h"

namespace collsynth {

// ⌈log_d m⌉, the upper bound on D(Π_{d,m}) from [33]; d >= 2, m >= 1.
std::int64_t GeneralizedKautzDiameterBound(std::int64_t d, std::int64_t m);

struct Theorem21Check {
  bool holds = false;                    // m > M_{d,k-2}
  BigInt moore_bound_k_minus_2;          // M_{d,k-2} (0 when k <= 1)
  std::int64_t moore_optimal_steps = 0;  // T_L*(m, d)
  std::int64_t gap = 0;                  // k - T_L*(m, d); Thm 21 implies gap <= 1
};
// Evaluates Thm 21's inequality for a measured diameter k >= 1 of Π_{d,m}.
Theorem21Check CheckTheorem21(std::int64_t d, std::int64_t m, std::int64_t diameter);

// m = ⌈(-1 + √(2n-1))/2⌉ = the least m >= 0 with (2m+1)^2 >= 2n-1; n > 6.
std::int64_t Theorem22Offset(std::int64_t n);

}  // namespace collsynth

#endif  // COLLSYNTH_THEORY_KAUTZ_CIRCULANT_BOUNDS_H_
