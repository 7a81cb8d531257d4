// PolarStar (seed 003): ER_q (§6.1.2, Theorem 3), Inductive-Quad (§6.2.1, Prop. 1/2,
// Fig. 6), Paley supernodes (Table 2, Property R1) and the star product (Definition 1,
// Theorems 1 and 2; §7.1 order formula).
#include "graphs/generators/polarstar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

#include "graphs/generators/finite_field.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

// --- ER_q -------------------------------------------------------------------------------

// Independent adjacency: dot products over every pair of points.
TEST(PolarStarEr, AdjacencyMatchesDotProductsAndTheoremThree) {
  for (int q : {2, 3, 4, 5, 7, 8, 9}) {
    PolarityGraph er = ErdosRenyiPolarity(q);
    FiniteField f(q);
    const int n = er.size();
    ASSERT_EQ(n, q * q + q + 1);
    auto dot = [&](int v, int w) {
      const auto& a = er.points[v];
      const auto& b = er.points[w];
      return f.Add(f.Add(f.Mul(a[0], b[0]), f.Mul(a[1], b[1])), f.Mul(a[2], b[2]));
    };
    std::set<std::array<int, 3>> distinct(er.points.begin(), er.points.end());
    EXPECT_EQ(static_cast<int>(distinct.size()), n);
    int loops = 0;
    std::vector<std::vector<char>> adj(n, std::vector<char>(n, 0));
    for (int v = 0; v < n; ++v) {
      std::vector<int> expected;
      for (int w = 0; w < n; ++w) {
        if (w != v && dot(v, w) == 0) expected.push_back(w);
      }
      EXPECT_EQ(er.adjacency[v], expected) << "q=" << q << " v=" << v;
      EXPECT_EQ(er.self_loop[v] != 0, dot(v, v) == 0);
      loops += er.self_loop[v];
      // Degree q+1 counting the self-loop once.
      EXPECT_EQ(static_cast<int>(er.adjacency[v].size()) + er.self_loop[v], q + 1);
      for (int w : er.adjacency[v]) adj[v][w] = 1;
      if (er.self_loop[v]) adj[v][v] = 1;
    }
    EXPECT_EQ(loops, q + 1) << q;
    // Theorem 3 (Property R): every pair, equal or not, is joined by a walk of length exactly
    // 2 (self-loops allowed); distinct points have exactly one common neighbour (v × w).
    for (int v = 0; v < n; ++v) {
      for (int w = 0; w < n; ++w) {
        int common = 0;
        for (int u = 0; u < n; ++u) common += adj[v][u] && adj[u][w];
        EXPECT_GE(common, 1) << q << " " << v << " " << w;
        if (v != w) {
          EXPECT_EQ(common, 1);
        }
      }
    }
  }
}

TEST(PolarStarEr, TopologyHasLoopsAndDiameterTwo) {
  Topology g = ErTopology(5);
  EXPECT_EQ(g.num_nodes(), 31);
  DegreeReport deg = ComputeDegrees(g);
  EXPECT_EQ(deg.self_loops, 6);
  EXPECT_EQ(deg.min_out, 6);
  EXPECT_EQ(deg.max_out, 6);
  EXPECT_EQ(ComputeDistanceStats(g, 1).diameter, 2);
  EXPECT_TRUE(g.FindNode("p1_0_0").has_value());
  EXPECT_TRUE(g.FindNode("p0_0_1").has_value());
}

// --- IQ_3 by exhaustive search -----------------------------------------------------------

