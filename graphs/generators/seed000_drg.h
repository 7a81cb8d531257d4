// Distance-regular graphs of seed 000 Table 7 (App. E.3: every distance-regular graph has a
// BW-optimal BFB schedule) and the classic constructions behind them. All are undirected
// (every link duplex, unit bandwidth), simple, compute-only. Parameters are validated with
// std::invalid_argument; sizes are small (≤ C(2k-1,k) etc.), built in O(N^2) at worst.
//
// drg(NAME) names (Table 7 row, N, diameter):
//   octahedron   J(4,2)                               6  2
//   paley9       Paley graph P9 ≅ H(2,3)              9  2
//   k55minus     K_{5,5} minus a perfect matching    10  3
//   heawooddist3 distance-3 graph of Heawood         14  3
//   petersenline line graph of the Petersen graph    15  3
//   q4           4-cube Q4 ≅ H(4,2)                  16  4
//   heawoodline  line graph of the Heawood graph     21  3
//   pg23         incidence graph of PG(2,3)          26  3
//   odd4         odd graph O4                        35  3
//   tutte8line   line graph of Tutte's 8-cage        45  4
//   doubledodd4  doubled odd graph D(O4)             70  7
//   gq33         incidence graph of GQ(3,3) = W(3)   80  4
#ifndef COLLSYNTH_GRAPHS_GENERATORS_SEED000_DRG_H_
#define COLLSYNTH_GRAPHS_GENERATORS_SEED000_DRG_H_

#include <string>
#include <vector>

#include "graphs/family.h"
#include "graphs/topology.h"

namespace collsynth {

// Johnson graph J(n,k), 1 <= k < n: k-subsets of {0..n-1} ("s0_2"), adjacent iff they share
// k-1 elements.
Topology JohnsonGraph(int n, int k);
// Odd graph O_k, k >= 2: (k-1)-subsets of {0..2k-2}, adjacent iff disjoint. O_3 = Petersen.
Topology OddGraph(int k);
// Doubled odd graph D(O_k), k >= 2: (k-1)-subsets "a.." and k-subsets "b.." of {0..2k-2},
// adjacent iff one contains the other.
Topology DoubledOddGraph(int k);
// Crown graph: K_{d,d} minus a perfect matching, d >= 2: a_i ~ b_j iff i != j.
Topology CrownGraph(int d);
// Paley graph of order q, q prime with q ≡ 1 (mod 4), or q = 9 (F_9 = F_3[i], i^2 = -1):
// x ~ y iff x - y is a nonzero square. Names "p{x}" (q prime) or "p{a}{b}" for a+bi.
Topology PaleyGraph(int q);
// Incidence graph of the projective plane PG(2,q), q prime: points "p.." and lines "l.."
// (normalized vectors of F_q^3), p ~ l iff p·l = 0. q = 2 is the Heawood graph.
Topology ProjectivePlaneIncidence(int q);
// Incidence graph of the symplectic generalized quadrangle W(q) = GQ(q,q), q prime: points of
// PG(3,q) and totally isotropic lines of x0y1 - x1y0 + x2y3 - x3y2. q = 2 is Tutte's 8-cage.
Topology SymplecticQuadrangleIncidence(int q);

// Incidence graph of the affine plane AG(2, q) minus one parallel class (the vertical lines),
// q a prime power <= 16: points "p{x}.{y}" (x, y in F_q), lines "l{m}.{b}" = {y = m·x + b};
// 2q² nodes, degree q, distance-regular with diameter 4 (Table 7: q = 4, N = 32).
Topology AffinePlaneMinusParallelClassIncidence(int q);
// Undirected line graph of a symmetric simple topology: a node "u-v" per edge {u,v}, adjacent
// iff the edges share an endpoint. (Not the directed L(G) of Def. 1: see graphs/expansions.h.)
Topology UndirectedLineGraph(const Topology& g);
// Distance-k graph: same nodes, u ~ v iff their hop distance in g is exactly k.
Topology DistanceGraph(const Topology& g, int k);

// The Table 7 graph called `name` (list above); std::invalid_argument listing the names.
Topology DistanceRegularGraph(const std::string& name);
// Names accepted by DistanceRegularGraph, in Table 7 order.
std::vector<std::string> DistanceRegularGraphNames();

// Expression-language entries: drg(name), johnson(n,k), oddgraph(k).
std::vector<Family> DistanceRegularFamilies();

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_SEED000_DRG_H_
