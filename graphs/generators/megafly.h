// Megafly / Dragonfly+ (Flajslik et al., ISC'18; Shpiner et al., HiPINEB'17; seed 003 refs.
// [23, 57], Table 3, Figs 9–14): g = (a/2)·ρ + 1 groups; each group is a complete bipartite
// graph K_{a/2,a/2} between a/2 leaf routers (p endpoints each) and a/2 spine routers (ρ
// global links each); every pair of groups is joined by exactly one global link (the
// "consecutive" arrangement of graphs/generators/switch_topologies.h's dragonfly: global port
// o = j·ρ + t of group G, 0 <= o < (a/2)·ρ, on spine j, leads to group (G + o + 1) mod g and
// arrives there on port g − 2 − o). Routers a·g, endpoints (a/2)·p·g; network radix (router
// to router ports) a/2 at a leaf and a/2 + ρ at a spine; leaf-to-leaf router distance <= 3.
// Table 3's MF row is megafly(8,16,8): 65 groups, 1040 routers, 4160 endpoints, radix 16.
//
// Routers are switches "g<G>l<i>" (leaf) and "g<G>s<j>" (spine), endpoints compute nodes
// "g<G>l<i>t<t>" (all 0-based). Node order: per group, leaves with their endpoints, then
// spines. Unit duplex links. Complexity O(g·(a² + a·p)). ρ >= 1, a >= 2 even, p >= 1;
// std::invalid_argument otherwise or above the generator size limit (checked first).
#ifndef COLLSYNTH_GRAPHS_GENERATORS_MEGAFLY_H_
#define COLLSYNTH_GRAPHS_GENERATORS_MEGAFLY_H_

#include <cstdint>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// Closed forms: (a/2)ρ + 1 groups, a·g routers, (a/2)·p·g endpoints.
BigInt MegaflyGroups(std::int64_t rho, std::int64_t a, std::int64_t p);
BigInt MegaflyRouters(std::int64_t rho, std::int64_t a, std::int64_t p);
BigInt MegaflyEndpoints(std::int64_t rho, std::int64_t a, std::int64_t p);

// megafly(ρ, a, p), named "megafly(rho,a,p)".
Topology Megafly(std::int64_t rho, std::int64_t a, std::int64_t p);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_MEGAFLY_H_
