// Bundlefly (Lei, Dong, Liao, Duato, ICS'20; seed 003 ref. [40], Table 3, Figs 1/9–14): the
// star product MMS_q * Paley(r) of a Slim Fly structure graph (graphs/generators/slimfly.h,
// diameter 2, degree d = (3q − δ)/2, 2q² vertices) and a Paley supernode of degree
// d' = (r − 1)/2 (r ≡ 1 mod 4 a prime power, graphs/generators/polarstar.h).
//
// Problem: build that star product (seed 003 Definition 1) with one bijection on every arc:
// the orientation is x -> y for x < y (vertex numbers of MMS_q) and f(v) = g·v with g the
// primitive element of F_r, the Property R1 bijection of the Paley graph. By seed 003
// Theorem 2 ([6]) the product has diameter at most 2 + 1 = 3; MMS has no self-loops, so it is
// (d + d')-regular with 2q²·r vertices. Table 3's BF row is bundlefly(7,4): d = 11, d' = 4,
// 98 · 9 = 882 routers, radix 15.
//
// Nodes "<MMS name>n<v>" (e.g. "a3_4n7"), in the order (MMS vertex, supernode vertex); unit
// duplex links. Complexity O(2q²·(d·r + r·d')). q as in SlimFly; d' >= 2 even with 2d'+1 a
// prime power; std::invalid_argument otherwise or above the generator size limit.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_BUNDLEFLY_H_
#define COLLSYNTH_GRAPHS_GENERATORS_BUNDLEFLY_H_

#include <cstdint>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// Closed forms: 2q²(2d'+1) routers, radix (3q − δ)/2 + d'. Validate like Bundlefly().
BigInt BundleflyOrder(std::int64_t q, std::int64_t d_prime);
std::int64_t BundleflyRadix(std::int64_t q, std::int64_t d_prime);

// bundlefly(q, d'), named "bundlefly(q,d')".
Topology Bundlefly(std::int64_t q, std::int64_t d_prime);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_BUNDLEFLY_H_
