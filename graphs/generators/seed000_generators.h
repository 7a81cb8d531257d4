// Generators for the seed 000 topology families (Zhao et al., "Efficient Direct-Connect
// Topologies for Collective Communications", Table 9 and Appendix E), plus the classic
// torus/hypercube variants it evaluates. Every function validates its parameters
// (std::invalid_argument naming the parameter), checks the size with CheckTopologySize
// BEFORE allocating, and returns a compute-only topology with bandwidth 1 per unit link
// (a multi-link of multiplicity k has bandwidth k). Node names are deterministic and
// documented in docs/topologies.md. All O(N·d) time and memory.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_SEED000_GENERATORS_H_
#define COLLSYNTH_GRAPHS_GENERATORS_SEED000_GENERATORS_H_

#include <vector>

#include "graphs/topology.h"

namespace collsynth {

// K_m, m >= 2: every ordered pair linked. Nodes "0".."m-1". Degree m-1.
Topology Complete(int m);

// K_{d,d}, d >= 1 (Fig. 1): nodes "a0".."a{d-1}", "b0".."b{d-1}", a_i <-> b_j. Degree d.
Topology CompleteBipartite(int d);

// H(n, q) = K_q^{□n}, n >= 1, q >= 2: words of length n over {0..q-1} ("021"; digits
// separated by '.' when q > 10), linked when they differ in exactly one position.
// q^n nodes, degree n(q-1).
Topology Hamming(int n, int q);

// Q_n = H(n, 2), n >= 1: bit strings "0110".
Topology Hypercube(int n);

// Twisted n-cube TQ_n (Esfahanian, Ni, Sagan 1991; seed 000 App. I), n >= 3: Q_n with the
// pair of edges {00x, 10x}, {11x, 01x} of the 4-cycle 00x-10x-11x-01x (x = 0^{n-2}) replaced
// by {00x, 11x}, {10x, 01x}. Degree n, diameter n-1.
Topology TwistedHypercube(int n);

// Kautz K(d, n) = L^n(K_{d+1}), d >= 1, n >= 0: words s_0..s_n over {0..d} with
// s_i != s_{i+1}; s -> s_1..s_n a for every a != s_n. d^n(d+1) nodes, degree d,
// diameter n+1 (Moore optimal).
Topology Kautz(int d, int n);

// Generalized Kautz Π_{d,m} (Def. 16), d >= 2, m >= d+1: vertices Z_m ("0".."m-1"),
// x -> (-d·x - a) mod m for a = 1..d. Degree d; self-loops possible.
Topology GeneralizedKautz(int d, int m);

// de Bruijn B(d, n), d >= 2, n >= 1: words of length n over {0..d-1}, x_1..x_n -> x_2..x_n a.
// d^n nodes, degree d, d self-loops.
Topology DeBruijn(int d, int n);

// Diamond (seed 000 Fig. 16, Table 9; the figure is not in the text): the 2-regular digraph on
// nodes "0".."7" chosen by the search of experiments/seed000_base_search.h (docs/topologies.md
// lists every candidate): 0->1,2 1->2,3 2->4,5 3->0,6 4->0,6 5->1,7 6->5,7 7->3,4. Diameter 3
// (Moore optimal), not reverse-symmetric, no self-loops or multi-links; a 3-step allgather
// with T_B = (N-1)/N M/B exists (found by the step MILP with 2 chunks per shard; BFB gives
// 1 M/B). Trivial automorphism group (none declared).
Topology Diamond();

// DBJMod(d, n) (seed 000 Fig. 17, Table 9), (d, n) in {(2,3), (2,4), (3,2), (4,2)}: de Bruijn
// B(d, n) (same nodes and names) without its self-loops and 2-cycles, plus one directed cycle
// through the d² words a b a b ... that lost a link, in the order chosen by the search of
// experiments/seed000_base_search.h (docs/topologies.md). Degree d, no self-loops or
// multi-links. std::invalid_argument for other (d, n).
Topology DbjMod(int d, int n);

// Circulant C(n, {a_1..a_k}) (Def. 18), n >= 2, 1 <= a_j <= n-1, gcd(n, a_1..a_k) = 1
// (else disconnected: rejected). Nodes "0".."n-1". bidirectional: i -> i ± a_j (degree 2k);
// directed: i -> i + a_j (degree k). Coinciding targets (a_j = n/2, repeated offsets) merge
// into a multi-link, so the degree is always 2k (resp. k).
Topology Circulant(int n, std::vector<int> offsets, bool bidirectional);

// UniRing(d, m), d >= 1, m >= 2: i -> i+1 mod m with multiplicity d. Degree d.
Topology UniRing(int d, int m);

// BiRing(d, m), even d >= 2, m >= 3: i <-> i+1 mod m with multiplicity d/2 each way.
Topology BiRing(int d, int m);

// Torus d_1 × ... × d_k = BiRing(2,d_1) □ ... □ BiRing(2,d_k), every d_i >= 2 (a dimension
// of size 2 is a double link, so the torus is always 2k-regular). Nodes "t{x_1}_{x_2}_..".
Topology Torus(const std::vector<int>& dims);

// Twisted 2D torus (Cámara et al. 2010, seed 000 §6): a × b torus (a, b >= 2) whose wrap-around
// links of the second dimension shift the first by `twist`: (x, b-1) <-> ((x + twist) mod a, 0),
// 0 <= twist < a. Nodes "t{x}_{y}". Degree 4.
Topology TwistedTorus(int a, int b, int twist);

// The name of a word over an alphabet of `radix` letters: digits, '.'-separated when radix > 10.
std::string WordName(const std::vector<int>& letters, int radix);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_SEED000_GENERATORS_H_
