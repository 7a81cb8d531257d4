// Tests of the pipeline-schedule checker (seed 004 §1-2, Thm 13, bounds (1), (5), (6)) on the
// two-cluster example of seed 004 Figure 1, built by hand.
#include "proofs_check/pipeline_checker.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "core/json_io.h"
#include "fixtures/json_tree_writers.h"
#include "fixtures/schedule_fixtures.h"
#include "graphs/topology_io.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::TwoCluster;
using testing::TwoClusterPipeline;

int Id(const Topology& g, const std::string& name) { return *g.FindNode(name); }

// Seed 004 §1.3/§2: S* = {s1, c11..c14}, 1/x* = 4/4b = 1 (b = 1), U = 1, k = 1.
TEST(PipelineCheckerTest, TwoClusterAllgatherCertifiedOptimal) {
  Topology g = TwoCluster();
  PipelineCheckReport r = CheckPipelineSchedule(g, TwoClusterPipeline());
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, Rational(1));
  ASSERT_TRUE(r.cut_ratio);
  EXPECT_EQ(*r.cut_ratio, Rational(1));
  EXPECT_TRUE(r.certified_optimal);
  EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified);
}

// The same schedule against the checked-in topology file, through JSON.
TEST(PipelineCheckerTest, TwoClusterOnCheckedInTopologyFile) {
  Topology g = ReadTopologyFile(testing::SourcePath("experiments/topologies/two_cluster.json"));
  nlohmann::json j = PipelineScheduleToJson(TwoClusterPipeline(), TwoCluster());
  EXPECT_EQ(j["format"], "pipeline");
  PipelineSchedule s = PipelineScheduleFromJson(j, g, "<two_cluster>");
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_TRUE(r.certified_optimal);
}

// A cut that is not the bottleneck: S = {c11} gives 1/11 < 1, so no certificate.
TEST(PipelineCheckerTest, NonBottleneckCutDoesNotCertify) {
  Topology g = TwoCluster();
  PipelineSchedule s = TwoClusterPipeline();
  s.bottleneck_cut = std::vector<int>{Id(g, "c11")};
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  ASSERT_TRUE(r.cut_ratio);
  EXPECT_EQ(*r.cut_ratio, Rational(1, 11));
  EXPECT_FALSE(r.certified_optimal);
  EXPECT_EQ(r.violations.at(0).kind, PipelineViolationKind::kCutMismatch);
  // Without a cut the schedule is valid but not certified.
  s.bottleneck_cut.reset();
  r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.verdict, PipelineVerdict::kValid);
  // A cut holding every compute node is not one bound (1) ranges over (S ⊉ V_c).
  s.bottleneck_cut = g.ComputeNodes();
  r = CheckPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, PipelineViolationKind::kBadCut);
}

// Halving U below the load on c1r -> s0 overloads it; doubling k halves the ratio only if the
// trees are doubled too.
TEST(PipelineCheckerTest, LoadAgainstUAndK) {
  Topology g = TwoCluster();
  PipelineSchedule s = TwoClusterPipeline();
  s.bottleneck_cut.reset();
  s.U = Rational(1, 2);
  PipelineCheckReport r = CheckPipelineSchedule(g, s, 100);
  EXPECT_FALSE(r.ok);
  int overloaded = 0;
  for (const auto& v : r.violations) overloaded += v.kind == PipelineViolationKind::kOverloaded;
  // The 16 compute <-> s0 links carry 1 > 1/2 · 1; the 16 compute <-> s1/s2 links carry
  // 3 own + 3 forwarded = 6 > 1/2 · 10.
  EXPECT_EQ(overloaded, 32);
  s = TwoClusterPipeline();
  s.k = 2;
  s.U = 2;
  for (auto& t : s.trees) {
    t.multiplicity = 2;
    for (auto& e : t.edges) e.routes[0].multiplicity = 2;
  }
  r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, Rational(1));  // 2 trees of 1/2 shard each: same runtime
}

