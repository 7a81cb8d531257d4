// Switch topologies (seed 004 Figure 1, fat-tree, dragonfly, GPU boxes, DGX-1).
// The allgather optimum ratio* = max over S ⊉ V_c of |S ∩ V_c| / B+(S) (seed 004 eq. (1),
// Theorem 1) is recomputed here by brute force over every node subset, independently of
// any solver, for the small instances whose value the papers / issue state.
#include "graphs/generators/switch_topologies.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "graphs/topology_io.h"
#include "test_util.h"

namespace collsynth {
namespace {

// max over node subsets S with S ∩ V_c nonempty and V_c ⊄ S of |S ∩ V_c| / B+(S).
Rational BruteForceAllgatherRatio(const Topology& g) {
  const int n = g.num_nodes();
  EXPECT_LE(n, 22);
  Rational best = 0;
  for (std::uint64_t mask = 1; mask < (std::uint64_t{1} << n); ++mask) {
    int inside = 0;
    bool all = true;
    for (int v = 0; v < n; ++v) {
      if (!g.IsCompute(v)) continue;
      if (mask >> v & 1)
        ++inside;
      else
        all = false;
    }
    if (inside == 0 || all) continue;
    Rational out = 0;
    for (const Link& l : g.links()) {
      if ((mask >> l.from & 1) && !(mask >> l.to & 1)) out += l.bandwidth;
    }
    EXPECT_GT(out, 0);
    Rational r = Rational(inside) / out;
    if (r > best) best = r;
  }
  return best;
}

std::map<std::pair<std::string, std::string>, Rational> LinkMap(const Topology& g) {
  std::map<std::pair<std::string, std::string>, Rational> m;
  for (const Link& l : g.links()) m[{g.node(l.from).name, g.node(l.to).name}] = l.bandwidth;
  return m;
}

// Seed 004 Figure 1 / §3: two clusters of 4, local bandwidth 10b, global b; the bottleneck
// cut is one cluster with its local switch, 1/x* = 4/(4b): ratio 1 for b = 1.
TEST(SwitchTopologies, TwoClusterMatchesFigure1File) {
  Topology g = TwoCluster(2, 4, Rational(10), Rational(1));
  Topology file = ReadTopologyFile(testing::SourcePath("experiments/topologies/two_cluster.json"));
  ASSERT_EQ(g.num_nodes(), file.num_nodes());
  for (int v = 0; v < g.num_nodes(); ++v) {
    EXPECT_EQ(g.node(v).name, file.node(v).name);
    EXPECT_EQ(g.node(v).kind, file.node(v).kind);
  }
  EXPECT_EQ(LinkMap(g), LinkMap(file));
  EXPECT_EQ(g.name(), "twocluster(2,4,10,1)");
}

TEST(SwitchTopologies, TwoClusterFigure1AllgatherRatioIsOne) {
  EXPECT_EQ(BruteForceAllgatherRatio(TwoCluster(2, 4, Rational(10), Rational(1))), Rational(1));
  // Mutations: a weaker global switch makes the cluster cut worse (4 / (4·1/2) = 2); a
  // strong global switch moves the bottleneck to a single node: 7 / (10 + 10) = 7/20.
  EXPECT_EQ(BruteForceAllgatherRatio(TwoCluster(2, 4, Rational(10), Rational(1, 2))), Rational(2));
  EXPECT_EQ(BruteForceAllgatherRatio(TwoCluster(2, 4, Rational(10), Rational(10))),
            Rational(7, 20));
}

TEST(SwitchTopologies, TwoClusterLongNamesAndShape) {
  Topology g = TwoCluster(3, 10, Rational(5, 2), Rational(1));
  EXPECT_EQ(g.num_compute(), 30);
  EXPECT_EQ(g.num_switches(), 4);
  EXPECT_TRUE(g.FindNode("c3_10").has_value());
  EXPECT_TRUE(g.FindNode("s0").has_value());
  int c = *g.FindNode("c2_7"), s2 = *g.FindNode("s2"), s0 = *g.FindNode("s0");
  EXPECT_EQ(g.link(*g.FindLink(c, s2)).bandwidth, Rational(5, 2));
  EXPECT_EQ(g.link(*g.FindLink(s0, c)).bandwidth, Rational(1));
  EXPECT_TRUE(CheckEulerian(g).eulerian);
  EXPECT_TRUE(CheckStronglyConnected(g).strongly_connected);
}

// Issue: DGX-1 must reproduce the allgather optimum ratio 7/6 (seed 004 eq. (1)); decide
// the variant: V100 (6 NVLinks per GPU, some pairs doubled) gives 7/6, P100 (4 single
// NVLinks) gives 7/4.
TEST(SwitchTopologies, Dgx1VoltaAllgatherRatioIsSevenSixths) {
  Topology g = Dgx1(1);
  EXPECT_EQ(g.num_compute(), 8);
  EXPECT_EQ(g.num_switches(), 0);
  EXPECT_EQ(BruteForceAllgatherRatio(g), Rational(7, 6));

  Topology p100("p100");
  for (int i = 0; i < 8; ++i) p100.AddCompute("g" + std::to_string(i));
  for (int i = 0; i < 8; ++i) {
    for (int j = i + 1; j < 8; ++j) {
      if (Dgx1NvLinks(i, j) > 0) p100.AddDuplexLink(i, j, Rational(1));
    }
  }
  EXPECT_EQ(BruteForceAllgatherRatio(p100), Rational(7, 4));
}

TEST(SwitchTopologies, Dgx1HybridCubeMeshStructure) {
  int total = 0;
  for (int i = 0; i < 8; ++i) {
    int per_gpu = 0;
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(Dgx1NvLinks(i, j), Dgx1NvLinks(j, i));
      per_gpu += Dgx1NvLinks(i, j);
      // Linked exactly within a quad and to the partner i ± 4: the P100 cube-mesh.
      bool cube_mesh = i != j && (i / 4 == j / 4 || (i + 4) % 8 == j);
      EXPECT_EQ(Dgx1NvLinks(i, j) > 0, cube_mesh) << i << " " << j;
    }
    EXPECT_EQ(per_gpu, 6) << "GPU " << i;
    total += per_gpu;
  }
  EXPECT_EQ(total / 2, 24);  // 8 GPUs × 6 NVLinks / 2
  Topology g = Dgx1(1);
  int g0 = *g.FindNode("b0g0"), g3 = *g.FindNode("b0g3"), g1 = *g.FindNode("b0g1");
  EXPECT_EQ(g.link(*g.FindLink(g0, g3)).multiplicity, 2);
  EXPECT_EQ(g.link(*g.FindLink(g0, g3)).bandwidth, Rational(2));
  EXPECT_EQ(g.link(*g.FindLink(g0, g1)).bandwidth, Rational(1));
  EXPECT_EQ(ComputeDistanceStats(g, 1).diameter, 2);
}

TEST(SwitchTopologies, Dgx1MultiBoxAddsSharedNicSwitch) {
  Topology g = Dgx1(3, Rational(1, 4));
  EXPECT_EQ(g.num_compute(), 24);
  EXPECT_EQ(g.num_switches(), 1);
  int sw = *g.FindNode("sw");
  EXPECT_EQ(g.InLinks(sw).size(), 24u);
  EXPECT_EQ(g.OutBandwidth(*g.FindNode("b2g5")), Rational(6) + Rational(1, 4));
  EXPECT_FALSE(g.FindLink(*g.FindNode("b0g0"), *g.FindNode("b1g0")).has_value());
  EXPECT_TRUE(CheckEulerian(g).eulerian);
  EXPECT_TRUE(CheckStronglyConnected(g).strongly_connected);
}

// k-ary fat-tree (Al-Fares et al.): k^3/4 hosts, 5k^2/4 switches of radix k, host-to-host
// diameter 6 hops through the core.
TEST(SwitchTopologies, FatTreeCountsRadixAndDiameter) {
  for (int k : {2, 4, 6, 8}) {
    Topology g = FatTree(k);
    EXPECT_EQ(g.num_compute(), k * k * k / 4) << k;
    EXPECT_EQ(g.num_switches(), 5 * k * k / 4) << k;
    EXPECT_EQ(g.num_links(), 2 * 3 * k * k * k / 4) << k;
    for (int v = 0; v < g.num_nodes(); ++v) {
      EXPECT_EQ(g.OutDegree(v), g.IsSwitch(v) ? k : 1) << g.node(v).name;
    }
    DistanceStats ds = ComputeDistanceStats(g, 1);
    EXPECT_EQ(ds.unreachable_pairs, 0);
    EXPECT_EQ(ds.diameter, 6) << k;
  }
  Topology g = FatTree(4);
  // Host p1e0h1 sits under edge switch p1e0, which reaches both aggregation switches of pod 1.
  int h = *g.FindNode("p1e0h1"), e = *g.FindNode("p1e0");
  EXPECT_TRUE(g.FindLink(h, e).has_value());
  EXPECT_TRUE(g.FindLink(e, *g.FindNode("p1a1")).has_value());
  EXPECT_TRUE(g.FindLink(*g.FindNode("p1a1"), *g.FindNode("core3")).has_value());
  EXPECT_FALSE(g.FindLink(*g.FindNode("p1a1"), *g.FindNode("core0")).has_value());
}

// Dragonfly (Kim et al.): g = a·h + 1 groups, one global link per group pair, router radix
// p + (a - 1) + h, terminal diameter at most 5 (local, global, local).
TEST(SwitchTopologies, DragonflyOneGlobalLinkPerGroupPair) {
  for (auto [a, p, h] : {std::tuple{1, 1, 1}, {2, 1, 1}, {4, 2, 2}, {3, 1, 2}}) {
    Topology g = Dragonfly(a, p, h);
    const int groups = a * h + 1;
    EXPECT_EQ(g.num_switches(), groups * a);
    EXPECT_EQ(g.num_compute(), groups * a * p);
    std::map<std::pair<int, int>, int> between;
    for (const Link& l : g.links()) {
      if (!g.IsSwitch(l.from) || !g.IsSwitch(l.to)) continue;
      EXPECT_EQ(l.multiplicity, 1);
      int ga = std::stoi(g.node(l.from).name.substr(1)),
          gb = std::stoi(g.node(l.to).name.substr(1));
      if (ga != gb) ++between[{ga, gb}];
    }
    EXPECT_EQ(static_cast<int>(between.size()), groups * (groups - 1));
    for (const auto& [pair, count] : between) EXPECT_EQ(count, 1);
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (g.IsSwitch(v)) {
        EXPECT_EQ(g.OutDegree(v), p + (a - 1) + h) << g.node(v).name;
      }
    }
    DistanceStats ds = ComputeDistanceStats(g, 1);
    EXPECT_EQ(ds.unreachable_pairs, 0);
    EXPECT_LE(ds.diameter, 5);
    if (a >= 2) {
      EXPECT_EQ(ds.diameter, 5) << a << p << h;
    }
  }
}