// Every labelled 3-regular graph on 8 vertices, as edge lists in lexicographic order.
void EnumerateCubic(const std::vector<std::pair<int, int>>& pairs, std::size_t i,
                    std::array<int, 8>& deg, std::vector<std::pair<int, int>>& edges,
                    std::vector<std::vector<std::pair<int, int>>>& out) {
  if (i == pairs.size()) {
    if (std::all_of(deg.begin(), deg.end(), [](int d) { return d == 3; })) out.push_back(edges);
    return;
  }
  auto [a, b] = pairs[i];
  if (deg[a] < 3 && deg[b] < 3) {
    ++deg[a], ++deg[b];
    edges.push_back(pairs[i]);
    EnumerateCubic(pairs, i + 1, deg, edges, out);
    edges.pop_back();
    --deg[a], --deg[b];
  }
  // Skip pair i only if a can still reach degree 3 (pairs are sorted, so a's later pairs are
  // (a, b') with b' > b).
  if (deg[a] + (7 - b) >= 3) EnumerateCubic(pairs, i + 1, deg, edges, out);
}

SupernodeGraph FromEdges(int n, const std::vector<std::pair<int, int>>& edges, std::vector<int> f) {
  SupernodeGraph g;
  g.adjacency.assign(n, {});
  for (auto [a, b] : edges) {
    g.adjacency[a].push_back(b);
    g.adjacency[b].push_back(a);
  }
  for (auto& l : g.adjacency) std::sort(l.begin(), l.end());
  g.f = std::move(f);
  return g;
}

// Seed 003 §6.2.1: IQ_3 is only drawn (Fig. 6a). Every fixed-point-free involution of 8
// points is conjugate to f(v) = v ^ 1, so searching all cubic graphs with that f finds every
// IQ_3 up to relabelling. The count 19355 of labelled cubic graphs on 8 vertices is OEIS
// A002829, an independent check of the enumeration.
TEST(PolarStarIq3, ExhaustiveSearchFindsTheDocumentedBaseGraph) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < 8; ++a) {
    for (int b = a + 1; b < 8; ++b) pairs.emplace_back(a, b);
  }
  std::array<int, 8> deg{};
  std::vector<std::pair<int, int>> edges;
  std::vector<std::vector<std::pair<int, int>>> cubic;
  EnumerateCubic(pairs, 0, deg, edges, cubic);
  ASSERT_EQ(cubic.size(), 19355u);
  std::vector<int> f(8);
  for (int v = 0; v < 8; ++v) f[v] = v ^ 1;
  std::vector<std::vector<std::pair<int, int>>> with_rstar;
  for (const auto& e : cubic) {
    if (HasPropertyRStar(FromEdges(8, e, f))) with_rstar.push_back(e);
  }
  ASSERT_FALSE(with_rstar.empty());
  // The documented IQ_3 is the lexicographically first one found.
  EXPECT_EQ(with_rstar.front(), Iq3BaseEdges());
  // Prop. 1 is tight at 2d'+2 = 8: in every R* cubic graph no vertex is adjacent to f(v).
  for (const auto& e : with_rstar) {
    for (auto [a, b] : e) EXPECT_NE(a ^ 1, b);
  }
}

// --- Inductive-Quad and Paley supernodes ---------------------------------------------------

TEST(PolarStarSupernodes, InductiveQuadIsRStarRegularOfOrderTwoDPlusTwo) {
  for (int d : {0, 3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 27}) {
    SupernodeGraph g = InductiveQuad(d);
    ASSERT_EQ(g.size(), 2 * d + 2) << d;
    for (int v = 0; v < g.size(); ++v) {
      EXPECT_EQ(static_cast<int>(g.adjacency[v].size()), d) << "d'=" << d << " v=" << v;
      EXPECT_NE(g.f[v], v);
    }
    EXPECT_TRUE(HasPropertyRStar(g)) << d;
    if (d > 0) {
      // Mutation: dropping any one edge breaks R* (the bound of Prop. 1 is tight).
      SupernodeGraph cut = g;
      int a = 0, b = cut.adjacency[0].back();
      cut.adjacency[a].pop_back();
      cut.adjacency[b].erase(std::find(cut.adjacency[b].begin(), cut.adjacency[b].end(), a));
      EXPECT_FALSE(HasPropertyRStar(cut)) << d;
      // Mutation: an f that is not an involution.
      SupernodeGraph bad = g;
      std::rotate(bad.f.begin(), bad.f.begin() + 1, bad.f.end());
      EXPECT_FALSE(HasPropertyRStar(bad)) << d;
    }
  }
  for (int d : {-1, 1, 2, 5, 6, 9, 10}) EXPECT_THROW(InductiveQuad(d), std::invalid_argument) << d;
}

