// TopoOpt ring-permutation topologies (seed 002 §4.3, Algorithms 2-3, Appendix E.1 Thm 2;
// ShiftedRing as described in seed 000 §8.2).
//
// TotientShifts(k): the shifts p, 1 <= p < k, gcd(p, k) = 1 (README erratum: the printed
// Algorithm 2 is inconsistent); each shift is the ring j -> (j + p) mod k, a Hamiltonian cycle
// (Theorem 2). SelectPermutations(n, d): d of those shifts close (L1) to the geometric
// sequence 1, x, x^2, ... with x = n^(1/d) (Algorithm 3; q' = x·q is projected onto the unused
// shifts; ties go to the smaller shift). Distances |r - x·q| are compared exactly: r1 < r2 is
// closer iff n·q^d < ((r1 + r2)/2)^d. Directed permutation links of unit bandwidth.
// ShiftedRing(n): two bidirectional rings, shift 1 and the smallest shift p >= 2 coprime to
// n with p != n-1 (when none exists, n = 3, 4, 6, the second ring repeats shift 1 and
// links merge with multiplicity 2). Node names "s<i>". O(n·d) each; std::invalid_argument on
// bad parameters or absurd sizes.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_TOPOOPT_H_
#define COLLSYNTH_GRAPHS_GENERATORS_TOPOOPT_H_

#include <cstdint>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

std::vector<std::int64_t> TotientShifts(std::int64_t k);
std::vector<std::int64_t> SelectPermutations(std::int64_t n, std::int64_t d);
// Union of the directed rings i -> (i + p) mod n for the given shifts (n >= 2).
Topology RingPermutations(std::int64_t n, const std::vector<std::int64_t>& shifts,
                          const std::string& name);
Topology TotientPerms(std::int64_t n);                 // every coprime shift
Topology SelectPerms(std::int64_t n, std::int64_t d);  // SelectPermutations(n, d)
Topology ShiftedRing(std::int64_t n);                  // n >= 3

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_TOPOOPT_H_