// Reduce-scatter: the same trees, data child -> parent on reversed paths; certified against
// |S ∩ V_c| / B-(S) (bound (1) on G^T).
TEST(PipelineCheckerTest, TwoClusterReduceScatterAndAllreduce) {
  Topology g = TwoCluster();
  PipelineSchedule rs = TwoClusterPipeline();
  rs.collective = Collective::kReduceScatter;
  PipelineCheckReport r = CheckPipelineSchedule(g, rs);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_TRUE(r.certified_optimal);
  // Allreduce = RS + AG (seed 004 App. B); Thm 19 (a) holds (|S* ∩ V_c| = N/2), so bound (6)
  // N / B+(S*) = 8/4 = 2 certifies the sum of the phases' ratios.
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.ratio = 2;
  ar.phases = {rs, TwoClusterPipeline()};
  ar.bottleneck_cut = TwoClusterPipeline().bottleneck_cut;
  r = CheckPipelineSchedule(g, ar);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, Rational(2));
  EXPECT_TRUE(r.certified_optimal);
  ASSERT_EQ(r.phases.size(), 2u);
  ar.ratio = 1;
  r = CheckPipelineSchedule(g, ar);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, PipelineViolationKind::kWrongRatio);
  // JSON round trip of the allreduce.
  nlohmann::json j = PipelineScheduleToJson(ar, g);
  EXPECT_EQ(j["phases"].size(), 2u);
  EXPECT_EQ(PipelineScheduleToJson(PipelineScheduleFromJson(j, g, "f"), g), j);
}

// Reduce-scatter on a one-way ring needs the reversed links: a ring 0 -> 1 -> 2 -> 0 with a
// tree 0 -> 1 -> 2 works for allgather but not as a reduce-scatter.
TEST(PipelineCheckerTest, ReduceScatterNeedsReversedLinks) {
  Topology g = testing::Ring(3, false);
  PipelineSchedule s;
  s.U = 1;
  s.k = 1;
  s.ratio = 2;
  for (int r = 0; r < 3; ++r) {
    PipelineTree t;
    t.root = r;
    t.multiplicity = 1;
    int a = r, b = (r + 1) % 3, c = (r + 2) % 3;
    t.edges = {{a, b, {{{a, b}, 1}}}, {b, c, {{{b, c}, 1}}}};
    s.trees.push_back(t);
  }
  s.U = 2;
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, Rational(2));  // each link carries 2 trees: ratio (N-1)/B = 2
  s.collective = Collective::kReduceScatter;
  r = CheckPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, PipelineViolationKind::kMissingLink);
}

// Broadcast from c11 (seed 004 App. A, bound (5)): min over S ∋ r, S ⊉ V_c of B+(S) = 4, so
// T_B >= M/4. Four trees (k = 4): tree j crosses at c1j -> s0 -> c2j.
TEST(PipelineCheckerTest, TwoClusterBroadcastCertified) {
  Topology g = TwoCluster();
  auto id = [&](const std::string& n) { return Id(g, n); };
  PipelineSchedule s;
  s.collective = Collective::kBroadcast;
  s.root = id("c11");
  s.U = 1;
  s.k = 4;
  s.ratio = Rational(1, 4);
  auto local = [&](const std::string& a, const std::string& sw, const std::string& b) {
    return PipelineTreeEdge{id(a), id(b), {{{id(a), id(sw), id(b)}, 1}}};
  };
  for (int j = 1; j <= 4; ++j) {
    PipelineTree t;
    t.root = id("c11");
    t.multiplicity = 1;
    std::string hub = "c1" + std::to_string(j), far = "c2" + std::to_string(j);
    if (j != 1) t.edges.push_back(local("c11", "s1", hub));
    for (int q = 1; q <= 4; ++q) {
      std::string mate = "c1" + std::to_string(q);
      if (q != j && q != 1) t.edges.push_back(local(hub, "s1", mate));
      if (q != j) t.edges.push_back(local(far, "s2", "c2" + std::to_string(q)));
    }
    t.edges.push_back({id(hub), id(far), {{{id(hub), id("s0"), id(far)}, 1}}});
    s.trees.push_back(t);
  }
  s.bottleneck_cut = std::vector<int>{id("s1"), id("c11"), id("c12"), id("c13"), id("c14")};
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, Rational(1, 4));
  ASSERT_TRUE(r.cut_ratio);
  EXPECT_EQ(*r.cut_ratio, Rational(1, 4));
  EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified);
  // A tree rooted elsewhere is not part of this broadcast.
  s.trees[0].root = id("c12");
  r = CheckPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
}

