// Seed 000 generators: sizes, degrees and diameters from Table 9 / Table 7 / App. E, checked
// by BFS; distance-regularity of the Table 7 graphs checked from the definition (Def. 17);
// Kautz cross-checked against L^n(K_{d+1}) and Π_{d,m} (Def. 16).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/input_error.h"
#include "graphs/expansions.h"
#include "graphs/expression.h"
#include "graphs/generators/seed000_drg.h"
#include "graphs/generators/seed000_generators.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

// T_L*(N, d) (seed 000 Def. 11/12), recomputed here because graphs_tests links only the graphs
// library: the least k with 1 + d + ... + d^k >= N.
int MooreOptimalSteps(long long n, long long d) {
  long long sum = 1, term = 1;
  int k = 0;
  while (sum < n) {
    term *= d;
    sum += term;
    ++k;
  }
  return k;
}

int Diameter(const Topology& g) {
  DistanceStats s = ComputeDistanceStats(g, 1);
  EXPECT_EQ(s.unreachable_pairs, 0) << g.name();
  return s.diameter;
}

// Regular with this degree (every node in = out = d unit links, unit bandwidth per link).
void ExpectRegular(const Topology& g, std::int64_t d) {
  DegreeReport r = ComputeDegrees(g);
  EXPECT_TRUE(r.regular) << g.name();
  EXPECT_EQ(r.degree, d) << g.name();
  ASSERT_TRUE(r.link_bandwidth.has_value()) << g.name();
  EXPECT_EQ(*r.link_bandwidth, 1) << g.name();
}

std::set<std::pair<std::string, std::string>> NamedLinks(const Topology& g) {
  std::set<std::pair<std::string, std::string>> s;
  for (const Link& l : g.links()) s.emplace(g.node(l.from).name, g.node(l.to).name);
  return s;
}

TEST(GeneratorsTest, Table9CompleteAndBipartite) {
  for (int m = 2; m <= 9; ++m) {
    Topology g = Complete(m);
    EXPECT_EQ(g.num_nodes(), m);
    ExpectRegular(g, m - 1);
    EXPECT_EQ(Diameter(g), 1);
  }
  for (int d = 1; d <= 8; ++d) {
    Topology g = CompleteBipartite(d);
    EXPECT_EQ(g.num_nodes(), 2 * d);
    ExpectRegular(g, d);
    EXPECT_EQ(Diameter(g), d == 1 ? 1 : 2);  // Moore optimal: 2d > M_{d,1} = d+1 for d >= 2
    if (d >= 2) {
      EXPECT_EQ(MooreOptimalSteps(2 * d, d), 2);
    }
  }
  EXPECT_TRUE(NamedLinks(CompleteBipartite(2)).count({"a0", "b1"}));
  EXPECT_FALSE(NamedLinks(CompleteBipartite(2)).count({"a0", "a1"}));
}

TEST(GeneratorsTest, Table9HammingHasQToTheNNodesDegreeNQMinus1DiameterN) {
  for (int n = 1; n <= 4; ++n) {
    for (int q = 2; q <= 5; ++q) {
      Topology g = Hamming(n, q);
      int nodes = 1;
      for (int i = 0; i < n; ++i) nodes *= q;
      EXPECT_EQ(g.num_nodes(), nodes);
      ExpectRegular(g, n * (q - 1));
      EXPECT_EQ(Diameter(g), n);  // Table 9: T_L = n
    }
  }
  // Links exactly between words differing in one position.
  Topology h = Hamming(2, 3);
  for (const Link& l : h.links()) {
    const std::string &a = h.node(l.from).name, &b = h.node(l.to).name;
    EXPECT_EQ((a[0] != b[0]) + (a[1] != b[1]), 1) << a << " " << b;
  }
  EXPECT_EQ(Hamming(2, 12).node(13).name, "1.1");
}

