// Routed baselines (solvers/baselines/routed_baselines.h, docs/baselines.md "Routed baselines"):
// checked by the pipeline checker, with closed forms for their ratio and height on a single
// switch, the height bound reached by `direct` everywhere, and `direct` bandwidth-optimal on a
// full-bisection fat-tree (the optimum computed by the pipeline path); NCCL's double binary tree
// (its trees against NCCL's rule and drawings, its closed forms on one switch) and the
// hierarchical schedule (closed forms on GPU boxes), and the rail-aware ring order.
#include "solvers/baselines/routed_baselines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "core/input_error.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/baselines/baseline_structure.h"
#include "solvers/baselines/double_binary_tree.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

// n compute nodes on one switch, duplex links of bandwidth b.
Topology Star(int n, const Rational& b) {
  Topology g("star");
  for (int i = 0; i < n; ++i) g.AddCompute("g" + std::to_string(i));
  const int s = g.AddSwitch("sw");
  for (int i = 0; i < n; ++i) g.AddDuplexLink(i, s, b);
  return g;
}

PipelineCheckReport Checked(const Topology& g, const std::string& name, Collective c,
                            PipelineSchedule* out = nullptr) {
  RoutedBaselineOptions o;
  o.name = name;
  o.collective = c;
  PipelineSchedule s = BuildRoutedBaseline(g, o, "test");
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << name << ": " << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, s.ratio);
  if (out) *out = s;
  return r;
}

// On one switch every route is up and down (2 links) and every node's uplink carries the N-1
// sends of each algorithm: ratio (N-1)/b, the optimum. Heights: direct 2 (= the bound), ring
// 2(N-1), recursive doubling 2·log2 N.
TEST(RoutedBaselines, SingleSwitchClosedForms) {
  for (int n : {2, 4, 8, 16}) {
    SCOPED_TRACE(n);
    const Rational b(5, 2);
    Topology g = Star(n, b);
    const Rational expected = Rational(n - 1) / b;
    PipelineOptions po;
    EXPECT_EQ(BuildPipelineSchedule(g, po).optimal_ratio, expected);
    int log2n = 0;
    while ((1 << log2n) < n) ++log2n;
    struct Case {
      const char* name;
      std::int64_t height;
    };
    for (const Case& c : {Case{"direct", 2}, Case{"routed-ring", 2 * (n - 1)},
                          Case{"routed-recursive-doubling", 2 * log2n}}) {
      for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter}) {
        PipelineCheckReport r = Checked(g, c.name, coll);
        EXPECT_EQ(r.ratio, expected) << c.name;
        EXPECT_EQ(r.height_hops, c.height) << c.name;
        EXPECT_EQ(r.height_lower_bound_hops, 2);
      }
      PipelineCheckReport ar = Checked(g, c.name, Collective::kAllreduce);
      EXPECT_EQ(ar.ratio, 2 * expected) << c.name;
      EXPECT_EQ(ar.height_hops, 2 * c.height) << c.name;
    }
  }
}

// `direct` reaches the height bound on every topology (a shortest-path tree per root), and on a
// full-bisection fat-tree, split evenly over the shortest routes as ECMP does, it is
// bandwidth-optimal: its ratio is the pipeline path's certified optimum.
TEST(RoutedBaselines, DirectReachesTheHeightBound) {
  for (const char* e : {"fattree(4)", "fattree(6)", "torus(4,4)", "hypercube(4)",
                        "gpuboxes(4,4,300,25,2)", "dragonfly(4,2,2)", "kautz(2,3)"}) {
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    for (Collective c : {Collective::kAllgather, Collective::kReduceScatter}) {
      PipelineCheckReport r = Checked(g, "direct", c);
      EXPECT_EQ(r.height_hops, r.height_lower_bound_hops);
    }
  }
  for (const char* e : {"fattree(4)", "fattree(6)"}) {
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    PipelineOptions po;
    const Rational optimum = BuildPipelineSchedule(g, po).optimal_ratio;
    EXPECT_EQ(Checked(g, "direct", Collective::kAllgather).ratio, optimum);
    // With one route per tree edge the core links are unevenly used: worse than the optimum.
    RoutedBaselineOptions one;
    one.name = "direct";
    one.max_routes_per_edge = 1;
    PipelineSchedule s = BuildRoutedBaseline(g, one, "test");
    PipelineCheckReport r = CheckPipelineSchedule(g, s);
    ASSERT_TRUE(r.ok) << r.errors[0];
    EXPECT_GT(r.ratio, optimum);
  }
}

