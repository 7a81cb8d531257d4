// Moore bound and Moore optimality (seed 000, Appendix B.1, Def. 11 and 12) and the
// bandwidth lower bound T_B*(N) (seed 000 §3 / Thm 6).
//
// M_{d,k} = sum_{i=0..k} d^i: no degree-d digraph of diameter k has more vertices.
// T_L*(N, d) = the smallest k with M_{d,k} >= N, i.e. the fewest comm steps any N-node
// degree-d allgather can take; a schedule with T_L = k is Moore optimal iff N > M_{d,k-1}.
// Exact big integers; O(k) multiplications.
#ifndef COLLSYNTH_THEORY_MOORE_BOUND_H_
#define COLLSYNTH_THEORY_MOORE_BOUND_H_

#include <cstdint>

#include "core/rational.h"

namespace collsynth {

// M_{d,k}; d >= 1, k >= 0 (k = -1 gives 0 so that N > M_{d,-1} holds for N >= 1).
BigInt MooreBound(std::int64_t d, std::int64_t k);

// T_L*(N, d) in steps; N >= 1, d >= 1.
std::int64_t MooreOptimalSteps(const BigInt& n, std::int64_t d);

// Def. 12: an N-node degree-d algorithm with k steps is Moore optimal iff N > M_{d,k-1}.
bool IsMooreOptimal(const BigInt& n, std::int64_t d, std::int64_t steps);

// T_B*(N) = (N-1)/N in units of M/B (B = total egress bandwidth of a node).
Rational BandwidthLowerBound(const BigInt& n);

}  // namespace collsynth

#endif  // COLLSYNTH_THEORY_MOORE_BOUND_H_