TEST(GeneratorsTest, HypercubeAndTwistedHypercube) {
  for (int n = 1; n <= 7; ++n) {
    Topology q = Hypercube(n);
    EXPECT_EQ(q.num_nodes(), 1 << n);
    ExpectRegular(q, n);
    EXPECT_EQ(Diameter(q), n);
    EXPECT_EQ(NamedLinks(q), NamedLinks(Hamming(n, 2)));
  }
  // Esfahanian, Ni & Sagan: the twisted n-cube keeps degree n and has diameter n-1
  // (App. I uses n = 3: N = 8, d = 3, diameter 2 = T_L*).
  for (int n = 3; n <= 7; ++n) {
    Topology t = TwistedHypercube(n);
    EXPECT_EQ(t.num_nodes(), 1 << n);
    ExpectRegular(t, n);
    EXPECT_EQ(Diameter(t), n - 1) << n;
    EXPECT_TRUE(IsReverseSymmetricByIdentity(t));
  }
  EXPECT_EQ(MooreOptimalSteps(8, 3), Diameter(TwistedHypercube(3)));
}

TEST(GeneratorsTest, KautzHasDToTheNTimesDPlus1NodesAndIsMooreOptimal) {
  for (int d = 1; d <= 4; ++d) {
    for (int n = 0; n <= 4; ++n) {
      if (d >= 3 && n >= 4) continue;
      Topology k = Kautz(d, n);
      int nodes = d + 1;
      for (int i = 0; i < n; ++i) nodes *= d;
      ASSERT_EQ(k.num_nodes(), nodes);
      ExpectRegular(k, d);
      int diameter = Diameter(k);
      EXPECT_EQ(diameter, d == 1 ? 1 : n + 1);  // K(1,n) = L^n(K_2) = K_2
      if (d >= 2) {
        EXPECT_EQ(MooreOptimalSteps(nodes, d), diameter) << "K(" << d << "," << n << ")";
      }
    }
  }
}

TEST(GeneratorsTest, KautzEqualsLineGraphPowerOfCompleteGraph) {
  // K(d,n) = L^n(K_{d+1}) (Table 9): compare distance histograms and per-node structure with
  // the independent line-graph construction, and with Π_{d, d^{n+1}+d^n} (Def. 16).
  for (auto [d, n] : {std::pair{2, 3}, {3, 2}, {4, 2}, {2, 5}}) {
    Topology k = Kautz(d, n);
    Topology l = LineGraphPower(Complete(d + 1), n);
    int m = 1;
    for (int i = 0; i < n; ++i) m *= d;
    Topology pi = GeneralizedKautz(d, m * d + m);
    ASSERT_EQ(k.num_nodes(), l.num_nodes());
    ASSERT_EQ(k.num_nodes(), pi.num_nodes());
    EXPECT_EQ(ComputeDistanceStats(k, 1).histogram, ComputeDistanceStats(l, 1).histogram);
    EXPECT_EQ(ComputeDistanceStats(k, 1).histogram, ComputeDistanceStats(pi, 1).histogram);
    EXPECT_EQ(ComputeDegrees(pi).self_loops, 0);
  }
  // Node names are the words: K(2,2) has "010" -> "101", "102", not "100".
  Topology k = Kautz(2, 2);
  auto links = NamedLinks(k);
  EXPECT_TRUE(links.count({"010", "101"}));
  EXPECT_TRUE(links.count({"010", "102"}));
  EXPECT_FALSE(k.FindNode("100").has_value());
}

TEST(GeneratorsTest, GeneralizedKautzDefinition16) {
  Topology g = GeneralizedKautz(3, 10);
  ExpectRegular(g, 3);
  // x = 4: -12 - a mod 10 for a = 1..3 -> 7, 6, 5.
  auto links = NamedLinks(g);
  EXPECT_TRUE(links.count({"4", "7"}) && links.count({"4", "6"}) && links.count({"4", "5"}));
  EXPECT_FALSE(links.count({"4", "8"}));
  // Table 9: self-loops when m mod (d+1) != 0. Here m = 10, d = 3: x -> x needs
  // 4x + a = 0 (mod 10) with a in 1..3, i.e. x = 2 (a = 2: -6-2 = 2) and x = 7 (a = 2: -21-2 = 7).
  EXPECT_EQ(ComputeDegrees(g).self_loops, 2);
  EXPECT_TRUE(links.count({"2", "2"}) && links.count({"7", "7"}));
  EXPECT_EQ(ComputeDegrees(GeneralizedKautz(3, 12)).self_loops, 0);
  EXPECT_THROW(GeneralizedKautz(3, 3), std::invalid_argument);
  EXPECT_THROW(GeneralizedKautz(1, 5), std::invalid_argument);
}