// Recursive doubling on hypercube(d) is the binomial tree of seed 000 App. I: every tree edge is
// one link and the height is d, the diameter. Pipelined, all levels run at once, and a link of
// dimension s carries the trees of the 2^s roots that agree with its tail above bit s: the
// top dimension carries N/2, so the ratio is N/2 where the optimum is (N-1)/d (recursive
// doubling is optimal only in seed 000's step model, one dimension per step).
TEST(RoutedBaselines, RecursiveDoublingOnTheHypercube) {
  for (int d : {2, 3, 4}) {
    SCOPED_TRACE(d);
    Topology g = EvaluateTopologyExpression("hypercube(" + std::to_string(d) + ")");
    PipelineCheckReport r = Checked(g, "routed-recursive-doubling", Collective::kAllgather);
    EXPECT_EQ(r.height_hops, d);
    EXPECT_EQ(r.ratio, Rational(1 << (d - 1)));
  }
}

TEST(RoutedBaselines, BadInputNamesTheProblem) {
  Topology star = Star(6, Rational(1));
  RoutedBaselineOptions o;
  o.name = "routed-recursive-doubling";
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);  // 6 is not 2^d
  o.name = "routed-ring";
  o.order = {"g0", "g1", "g2", "g3", "g4", "nope"};
  try {
    BuildRoutedBaseline(star, o, "f.json");
    ADD_FAILURE() << "accepted an unknown node";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--order"), std::string::npos) << e.what();
  }
  o.order = {"g0", "g1", "g2", "g3", "g4", "g4"};
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);
  o.order = {"g0", "g1"};
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);
  // On a torus in id order, 3 -> 4 are not neighbours and no switch joins them.
  Topology torus = EvaluateTopologyExpression("torus(4,4)");
  o.order.clear();
  try {
    BuildRoutedBaseline(torus, o, "t.json");
    ADD_FAILURE() << "a ring over non-adjacent nodes was built";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no route"), std::string::npos) << e.what();
  }
  o.name = "direct";
  o.collective = Collective::kBroadcast;
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);
}

// NCCL's btree rule as ncclGetBtree states it (NVIDIA/nccl src/graph/trees.cc), transcribed
// independently of the library: the parent u and the children d0, d1 (-1: none) of `rank`.
struct NcclLinks {
  int up, down0, down1;
};
NcclLinks NcclBtree(int nranks, int rank) {
  int bit = 1;
  for (; bit < nranks; bit <<= 1) {
    if (bit & rank) break;
  }
  if (rank == 0) return {-1, -1, nranks > 1 ? bit >> 1 : -1};
  int up = (rank ^ bit) | (bit << 1);
  if (up >= nranks) up = rank ^ bit;
  int lowbit = bit >> 1;
  const int down0 = lowbit == 0 ? -1 : rank - lowbit;
  int down1 = lowbit == 0 ? -1 : rank + lowbit;
  while (down1 >= nranks) {
    down1 = lowbit == 0 ? -1 : rank + lowbit;
    lowbit >>= 1;
  }
  return {up, down0, down1};
}
// ncclGetDtree: tree 0 the btree, tree 1 the mirror (n even) or the shift by one (n odd).
NcclLinks NcclDtree(int n, int rank, int tree) {
  if (tree == 0) return NcclBtree(n, rank);
  auto map = [&](int x, bool shift) { return x < 0 ? -1 : shift ? (x + 1) % n : n - 1 - x; };
  const bool shift = n % 2 == 1;
  const NcclLinks l = NcclBtree(n, shift ? (rank - 1 + n) % n : n - 1 - rank);
  return {map(l.up, shift), map(l.down0, shift), map(l.down1, shift)};
}

std::vector<int> Identity(int n) {
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  return order;
}