// README errata: the Paley bijection is not given in the paper; multiplication by a fixed
// non-square (the primitive element) has Property R1 but is not an involution (no R*).
TEST(PolarStarSupernodes, PaleyHasPropertyROne) {
  for (int r : {5, 9, 13, 17, 25, 29, 37, 41, 49, 53, 61, 81}) {
    SupernodeGraph g = PaleySupernode(r);
    ASSERT_EQ(g.size(), r);
    for (int v = 0; v < r; ++v) EXPECT_EQ(static_cast<int>(g.adjacency[v].size()), (r - 1) / 2);
    EXPECT_TRUE(HasPropertyR1(g)) << r;
    EXPECT_FALSE(HasPropertyRStar(g)) << r;
    SupernodeGraph identity = g;
    for (int v = 0; v < r; ++v) identity.f[v] = v;
    EXPECT_FALSE(HasPropertyR1(identity)) << r;
  }
  for (int r : {3, 7, 11, 15, 21, 27}) EXPECT_THROW(PaleySupernode(r), std::invalid_argument) << r;
}

// --- Star products ------------------------------------------------------------------------

struct Instance {
  int q, d;
  SupernodeKind kind;
};

// Seed 003 Theorems 1-2 and §7.1: diameter 3, order (q^2+q+1)(2d'+2) (IQ) or
// (q^2+q+1)(2d'+1) (Paley); IQ is (q+1+d')-regular; with Paley exactly the q+1 vertices
// (x, 0) of the self-loop supernodes have degree q+d' (f(0) = 0: their loop edge would be a
// self-loop and is dropped), every other vertex q+1+d'.
TEST(PolarStarProduct, DiameterThreeOrderAndDegrees) {
  const std::vector<Instance> instances = {
      {2, 0, SupernodeKind::kInductiveQuad}, {2, 3, SupernodeKind::kInductiveQuad},
      {3, 3, SupernodeKind::kInductiveQuad}, {4, 4, SupernodeKind::kInductiveQuad},
      {5, 3, SupernodeKind::kInductiveQuad}, {3, 7, SupernodeKind::kInductiveQuad},
      {9, 3, SupernodeKind::kInductiveQuad}, {8, 0, SupernodeKind::kInductiveQuad},
      {2, 2, SupernodeKind::kPaley},         {3, 2, SupernodeKind::kPaley},
      {4, 4, SupernodeKind::kPaley},         {5, 6, SupernodeKind::kPaley},
      {7, 2, SupernodeKind::kPaley},         {4, 8, SupernodeKind::kPaley}};
  for (const Instance& in : instances) {
    const bool iq = in.kind == SupernodeKind::kInductiveQuad;
    Topology g = PolarStar(in.q, in.d, in.kind);
    const int er = in.q * in.q + in.q + 1;
    SCOPED_TRACE(g.name());
    ASSERT_EQ(g.num_nodes(), er * (2 * in.d + (iq ? 2 : 1)));
    EXPECT_EQ(g.num_switches(), 0);
    DistanceStats ds = ComputeDistanceStats(g, 1);
    EXPECT_EQ(ds.unreachable_pairs, 0);
    EXPECT_EQ(ds.diameter, 3);
    PolarityGraph erg = ErdosRenyiPolarity(in.q);
    const int m = 2 * in.d + (iq ? 2 : 1);
    int short_vertices = 0;
    for (int v = 0; v < g.num_nodes(); ++v) {
      EXPECT_EQ(g.OutDegree(v), g.InDegree(v));
      const int x = v / m, xp = v % m;
      const bool loop_zero = !iq && xp == 0 && erg.self_loop[x];
      EXPECT_EQ(g.OutDegree(v), in.q + 1 + in.d - (loop_zero ? 1 : 0)) << g.node(v).name;
      short_vertices += loop_zero;
      EXPECT_FALSE(g.FindLink(v, v).has_value());
    }
    EXPECT_EQ(short_vertices, iq ? 0 : in.q + 1);
    for (const Link& l : g.links()) EXPECT_EQ(l.multiplicity, 1);
  }
}