TEST(GeneratorsTest, DeBruijnHasDToTheNNodesAndDiameterN) {
  for (int d = 2; d <= 4; ++d) {
    for (int n = 1; n <= 4; ++n) {
      Topology g = DeBruijn(d, n);
      int nodes = 1;
      for (int i = 0; i < n; ++i) nodes *= d;
      EXPECT_EQ(g.num_nodes(), nodes);
      ExpectRegular(g, d);
      EXPECT_EQ(ComputeDegrees(g).self_loops, d);
      EXPECT_EQ(Diameter(g), n);
      EXPECT_EQ(Diameter(g), MooreOptimalSteps(nodes, d));  // Table 9: Moore optimal
    }
  }
  EXPECT_TRUE(NamedLinks(DeBruijn(2, 3)).count({"011", "110"}));
}

TEST(GeneratorsTest, CirculantDefinition18) {
  Topology c = Circulant(16, {3, 4}, true);
  ExpectRegular(c, 4);
  EXPECT_EQ(Diameter(c), 3);  // Table 4's base: L^3(C(16,{3,4})) has T_L = 3 + 3
  EXPECT_TRUE(IsReverseSymmetricByIdentity(c));
  auto links = NamedLinks(c);
  EXPECT_TRUE(links.count({"0", "13"}) && links.count({"0", "3"}) && links.count({"0", "12"}));
  // Offset n/2: i + 8 = i - 8, merged into a double link, still 2k-regular.
  Topology h = Circulant(16, {1, 8}, true);
  ExpectRegular(h, 4);
  EXPECT_EQ(h.link(*h.FindLink(0, 8)).multiplicity, 2);
  // gcd(n, a_1..a_k) != 1: disconnected, rejected.
  EXPECT_THROW(Circulant(16, {2, 4}, true), std::invalid_argument);
  EXPECT_THROW(Circulant(16, {0}, true), std::invalid_argument);
  EXPECT_THROW(Circulant(16, {16}, true), std::invalid_argument);
  // Directed circulant of Table 9: d+2 nodes, degree d, Moore and diameter-2 optimal.
  for (int d = 2; d <= 6; ++d) {
    std::vector<int> offsets;
    for (int a = 1; a <= d; ++a) offsets.push_back(a);
    Topology dc = Circulant(d + 2, offsets, false);
    ExpectRegular(dc, d);
    EXPECT_EQ(Diameter(dc), 2);
    EXPECT_EQ(MooreOptimalSteps(d + 2, d), 2);
  }
}

TEST(GeneratorsTest, RingsOfTable9) {
  for (int m = 2; m <= 9; ++m) {
    for (int d = 1; d <= 3; ++d) {
      Topology u = UniRing(d, m);
      ExpectRegular(u, d);
      EXPECT_EQ(Diameter(u), m - 1);  // Table 9: T_L = m - 1
      EXPECT_EQ(ComputeDegrees(u).multi_links, d > 1 ? m : 0);
    }
  }
  for (int m = 3; m <= 9; ++m) {
    for (int d : {2, 4, 6}) {
      Topology b = BiRing(d, m);
      ExpectRegular(b, d);
      EXPECT_EQ(Diameter(b), m / 2);  // Table 9: T_L = floor(m/2)
      EXPECT_EQ(ComputeDegrees(b).multi_links, d > 2 ? 2 * m : 0);
    }
  }
  EXPECT_THROW(BiRing(3, 5), std::invalid_argument);
  EXPECT_THROW(BiRing(2, 2), std::invalid_argument);
}

