// k-ary n-tree (Petrini & Vanneschi 1997): the fat-tree BookSim builds and seed 003 §9.1 /
// Table 3 uses ("3-level Fat-tree, n=3, p=18": 3 · 18² = 972 routers of radix 36, 18³ = 5,832
// endpoints, top-level routers using half their ports). Distinct from the Al-Fares k-ary
// fat-tree `fattree(k)` of graphs/generators/switch_topologies.h (5k²/4 switches, k³/4 hosts).
//
// Problem: n levels of k^(n−1) switches each, level 0 the top. Switch <w, l>, w a word of
// n−1 digits in 0..k−1, is joined to switch <w', l+1> iff w and w' agree in every digit except
// digit l (so k up-links per non-top switch, k down-links per non-leaf switch). Endpoint
// p_0..p_{n−1} (k^n of them) hangs off leaf switch <p_0..p_{n−2}, n−1>. Switch radix 2k
// (k at the top level); the longest endpoint-switch to endpoint-switch path is 2(n−1) hops.
//
// Switches "s<l>_<w>" and endpoints "h<p>" with the digits written out (separated by '.'
// when k > 10); node order: switches level by level (w in increasing order), then endpoints.
// Unit duplex links. Complexity O(n·k^n). k >= 2, n >= 1; std::invalid_argument otherwise or
// above the generator size limit (checked before building).
#ifndef COLLSYNTH_GRAPHS_GENERATORS_KARY_N_TREE_H_
#define COLLSYNTH_GRAPHS_GENERATORS_KARY_N_TREE_H_

#include <cstdint>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// Closed forms: n·k^(n−1) switches, k^n endpoints.
BigInt KaryNTreeSwitches(std::int64_t k, std::int64_t n);
BigInt KaryNTreeEndpoints(std::int64_t k, std::int64_t n);

// karyntree(k, n), named "karyntree(k,n)".
Topology KaryNTree(std::int64_t k, std::int64_t n);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_KARY_N_TREE_H_
