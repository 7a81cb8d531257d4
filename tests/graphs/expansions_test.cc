// Expansions of seed 000 §5 / Table 3 / App. F built on real bases: sizes, degrees, the
// new-node maps, and the diameters that the theorems predict (T_L of a BFB schedule is the
// diameter, Thm 15): D(L(G)) = D(G) + 1 (Thm 1, (1)), D(G1 □ G2) = D(G1) + D(G2) (Thm 13).
#include "graphs/expansions.h"

#include <gtest/gtest.h>

#include <random>

#include "graphs/generators/seed000_generators.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "test_util.h"

namespace collsynth {
namespace {

struct Shape {
  int nodes;
  std::int64_t degree;
  int diameter;
};

Shape ShapeOf(const Topology& g) {
  DegreeReport r = ComputeDegrees(g);
  EXPECT_TRUE(r.regular) << g.name();
  DistanceStats s = ComputeDistanceStats(g, 1);
  EXPECT_EQ(s.unreachable_pairs, 0) << g.name();
  return {g.num_nodes(), r.degree, s.diameter};
}

std::vector<Topology> Bases() {
  return {Complete(4),
          CompleteBipartite(3),
          Hamming(2, 3),
          Kautz(2, 2),
          GeneralizedKautz(3, 11),
          Circulant(16, {3, 4}, true),
          UniRing(2, 5),
          BiRing(4, 5),
          Circulant(7, {1, 2}, false)};
}

TEST(ExpansionsTest, Table3LineGraphOfDRegularGraphHasDNNodesAndDegreeD) {
  for (const Topology& g : Bases()) {
    Shape b = ShapeOf(g);
    LineGraphResult r = LineGraphExpansion(g);
    Shape l = ShapeOf(r.topology);
    EXPECT_EQ(l.nodes, b.degree * b.nodes) << g.name();
    EXPECT_EQ(l.degree, b.degree) << g.name();
    // Property (2) of §5.1 for d >= 2: shortest paths extend by one hop.
    if (b.degree >= 2) {
      EXPECT_EQ(l.diameter, b.diameter + 1) << g.name();
    }
    // The map: node x stands for base link base_link[x]; links join consecutive base links.
    ASSERT_EQ(static_cast<int>(r.base_link.size()), l.nodes);
    for (const Link& e : r.topology.links()) {
      EXPECT_EQ(g.link(r.base_link[e.from]).to, g.link(r.base_link[e.to]).from);
    }
    // Every unit link of G appears exactly once as (base_link, copy).
    std::map<std::pair<int, int>, int> seen;
    for (int x = 0; x < l.nodes; ++x) ++seen[{r.base_link[x], r.copy[x]}];
    std::int64_t units = 0;
    for (const Link& e : g.links()) units += e.multiplicity;
    EXPECT_EQ(static_cast<std::int64_t>(seen.size()), units);
  }
}

TEST(ExpansionsTest, Figure2LineGraphOfK22) {
  // Fig. 2b: L(K_{2,2}) has 8 nodes; node "b0>a0" links to "a0>b0" and "a0>b1".
  Topology l = LineGraph(CompleteBipartite(2));
  EXPECT_EQ(l.num_nodes(), 8);
  int from = *l.FindNode("b0>a0");
  EXPECT_TRUE(l.FindLink(from, *l.FindNode("a0>b0")));
  EXPECT_TRUE(l.FindLink(from, *l.FindNode("a0>b1")));
  EXPECT_FALSE(l.FindLink(from, *l.FindNode("b0>a1")));
}

TEST(ExpansionsTest, Table3DegreeExpansionHasNNNodesAndDegreeND) {
  for (const Topology& g : Bases()) {
    if (ComputeDegrees(g).self_loops > 0) continue;
    Shape b = ShapeOf(g);
    for (int n = 1; n <= 3; ++n) {
      DegreeExpansionResult r = DegreeExpansionWithMap(g, n);
      Shape e = ShapeOf(r.topology);
      EXPECT_EQ(e.nodes, n * b.nodes) << g.name();
      EXPECT_EQ(e.degree, n * b.degree) << g.name();
      for (const Link& l : r.topology.links()) {
        EXPECT_TRUE(g.FindLink(r.base_node[l.from], r.base_node[l.to]));
      }
    }
  }
  // Fig. 4: UniRing(1,4) * 2 is 2-regular on 8 nodes; a_0 -> b_1 exists.
  Topology f4 = DegreeExpansion(UniRing(1, 4), 2);
  EXPECT_TRUE(f4.FindLink(*f4.FindNode("0*0"), *f4.FindNode("1*1")));
  // Def. 3 needs no self-loops.
  EXPECT_THROW(DegreeExpansion(DeBruijn(2, 2), 2), std::invalid_argument);
}

TEST(ExpansionsTest, Table3CartesianPowerAndProduct) {
  std::vector<Topology> bases = Bases();
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const Topology& g = bases[i];
    Shape b = ShapeOf(g);
    if (b.nodes > 16) continue;
    ProductResult p = CartesianPowerWithMap(g, 2);
    Shape s = ShapeOf(p.topology);
    EXPECT_EQ(s.nodes, b.nodes * b.nodes);
    EXPECT_EQ(s.degree, 2 * b.degree);
    EXPECT_EQ(s.diameter, 2 * b.diameter);
    for (const Link& l : p.topology.links()) {
      const auto &x = p.factor_node[l.from], &y = p.factor_node[l.to];
      int moved = (x[0] != y[0]) + (x[1] != y[1]);
      EXPECT_EQ(moved, l.from == l.to ? 0 : 1);  // self-loops (Π_{3,11}) stay self-loops
    }
    const Topology& h = bases[(i + 1) % bases.size()];
    Shape hb = ShapeOf(h);
    Shape q = ShapeOf(CartesianProduct(g, h));
    EXPECT_EQ(q.nodes, b.nodes * hb.nodes);
    EXPECT_EQ(q.degree, b.degree + hb.degree);
    EXPECT_EQ(q.diameter, b.diameter + hb.diameter);  // Thm 13: D = Σ D(G_i)
  }
  // Hamming H(n,q) = K_q^{□n} (Table 9): same links up to the name separator.
  Topology p = CartesianPower(Complete(3), 3);
  Topology h = Hamming(3, 3);
  ASSERT_EQ(p.num_links(), h.num_links());
  for (const Link& l : p.links()) {
    std::string a = p.node(l.from).name, b = p.node(l.to).name;
    a.erase(std::remove(a.begin(), a.end(), '|'), a.end());
    b.erase(std::remove(b.begin(), b.end(), '|'), b.end());
    EXPECT_TRUE(h.FindLink(*h.FindNode(a), *h.FindNode(b))) << a << " " << b;
  }
}

TEST(ExpansionsTest, Table4TopologiesHave1024NodesDegree4AndThePredictedDiameters) {
  // Table 4: L^3(C(16,{3,4})) has T_L = 12α for allreduce, i.e. diameter 6 = 3 + 3.
  Shape a = ShapeOf(LineGraphPower(Circulant(16, {3, 4}, true), 3));
  EXPECT_EQ(a.nodes, 1024);
  EXPECT_EQ(a.degree, 4);
  EXPECT_EQ(a.diameter, 6);
  // (UniRing(1,4) □ UniRing(1,8))^□2 has T_L = 40α, i.e. diameter 20 = 2·(3 + 7).
  Topology r4 = UniRing(1, 4), r8 = UniRing(1, 8);
  Shape b = ShapeOf(CartesianPower(CartesianProduct(r4, r8), 2));
  EXPECT_EQ(b.nodes, 1024);
  EXPECT_EQ(b.degree, 4);
  EXPECT_EQ(b.diameter, 20);
}

TEST(ExpansionsTest, AppendixFBidirectionalAndTranspose) {
  for (const Topology& g : Bases()) {
    Shape b = ShapeOf(g);
    Topology bi = Bidirectional(g);
    Shape s = ShapeOf(bi);
    EXPECT_EQ(s.nodes, b.nodes);
    EXPECT_EQ(s.degree, 2 * b.degree);
    EXPECT_TRUE(IsReverseSymmetricByIdentity(bi));
    Topology tt = TransposeOf(TransposeOf(g));
    ASSERT_EQ(tt.num_links(), g.num_links());
    for (const Link& l : g.links()) {
      auto e = tt.FindLink(l.from, l.to);
      ASSERT_TRUE(e);
      EXPECT_EQ(tt.link(*e).bandwidth, l.bandwidth);
    }
  }
  // A directed graph is not reverse-symmetric by identity; its transpose reverses links.
  Topology k = Kautz(2, 2);
  EXPECT_FALSE(IsReverseSymmetricByIdentity(k));
  Topology kt = TransposeOf(k);
  // K(2,2) has 012 -> 120 but not 120 -> 012.
  ASSERT_TRUE(k.FindLink(*k.FindNode("012"), *k.FindNode("120")));
  EXPECT_TRUE(kt.FindLink(*kt.FindNode("120"), *kt.FindNode("012")));
  EXPECT_FALSE(kt.FindLink(*kt.FindNode("012"), *kt.FindNode("120")));
}

TEST(ExpansionsTest, RandomRegularDigraphsLineGraphSizes) {
  // Random d-regular multidigraphs (union of d random permutations, no fixed points required):
  // L(G) always has d·N nodes and degree d; the line graph of a strongly connected graph
  // is strongly connected.
  std::mt19937_64 rng(testing::TestSeed());
  for (int it = 0; it < 30; ++it) {
    int n = 3 + static_cast<int>(rng() % 8), d = 1 + static_cast<int>(rng() % 3);
    Topology g("random");
    for (int v = 0; v < n; ++v) g.AddCompute("v" + std::to_string(v));
    for (int v = 0; v < n; ++v) g.AddLink(v, (v + 1) % n, 1);  // a Hamiltonian cycle
    for (int k = 1; k < d; ++k) {
      std::vector<int> perm(n);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      for (int v = 0; v < n; ++v) g.AddLink(v, perm[v], 1);
    }
    Topology l = LineGraph(g);
    DegreeReport r = ComputeDegrees(l);
    EXPECT_EQ(l.num_nodes(), d * n) << "seed " << testing::TestSeed();
    EXPECT_TRUE(r.regular);
    EXPECT_EQ(r.degree, d);
    EXPECT_TRUE(CheckStronglyConnected(l).strongly_connected);
  }
}

TEST(ExpansionsTest, BadInputsAreRejected) {
  Topology mixed("mixed");
  mixed.AddCompute("a");
  mixed.AddCompute("b");
  mixed.AddLink(0, 1, 1);
  mixed.AddLink(1, 0, 2);
  EXPECT_THROW(LineGraph(mixed), std::invalid_argument);  // unequal unit bandwidths
  Topology sw("switched");
  sw.AddCompute("a");
  sw.AddSwitch("s");
  sw.AddDuplexLink(0, 1, 1);
  EXPECT_THROW(LineGraph(sw), std::invalid_argument);
  EXPECT_THROW(CartesianPower(sw, 2), std::invalid_argument);
  EXPECT_THROW(CartesianPower(Complete(100), 5), std::invalid_argument);  // 10^10 nodes
  EXPECT_THROW(LineGraphPower(Complete(50), 5), std::invalid_argument);
  EXPECT_THROW(DegreeExpansion(Complete(3), 0), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
