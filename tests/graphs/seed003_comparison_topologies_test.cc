// The seed 003 (PolarStar) comparison topologies: Slim Fly / MMS, Bundlefly, HyperX,
// Spectralfly (LPS), Megafly / Dragonfly+ and the k-ary n-tree. Built instances against their
// closed forms (nodes, degrees, diameters) at small radix, and Table 3's printed rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "graphs/expression.h"
#include "graphs/generators/bundlefly.h"
#include "graphs/generators/hyperx.h"
#include "graphs/generators/kary_n_tree.h"
#include "graphs/generators/megafly.h"
#include "graphs/generators/slimfly.h"
#include "graphs/generators/spectralfly.h"
#include "graphs/metrics.h"

namespace collsynth {
namespace {

// Every node has out-degree = in-degree = d (unit links), and no two links join the same pair.
void ExpectRegularSimple(const Topology& g, std::int64_t d) {
  std::set<std::pair<int, int>> seen;
  for (const Link& l : g.links()) {
    EXPECT_EQ(l.multiplicity, 1) << g.name();
    EXPECT_NE(l.from, l.to) << g.name();
    EXPECT_TRUE(seen.insert({l.from, l.to}).second) << g.name();
  }
  for (int v = 0; v < g.num_nodes(); ++v) {
    ASSERT_EQ(g.OutDegree(v), d) << g.name() << " node " << g.node(v).name;
    ASSERT_EQ(g.InDegree(v), d) << g.name() << " node " << g.node(v).name;
  }
}

int Diameter(const Topology& g) {
  DistanceStats s = ComputeDistanceStats(g, 1);
  EXPECT_EQ(s.unreachable_pairs, 0) << g.name();
  return s.diameter;
}

TEST(SlimFlyTest, MmsGraphsHaveTheirClosedFormsAndDiameterTwo) {
  // q = 4w + δ: 3 (δ=−1), 4 (0), 5 (1, Hoffman–Singleton), 7, 8, 9, 11, 13.
  const std::map<int, int> degree = {{3, 5},  {4, 6},  {5, 7},   {7, 11},
                                     {8, 12}, {9, 13}, {11, 17}, {13, 19}};
  for (auto [q, d] : degree) {
    Topology g = SlimFly(q);
    EXPECT_EQ(g.num_nodes(), 2 * q * q) << q;
    EXPECT_EQ(SlimFlyOrder(q), 2 * q * q);
    EXPECT_EQ(SlimFlyDegree(q), d);
    ExpectRegularSimple(g, d);
    EXPECT_EQ(Diameter(g), 2) << q;
  }
}

TEST(SlimFlyTest, RejectsQThatIsNotAPrimePowerOfTheForm4wPlusDelta) {
  EXPECT_THROW(SlimFly(6), std::invalid_argument);
  EXPECT_THROW(SlimFly(2), std::invalid_argument);   // 2 = 4w + 2
  EXPECT_THROW(SlimFly(15), std::invalid_argument);  // not a prime power
}

TEST(BundleflyTest, SmallStarProductsAreRegularWithDiameterThree) {
  for (auto [q, dp] : {std::pair<int, int>{3, 2}, {4, 2}, {5, 2}, {3, 4}}) {
    Topology g = Bundlefly(q, dp);
    EXPECT_EQ(BigInt(g.num_nodes()), BundleflyOrder(q, dp));
    EXPECT_EQ(g.num_nodes(), 2 * q * q * (2 * dp + 1));
    ExpectRegularSimple(g, BundleflyRadix(q, dp));
    EXPECT_EQ(BundleflyRadix(q, dp), SlimFlyDegree(q) + dp);
    EXPECT_EQ(Diameter(g), 3) << g.name();
  }
}

// Seed 003 Table 3, row BF: d = 11, d' = 4 -> 882 routers, radix 15.
TEST(BundleflyTest, Table3RowBf) {
  Topology g = Bundlefly(7, 4);
  EXPECT_EQ(g.num_nodes(), 882);
  ExpectRegularSimple(g, 15);
  EXPECT_EQ(Diameter(g), 3);
}

TEST(BundleflyTest, RejectsSupernodesWithoutAPaleyGraph) {
  EXPECT_THROW(Bundlefly(7, 3), std::invalid_argument);   // d' odd
  EXPECT_THROW(Bundlefly(7, 10), std::invalid_argument);  // 21 not a prime power
  EXPECT_THROW(Bundlefly(7, 0), std::invalid_argument);
  EXPECT_THROW(Bundlefly(10, 4), std::invalid_argument);  // q not a prime power
}

TEST(HyperXTest, ClosedFormsAndTable3RowHx) {
  Topology small = HyperX({2, 3, 4});
  EXPECT_EQ(small.num_nodes(), 24);
  ExpectRegularSimple(small, 1 + 2 + 3);
  EXPECT_EQ(Diameter(small), 3);
  EXPECT_EQ(small.node(23).name, "h1_2_3");
  // Table 3, row HX: 9 × 9 × 8 -> 648 routers, radix 23.
  Topology hx = HyperX({9, 9, 8});
  EXPECT_EQ(hx.num_nodes(), 648);
  EXPECT_EQ(HyperXOrder({9, 9, 8}), 648);
  EXPECT_EQ(HyperXRadix({9, 9, 8}), 23);
  ExpectRegularSimple(hx, 23);
  EXPECT_EQ(Diameter(hx), 3);
  EXPECT_THROW(HyperX({1, 3}), std::invalid_argument);
  EXPECT_THROW(HyperX({}), std::invalid_argument);
}

TEST(SpectralflyTest, LpsGraphsAreCayleyGraphsOfPslOrPgl) {
  // (3/5) = −1: PGL(2,5), 120 nodes; (5/29) = 1: PSL(2,29), 12180 nodes is too big for a
  // unit test, so (5/11) = 1: PSL(2,11), 660 nodes; (3/13) = 1: PSL(2,13), 1092 nodes.
  EXPECT_EQ(LegendreSymbol(3, 5), -1);
  EXPECT_EQ(LegendreSymbol(5, 11), 1);
  for (auto [p, q, n] :
       {std::tuple<int, int, int>{3, 5, 120}, {5, 11, 660}, {3, 13, 1092}, {5, 7, 336}}) {
    Topology g = Spectralfly(p, q);
    EXPECT_EQ(g.num_nodes(), n) << p << "," << q;
    EXPECT_EQ(SpectralflyOrder(p, q), n);
    EXPECT_EQ(LpsGenerators(p, q).size(), static_cast<std::size_t>(p + 1));
    ExpectRegularSimple(g, p + 1);
    const int diameter = Diameter(g);
    EXPECT_EQ(LpsDiameterAtMost(p, q, diameter), true);
    EXPECT_EQ(LpsDiameterAtMost(p, q, diameter - 1), false);
  }
}

// Seed 003 Table 3, row SF: ρ = 23, q = 13 -> PSL(2,13), 1092 routers, radix 24; diameter 3
// (the paper compares only diameter-<=3 Spectralflies).
TEST(SpectralflyTest, Table3RowSf) {
  Topology g = Spectralfly(23, 13);
  EXPECT_EQ(g.num_nodes(), 1092);
  ExpectRegularSimple(g, 24);
  EXPECT_EQ(Diameter(g), 3);
  EXPECT_EQ(LpsDiameterAtMost(23, 13, 3), true);
}

TEST(SpectralflyTest, RejectsBadPrimesAndNonSimpleGraphs) {
  EXPECT_THROW(Spectralfly(4, 13), std::invalid_argument);
  EXPECT_THROW(Spectralfly(13, 13), std::invalid_argument);
  EXPECT_THROW(Spectralfly(5, 9), std::invalid_argument);
  EXPECT_THROW(Spectralfly(29, 3), std::invalid_argument);  // generators coincide mod 3
  EXPECT_EQ(LpsDiameterAtMost(29, 3, 3), false);
}

TEST(MegaflyTest, GroupsAreBipartiteWithOneGlobalLinkPerGroupPair) {
  Topology g = Megafly(2, 4, 3);  // 5 groups of 2 leaves + 2 spines
  EXPECT_EQ(g.num_switches(), 20);
  EXPECT_EQ(g.num_compute(), 5 * 2 * 3);
  EXPECT_EQ(BigInt(g.num_switches()), MegaflyRouters(2, 4, 3));
  EXPECT_EQ(BigInt(g.num_compute()), MegaflyEndpoints(2, 4, 3));
  std::map<std::pair<std::string, std::string>, int> global;  // group pair -> links
  for (const Link& l : g.links()) {
    const std::string a = g.node(l.from).name, b = g.node(l.to).name;
    const std::string ga = a.substr(0, a.find_first_of("ls")),
                      gb = b.substr(0, b.find_first_of("ls"));
    if (ga != gb) ++global[{ga, gb}];
  }
  EXPECT_EQ(global.size(), 20u);  // 5·4 ordered group pairs
  for (const auto& [pair, count] : global) EXPECT_EQ(count, 1);
  for (int v = 0; v < g.num_nodes(); ++v) {
    const std::string& name = g.node(v).name;
    if (g.IsCompute(v)) {
      EXPECT_EQ(g.OutDegree(v), 1);
    } else if (name.find('s') != std::string::npos) {
      EXPECT_EQ(g.OutDegree(v), 2 + 2) << name;  // a/2 leaves + ρ global
    } else {
      EXPECT_EQ(g.OutDegree(v), 2 + 3) << name;  // a/2 spines + p endpoints
    }
  }
  // Endpoint to endpoint: host, leaf, spine, spine, leaf, host = 5 hops at most.
  EXPECT_EQ(Diameter(g), 5);
}

// Seed 003 Table 3, row MF: ρ = 8, a = 16, p = 8 -> 1040 routers, 4160 endpoints.
TEST(MegaflyTest, Table3RowMf) {
  Topology g = Megafly(8, 16, 8);
  EXPECT_EQ(g.num_switches(), 1040);
  EXPECT_EQ(g.num_compute(), 4160);
  EXPECT_THROW(Megafly(8, 15, 8), std::invalid_argument);
  EXPECT_THROW(Megafly(0, 16, 8), std::invalid_argument);
}

TEST(KaryNTreeTest, ClosedFormsDegreesAndDiameter) {
  Topology g = KaryNTree(3, 3);
  EXPECT_EQ(g.num_switches(), 3 * 9);
  EXPECT_EQ(g.num_compute(), 27);
  for (int v = 0; v < g.num_nodes(); ++v) {
    const std::string& name = g.node(v).name;
    const int expected = g.IsCompute(v) ? 1 : (name.rfind("s0_", 0) == 0 ? 3 : 6);
    EXPECT_EQ(g.OutDegree(v), expected) << name;
  }
  EXPECT_EQ(Diameter(g), 2 * 3);  // host up to a top switch and down again
  // Table 3, row FT: n = 3, p = 18 -> 972 routers of radix 36, 5832 endpoints.
  Topology ft = KaryNTree(18, 3);
  EXPECT_EQ(ft.num_switches(), 972);
  EXPECT_EQ(ft.num_compute(), 5832);
  EXPECT_EQ(KaryNTreeSwitches(18, 3), 972);
  EXPECT_EQ(KaryNTreeEndpoints(18, 3), 5832);
  EXPECT_THROW(KaryNTree(1, 3), std::invalid_argument);
  EXPECT_THROW(KaryNTree(3, 0), std::invalid_argument);
}

// Each family's size function (computed before building) equals the built topology.
TEST(Seed003FamiliesTest, SizeFunctionsMatchBuiltInstances) {
  for (const char* expr : {"slimfly(7)", "bundlefly(4,2)", "hyperx(3,4,5)", "spectralfly(3,13)",
                           "megafly(3,4,2)", "karyntree(4,3)"}) {
    auto size = EstimateTopologyExpressionSize(expr);
    ASSERT_TRUE(size.has_value()) << expr;
    Topology g = EvaluateTopologyExpression(expr);
    EXPECT_EQ(size->nodes, g.num_nodes()) << expr;
    EXPECT_EQ(size->links, g.num_links()) << expr;
  }
}

}  // namespace
}  // namespace collsynth
