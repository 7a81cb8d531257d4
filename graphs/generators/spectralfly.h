// Spectralfly (Young et al., IPDPS'22; seed 003 ref. [63], Table 3 "SF", Figs 1/9–14): the
// Lubotzky–Phillips–Sarnak Ramanujan graph X^{p,q}, a Cayley graph of PSL(2, q) or PGL(2, q).
//
// Problem: p and q distinct odd primes. The p + 1 generators are the integer quaternions
// α = a + b·i + c·j + d·k of norm a² + b² + c² + d² = p, taken up to sign: for p ≡ 1 (mod 4)
// the solutions with a odd and a > 0; for p ≡ 3 (mod 4) those with a even and either a > 0,
// or a = 0 and the first nonzero of (b, c, d) positive (Jacobi: 8(p+1) solutions, one in
// eight kept). With x, y ∈ F_q such that x² + y² + 1 = 0, α maps to the matrix
//   [[a + b·x + d·y, −b·y + c + d·x], [−b·y − c + d·x, a − b·x − d·y]]   (determinant p),
// taken in PGL(2, q) (matrices up to a nonzero scalar). The graph joins g and g·s for every
// generator s; it is the connected component of the identity, which is PSL(2, q) (order
// q(q² − 1)/2) when p is a square mod q and PGL(2, q) (order q(q² − 1)) otherwise. It is
// (p + 1)-regular and simple when the p + 1 generator matrices are distinct and not the
// identity in PGL(2, q) (true for q > 2√p); otherwise Spectralfly() refuses.
// Table 3's SF row is spectralfly(23,13): PSL(2, 13), 1092 routers, radix 24.
// The diameter is not fixed; LpsDiameterAtMost() tests it by a BFS from the identity (the
// graph is vertex-transitive) without building a Topology.
//
// Elements are stored as normalized matrices (first nonzero entry of (m00, m01, m10, m11)
// equal to 1); node names "m<m00>_<m01>_<m10>_<m11>". Complexity O(|G|·p) hash operations.
// std::invalid_argument on bad parameters or above the generator size limit.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_SPECTRALFLY_H_
#define COLLSYNTH_GRAPHS_GENERATORS_SPECTRALFLY_H_

#include <array>
#include <cstdint>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// 1 when p is a nonzero square mod q, −1 otherwise (q an odd prime not dividing p).
int LegendreSymbol(std::int64_t p, std::int64_t q);
// Closed form: q(q² − 1)/2 when (p/q) = 1, else q(q² − 1). Validates p and q.
BigInt SpectralflyOrder(std::int64_t p, std::int64_t q);

// The p + 1 generator matrices, normalized (entries in F_q). Validates p and q.
std::vector<std::array<int, 4>> LpsGenerators(std::int64_t p, std::int64_t q);

// True when X^{p,q} is simple, (p+1)-regular and has diameter <= max_diameter: the BFS
// from the identity reaches all SpectralflyOrder(p, q) elements within max_diameter steps.
// Stops as soon as the order is reached or the ball stops growing.
bool LpsDiameterAtMost(std::int64_t p, std::int64_t q, int max_diameter);

// spectralfly(p, q), named "spectralfly(p,q)".
Topology Spectralfly(std::int64_t p, std::int64_t q);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_SPECTRALFLY_H_