// The library's trees are NCCL's: every rank's parent is ncclGetDtree's u and its children are
// ncclGetDtree's d0, d1, for every n up to 40.
TEST(RoutedBaselines, DoubleBinaryTreesFollowNcclsRule) {
  for (int n = 1; n <= 40; ++n) {
    SCOPED_TRACE(n);
    const std::vector<BinaryTree> trees = NcclDoubleBinaryTrees(Identity(n));
    ASSERT_EQ(trees.size(), 2u);
    for (int t = 0; t < 2; ++t) {
      std::vector<std::set<int>> children(n);
      for (int r = 0; r < n; ++r) {
        if (trees[t].parent[r] >= 0) children[trees[t].parent[r]].insert(r);
      }
      for (int r = 0; r < n; ++r) {
        const NcclLinks l = NcclDtree(n, r, t);
        EXPECT_EQ(trees[t].parent[r], l.up) << "tree " << t << " rank " << r;
        std::set<int> expected;
        for (int d : {l.down0, l.down1}) {
          if (d >= 0) expected.insert(d);
        }
        EXPECT_EQ(children[r], expected) << "tree " << t << " rank " << r;
        if (l.up < 0) {
          EXPECT_EQ(trees[t].root, r);
        }
      }
    }
  }
}

// The drawings in NVIDIA/nccl src/graph/trees.cc: the btree of 14 ranks, the mirrored second
// tree of 12 ranks and the shifted second tree of 13 ranks, as child -> parent.
TEST(RoutedBaselines, DoubleBinaryTreesMatchNcclsDrawings) {
  struct Drawing {
    int n, tree;
    std::vector<std::pair<int, int>> child_parent;
  };
  const std::vector<Drawing> drawings = {
      {14,
       0,
       {{8, 0},
        {4, 8},
        {12, 8},
        {2, 4},
        {6, 4},
        {10, 12},
        {13, 12},
        {1, 2},
        {3, 2},
        {5, 6},
        {7, 6},
        {9, 10},
        {11, 10}}},
      {12,
       1,
       {{3, 11}, {1, 3}, {7, 3}, {0, 1}, {2, 1}, {5, 7}, {9, 7}, {4, 5}, {6, 5}, {8, 9}, {10, 9}}},
      {13,
       1,
       {{9, 1},
        {5, 9},
        {0, 9},
        {3, 5},
        {7, 5},
        {11, 0},
        {2, 3},
        {4, 3},
        {6, 7},
        {8, 7},
        {10, 11},
        {12, 11}}}};
  for (const Drawing& d : drawings) {
    SCOPED_TRACE(d.n);
    const BinaryTree t = NcclDoubleBinaryTrees(Identity(d.n))[d.tree];
    ASSERT_EQ(static_cast<int>(d.child_parent.size()), d.n - 1);
    for (auto [child, parent] : d.child_parent) EXPECT_EQ(t.parent[child], parent) << child;
  }
}

// Degrees and diameter of tree `t` of ncclGetDtree over n ranks (from the transcription).
struct TreeShape {
  std::vector<int> degree;
  int diameter = 0;
};
TreeShape NcclTreeShape(int n, int t) {
  TreeShape s;
  s.degree.assign(n, 0);
  std::vector<std::vector<int>> adj(n);
  for (int r = 0; r < n; ++r) {
    const int up = NcclDtree(n, r, t).up;
    if (up < 0) continue;
    adj[r].push_back(up);
    adj[up].push_back(r);
    ++s.degree[r];
    ++s.degree[up];
  }
  for (int r = 0; r < n; ++r) {  // eccentricities by BFS
    std::vector<int> dist(n, -1), queue{r};
    dist[r] = 0;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      for (int y : adj[queue[h]]) {
        if (dist[y] < 0) {
          dist[y] = dist[queue[h]] + 1;
          queue.push_back(y);
        }
      }
    }
    s.diameter = std::max(s.diameter, *std::max_element(dist.begin(), dist.end()));
  }
  return s;
}

