// MultiTree (seed 001 §III, Algorithm 1, reading of papers/README.md), checked by the step
// checker and by invariants recomputed here from the trees.
#include "solvers/baselines/multitree.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/input_error.h"
#include "graphs/generators/seed000_generators.h"
#include "graphs/metrics.h"
#include "proofs_check/step_checker.h"
#include "solvers/baseline_test_topologies.h"

namespace collsynth {
namespace {

using testing::DirectedRing;

// Invariants of Algorithm 1 recomputed from the trees: each tree spans all nodes; a parent
// joined its tree in an earlier step than its child; a unit link serves at most one tree per
// step; the fan-out cap holds; tree depth (in steps) bounds the BFS distance from the root.
void ExpectAlgorithm1Invariants(const Topology& g, const MultiTreeResult& r, int fan_out = 0) {
  int n = g.num_nodes();
  std::map<std::pair<int, int>, std::int64_t> use;  // (link, step) -> trees
  for (int root = 0; root < n; ++root) {
    std::vector<int> joined(n, -1);
    std::vector<int> children(n, 0);
    joined[root] = 0;
    std::vector<int> dist = BfsDistances(g, root);
    for (const MultiTreeEdge& e : r.trees[root]) {
      ASSERT_GE(joined[e.parent], 0);
      EXPECT_LT(joined[e.parent], e.step);
      EXPECT_EQ(joined[e.child], -1) << "node joined twice";
      joined[e.child] = e.step;
      ++children[e.parent];
      EXPECT_GE(e.step, dist[e.child]);
      auto link = g.FindLink(e.parent, e.child);
      ASSERT_TRUE(link.has_value());
      std::int64_t used = ++use[std::make_pair(*link, e.step)];
      EXPECT_LE(used, g.link(*link).multiplicity);
    }
    for (int v = 0; v < n; ++v) EXPECT_GE(joined[v], 0) << "tree " << root << " misses " << v;
    if (fan_out > 0) {
      for (int v = 0; v < n; ++v) EXPECT_LE(children[v], fan_out);
    }
  }
}

// README / seed 001 Fig. 3: on a 2x2 mesh MultiTree needs 2 steps per phase, so the allreduce
// has 4 steps; RS step = tot_t - t + 1 and AG step = tot_t + t (Algorithm 1 lines 16-18).
TEST(MultiTreeTest, TwoByTwoMeshTakesTwoStepsPerPhaseFig3) {
  Topology mesh = testing::Mesh(2, 2);
  MultiTreeOptions o;
  o.grid = Grid{};
  o.grid->dims = {2, 2};
  o.grid->coord = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  o.grid->node_at = {0, 1, 2, 3};
  MultiTreeResult r = BuildMultiTree(mesh, o, "<test>");
  EXPECT_EQ(r.total_steps, 2);
  ExpectAlgorithm1Invariants(mesh, r);
  StepCheckReport ar = CheckStepSchedule(mesh, r.allreduce);
  ASSERT_TRUE(ar.ok) << (ar.errors.empty() ? "" : ar.errors[0]);
  EXPECT_EQ(ar.tl, 4);
  EXPECT_EQ(ar.tb, 4);  // one whole shard per unit link per step
  ASSERT_TRUE(r.allreduce.rs_steps.has_value());
  EXPECT_EQ(*r.allreduce.rs_steps, 2);
  StepCheckReport ag = CheckStepSchedule(mesh, r.allgather);
  ASSERT_TRUE(ag.ok);
  EXPECT_EQ(ag.tl, 2);
  StepCheckReport rs = CheckStepSchedule(mesh, r.reduce_scatter);
  ASSERT_TRUE(rs.ok);
  EXPECT_EQ(rs.tl, 2);
  std::multiset<std::tuple<int, int, int, int>> expect_rs, got_rs;
  for (int root = 0; root < 4; ++root) {
    for (const MultiTreeEdge& e : r.trees[root])
      expect_rs.insert({root, e.child, e.parent, 2 - e.step + 1});
  }
  for (const StepSend& s : r.reduce_scatter.sends) got_rs.insert({s.source, s.from, s.to, s.step});
  EXPECT_EQ(expect_rs, got_rs);
}

// Complete graph: every tree takes all of its root's out-links in step 1 (tot_t = 1); directed
// ring: the trees are paths (tot_t = N-1); tori: at least the diameter.
TEST(MultiTreeTest, KnownStepCountsAndDiameterBound) {
  Topology k5 = Complete(5);
  MultiTreeResult rk = BuildMultiTree(k5, {}, "<test>");
  EXPECT_EQ(rk.total_steps, 1);
  ExpectAlgorithm1Invariants(k5, rk);

  Topology ring = testing::DirectedRing(6);
  MultiTreeResult rr = BuildMultiTree(ring, {}, "<test>");
  EXPECT_EQ(rr.total_steps, 5);
  ExpectAlgorithm1Invariants(ring, rr);
  EXPECT_TRUE(CheckStepSchedule(ring, rr.allgather).ok);

  Topology torus = Torus({4, 4});
  Grid grid;
  grid.dims = {4, 4};
  grid.coord.resize(16);
  grid.node_at.resize(16);
  for (int v = 0; v < 16; ++v) {
    grid.coord[v] = {v / 4, v % 4};
    grid.node_at[v] = v;
  }
  MultiTreeOptions o;
  o.grid = grid;
  MultiTreeResult rt = BuildMultiTree(torus, o, "<test>");
  EXPECT_GE(rt.total_steps, ComputeDistanceStats(torus, 1).diameter);
  ExpectAlgorithm1Invariants(torus, rt);
  StepCheckReport c = CheckStepSchedule(torus, rt.allreduce);
  ASSERT_TRUE(c.ok) << (c.errors.empty() ? "" : c.errors[0]);
  EXPECT_EQ(c.tl, 2 * rt.total_steps);
  EXPECT_EQ(c.tb, Rational(2 * rt.total_steps));
}

TEST(MultiTreeTest, FanOutCapMakesKaryTrees) {
  Topology torus = Torus({3, 3});
  for (int k : {1, 2}) {
    MultiTreeOptions o;
    o.fan_out = k;
    MultiTreeResult r = BuildMultiTree(torus, o, "<test>");
    ExpectAlgorithm1Invariants(torus, r, k);
    EXPECT_TRUE(CheckStepSchedule(torus, r.allreduce).ok);
    if (k == 1) {
      EXPECT_GE(r.total_steps, 8);
    }  // paths through 9 nodes
  }
}

TEST(MultiTreeTest, RejectsDisconnectedAndSwitchTopologies) {
  Topology g("two");
  g.AddCompute("a");
  g.AddCompute("b");
  g.AddLink(0, 1, 1);
  EXPECT_THROW(BuildMultiTree(g, {}, "<test>"), InputError);
  Topology s("star");
  s.AddCompute("a");
  s.AddCompute("b");
  s.AddSwitch("sw");
  s.AddDuplexLink(0, 2, 1);
  s.AddDuplexLink(1, 2, 1);
  EXPECT_THROW(BuildMultiTree(s, {}, "<test>"), InputError);
}

}  // namespace
}  // namespace collsynth