// Issue example gpuboxes(2,8,300,25,2): GPU i on rail i mod 2.
TEST(SwitchTopologies, GpuBoxesRails) {
  Topology g = GpuBoxes(2, 8, Rational(300), Rational(25), 2);
  EXPECT_EQ(g.num_compute(), 16);
  EXPECT_EQ(g.num_switches(), 4);
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 8; ++i) {
      int gpu = *g.FindNode("b" + std::to_string(b) + "g" + std::to_string(i));
      EXPECT_EQ(g.OutLinks(gpu).size(), 2u);
      EXPECT_EQ(g.OutBandwidth(gpu), Rational(325));
      auto to_box = g.FindLink(gpu, *g.FindNode("b" + std::to_string(b) + "sw"));
      auto to_rail = g.FindLink(gpu, *g.FindNode("rail" + std::to_string(i % 2)));
      ASSERT_TRUE(to_box && to_rail);
      EXPECT_EQ(g.link(*to_box).bandwidth, Rational(300));
      EXPECT_EQ(g.link(*to_rail).bandwidth, Rational(25));
    }
  }
  EXPECT_EQ(g.InLinks(*g.FindNode("rail1")).size(), 8u);
  EXPECT_TRUE(CheckEulerian(g).eulerian);
  EXPECT_TRUE(CheckStronglyConnected(g).strongly_connected);
  // Brute force on small instances. Box cut {box 0, its switch}: g / (g·B_nic); all GPUs but
  // one: (N-1) / (B_box + B_nic). Here both are 1/2 (2/(2·2) and 3/(4+2)).
  Topology small = GpuBoxes(2, 2, Rational(4), Rational(2), 1);
  EXPECT_EQ(BruteForceAllgatherRatio(small), Rational(1, 2));
  Topology weak_nic = GpuBoxes(2, 2, Rational(4), Rational(1), 2);
  EXPECT_EQ(BruteForceAllgatherRatio(weak_nic), Rational(1));  // box cut 2 / (2·1)
}