TEST(PipelineScheduleJsonTest, ReaderErrorsNameTheItem) {
  Topology g = TwoCluster();
  nlohmann::json j = PipelineScheduleToJson(TwoClusterPipeline(), g);
  auto expect_error = [&](nlohmann::json bad, const std::string& item, const std::string& what) {
    try {
      PipelineScheduleFromJson(bad, g, "p.json");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.item(), item) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  nlohmann::json bad = j;
  bad["trees"][1]["edges"][2]["routes"][0]["path"][1] = "s9";
  expect_error(bad, "trees[1].edges[2].routes[0].path[1]", "unknown node 's9'");
  bad = j;
  bad["trees"][1]["edges"][2]["routes"][0]["multiplicity"] = 0;
  expect_error(bad, "trees[1].edges[2].routes[0].multiplicity", "positive");
  bad = j;
  bad["trees"][0]["multiplicity"] = "12x";
  expect_error(bad, "trees[0].multiplicity", "positive integer");
  bad = j;
  bad["k"] = 1.5;
  expect_error(bad, "k", "non-integer");
  bad = j;
  bad.erase("U");
  expect_error(bad, "top level", "missing field 'U'");
  bad = j;
  bad["ratio"] = "1/0";
  expect_error(bad, "ratio", "zero denominator");
  // Big multiplicities survive as decimal strings.
  nlohmann::json big = j;
  big["k"] = "123456789012345678901234567890";
  PipelineSchedule s = PipelineScheduleFromJson(big, g, "p.json");
  EXPECT_EQ(s.k, BigInt("123456789012345678901234567890"));
  EXPECT_EQ(PipelineScheduleToJson(s, g)["k"], "123456789012345678901234567890");
}

// K_3 with both directions of every link, b = 1. Allgather: each root sends straight to the
// other two (k = 1, U = 1, ratio 1); reduce-scatter: the same trees reversed. Allreduce RS+AG
// has ratio 2 = bound (7) 2(N-1)/max_v μ_v = 2·2/2 (μ_v = B+({v}) = 2), while bound (6)
// N/λ_min = 3/2 (λ_min = 2): the schedule is optimal, certified by (7) only (seed 004
// Corollary 18; such allreduce rows once said ratio 1 with certified_optimal = no).
Topology K3() {
  Topology g = testing::Nodes(3);
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      if (a != b) g.AddLink(a, b, Rational(1));
    }
  }
  return g;
}

PipelineSchedule K3Phase(Collective collective) {
  PipelineSchedule s;
  s.collective = collective;
  s.U = 1;
  s.k = 1;
  s.ratio = 1;
  for (int r = 0; r < 3; ++r) {
    PipelineTree t;
    t.root = r;
    t.multiplicity = 1;
    for (int x = 0; x < 3; ++x) {
      if (x != r) t.edges.push_back({r, x, {{{r, x}, 1}}});
    }
    s.trees.push_back(t);
  }
  return s;
}

PipelineSchedule K3Allreduce() {
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.ratio = 2;
  ar.phases = {K3Phase(Collective::kReduceScatter), K3Phase(Collective::kAllgather)};
  return ar;
}

TEST(PipelineCheckerIssue14, AllreduceCertifiedByBound7Cuts) {
  const Topology g = K3();
  PipelineSchedule ar = K3Allreduce();
  PipelineCheckReport r = CheckPipelineSchedule(g, ar);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_FALSE(r.certified_optimal);  // no certificate given
  EXPECT_EQ(r.verdict, PipelineVerdict::kValid);
  ar.single_node_cuts = std::vector<std::vector<int>>{{0}, {1}, {2}};
  r = CheckPipelineSchedule(g, ar);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  ASSERT_TRUE(r.cut_ratio);
  EXPECT_EQ(*r.cut_ratio, Rational(2));
  EXPECT_TRUE(r.certified_optimal);
  EXPECT_EQ(r.certified_by, "bound (7)");
  EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified);
  // With the (6) cut as well, the bound is the larger of the two: still (7).
  ar.bottleneck_cut = std::vector<int>{0};
  r = CheckPipelineSchedule(g, ar);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(*r.cut_ratio, Rational(2));
  EXPECT_EQ(r.certified_by, "bound (7)");
  // The (6) cut alone gives 3/2 != 2: a failed certificate, as before.
  ar.single_node_cuts.reset();
  r = CheckPipelineSchedule(g, ar);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(*r.cut_ratio, Rational(3, 2));
  EXPECT_EQ(r.violations.at(0).kind, PipelineViolationKind::kCutMismatch);
  // A claimed ratio below the certified bound is caught too (the phases' sum is checked).
  ar = K3Allreduce();
  ar.single_node_cuts = std::vector<std::vector<int>>{{0}, {1}, {2}};
  ar.ratio = Rational(3, 2);
  r = CheckPipelineSchedule(g, ar);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, PipelineViolationKind::kWrongRatio);
}

