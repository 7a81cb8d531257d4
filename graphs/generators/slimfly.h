// Slim Fly: the McKay–Miller–Širáň (MMS) diameter-2 graphs (Besta & Hoefler, SC'14, seed 003
// ref. [7] and §1.2/Table 1; the structure graph of Bundlefly, seed 003 ref. [40]).
//
// Problem: build the MMS graph of a prime power q = 4w + δ, δ ∈ {−1, 0, 1}. Vertices
// (0, x, y) and (1, m, c) with x, y, m, c ∈ F_q; ξ is the primitive element of F_q
// (graphs/generators/finite_field.h) and
//   δ = 1:  X = {ξ^0, ξ^2, ..., ξ^(q−3)},                         X' = ξ·X
//   δ = 0:  X = {ξ^0, ξ^2, ..., ξ^(q−2)},                         X' = ξ·X
//   δ = −1: X = {ξ^0, ξ^2, ..., ξ^(2w−2)} ∪ {ξ^(2w−1), ξ^(2w+1), ..., ξ^(4w−3)},  X' = ξ·X.
// Edges: (0,x,y) ~ (0,x,y') iff y − y' ∈ X; (1,m,c) ~ (1,m,c') iff c − c' ∈ X';
// (0,x,y) ~ (1,m,c) iff y = m·x + c. X and X' are closed under negation, so the graph is
// undirected; it is simple, ((3q − δ)/2)-regular on 2q² vertices, diameter 2 (checked by BFS
// in tests/graphs/slimfly_test.cc for every q <= 13).
//
// Vertex numbering: (0, x, y) = x·q + y, (1, m, c) = q² + m·q + c. Names "a<x>_<y>" and
// "b<m>_<c>" (field elements as ints). Complexity O(q²·degree); exact integer arithmetic.
// q must be a prime power with q mod 4 ∈ {0, 1, 3} (q >= 3); std::invalid_argument otherwise
// or when the graph is above the generator size limit.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_SLIMFLY_H_
#define COLLSYNTH_GRAPHS_GENERATORS_SLIMFLY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// δ of q = 4w + δ (−1, 0 or 1); std::invalid_argument when q is not a prime power >= 3 of
// that form (q ≡ 2 mod 4 is never a prime power above 2).
int SlimFlyDelta(std::int64_t q);
// Closed forms: 2q² vertices, degree (3q − δ)/2.
BigInt SlimFlyOrder(std::int64_t q);
std::int64_t SlimFlyDegree(std::int64_t q);

// The MMS graph as sorted adjacency lists (numbering above).
std::vector<std::vector<int>> MmsGraph(std::int64_t q);
// Node name of vertex v of MMS(q).
std::string MmsNodeName(std::int64_t q, int v);

// slimfly(q): MMS(q) as a Topology of compute nodes with unit duplex links.
Topology SlimFly(std::int64_t q);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_SLIMFLY_H_
