// Re-synthesis after a failure (solvers/pipeline/repair.h, docs/repair.md): a plain schedule made
// on the intact topology, repaired for the topology with seeded random failed links, is accepted
// by the checker, certified, and its ratio equals the fresh plain path's optimum on the degraded
// topology; a failure no route uses changes nothing; a failure that lowers the optimum is
// explained by the new cut, which the intact topology does not have.
#include "solvers/pipeline/repair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "graphs/expression.h"
#include "graphs/failed_links.h"
#include "graphs/properties.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

// `count` duplex links (both directions) of g drawn with `seed` among those whose ends pass
// `pick`, keeping the compute nodes strongly connected.
std::vector<int> RandomDuplexFailures(const Topology& g, int count, unsigned seed,
                                      bool (*pick)(const Topology&, const Link&)) {
  std::vector<int> candidates;
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    if (l.from < l.to && pick(g, l) && g.FindLink(l.to, l.from)) candidates.push_back(e);
  }
  std::mt19937 rng(seed);
  std::shuffle(candidates.begin(), candidates.end(), rng);
  std::vector<int> failed;
  for (int e : candidates) {
    if (count == 0) break;
    std::vector<int> next = failed;
    next.push_back(e);
    next.push_back(*g.FindLink(g.link(e).to, g.link(e).from));
    if (!CheckStronglyConnected(DegradedTopology({g, next})).strongly_connected) continue;
    failed = std::move(next);
    --count;
  }
  return failed;
}

bool SwitchToSwitch(const Topology& g, const Link& l) {
  return g.IsSwitch(l.from) && g.IsSwitch(l.to);
}
bool AnyLink(const Topology&, const Link&) { return true; }

bool SameTree(const PipelineTree& a, const PipelineTree& b) {
  if (a.root != b.root || a.multiplicity != b.multiplicity || a.edges.size() != b.edges.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.edges.size(); ++i) {
    const PipelineTreeEdge &x = a.edges[i], &y = b.edges[i];
    if (x.from != y.from || x.to != y.to || x.routes.size() != y.routes.size()) return false;
    for (std::size_t j = 0; j < x.routes.size(); ++j) {
      if (x.routes[j].path != y.routes[j].path) return false;
      if (x.routes[j].multiplicity != y.routes[j].multiplicity) return false;
    }
  }
  return true;
}

PipelineBuildResult Plain(const Topology& g, Collective c = Collective::kAllgather) {
  PipelineOptions o;
  o.collective = c;
  return BuildPipelineSchedule(g, o);
}

// The repair of `old` for g is valid, certified and at the fresh plain path's optimum.
RepairResult ExpectRepairedOptimal(const Topology& g, const PipelineSchedule& old) {
  const std::int64_t old_trees = static_cast<std::int64_t>(old.trees.size());
  RepairResult r = RepairPipelineSchedule(g, old);
  PipelineCheckReport rep = CheckPipelineSchedule(g, r.schedule);
  EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
  EXPECT_EQ(rep.verdict, PipelineVerdict::kOptimalCertified);
  PipelineBuildResult fresh = Plain(g, old.collective);
  EXPECT_EQ(r.schedule.ratio, fresh.schedule.ratio);
  EXPECT_EQ(r.optimum.ratio, fresh.optimal_ratio);
  EXPECT_EQ(r.stats.trees_old, old_trees);
  if (r.method != RepairMethod::kFresh) {
    EXPECT_EQ(r.stats.trees_kept + r.stats.trees_rerouted + r.stats.trees_replaced, old_trees);
    EXPECT_EQ(r.schedule.k % old.k, 0);  // OLD's multiplicities scaled by an integer
  }
  return r;
}

TEST(PipelineRepair, RandomFailuresOnFatTreesToriAndDragonflyRepairToTheOptimum) {
  struct Case {
    const char* expr;
    int failures;
    bool (*pick)(const Topology&, const Link&);
  };
  for (const Case& c : {Case{"fattree(4)", 2, SwitchToSwitch}, Case{"torus(3,4)", 1, AnyLink},
                        Case{"dragonfly(2,2,1)", 1, SwitchToSwitch}}) {
    Topology intact = EvaluateTopologyExpression(c.expr);
    PipelineBuildResult old = Plain(intact);
    // Seeds 1-3 are fixed (on them the repair itself, not the fallback, must reach the optimum);
    // $COLLSYNTH_SEED adds one more draw, on which only the guarantees are asserted.
    const unsigned extra = static_cast<unsigned>(testing::TestSeed());
    for (unsigned seed : {1u, 2u, 3u, extra}) {
      SCOPED_TRACE(std::string(c.expr) + " seed " + std::to_string(seed));
      std::vector<int> failed = RandomDuplexFailures(intact, c.failures, seed, c.pick);
      ASSERT_EQ(static_cast<int>(failed.size()), 2 * c.failures);
      Topology g = DegradedTopology({intact, failed});
      RepairResult r = ExpectRepairedOptimal(g, old.schedule);
      EXPECT_GT(r.stats.routes_broken, 0);  // plain schedules use every link (Algorithm 1)
      if (seed <= 3) {
        EXPECT_NE(r.method, RepairMethod::kFresh) << r.why_fresh;
      }
    }
  }
}