// The checker recomputes B+(S_v) itself: with a switch, S_v = {v, s} is a legal but weaker
// set (B+ = 2 instead of 1), giving a smaller bound that no longer certifies.
TEST(PipelineCheckerIssue14, Bound7RecomputesEachCut) {
  Topology g = testing::Nodes(3);
  const int s = g.AddSwitch("s");
  for (int v = 0; v < 3; ++v) {
    g.AddLink(v, s, Rational(1));
    g.AddLink(s, v, Rational(1));
  }
  CutBound b = CheckSingleNodeCutsBound(g, {{0}, {1}, {2}});
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_EQ(b.bound, Rational(4));  // 2·2 / 1
  b = CheckSingleNodeCutsBound(g, {{0, s}, {1}, {2}});
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_EQ(b.bound, Rational(2));                      // 2·2 / max(2, 1, 1)
  b = CheckSingleNodeCutsBound(g, {{2}, {0, 0}, {1}});  // any order, a name twice counts once
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_EQ(b.bound, Rational(4));
}

TEST(PipelineCheckerIssue14, Bound7CutsMustBeOnePerComputeNode) {
  const Topology g = K3();
  auto kind_of = [&](std::vector<std::vector<int>> cuts) {
    PipelineSchedule ar = K3Allreduce();
    ar.single_node_cuts = std::move(cuts);
    PipelineCheckReport r = CheckPipelineSchedule(g, ar);
    EXPECT_FALSE(r.ok);
    EXPECT_FALSE(r.certified_optimal);
    return r.violations.empty() ? std::string("none") : r.violations[0].message;
  };
  EXPECT_NE(kind_of({{0}, {1}}).find("one set S_v per compute node (3), got 2"), std::string::npos);
  EXPECT_NE(kind_of({{0}, {0}, {1}}).find("compute node v0 already has its set"),
            std::string::npos);
  EXPECT_NE(kind_of({{0, 1}, {1}, {2}}).find("exactly one compute node, it holds 2"),
            std::string::npos);
  EXPECT_NE(kind_of({{}, {1}, {2}}).find("it holds 0"), std::string::npos);
  const Topology one = testing::Nodes(1);
  EXPECT_EQ(CheckSingleNodeCutsBound(one, {{0}}).error,
            "bound (7) needs at least two compute nodes");
}

