// Edge splitting (seed 004 §2.2, Algorithm 1, Theorems 7-8).
#include "solvers/edge_splitting.h"

#include <gtest/gtest.h>

#include <random>

#include "pipeline_test_topologies.h"
#include "solvers/allgather_optimum.h"
#include "test_util.h"

namespace collsynth {
namespace {

// Invariants of a split: only compute nodes remain; each arc's routes are walks from its tail
// to its head with switches inside, over links of g, multiplicities summing to its capacity;
// the physical load of the routes never exceeds the input capacity; the threshold holds.
void ExpectValidSplit(const Topology& g, const CapacityGraph& d, const std::vector<BigInt>& src,
                      const BigInt& threshold, const SplitResult& r) {
  std::map<std::pair<int, int>, BigInt> load;
  for (const auto& [arc, c] : r.direct.capacity) {
    EXPECT_TRUE(g.IsCompute(arc.first) && g.IsCompute(arc.second));
    EXPECT_NE(arc.first, arc.second);
    BigInt sum = 0;
    for (const RoutedPath& p : r.routes.at(arc)) {
      ASSERT_GE(p.nodes.size(), 2u);
      EXPECT_EQ(p.nodes.front(), arc.first);
      EXPECT_EQ(p.nodes.back(), arc.second);
      for (std::size_t i = 1; i + 1 < p.nodes.size(); ++i) EXPECT_TRUE(g.IsSwitch(p.nodes[i]));
      for (std::size_t i = 0; i + 1 < p.nodes.size(); ++i) load[{p.nodes[i], p.nodes[i + 1]}] += p.multiplicity;
      sum += p.multiplicity;
    }
    EXPECT_EQ(sum, c);
  }
  for (const auto& [arc, l] : load) {
    auto it = d.capacity.find(arc);
    ASSERT_NE(it, d.capacity.end());
    EXPECT_LE(l, it->second);
  }
  EXPECT_GE(r.preserved_connectivity, threshold);
  EXPECT_EQ(MinSourceConnectivity(g, r.direct, src), r.preserved_connectivity);
}

// Seed 004 Figure 2: G({U·b_e}) of the two-cluster example (U = 1, k = 1) splits into a
// compute-only G* with min_v F(s, v; G*_k) >= N·k = 8, and the in-cluster traffic keeps 10
// units per node.
TEST(EdgeSplittingTest, TwoClusterFigure2) {
  Topology g = testing::TwoClusterTopology();
  CapacityGraph d = ScaledCapacityGraph(g, 1);
  std::vector<BigInt> src(g.num_nodes(), 0);
  for (int v : g.ComputeNodes()) src[v] = 1;
  SplitResult r = SplitOffSwitches(g, d, src, 8);
  ExpectValidSplit(g, d, src, 8, r);
  for (int v : g.ComputeNodes()) {
    BigInt out = 0;
    for (const auto& [arc, c] : r.direct.capacity) out += arc.first == v ? c : BigInt(0);
    EXPECT_LE(out, 11);  // at most its 10 + 1 egress; splitting never creates bandwidth
  }
  // The switch-free graph has the same optimum (Figure 2b).
  Topology gstar;
  for (const Node& n : g.nodes()) gstar.AddNode(n.name, n.kind);
  for (const auto& [arc, c] : r.direct.capacity) gstar.AddLink(arc.first, arc.second, Rational(c));
  EXPECT_EQ(ComputeAllgatherOptimum(gstar).ratio, 1);
}

// Issue 4 §4 metamorphic: splitting never lowers min_v F(s, v; D_k) below N·k, on random
// Eulerian digraphs with switches at their optimal (U, k), and on GPU clusters/fat-trees.
TEST(EdgeSplittingTest, PreservesConnectivityOnRandomSwitchGraphs) {
  std::mt19937_64 rng(testing::TestSeed() + 3);
  std::vector<Topology> gs = {testing::FatTreeTopology(4), testing::GpuClusterTopology(2, 4, 10, 1, 2)};
  for (int round = 0; round < 60; ++round) {
    gs.push_back(testing::RandomEulerianTopology(rng, 2 + rng() % 5, 1 + rng() % 4, rng() % 5,
                                                 1 + rng() % 7));
  }
  for (const Topology& g : gs) {
    AllgatherOptimum opt = ComputeAllgatherOptimum(g);
    CapacityGraph d = ScaledCapacityGraph(g, opt.U);
    std::vector<BigInt> src(g.num_nodes(), 0);
    for (int v : g.ComputeNodes()) src[v] = opt.k;
    BigInt threshold = opt.k * g.num_compute();
    BigInt before = MinSourceConnectivity(g, d, src);
    EXPECT_GE(before, threshold);  // Theorem 1 at x = 1/ratio*, scaled by U
    SplitResult r = SplitOffSwitches(g, d, src, threshold);
    ExpectValidSplit(g, d, src, threshold, r);
  }
}

TEST(EdgeSplittingTest, RejectsNonEulerianAndUnmetThreshold) {
  Topology g = testing::TwoClusterTopology();
  CapacityGraph d = ScaledCapacityGraph(g, 1);
  std::vector<BigInt> src(g.num_nodes(), 0);
  for (int v : g.ComputeNodes()) src[v] = 1;
  EXPECT_THROW(SplitOffSwitches(g, d, src, 9), std::invalid_argument);  // 9 > min F = 8
  d.capacity[{0, 8}] += 1;  // c11 -> s1 one more: not Eulerian
  EXPECT_THROW(SplitOffSwitches(g, d, src, 8), std::invalid_argument);
  EXPECT_THROW(ScaledCapacityGraph(g, Rational(1, 3)), std::invalid_argument);  // not integral
}

}  // namespace
}  // namespace collsynth