// The double binary tree on one switch (docs/baselines.md "Routed baselines"): node u's uplink
// carries, per tree of degree d_u and root r, u's children in the tree re-rooted at r: d_u at
// r = u, d_u - 1 otherwise, each half a shard; its downlink one half per root and tree. So
// ratio = max((N - 1)/b, max_u (N·(dA_u + dB_u - 2) + 2)/(2b)), height = 2·max(diam A, diam B)
// (every tree edge is up and down); for N = 2^m >= 4 that is (N + 1)/b and 4(m - 1).
TEST(RoutedBaselines, DoubleBinaryTreeSingleSwitchClosedForms) {
  const Rational b(5, 2);
  for (int n : {2, 3, 4, 5, 6, 7, 8, 12, 13, 16}) {
    SCOPED_TRACE(n);
    Topology g = Star(n, b);
    const TreeShape a = NcclTreeShape(n, 0), tb = NcclTreeShape(n, 1);
    Rational ratio = Rational(n - 1) / b;
    for (int u = 0; u < n; ++u) {
      ratio = std::max(ratio, Rational(n * (a.degree[u] + tb.degree[u] - 2) + 2) / (2 * b));
    }
    const std::int64_t height = 2 * std::max(a.diameter, tb.diameter);
    if ((n & (n - 1)) == 0 && n >= 4) {
      int m = 0;
      while ((1 << m) < n) ++m;
      EXPECT_EQ(ratio, Rational(n + 1) / b);
      EXPECT_EQ(height, 4 * (m - 1));
    }
    for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter}) {
      PipelineSchedule s;
      PipelineCheckReport r = Checked(g, "routed-double-binary-tree", coll, &s);
      EXPECT_EQ(r.ratio, ratio);
      EXPECT_EQ(r.height_hops, height);
      // Two trees per root, each half of its shard.
      ASSERT_EQ(static_cast<int>(s.trees.size()), 2 * n);
      for (const PipelineTree& t : s.trees) EXPECT_EQ(2 * t.multiplicity, s.k);
    }
    PipelineCheckReport ar = Checked(g, "routed-double-binary-tree", Collective::kAllreduce);
    EXPECT_EQ(ar.ratio, 2 * ratio);
    EXPECT_EQ(ar.height_hops, 2 * height);
  }
}

// gpuboxes(B, G, 300, 25, G): one rail per GPU index.
std::string GpuBoxes(int boxes, int gpus) {
  return "gpuboxes(" + std::to_string(boxes) + "," + std::to_string(gpus) + ",300,25," +
         std::to_string(gpus) + ")";
}

// `name` on gpuboxes(2, 2, 300, 25, 2) with the explicit order b0g0, b0g1, b1g0, b1g1.
PipelineSchedule BuildWithBoxOrder(const std::string& name) {
  Topology g = EvaluateTopologyExpression(GpuBoxes(2, 2));
  RoutedBaselineOptions o;
  o.name = name;
  o.order = {"b0g0", "b0g1", "b1g0", "b1g1"};
  return BuildRoutedBaseline(g, o, "f.json");
}

// The double binary tree on two GPU boxes, NCCL's multi-node form: channel c's two trees are
// both the path through box 0's chain (c-1, ..., c+1, c), rail c, box 1's chain (c, c+1, ...,
// c-1). On a path of N nodes an inner node sends N + 1 roots' data, an end node 1; GPU j is the
// end of channel j + 1's chain, the rail end (G + 1 of them on its box-switch link, G on the
// rail) of channel j, and inner in the G - 2 others: 2G(G - 1) roots over G channels, each
// 1/G of a shard, on the box-switch link, 1 shard on the rail. ratio max(2(G - 1)/bb, 1/nb),
// height 2(N - 1) = 2(2G - 1).
TEST(RoutedBaselines, DoubleBinaryTreeOnTwoBoxesClosedForms) {
  const Rational bb(300), nb(25);
  for (int gpus : {1, 2, 3, 4}) {
    const std::string e =
        "gpuboxes(2," + std::to_string(gpus) + ",300,25," + std::to_string(gpus) + ")";
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    const Rational ratio = std::max(Rational(2 * (gpus - 1)) / bb, Rational(1) / nb);
    for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter}) {
      PipelineSchedule s;
      PipelineCheckReport r = Checked(g, "routed-double-binary-tree", coll, &s);
      EXPECT_EQ(r.ratio, ratio);
      EXPECT_EQ(r.height_hops, 2 * (2 * gpus - 1));
      EXPECT_EQ(static_cast<int>(s.trees.size()), 2 * gpus * 2 * gpus);  // 2G per root
    }
  }
  // With an explicit order the flat trees over all GPUs: on gpuboxes a tree edge between GPUs
  // of different boxes and indices has no switch-only route.
  EXPECT_THROW(BuildWithBoxOrder("routed-double-binary-tree"), InputError);
}