// The example polarstar(11,3,iq) is Table 3's PS-IQ row (d = 12, d' = 3, radix 15,
// 1,064 routers); Table 3's PS-Pal row (d = 9, d' = 6) has 73 · 13 = 949 routers (the
// printed 993 is inconsistent, see the papers README).
TEST(PolarStarProduct, TableThreeRows) {
  Topology ps_iq = PolarStar(11, 3, SupernodeKind::kInductiveQuad);
  EXPECT_EQ(ps_iq.num_nodes(), 1064);
  EXPECT_EQ(ComputeDegrees(ps_iq).min_out, 15);
  EXPECT_EQ(ComputeDegrees(ps_iq).max_out, 15);
  EXPECT_EQ(ComputeDistanceStats(ps_iq).diameter, 3);
  Topology ps_pal = PolarStar(8, 6, SupernodeKind::kPaley);
  EXPECT_EQ(ps_pal.num_nodes(), 949);
  EXPECT_EQ(ComputeDegrees(ps_pal).max_out, 15);
  EXPECT_EQ(ComputeDistanceStats(ps_pal).diameter, 3);
}

// Definition 1 with one bijection: the edges between two adjacent supernodes x -> y are
// exactly (x, v) ~ (y, f(v)); the self-loop supernode gains the matching {v, f(v)}.
TEST(PolarStarProduct, StarProductEdgesFollowDefinitionOne) {
  PolarityGraph er = ErdosRenyiPolarity(3);
  SupernodeGraph iq = InductiveQuad(3);
  Topology g = StarProduct(er, iq);
  const int m = iq.size();
  for (int x = 0; x < er.size(); ++x) {
    for (int y = 0; y < er.size(); ++y) {
      const bool adjacent = std::binary_search(er.adjacency[x].begin(), er.adjacency[x].end(), y);
      for (int v = 0; v < m; ++v) {
        for (int w = 0; w < m; ++w) {
          bool expected;
          if (x == y) {
            expected = std::binary_search(iq.adjacency[v].begin(), iq.adjacency[v].end(), w) ||
                       (er.self_loop[x] && iq.f[v] == w);
          } else {
            expected = adjacent && iq.f[v] == w;  // f is an involution: orientation is irrelevant
          }
          EXPECT_EQ(g.FindLink(x * m + v, y * m + w).has_value(), expected)
              << x << " " << y << " " << v << " " << w;
        }
      }
    }
  }
}

TEST(PolarStarProduct, BadParametersAreRejected) {
  EXPECT_THROW(PolarStar(6, 3, SupernodeKind::kInductiveQuad), std::invalid_argument);
  EXPECT_THROW(PolarStar(5, 5, SupernodeKind::kInductiveQuad), std::invalid_argument);
  EXPECT_THROW(PolarStar(5, 3, SupernodeKind::kPaley), std::invalid_argument);
  EXPECT_THROW(PolarStar(5, 10, SupernodeKind::kPaley), std::invalid_argument);  // 21 = 3·7
  EXPECT_THROW(PolarStar(5, 0, SupernodeKind::kPaley), std::invalid_argument);
  EXPECT_THROW(PolarStar(1009, 3, SupernodeKind::kInductiveQuad), std::invalid_argument);  // size
  EXPECT_THROW(PolarStar(7, 100000, SupernodeKind::kInductiveQuad), std::invalid_argument);
  EXPECT_THROW(ErTopology(4096), std::invalid_argument);
  EXPECT_THROW(ErTopology(1), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