TEST(GeneratorsTest, TorusDiameterIsSumOfHalfDimensions) {
  // §6: BFB torus T_L = Σ floor(d_i/2).
  for (const std::vector<int>& dims :
       std::vector<std::vector<int>>{{5}, {3, 3, 2}, {4, 6}, {2, 2, 2}, {3, 4, 5}, {8, 8}}) {
    Topology t = Torus(dims);
    int nodes = 1, diameter = 0;
    for (int x : dims) {
      nodes *= x;
      diameter += x / 2;
    }
    EXPECT_EQ(t.num_nodes(), nodes);
    ExpectRegular(t, 2 * static_cast<int>(dims.size()));
    EXPECT_EQ(Diameter(t), diameter);
    // The torus is the product of bidirectional rings (size-2 rings are double links).
    std::vector<Topology> rings;
    for (int x : dims) rings.push_back(Torus({x}));
    std::vector<const Topology*> fs;
    for (const auto& r : rings) fs.push_back(&r);
    Topology p = CartesianProduct(fs);
    EXPECT_EQ(ComputeDistanceStats(p, 1).histogram, ComputeDistanceStats(t, 1).histogram);
    EXPECT_EQ(p.num_links(), t.num_links());
  }
  EXPECT_EQ(Torus({3, 3, 2}).node(1).name, "t0_0_1");
  EXPECT_THROW(Torus({3, 1}), std::invalid_argument);
}

TEST(GeneratorsTest, TwistedTorusShortensDiameter) {
  // Cámara et al.: the rectangular twisted torus 2a x a with twist a has a smaller diameter
  // than the plain 2a x a torus (here 8 x 4: 4 + 2 = 6 for the torus).
  Topology t = TwistedTorus(8, 4, 4);
  ExpectRegular(t, 4);
  EXPECT_LT(Diameter(t), Diameter(Torus({8, 4})));
  // Twist 0 is the plain torus.
  EXPECT_EQ(ComputeDistanceStats(TwistedTorus(5, 3, 0), 1).histogram,
            ComputeDistanceStats(Torus({5, 3}), 1).histogram);
  EXPECT_THROW(TwistedTorus(8, 4, 8), std::invalid_argument);
}

// Def. 17 via intersection numbers: for every pair (x, y) at distance h the counts
// |N_1(x) ∩ N_{h-1}(y)|, |N_1(x) ∩ N_h(y)|, |N_1(x) ∩ N_{h+1}(y)| depend only on h.
bool IsDistanceRegular(const Topology& g) {
  int n = g.num_nodes();
  std::vector<std::vector<int>> dist(n);
  for (int v = 0; v < n; ++v) dist[v] = BfsDistances(g, v);
  std::map<int, std::array<int, 3>> seen;
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) {
      int h = dist[x][y];
      if (h < 0) return false;
      std::array<int, 3> c{0, 0, 0};
      for (int e : g.OutLinks(x)) {
        int z = g.link(e).to, dz = dist[z][y];
        if (dz >= h - 1 && dz <= h + 1) ++c[dz - h + 1];
      }
      auto [it, inserted] = seen.emplace(h, c);
      if (!inserted && it->second != c) return false;
    }
  }
  return true;
}

TEST(GeneratorsTest, Table7DistanceRegularGraphsHaveThePapersNAndTL) {
  // Table 7 (d = 4): N, T_L (= diameter) and T_L* of every row we construct.
  struct Row {
    const char* name;
    int n, t_l, t_l_star;
  };
  const Row rows[] = {
      {"octahedron", 6, 2, 2},    {"paley9", 9, 2, 2},        {"k55minus", 10, 3, 2},
      {"heawooddist3", 14, 3, 2}, {"petersenline", 15, 3, 2}, {"q4", 16, 4, 2},
      {"heawoodline", 21, 3, 2},  {"pg23", 26, 3, 3},         {"ag24minus", 32, 4, 3},
      {"odd4", 35, 3, 3},         {"tutte8line", 45, 4, 3},   {"doubledodd4", 70, 7, 3},
      {"gq33", 80, 4, 3}};
  for (const Row& r : rows) {
    Topology g = DistanceRegularGraph(r.name);
    EXPECT_EQ(g.num_nodes(), r.n) << r.name;
    ExpectRegular(g, 4);
    EXPECT_EQ(Diameter(g), r.t_l) << r.name;
    EXPECT_EQ(MooreOptimalSteps(r.n, 4), r.t_l_star) << r.name;
    EXPECT_TRUE(IsReverseSymmetricByIdentity(g)) << r.name;  // undirected
    EXPECT_TRUE(IsDistanceRegular(g)) << r.name;
  }
  EXPECT_THROW(DistanceRegularGraph("cube"), std::invalid_argument);
}