TEST(PipelineCheckerIssue14, Bound7CutsThroughJson) {
  const Topology g = K3();
  PipelineSchedule ar = K3Allreduce();
  ar.single_node_cuts = std::vector<std::vector<int>>{{0}, {1}, {2}};
  nlohmann::json j = PipelineScheduleToJson(ar, g);
  EXPECT_EQ(j["single_node_cuts"], nlohmann::json::parse(R"([["v0"],["v1"],["v2"]])"));
  EXPECT_EQ(PipelineScheduleToJsonText(ar, g), j.dump());
  PipelineSchedule back = PipelineScheduleFromJson(j, g, "ar.json");
  PipelineCheckReport r = CheckPipelineSchedule(g, back);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_TRUE(r.certified_optimal);
  EXPECT_EQ(r.certified_by, "bound (7)");
  auto expect_error = [&](const nlohmann::json& bad, const std::string& item,
                          const std::string& what) {
    try {
      PipelineScheduleFromJson(bad, g, "ar.json");
      ADD_FAILURE() << "accepted: " << item;
    } catch (const InputError& e) {
      EXPECT_EQ(e.item(), item);
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  nlohmann::json bad = j;
  bad["single_node_cuts"][1][0] = "nowhere";
  expect_error(bad, "single_node_cuts[1][0]", "unknown node 'nowhere'");
  bad = j;
  bad["single_node_cuts"][2] = "v2";
  expect_error(bad, "single_node_cuts[2]", "must be an array");
  bad = j;
  bad["single_node_cuts"] = 7;
  expect_error(bad, "single_node_cuts", "must be an array");
  bad = j["phases"][1];
  bad["format"] = "pipeline";
  bad["single_node_cuts"] = j["single_node_cuts"];
  expect_error(bad, "single_node_cuts", "only an allreduce");
}

// An unknown (producer) key is kept and written back by recursive copies; a value nested
// 2·10^5 deep crashed verify (stack overflow). Past 64 levels it is an input error.
TEST(PipelineCheckerIssue14, DeeplyNestedExtraKeyIsAnInputError) {
  const Topology g = K3();
  nlohmann::json j = PipelineScheduleToJson(K3Phase(Collective::kAllgather), g);
  nlohmann::json deep = nlohmann::json::array();
  for (int i = 1; i < 64; ++i) deep = nlohmann::json::array({std::move(deep)});  // 64 levels
  j["note"] = deep;
  EXPECT_EQ(PipelineScheduleFromJson(j, g, "p.json").extra["note"], deep);
  j["note"] = nlohmann::json::object({{"x", deep}});  // 65 levels
  try {
    PipelineScheduleFromJson(j, g, "p.json");
    ADD_FAILURE() << "accepted a 65-level extra";
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "note");
    EXPECT_NE(std::string(e.what()).find("nested deeper than 64 levels"), std::string::npos);
  }
}

// Negative, zero and non-integral multiplicities are input errors, at every level.
TEST(PipelineCheckerIssue14, MultiplicitiesMustBePositiveIntegers) {
  const Topology g = K3();
  const nlohmann::json j = PipelineScheduleToJson(K3Phase(Collective::kAllgather), g);
  for (const nlohmann::json& bad_value :
       {nlohmann::json(-1), nlohmann::json("-1"), nlohmann::json(0), nlohmann::json("1e3"),
        nlohmann::json(-9223372036854775807LL - 1)}) {
    for (const char* where : {"tree", "route", "k"}) {
      nlohmann::json bad = j;
      if (std::string(where) == "tree") bad["trees"][0]["multiplicity"] = bad_value;
      if (std::string(where) == "route")
        bad["trees"][0]["edges"][0]["routes"][0]["multiplicity"] = bad_value;
      if (std::string(where) == "k") bad["k"] = bad_value;
      EXPECT_THROW(PipelineScheduleFromJson(bad, g, "p.json"), InputError)
          << where << " " << bad_value;
    }
  }
}

// Hostile sizes (docs/formats.md "Limits"): the per-tree analysis used O(|V|) time and memory per
// tree and O(L^2) for a chain of L nodes hanging below a parentless node. Now O(size of the
// schedule + |V|). Time is not asserted here (performance is measured in bench/, not timed in
// tests); the instances are sized so that the old quadratic cost runs into ctest's timeout.
// The old check allocated and scanned O(|V|) per tree and built a message for each of the
// 4·10^8 missing (tree, node) pairs (minutes); now O(|V| + trees + max_errors).
TEST(PipelineCheckerIssue14, ManyEdgelessTreesCostLinearTime) {
  const int n = 20000;
  const Topology g = testing::Ring(n, false);
  PipelineSchedule s;
  s.U = 1;
  s.k = 1;
  s.ratio = 0;
  for (int i = 0; i < n; ++i) s.trees.push_back({i, BigInt(1), {}});  // reach nothing
  const PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.num_violations, static_cast<std::int64_t>(n) * (n - 1));  // every (tree, node)
  ASSERT_EQ(r.violations.size(), 10u);
  EXPECT_EQ(r.violations[0].kind, PipelineViolationKind::kMissingNode);
  EXPECT_EQ(r.violations[0].node, 1);
  EXPECT_EQ(r.violations[9].node, 10);
}

