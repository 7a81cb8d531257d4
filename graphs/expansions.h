// Topology expansions of seed 000 §5 (Table 3) and Appendix F, each returning the expanded
// topology together with the map from new nodes to base nodes/links that the schedule
// expansions (Def. 2, Def. 4, App. C.3) need.
//
//   LineGraph        L(G) (Def. 1): a node per unit link u->v of G (a link of multiplicity k
//                    gives k nodes), linked e1 -> e2 when head(e1) = tail(e2). d-regular G:
//                    dN nodes, degree d. O(Σ_v in(v)·out(v)).
//   DegreeExpansion  G*n (Def. 3): copies v_0..v_{n-1}; (u_i, v_j) for every link (u,v) and
//                    all i, j. nN nodes, degree nd. G must have no self-loops. O(n^2 E).
//   CartesianProduct G_1 □ ... □ G_k (Def. 5): tuples, one coordinate moves along a link of
//                    its factor. Π N_i nodes, degree Σ d_i. O(Σ_i E_i Π_{j≠i} N_j).
//   CartesianPower   G^{□n} = G □ ... □ G.
//   Bidirectional    G ∪ G^T (App. F): same nodes, every link plus its reverse (merging into
//                    multi-links where G already has the reverse). Degree 2d.
//   TransposeOf      G^T.
//
// Preconditions (std::invalid_argument otherwise): no switch nodes (except Bidirectional and
// TransposeOf); LineGraph and DegreeExpansion need one bandwidth per unit link (each link's
// bandwidth / multiplicity equal), which the expanded links inherit; products keep each
// factor link's bandwidth and multiplicity. Every function checks the result size with
// CheckTopologySize before building. Exact rational bandwidths throughout.
//
// Node names: L(G) "u>v" (":c" appended for copy c of a multi-link), G*n "v*i" (i from 0),
// products "a|b|c" (factor order). Names must stay unique; a collision (possible only with
// base names that themselves contain '>' or '|' irregularly) throws std::invalid_argument.
#ifndef COLLSYNTH_GRAPHS_EXPANSIONS_H_
#define COLLSYNTH_GRAPHS_EXPANSIONS_H_

#include <vector>

#include "graphs/topology.h"

namespace collsynth {

struct LineGraphResult {
  Topology topology;
  std::vector<int> base_link;  // new node -> link id in G
  std::vector<int> copy;       // new node -> which unit of that (multi-)link, 0-based
};
LineGraphResult LineGraphExpansion(const Topology& g);
Topology LineGraph(const Topology& g);
// L^n(G), n >= 0 (n = 0 returns G).
Topology LineGraphPower(const Topology& g, int n);

struct DegreeExpansionResult {
  Topology topology;
  std::vector<int> base_node;  // new node -> node of G
  std::vector<int> copy;       // new node -> copy index 0..n-1
};
DegreeExpansionResult DegreeExpansionWithMap(const Topology& g, int n);
Topology DegreeExpansion(const Topology& g, int n);

struct ProductResult {
  Topology topology;
  // factor_node[v][i] = node of factor i that coordinate i of new node v is. New node ids are
  // mixed-radix with the LAST factor varying fastest.
  std::vector<std::vector<int>> factor_node;
};
ProductResult CartesianProductWithMap(const std::vector<const Topology*>& factors);
Topology CartesianProduct(const std::vector<const Topology*>& factors);
Topology CartesianProduct(const Topology& a, const Topology& b);
ProductResult CartesianPowerWithMap(const Topology& g, int n);
Topology CartesianPower(const Topology& g, int n);

Topology Bidirectional(const Topology& g);
Topology TransposeOf(const Topology& g);

// True when G^T = G with the identity isomorphism (every link u->v has a reverse v->u with
// the same bandwidth and multiplicity), the easy case of seed 000 Thm 4 (reverse symmetry):
// circulant, torus, hypercube, Hamming, complete, bipartite and every Bidirectional(G). O(E).
bool IsReverseSymmetricByIdentity(const Topology& g);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_EXPANSIONS_H_
