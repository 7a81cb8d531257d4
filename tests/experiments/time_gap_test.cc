// The `time-gap` experiment (experiments/time_gap.h, docs/tune.md "The tree bound"): the tree
// bound is below the simulated time of every tree candidate at every P (re-simulated here), has
// its closed forms on a directed ring (allgather) and one switch (allreduce's two phases), the
// gap targets switch at 1 KB and 256 MB, and the kind's rows agree with their own columns.
#include "experiments/time_gap.h"

#include <gtest/gtest.h>

#include <string>

#include "experiment_test_util.h"
#include "experiments/tune.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "simulate/simulation_run.h"

namespace collsynth {
namespace {

SimulationModel Model(const Rational& alpha, const Rational& bytes) {
  SimulationModel m;
  m.default_alpha = alpha;
  m.bytes_per_unit = 1000000000;
  m.size = bytes;
  return m;
}

Topology DirectedRing(int n) {
  Topology g("ring");
  for (int i = 0; i < n; ++i) g.AddCompute("r" + std::to_string(i));
  for (int i = 0; i < n; ++i) g.AddLink(i, (i + 1) % n, Rational(1));
  return g;
}

// Every pipeline candidate tune builds, simulated at P = 1, 2, 4, 8 and at three sizes, takes at
// least the tree bound (with and without the ratio bounds at each height).
void ExpectBelowEveryTreeCandidate(const Topology& g, Collective c) {
  const TuneCandidates cands = BuildTuneCandidates(g, c, "test");
  const std::int64_t h_lb = PipelineHeightLowerBound(g, c, g.ComputeNodes());
  HeightRatioBounds bounds(g, c);
  for (std::int64_t bytes : {1024, 1 << 18, 1 << 26}) {
    SCOPED_TRACE(bytes);
    SimulationModel m = Model(Rational(1, 1000000), Rational(bytes));
    const TreeTimeBound with =
        TreeScheduleTimeBound(g, c, m, cands.bandwidth_bound, h_lb,
                              c == Collective::kAllreduce ? nullptr : &bounds, h_lb + 4);
    const TreeTimeBound without =
        TreeScheduleTimeBound(g, c, m, cands.bandwidth_bound, h_lb, nullptr, 0);
    EXPECT_GE(with.seconds, without.seconds);  // more certified facts, never a weaker bound
    int checked = 0;
    for (const TuneCandidate& cand : cands.list) {
      if (!cand.pipeline) continue;
      for (std::int64_t p : {1, 2, 4, 8}) {
        m.chunks = p;
        const Rational t = SimulatePipelineSchedule(*cand.pipeline, g, m, "").result.completion;
        EXPECT_GE(t, with.seconds) << cand.algorithm << " P=" << p;
        ++checked;
      }
    }
    EXPECT_GE(checked, 8);
  }
}

TEST(TimeGap, TreeBoundIsBelowEveryTreeCandidate) {
  ExpectBelowEveryTreeCandidate(EvaluateTopologyExpression("torus(3,3)"), Collective::kAllgather);
  ExpectBelowEveryTreeCandidate(EvaluateTopologyExpression("dgx1(1)"), Collective::kReduceScatter);
  ExpectBelowEveryTreeCandidate(EvaluateTopologyExpression("torus(3,3)"), Collective::kAllreduce);
}

// Directed ring of n, α per link, unit links: every tree is the path from its root, height
// n - 1, ratio* = n - 1 (each link carries n - 1 shards), so the bound is
// max((n-1)·α, α + (n-1)·shard/b) at its only height.
TEST(TimeGap, TreeBoundOnADirectedRingHasItsClosedForm) {
  const int n = 5;
  const Topology g = DirectedRing(n);
  const Rational alpha(1, 1000000);
  HeightRatioBounds bounds(g, Collective::kAllgather);
  for (std::int64_t bytes : {5, 5 * 1024, 5 * (1 << 20)}) {
    const SimulationModel m = Model(alpha, Rational(bytes));
    const Rational shard = Rational(bytes, n) / 1000000000;
    const TreeTimeBound b =
        TreeScheduleTimeBound(g, Collective::kAllgather, m, Rational(n - 1), n - 1, &bounds, n + 2);
    const Rational height = alpha * (n - 1), bandwidth = alpha + shard * (n - 1);
    EXPECT_EQ(b.seconds, std::max(height, bandwidth)) << bytes;
    EXPECT_EQ(b.height_hops, n - 1);
  }
}

// One switch, 4 nodes: each root's reduce-scatter input comes from 2α away and its allgather
// output goes 2α away, so small allreduces take at least 4α = 2·D_α.
TEST(TimeGap, AllreduceTreeBoundAddsThePhases) {
  Topology g("star");
  for (int i = 0; i < 4; ++i) g.AddCompute("g" + std::to_string(i));
  const int s = g.AddSwitch("sw");
  for (int i = 0; i < 4; ++i) g.AddDuplexLink(i, s, Rational(1));
  const Rational alpha(1, 1000000);
  const TreeTimeBound small = TreeScheduleTimeBound(
      g, Collective::kAllreduce, Model(alpha, Rational(4)), Rational(3, 2), 4, nullptr, 0);
  EXPECT_EQ(small.seconds, 4 * alpha);
  // At 4 GB the bandwidth term ratio*·shard/b = (3/2)·1 s decides.
  const TreeTimeBound large =
      TreeScheduleTimeBound(g, Collective::kAllreduce, Model(alpha, Rational(4000000000LL)),
                            Rational(3, 2), 4, nullptr, 0);
  EXPECT_EQ(large.seconds, Rational(3, 2));
}

TEST(TimeGap, TargetsSwitchAtOneKilobyteAndQuarterGigabyte) {
  EXPECT_EQ(TimeGapTarget(Rational(1024)), Rational(5, 4));
  EXPECT_EQ(TimeGapTarget(Rational(1025)), Rational(2));
  EXPECT_EQ(TimeGapTarget(Rational((std::int64_t{1} << 28) - 1)), Rational(2));
  EXPECT_EQ(TimeGapTarget(Rational(std::int64_t{1} << 28)), Rational(5, 4));
}

// The kind's rows: meets_target says gap <= target, a reason exactly on misses, the tree bound
// at least LB, and the gap is time / LB.
TEST(TimeGap, RowsAgreeWithTheirColumns) {
  const nlohmann::json params = {{"cases", {{{"topology", "torus(3,3)"}}}},
                                 {"collectives", {"allgather", "allreduce"}},
                                 {"sizes", {"1KB", "64KB"}},
                                 {"chunks", {1, 4}}};
  const auto rows = testing::RunExperimentKind("time-gap", params);
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& r : rows) {
    const Rational gap = ParseRational(testing::Extra(r, "gap"));
    const Rational time = ParseRational(testing::Extra(r, "time_us"));
    const Rational lb = ParseRational(testing::Extra(r, "lower_bound_us"));
    EXPECT_EQ(gap, time / lb);
    const bool meets = gap <= ParseRational(testing::Extra(r, "target"));
    EXPECT_EQ(testing::Extra(r, "meets_target"), meets ? "yes" : "no");
    EXPECT_EQ(testing::Extra(r, "reason").empty(), meets);
    EXPECT_GE(ParseRational(testing::Extra(r, "tree_bound_us")), lb);
  }
}

}  // namespace
}  // namespace collsynth