// The old walk re-climbed the chain from each of its L nodes: L^2/2 > 10^10 steps here (over
// 10 s); linear now (about 0.7 s, mostly the exact load ratios of the L links).
TEST(PipelineCheckerIssue14, LongChainBelowAParentlessNodeIsLinear) {
  const int n = 150000;
  const Topology g = testing::Ring(n, false);
  PipelineSchedule s;
  s.U = 1;
  s.k = 1;
  s.ratio = 1;
  PipelineTree t{0, BigInt(1), {}};
  for (int v = 1; v + 1 < n; ++v)
    t.edges.push_back({v, v + 1, {{{v, v + 1}, 1}}});  // 1 has no parent
  s.trees.push_back(t);
  const PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].kind, PipelineViolationKind::kMissingNode);
  EXPECT_EQ(r.violations[0].node, 1);
  // One missing node (1), the n-1 other roots without trees; nothing else.
  EXPECT_EQ(r.num_violations, 1 + (n - 1));
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// The output check (docs/performance.md "Output check: the written file is the checked file") reads
// pipeline files back streaming, each tree converted as the parser completes it. Same schedule as
// the plain read, for allgather and allreduce; the document keeps nulls in place of the streamed
// trees; "format" after "trees" (hand-written files) falls back to the plain read; a bad tree is
// named as in the plain read.
TEST(PipelineStreamingReadTest, SameScheduleAsThePlainRead) {
  Topology g = testing::TwoCluster();
  PipelineSchedule rs = testing::TwoClusterPipeline();
  rs.collective = Collective::kReduceScatter;
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.ratio = 2;
  ar.phases = {rs, testing::TwoClusterPipeline()};
  for (const PipelineSchedule& s : {testing::TwoClusterPipeline(), ar}) {
    const std::string text = PipelineScheduleToJsonText(s, g);
    StreamedPipelineTrees trees;
    const nlohmann::json doc =
        ParseJsonText(text, "p.json", PipelineTreeStreamHook(g, "p.json", &trees));
    const std::size_t expected_trees =
        s.phases.empty() ? s.trees.size() : s.phases[0].trees.size() + s.phases[1].trees.size();
    EXPECT_EQ(trees.size(), expected_trees);
    const nlohmann::json& first = s.phases.empty() ? doc["trees"][0] : doc["phases"][1]["trees"][0];
    EXPECT_TRUE(first.is_null());  // consumed while parsing
    const PipelineSchedule streamed = PipelineScheduleFromJson(doc, g, "p.json", &trees);
    EXPECT_TRUE(trees.empty());
    const PipelineSchedule plain =
        PipelineScheduleFromJson(ParseJsonText(text, "p.json"), g, "p.json");
    EXPECT_EQ(PipelineScheduleToJson(streamed, g), PipelineScheduleToJson(plain, g));
    EXPECT_EQ(PipelineScheduleToJsonText(streamed, g), text);
  }
}

TEST(PipelineStreamingReadTest, FormatAfterTreesAndBadTrees) {
  Topology g = testing::TwoCluster();
  nlohmann::json j = PipelineScheduleToJson(testing::TwoClusterPipeline(), g);
  // nlohmann's dump orders keys alphabetically: "format" before "trees". Put it last by hand.
  std::string text = j.dump();
  const std::string format = "\"format\":\"pipeline\",";
  ASSERT_NE(text.find(format), std::string::npos);
  text.erase(text.find(format), format.size());
  text.insert(text.size() - 1, ",\"format\":\"pipeline\"");
  StreamedPipelineTrees trees;
  nlohmann::json doc = ParseJsonText(text, "p.json", PipelineTreeStreamHook(g, "p.json", &trees));
  EXPECT_TRUE(trees.empty());  // nothing streamed: the format was not known yet
  EXPECT_EQ(PipelineScheduleToJson(PipelineScheduleFromJson(doc, g, "p.json", &trees), g), j);
  // A tree with an unknown node: the same item as the plain read names.
  nlohmann::json bad = j;
  bad["trees"][3]["edges"][0]["to"] = "nowhere";
  std::string plain_item, streamed_item;
  try {
    PipelineScheduleFromJson(bad, g, "p.json");
  } catch (const InputError& e) {
    plain_item = e.item();
  }
  try {
    StreamedPipelineTrees t;
    ParseJsonText(bad.dump(), "p.json", PipelineTreeStreamHook(g, "p.json", &t));
  } catch (const InputError& e) {
    streamed_item = e.item();
  }
  EXPECT_EQ(plain_item, "trees[3].edges[0].to");
  EXPECT_EQ(streamed_item, plain_item);
}

}  // namespace
}  // namespace collsynth