TEST(SwitchTopologies, BadParametersAreRejected) {
  EXPECT_THROW(FatTree(3), std::invalid_argument);
  EXPECT_THROW(FatTree(0), std::invalid_argument);
  EXPECT_THROW(TwoCluster(0, 4, Rational(1), Rational(1)), std::invalid_argument);
  EXPECT_THROW(TwoCluster(2, 4, Rational(0), Rational(1)), std::invalid_argument);
  EXPECT_THROW(GpuBoxes(2, 4, Rational(1), Rational(1), 5), std::invalid_argument);
  EXPECT_THROW(GpuBoxes(2, 4, Rational(1), Rational(-1), 2), std::invalid_argument);
  EXPECT_THROW(Dragonfly(0, 1, 1), std::invalid_argument);
  EXPECT_THROW(Dgx1(0), std::invalid_argument);
  // Absurd sizes fail before allocation.
  EXPECT_THROW(FatTree(100000), std::invalid_argument);
  EXPECT_THROW(Dragonfly(1000, 1000, 1000), std::invalid_argument);
  EXPECT_THROW(TwoCluster(100000, 100000, Rational(1), Rational(1)), std::invalid_argument);
  EXPECT_THROW(GpuBoxes(10000000, 8, Rational(1), Rational(1), 2), std::invalid_argument);
  EXPECT_THROW(Dgx1(10000000), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