// Hierarchical on gpuboxes(B, G, bb, nb, G) (one rail per GPU index): root (b, i) sends once
// along rail i to each other box (rail links: B - 1 shards each way), then GPU i of every box
// sends to its G - 1 box-mates the B roots of index i (box-switch links: B(G - 1) each way).
// ratio = max(B(G - 1)/bb, (B - 1)/nb); height 4 (rail, then box switch) = the height bound
// for G >= 2, 2 for G = 1. Allreduce: twice both.
TEST(RoutedBaselines, HierarchicalOnGpuBoxesClosedForms) {
  struct Case {
    int boxes, gpus;
  };
  const Rational bb(300), nb(25);
  for (const Case& c : {Case{2, 2}, Case{2, 4}, Case{3, 2}, Case{4, 3}, Case{3, 1}}) {
    const std::string e = GpuBoxes(c.boxes, c.gpus);
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    const Rational ratio =
        std::max(Rational(c.boxes * (c.gpus - 1)) / bb, Rational(c.boxes - 1) / nb);
    const std::int64_t height = c.gpus >= 2 ? 4 : 2;
    for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter}) {
      PipelineCheckReport r = Checked(g, "hierarchical", coll);
      EXPECT_EQ(r.ratio, ratio);
      EXPECT_EQ(r.height_hops, height);
      EXPECT_EQ(r.height_lower_bound_hops, height);
    }
    PipelineCheckReport ar = Checked(g, "hierarchical", Collective::kAllreduce);
    EXPECT_EQ(ar.ratio, 2 * ratio);
    EXPECT_EQ(ar.height_hops, 2 * height);
  }
}

// When the rails bind (B(G - 1)/bb <= (B - 1)/nb) hierarchical meets the box cut: N - G shards
// enter a box over its G rail links, (B - 1)/nb. So it is bandwidth-optimal (the pipeline path's
// certified ratio*) at the least height; with slow box switches it is not.
TEST(RoutedBaselines, HierarchicalIsOptimalWhenTheRailsBind) {
  struct Case {
    const char* topology;
    bool optimal;
  };
  for (const Case& c :
       {Case{"gpuboxes(2,4,300,25,4)", true}, Case{"gpuboxes(3,4,300,25,4)", true},
        Case{"gpuboxes(4,8,300,25,8)", true}, Case{"gpuboxes(4,8,100,25,8)", false}}) {
    SCOPED_TRACE(c.topology);
    Topology g = EvaluateTopologyExpression(c.topology);
    PipelineOptions po;
    const Rational optimum = BuildPipelineSchedule(g, po).optimal_ratio;
    PipelineCheckReport r = Checked(g, "hierarchical", Collective::kAllgather);
    EXPECT_EQ(r.ratio == optimum, c.optimal) << r.ratio << " vs " << optimum;
    EXPECT_GE(r.ratio, optimum);
    EXPECT_EQ(r.height_hops, r.height_lower_bound_hops);
  }
}

// The double binary tree has two trees per root: on 1500 nodes 2·1500·1499 tree edges pass the
// 2^22 routes a schedule may hold, refused before the trees are built.
TEST(RoutedBaselines, DoubleBinaryTreeTooLargeIsRefusedFirst) {
  Topology g = Star(1500, Rational(1));
  RoutedBaselineOptions o;
  o.name = "routed-double-binary-tree";
  try {
    BuildRoutedBaseline(g, o, "f.json");
    ADD_FAILURE() << "built";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("3000 trees of 1499 edges"), std::string::npos)
        << e.what();
  }
}

