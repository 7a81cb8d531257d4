// PolarStar: diameter-3 star products ER_q * G' (seed 003, Lakhotia et al.).
//
// Problem: build the structure graph ER_q (the Erdős–Rényi polarity graph over F_q, §6.1.2,
// with its self-loop vertices), the supernodes G' — Inductive-Quad IQ_{d'} (§6.2.1, Property
// R*, d' ≡ 0 or 3 mod 4, order 2d'+2) and Paley (Table 2, Property R1, d' even with 2d'+1 a
// prime power, order 2d'+1) — and their star product (Definition 1) with one bijection f on
// every arc (Theorems 1 and 2). Self-loop rule (§6.1.2, Fig. 5c): a self-loop at x of ER_q is
// an arc x -> x, so it joins (x, x') to (x, f(x')); the product is a simple graph, so an edge
// already present is not doubled and a resulting self-loop (f(x') = x') is dropped.
//
// Degrees. IQ: f is a fixed-point-free involution and x' is never adjacent to f(x') (Prop. 1
// is tight), so the loop adds a perfect matching inside each of the q+1 loop supernodes and
// the product is (q+1+d')-regular. Paley, f(x) = g·x (g the primitive element of F_r, a
// non-square): on each cycle of x -> g·x the pairs {y, g·y} alternate between Paley edges
// (already present) and non-edges, so the loop adds exactly one new edge at every x' != 0;
// f(0) = 0, so vertex (x, 0) of each of the q+1 loop supernodes gets no loop edge and has
// degree q+d', one short of q+1+d'. (ER_q without loops already has diameter 2, so Theorem 2
// needs no loop edges.)
//
// Every supernode vertex is an int 0..n-1; IQ pairs vertices 2i and 2i+1 (f(v) = v ^ 1).
// IQ_3 is the 3-regular graph on 8 vertices given by Iq3BaseEdges(), the lexicographically
// first edge list with Property R* for f(v) = v ^ 1 (found by the exhaustive search in
// tests/graphs/polarstar_test.cc; listed in docs/topologies.md). The inductive step adds a
// copy of IQ_3 on vertices m..m+7 and joins {m, m+1, m+4, m+5} to A = the even old vertices
// and {m+2, m+3, m+6, m+7} to f(A) = the odd ones (|A| = d'+1; any split of IQ_3's four
// f-pairs into two halves keeps R*).
//
// Complexity: ER_q O(q^3) field operations; IQ / Paley O(n^2); star product
// O(|V(ER)|·|E(G')| + |E(ER)|·n). Orders and link counts are checked against
// CheckTopologySize before building. Integer (F_q) arithmetic only, unit bandwidths.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_POLARSTAR_H_
#define COLLSYNTH_GRAPHS_GENERATORS_POLARSTAR_H_

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

// An undirected simple graph on 0..n-1 with the bijection f the star product uses.
struct SupernodeGraph {
  std::string name;                         // e.g. "iq(7)", "paleygraph(13)"
  std::vector<std::vector<int>> adjacency;  // sorted neighbour lists, no loops
  std::vector<int> f;                       // bijection of 0..n-1
  int size() const { return static_cast<int>(adjacency.size()); }
};

enum class SupernodeKind { kInductiveQuad, kPaley };

// The 12 edges of IQ_3 (f(v) = v ^ 1).
const std::vector<std::pair<int, int>>& Iq3BaseEdges();

// IQ_{d'}: d' >= 0 with d' ≡ 0 or 3 (mod 4); 2d'+2 vertices, d'-regular, f(v) = v ^ 1.
SupernodeGraph InductiveQuad(int d);
// Paley graph on F_r (r ≡ 1 mod 4 a prime power, r >= 5): x ~ y iff x - y is a nonzero
// square; degree (r-1)/2; f(x) = g·x with g = FiniteField(r).primitive_element().
SupernodeGraph PaleySupernode(int r);

// Property R* (§5.1.2): f is an involution and for all x', y': y' = x', y' = f(x'),
// x' ~ y', or f(x') ~ f(y'). O(n^2).
bool HasPropertyRStar(const SupernodeGraph& g);
// Property R1 (§5.1.2): f is a bijection, f^2 an automorphism and E ∪ f(E) is every pair.
bool HasPropertyR1(const SupernodeGraph& g);

// ER_q: points of PG(2, q) as left-normalized vectors over F_q, v ~ w iff v·w = 0.
struct PolarityGraph {
  int q = 0;
  std::vector<std::array<int, 3>> points;   // (1,y,z) for y,z; then (0,1,z); then (0,0,1)
  std::vector<std::vector<int>> adjacency;  // sorted, without the self-loop
  std::vector<char> self_loop;              // v·v = 0 (q+1 vertices)
  int size() const { return static_cast<int>(points.size()); }
};
// q a prime power whose ER_q passes CheckTopologySize (std::invalid_argument otherwise).
PolarityGraph ErdosRenyiPolarity(int q);

// Node name of an ER_q point: "p<x>_<y>_<z>" with the field elements as ints.
std::string PolarityPointName(const std::array<int, 3>& point);

// er(q) as a Topology: unit links both ways per edge plus one self-link at each
// self-orthogonal point (every node then has out-degree q+1).
Topology ErTopology(int q);
// A supernode as a Topology with unit duplex links; nodes "n<i>".
Topology SupernodeTopology(const SupernodeGraph& g);

// ER_q * G' with the self-loop rule above. Nodes "<point name>n<x'>", in the order
// (ER point, supernode vertex). Unit duplex links.
Topology StarProduct(const PolarityGraph& er, const SupernodeGraph& supernode);

// polarstar(q, d', kind): ER_q * IQ_{d'} or ER_q * Paley(2d'+1); named "polarstar(q,d',iq)"
// or "polarstar(q,d',paley)". Throws std::invalid_argument when infeasible or too large.
Topology PolarStar(int q, int d, SupernodeKind kind);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_POLARSTAR_H_
