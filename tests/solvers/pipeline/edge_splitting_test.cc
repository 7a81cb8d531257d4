// Edge splitting (seed 004 §2.2, Algorithm 1, Theorems 7-8).
#include "solvers/pipeline/edge_splitting.h"

#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "solvers/backends/max_flow.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline_test_topologies.h"
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
      for (std::size_t i = 0; i + 1 < p.nodes.size(); ++i)
        load[{p.nodes[i], p.nodes[i + 1]}] += p.multiplicity;
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

// G({U·b_e}) at the optimal (U, k), source capacities k per compute node, T = N·k.
std::tuple<CapacityGraph, std::vector<BigInt>, BigInt> OptimalSplitInput(const Topology& g) {
  AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  std::vector<BigInt> src(g.num_nodes(), 0);
  for (int v : g.ComputeNodes()) src[v] = opt.k;
  return {ScaledCapacityGraph(g, opt.U), src, opt.k * g.num_compute()};
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

// Metamorphic: splitting never lowers min_v F(s, v; D_k) below N·k, on random
// Eulerian digraphs with switches at their optimal (U, k), and on GPU clusters/fat-trees;
// both with the whole-switch fast path (default) and with the paper's pair-by-pair
// Algorithm 1 alone. The random set exercises both the fast path and its fallback.
TEST(EdgeSplittingTest, PreservesConnectivityOnRandomSwitchGraphs) {
  std::mt19937_64 rng(testing::TestSeed() + 3);
  std::vector<Topology> gs = {testing::FatTreeTopology(4),
                              testing::GpuClusterTopology(2, 4, 10, 1, 2)};
  for (int round = 0; round < 60; ++round) {
    gs.push_back(testing::RandomEulerianTopology(rng, 2 + rng() % 5, 1 + rng() % 4, rng() % 5,
                                                 1 + rng() % 7));
  }
  std::int64_t whole = 0, pairwise = 0;
  for (const Topology& g : gs) {
    SCOPED_TRACE(g.name());
    auto [d, src, threshold] = OptimalSplitInput(g);
    BigInt before = MinSourceConnectivity(g, d, src);
    EXPECT_GE(before, threshold);  // Theorem 1 at x = 1/ratio*, scaled by U
    SplitResult r = SplitOffSwitches(g, d, src, threshold);
    ExpectValidSplit(g, d, src, threshold, r);
    int with_arcs = 0;
    for (int w = 0; w < g.num_nodes(); ++w) {
      bool has = false;
      for (const auto& [arc, c] : d.capacity) has |= arc.first == w || arc.second == w;
      with_arcs += g.IsSwitch(w) && has;
    }
    EXPECT_LE(r.whole_switch_splits, with_arcs);
    whole += r.whole_switch_splits;
    pairwise += with_arcs - r.whole_switch_splits;
    SplittingOptions plain;
    plain.whole_switches = false;
    SplitResult p = SplitOffSwitches(g, d, src, threshold, true, plain);
    ExpectValidSplit(g, d, src, threshold, p);
    EXPECT_EQ(p.whole_switch_splits, 0);
    EXPECT_EQ(p.rooted_min_cuts, 0);
  }
  EXPECT_GT(whole, 0);     // the fast path was taken
  EXPECT_GT(pairwise, 0);  // and its fallback too
}

// F(s, v) for every compute v on (d, src): a max-flow each, independent of the splitter.
std::vector<BigInt> PerNodeConnectivity(const Topology& g, const CapacityGraph& d,
                                        const std::vector<BigInt>& src) {
  const int s = g.num_nodes();
  FlowNetwork net(s + 1);
  for (const auto& [arc, c] : d.capacity) net.AddArc(arc.first, arc.second, c);
  for (int v = 0; v < s; ++v) {
    if (src[v] > 0) net.AddArc(s, v, src[v]);
  }
  std::vector<BigInt> f;
  for (int v : g.ComputeNodes()) f.push_back(ComputeMaxFlow(net, s, v).value);
  return f;
}

// Switches with at most two neighbours (NICs, chains of them on a link) are split off
// without any test: that must keep every F(s, v) exactly, not only the minimum. Random
// Eulerian compute graphs whose links are routed through chains of 1-3 such switches.
TEST(EdgeSplittingTest, TwoNeighbourSwitchesKeepEveryConnectivity) {
  std::mt19937_64 rng(testing::TestSeed() + 11);
  for (int round = 0; round < 40; ++round) {
    Topology base =
        testing::RandomEulerianTopology(rng, 3 + rng() % 5, 0, 1 + rng() % 4, 1 + rng() % 6);
    Topology g("chains");
    for (const Node& n : base.nodes()) g.AddNode(n.name, n.kind);
    int chains = 0;
    for (const Link& l : base.links()) {
      if (l.from == l.to) continue;
      if (rng() % 3 == 0) {
        g.AddLink(l.from, l.to, l.bandwidth);
        continue;
      }
      int prev = l.from;
      for (int i = 0, len = 1 + static_cast<int>(rng() % 3); i < len; ++i) {
        int x = g.AddSwitch("x" + std::to_string(chains) + "_" + std::to_string(i));
        g.AddLink(prev, x, l.bandwidth);
        prev = x;
      }
      g.AddLink(prev, l.to, l.bandwidth);
      ++chains;
    }
    if (g.num_switches() == 0) continue;
    std::vector<BigInt> src(g.num_nodes(), 0);
    for (int v : g.ComputeNodes()) src[v] = 1 + static_cast<int>(rng() % 3);
    CapacityGraph d = ScaledCapacityGraph(g, 1);
    BigInt threshold = MinSourceConnectivity(g, d, src);
    SplitResult r = SplitOffSwitches(g, d, src, threshold);
    ExpectValidSplit(g, d, src, threshold, r);
    EXPECT_EQ(r.whole_switch_splits, g.num_switches());
    EXPECT_EQ(r.rooted_min_cuts, 0);  // no test was needed
    EXPECT_EQ(PerNodeConnectivity(g, r.direct, src), PerNodeConnectivity(g, d, src));
  }
}

// The 4-box GPU cluster (NIC switches with two neighbours, an in-box switch, two rail
// switches) splits off every switch whole: the only max-flows are the two connectivity
// checks (before and after). On the k = 4 fat-tree most switches go whole and the rest
// pair by pair, with fewer max-flows than the paper's pairwise Algorithm 1.
TEST(EdgeSplittingTest, WholeSwitchesOnGpuClusterAndFatTree) {
  for (const Topology& g :
       {testing::GpuClusterTopology(4, 4, 12, 1, 2), testing::FatTreeTopology(4)}) {
    SCOPED_TRACE(g.name());
    auto [d, src, threshold] = OptimalSplitInput(g);
    SplitResult r = SplitOffSwitches(g, d, src, threshold);
    ExpectValidSplit(g, d, src, threshold, r);
    SplittingOptions plain;
    plain.whole_switches = false;
    SplitResult p = SplitOffSwitches(g, d, src, threshold, true, plain);
    ExpectValidSplit(g, d, src, threshold, p);
    EXPECT_LT(r.max_flow_calls, p.max_flow_calls);
    if (g.name() == "gpu_cluster") {
      EXPECT_EQ(r.whole_switch_splits, g.num_switches());
      EXPECT_EQ(r.max_flow_calls, 2 * g.num_compute());
    } else {
      EXPECT_GT(2 * r.whole_switch_splits, g.num_switches());
    }
  }
}

TEST(EdgeSplittingTest, RejectsNonEulerianAndUnmetThreshold) {
  Topology g = testing::TwoClusterTopology();
  CapacityGraph d = ScaledCapacityGraph(g, 1);
  std::vector<BigInt> src(g.num_nodes(), 0);
  for (int v : g.ComputeNodes()) src[v] = 1;
  EXPECT_TRUE(
      testing::ThrowsInvariantError([&] { SplitOffSwitches(g, d, src, 9); }));  // 9 > min F = 8
  d.capacity[{0, 8}] += 1;  // c11 -> s1 one more: not Eulerian
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { SplitOffSwitches(g, d, src, 8); }));
  EXPECT_TRUE(testing::ThrowsInvariantError(
      [&] { ScaledCapacityGraph(g, Rational(1, 3)); }));  // not integral
}

}  // namespace
}  // namespace collsynth