TEST(PipelineRepair, ReduceScatterAndASecondFailureOnARepairedSchedule) {
  Topology intact = EvaluateTopologyExpression("fattree(4)");
  PipelineBuildResult rs = Plain(intact, Collective::kReduceScatter);
  std::vector<int> failed = RandomDuplexFailures(intact, 2, 7, SwitchToSwitch);
  ExpectRepairedOptimal(DegradedTopology({intact, failed}), rs.schedule);

  PipelineBuildResult ag = Plain(intact);
  std::vector<int> first = RandomDuplexFailures(intact, 1, 3, SwitchToSwitch);
  RepairResult once = ExpectRepairedOptimal(DegradedTopology({intact, first}), ag.schedule);
  Topology g1 = DegradedTopology({intact, first});
  std::vector<int> more = RandomDuplexFailures(g1, 1, 4, SwitchToSwitch);
  ExpectRepairedOptimal(DegradedTopology({g1, more}), once.schedule);
}

TEST(PipelineRepair, AFailureNoRouteUsesChangesNothing) {
  // fattree(4) with a spare core0 <-> core1 link: its schedule (made without the spare link)
  // is a schedule of the larger topology that never uses it; failing the spare link must leave
  // every tree as it was.
  Topology base = EvaluateTopologyExpression("fattree(4)");
  PipelineBuildResult old = Plain(base);
  Topology spare = base;
  spare.AddDuplexLink(*spare.FindNode("core0"), *spare.FindNode("core1"), 1);
  const int e = *spare.FindLink(*spare.FindNode("core0"), *spare.FindNode("core1"));
  Topology g =
      DegradedTopology({spare, {e, *spare.FindLink(spare.link(e).to, spare.link(e).from)}});
  RepairResult r = ExpectRepairedOptimal(g, old.schedule);
  EXPECT_EQ(r.method, RepairMethod::kUnchanged);
  EXPECT_EQ(r.stats.trees_kept, static_cast<std::int64_t>(old.schedule.trees.size()));
  EXPECT_EQ(r.stats.routes_broken, 0);
  ASSERT_EQ(r.schedule.trees.size(), old.schedule.trees.size());
  for (std::size_t i = 0; i < old.schedule.trees.size(); ++i) {
    EXPECT_TRUE(SameTree(r.schedule.trees[i], old.schedule.trees[i])) << "trees[" << i << "]";
  }
}

TEST(PipelineRepair, OldThatOverloadsTheNewTopologyFallsBackToAFreshSynthesis) {
  // OLD was made with link r0 <-> r1 at bandwidth 2; on the same ring with bandwidth 1 its kept
  // routes overload that link at any optimum, so only a fresh synthesis reaches it.
  Topology wide = testing::RingTopology(6, {2, 1, 1, 1, 1, 1});
  Topology g = testing::RingTopology(6, {1});
  PipelineBuildResult old = Plain(wide);
  RepairResult r = ExpectRepairedOptimal(g, old.schedule);
  EXPECT_EQ(r.method, RepairMethod::kFresh);
  EXPECT_NE(r.why_fresh.find("overload"), std::string::npos) << r.why_fresh;
  EXPECT_TRUE(r.stats.optimum_computed);
}

TEST(PipelineRepair, ALowerOptimumIsReportedWithTheNewCut) {
  // torus(3,3): every link counts, so one failed duplex link lowers the optimum. The repaired
  // schedule's ratio is the new optimum, its certificate is a cut whose value on the degraded
  // topology is that ratio, and the same set is a weaker cut of the intact topology (the failed
  // link crosses it): the failure is the reason.
  Topology intact = EvaluateTopologyExpression("torus(3,3)");
  PipelineBuildResult old = Plain(intact);
  std::vector<int> failed = RandomDuplexFailures(intact, 1, 5, AnyLink);
  Topology g = DegradedTopology({intact, failed});
  RepairResult r = ExpectRepairedOptimal(g, old.schedule);
  EXPECT_GT(r.schedule.ratio, old.schedule.ratio);
  EXPECT_EQ(r.old_ratio, old.schedule.ratio);
  ASSERT_TRUE(r.schedule.bottleneck_cut.has_value());
  CutBound now = CheckCutBound(g, Collective::kAllgather, *r.schedule.bottleneck_cut);
  CutBound before = CheckCutBound(intact, Collective::kAllgather, *r.schedule.bottleneck_cut);
  ASSERT_TRUE(now.ok && before.ok);
  EXPECT_EQ(now.bound, r.schedule.ratio);
  EXPECT_LT(before.bound, now.bound);
  EXPECT_EQ(Rational(r.optimum.cut_compute) / r.optimum.cut_bandwidth, r.schedule.ratio);
}

}  // namespace
}  // namespace collsynth