// Without boxes (a star, a fat-tree: names without a box) hierarchical is bad input that says
// what is missing; an --order is refused (the boxes give it).
TEST(RoutedBaselines, HierarchicalNeedsBoxes) {
  for (const Topology& g : {Star(4, Rational(1)), EvaluateTopologyExpression("fattree(4)")}) {
    RoutedBaselineOptions o;
    o.name = "hierarchical";
    try {
      BuildRoutedBaseline(g, o, "f.json");
      ADD_FAILURE() << "built on " << g.name();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("needs GPU boxes"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(BuildWithBoxOrder("hierarchical"), InputError);
}

// The boxes of gpuboxes and of an imported cluster's names; GPU i of every box shares its local
// name. A box missing a GPU, or one box only, is no box structure.
TEST(RoutedBaselines, BoxesFromNames) {
  Topology g = EvaluateTopologyExpression("gpuboxes(3,2,300,25,1)");
  const Boxes boxes = InferBoxes(g);
  ASSERT_TRUE(boxes.why.empty()) << boxes.why;
  ASSERT_EQ(boxes.gpu.size(), 3u);
  for (std::size_t b = 0; b < 3; ++b) {
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(g.node(boxes.gpu[b][i]).name, "b" + std::to_string(b) + "g" + std::to_string(i));
    }
  }
  Topology k("cluster");
  for (const char* n : {"n0.GPU1", "n0.GPU0", "n1.GPU0", "n1.GPU1"}) k.AddCompute(n);
  const Boxes kb = InferBoxes(k);
  ASSERT_TRUE(kb.why.empty()) << kb.why;
  EXPECT_EQ(kb.gpu, (std::vector<std::vector<int>>{{0, 1}, {3, 2}}));
  Topology missing("missing");
  for (const char* n : {"n0.GPU0", "n0.GPU1", "n1.GPU0", "n1.GPU2"}) missing.AddCompute(n);
  EXPECT_FALSE(InferBoxes(missing).why.empty());
  Topology one("one");
  for (const char* n : {"n0.GPU0", "n0.GPU1"}) one.AddCompute(n);
  EXPECT_FALSE(InferBoxes(one).why.empty());
  EXPECT_FALSE(InferBoxes(Star(3, Rational(1))).why.empty());
}

// The rail-aware ring visits every GPU once and changes box only between GPUs of the same
// index (on one rail), except the closing step for an odd number of boxes of 2 GPUs. As the
// default order of routed-ring on gpuboxes (one rail per GPU index, where a step between GPUs
// of different indices in different boxes has no switch-only route), every ring edge is 2 links:
// ratio (N - 1)/min(bb, nb), height 2(N - 1).
TEST(RoutedBaselines, RailAwareRingStaysOnTheRails) {
  struct Case {
    int boxes, gpus;
    bool closing_off_rail;
  };
  for (const Case& c : {Case{2, 2, false}, Case{2, 4, false}, Case{3, 3, false}, Case{5, 4, false},
                        Case{4, 1, false}, Case{3, 2, true}}) {
    const std::string e = GpuBoxes(c.boxes, c.gpus);
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    const Boxes boxes = InferBoxes(g);
    const std::vector<int> order = RailAwareRingOrder(boxes);
    const int n = c.boxes * c.gpus;
    ASSERT_EQ(static_cast<int>(order.size()), n);
    EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(), static_cast<std::size_t>(n));
    std::vector<std::pair<int, int>> where(g.num_nodes());  // box, index
    for (int b = 0; b < c.boxes; ++b) {
      for (int i = 0; i < c.gpus; ++i) where[boxes.gpu[b][i]] = {b, i};
    }
    int off_rail = 0;
    for (int j = 0; j < n; ++j) {
      const auto [b0, i0] = where[order[j]];
      const auto [b1, i1] = where[order[(j + 1) % n]];
      if (b0 != b1 && i0 != i1) {
        ++off_rail;
        EXPECT_EQ(j, n - 1) << "only the closing step may leave the rails";
      }
    }
    EXPECT_EQ(off_rail, c.closing_off_rail ? 1 : 0);
    RoutedBaselineOptions o;
    o.name = "routed-ring";
    if (c.closing_off_rail) {
      EXPECT_THROW(BuildRoutedBaseline(g, o, "f.json"), InputError);
      continue;
    }
    PipelineCheckReport r = Checked(g, "routed-ring", Collective::kAllgather);
    EXPECT_EQ(r.ratio, Rational(n - 1) / Rational(25));
    EXPECT_EQ(r.height_hops, 2 * (n - 1));
  }
}

}  // namespace
}  // namespace collsynth