TEST(GeneratorsTest, DistanceRegularCheckerRejectsNonDistanceRegularGraphs) {
  // The checker above must be able to fail: a torus 3x4 and a twisted torus are not DRG.
  EXPECT_FALSE(IsDistanceRegular(Torus({3, 4})));
  EXPECT_FALSE(IsDistanceRegular(TwistedTorus(8, 4, 4)));
  EXPECT_TRUE(IsDistanceRegular(Hamming(3, 3)));
}

TEST(GeneratorsTest, Table7PaleyNineIsHammingTwoThree) {
  // P9 ≅ H(2,3): with F_9 = F_3[i], a + b·i ↦ word "ab" is an isomorphism, since the nonzero
  // squares are exactly {±1, ±i}.
  Topology p = PaleyGraph(9), h = Hamming(2, 3);
  std::set<std::pair<std::string, std::string>> mapped;
  for (auto [a, b] : NamedLinks(p)) mapped.emplace(a.substr(1), b.substr(1));
  EXPECT_EQ(mapped, NamedLinks(h));
  // Paley(13): 6-regular, strongly regular (distance-regular with diameter 2).
  Topology p13 = PaleyGraph(13);
  ExpectRegular(p13, 6);
  EXPECT_TRUE(IsDistanceRegular(p13));
  EXPECT_THROW(PaleyGraph(7), std::invalid_argument);
}

TEST(GeneratorsTest, ClassicSmallGraphs) {
  Topology petersen = OddGraph(3);
  EXPECT_EQ(petersen.num_nodes(), 10);
  ExpectRegular(petersen, 3);
  EXPECT_EQ(Diameter(petersen), 2);
  Topology heawood = ProjectivePlaneIncidence(2);
  EXPECT_EQ(heawood.num_nodes(), 14);
  ExpectRegular(heawood, 3);
  EXPECT_EQ(Diameter(heawood), 3);
  Topology tutte8 = SymplecticQuadrangleIncidence(2);
  EXPECT_EQ(tutte8.num_nodes(), 30);
  ExpectRegular(tutte8, 3);
  EXPECT_EQ(Diameter(tutte8), 4);
  EXPECT_EQ(JohnsonGraph(5, 2).num_nodes(), 10);
  ExpectRegular(JohnsonGraph(5, 2), 6);
}

TEST(GeneratorsTest, AbsurdSizesAreRefusedBeforeBuilding) {
  EXPECT_THROW(Hypercube(40), std::invalid_argument);
  EXPECT_THROW(Complete(100000), std::invalid_argument);
  EXPECT_THROW(Kautz(10, 10), std::invalid_argument);
  EXPECT_THROW(Torus({10000, 10000}), std::invalid_argument);
  EXPECT_THROW(Hamming(64, 1000), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// mesh(d1,...,dk) (seed 001 §VI): the torus without wrap-around links, torus names.
TEST(MeshTest, ProductOfPathsWithTorusNames) {
  const Topology g = EvaluateTopologyExpression("mesh(3,4)");
  EXPECT_EQ(g.num_compute(), 12);
  EXPECT_EQ(g.num_links(), 2 * (3 * 3 + 2 * 4));  // duplex: 3 rows of 3, 4 columns of 2
  EXPECT_EQ(g.node(0).name, "t0_0");
  EXPECT_EQ(g.node(5).name, "t1_1");
  EXPECT_TRUE(g.FindLink(0, 1).has_value());
  EXPECT_TRUE(g.FindLink(0, 4).has_value());
  EXPECT_FALSE(g.FindLink(0, 3).has_value());  // no wrap-around
  const Topology c4 = EvaluateTopologyExpression("mesh(2,2)");
  EXPECT_EQ(c4.num_links(), 8);
  EXPECT_EQ(c4.link(*c4.FindLink(0, 1)).multiplicity, 1);  // torus(2,2) has double links
  EXPECT_THROW(EvaluateTopologyExpression("mesh(1,4)"), InputError);
}

}  // namespace
}  // namespace collsynth
