// The brute-force tree packing oracle (proofs_check/tree_packing_brute_force.h) on instances
// small enough to count by hand.
#include "proofs_check/tree_packing_brute_force.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

namespace collsynth {
namespace {

constexpr std::int64_t kBudget = 1000000;

// Complete digraph on 3 compute nodes: 3 = 3^(3-2) spanning arborescences per root, in both
// models (no switch).
TEST(TreePackingBruteForceTest, CompleteDigraphHasCayleyManyArborescences) {
  Topology g("k3");
  for (const char* n : {"a", "b", "c"}) g.AddCompute(n);
  for (int u = 0; u < 3; ++u) {
    for (int v = 0; v < 3; ++v) {
      if (u != v) g.AddLink(u, v, 1);
    }
  }
  for (auto model : {TreeModel::kRouted, TreeModel::kSteiner}) {
    for (int r = 0; r < 3; ++r) EXPECT_EQ(EnumerateSpanningTrees(g, r, model).size(), 3u);
  }
  // k = 1: three trees of 2 arcs need all 6 unit links: fits at U = 1, not below.
  TreePackingBruteForce bf(g, TreeModel::kRouted);
  EXPECT_EQ(bf.Fits(1, 1, kBudget), std::optional<bool>(true));
  EXPECT_EQ(bf.Fits(1, Rational(99, 100), kBudget), std::optional<bool>(false));
  EXPECT_EQ(bf.Fits(2, 1, kBudget), std::optional<bool>(false));  // 12 arcs needed, 6 exist
  EXPECT_EQ(bf.Fits(2, 2, kBudget), std::optional<bool>(true));
}

// Star: a, b, c each duplex to switch s. Steiner trees from a: only a -> s -> {b, c}. Routed
// trees from a: arborescences (b<-a, c<-a), (b<-a, c<-b), (c<-a, b<-c), each arc through s,
// so a -> s carries 2 routes in the first.
TEST(TreePackingBruteForceTest, StarSwitchReplicationVersusRoutes) {
  Topology g("star");
  int a = g.AddCompute("a"), b = g.AddCompute("b"), c = g.AddCompute("c");
  int s = g.AddSwitch("s");
  for (int v : {a, b, c}) g.AddDuplexLink(v, s, 1);
  EXPECT_EQ(EnumerateSpanningTrees(g, a, TreeModel::kSteiner).size(), 1u);
  std::vector<std::vector<int>> routed = EnumerateSpanningTrees(g, a, TreeModel::kRouted);
  ASSERT_EQ(routed.size(), 3u);
  const int as = *g.FindLink(a, s);
  int doubled = 0;
  for (const auto& t : routed) {
    EXPECT_EQ(t.size(), 4u);  // two arcs, two links each
    doubled += std::count(t.begin(), t.end(), as) == 2;
  }
  EXPECT_EQ(doubled, 1);
  // k = 1: with replication each tree uses each v -> s once and s -> w twice: U = 2. Routed,
  // each tree needs 2 units into s and 2 out (every route crosses s): 3 trees need 6 in, and
  // the links into s carry U each, so U = 2 as well; U = 1 fails in both.
  for (auto model : {TreeModel::kRouted, TreeModel::kSteiner}) {
    TreePackingBruteForce bf(g, model);
    EXPECT_EQ(bf.Fits(1, 2, kBudget), std::optional<bool>(true));
    EXPECT_EQ(bf.Fits(1, 1, kBudget), std::optional<bool>(false));
  }
}

// Seed 004 Figure 1 with clusters of 2 (local 10, global 1): k = 1 needs U·1 >= 1 on the
// cross links; k = 2 needs U = 2.
TEST(TreePackingBruteForceTest, TwoClusterFigure1) {
  Topology g("two-cluster");
  int c11 = g.AddCompute("c11"), c12 = g.AddCompute("c12");
  int c21 = g.AddCompute("c21"), c22 = g.AddCompute("c22");
  int s1 = g.AddSwitch("s1"), s2 = g.AddSwitch("s2"), s0 = g.AddSwitch("s0");
  for (int v : {c11, c12}) g.AddDuplexLink(v, s1, 10);
  for (int v : {c21, c22}) g.AddDuplexLink(v, s2, 10);
  for (int v : {c11, c12, c21, c22}) g.AddDuplexLink(v, s0, 1);
  for (auto model : {TreeModel::kRouted, TreeModel::kSteiner}) {
    TreePackingBruteForce bf(g, model);
    EXPECT_EQ(bf.Fits(1, 1, kBudget), std::optional<bool>(true));
    EXPECT_EQ(bf.Fits(1, Rational(9, 10), kBudget), std::optional<bool>(false));
    EXPECT_EQ(bf.Fits(2, 1, kBudget), std::optional<bool>(false));
    EXPECT_EQ(bf.Fits(2, 2, kBudget), std::optional<bool>(true));
  }
}

TEST(TreePackingBruteForceTest, RejectsOutOfRangeArguments) {
  Topology big("big");
  for (int i = 0; i <= kMaxTreePackingNodes; ++i) big.AddCompute("v" + std::to_string(i));
  EXPECT_TRUE(
      testing::ThrowsInvariantError([&] { TreePackingBruteForce(big, TreeModel::kRouted); }));
  Topology g("pair");
  g.AddCompute("a");
  g.AddCompute("b");
  g.AddDuplexLink(0, 1, 1);
  TreePackingBruteForce bf(g, TreeModel::kSteiner);
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { bf.Fits(0, 1, kBudget); }));
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { bf.Fits(kMaxTreePackingK + 1, 1, kBudget); }));
  EXPECT_EQ(bf.Fits(1, 1, 1), std::nullopt);  // the budget runs out
}

}  // namespace
}  // namespace collsynth
