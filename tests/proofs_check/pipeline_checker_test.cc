// Tests of the pipeline-schedule checker (seed 004 §1-2, Thm 13, bounds (1), (5), (6)) on the
// two-cluster example of seed 004 Figure 1, built by hand.
#include "proofs_check/pipeline_checker.h"

#include <gtest/gtest.h>

#include "graphs/input_error.h"
#include "graphs/topology_io.h"
#include "proofs_check/schedule_fixtures.h"
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
  EXPECT_EQ(r.verdict, "optimal (certified)");
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
  EXPECT_EQ(r.verdict, "valid");
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
  rs.collective = "reduce-scatter";
  PipelineCheckReport r = CheckPipelineSchedule(g, rs);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_TRUE(r.certified_optimal);
  // Allreduce = RS + AG (seed 004 App. B); Thm 19 (a) holds (|S* ∩ V_c| = N/2), so bound (6)
  // N / B+(S*) = 8/4 = 2 certifies the sum of the phases' ratios.
  PipelineSchedule ar;
  ar.collective = "allreduce";
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
  s.collective = "reduce-scatter";
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
  s.collective = "broadcast";
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
  EXPECT_EQ(r.verdict, "optimal (certified)");
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

}  // namespace
}  // namespace collsynth
