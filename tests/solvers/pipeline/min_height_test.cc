// The shortest-path-DAG family (solvers/pipeline/min_height.h, docs/min_height.md): every schedule
// is checked by the independent checker, its height is compared with a brute force over every
// spanning arborescence of small graphs, and on the topologies docs/min_height.md lists it
// reaches ratio* (computed by the pipeline path) at the height lower bound.
#include "solvers/pipeline/min_height.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fixtures/brute_force_trees.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

// The least height of any tree rooted at r that spans the compute nodes of a direct-connect
// graph, over every arborescence tests/fixtures/brute_force_trees.h enumerates (-1 when none).
std::int64_t BruteForceMinTreeHeight(const Topology& g, int r) {
  std::int64_t best = -1;
  for (const testing::BruteTree& t : testing::AllTrees(g, r)) {
    if (best < 0 || t.height < best) best = t.height;
  }
  return best;
}

PipelineCheckReport Checked(const Topology& g, Collective c, MinHeightResult* out = nullptr) {
  MinHeightOptions o;
  o.collective = c;
  MinHeightResult m = BuildShortestPathDagSchedule(g, o);
  EXPECT_TRUE(m.schedule.has_value()) << m.why;
  if (!m.schedule) return {};
  PipelineCheckReport r = CheckPipelineSchedule(g, *m.schedule);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, m.schedule->ratio);
  if (out) *out = std::move(m);
  return r;
}

// Small direct-connect graphs: the schedule's height (measured by the checker) is the largest,
// over roots, of the least height of any spanning tree from that root (brute force), so no
// schedule of any ratio is lower.
TEST(MinHeight, HeightEqualsBruteForceMinimumOnSmallGraphs) {
  for (const char* e : {"biring(2,4)", "complete(4)", "biring(2,5)", "hypercube(2)", "uniring(2,4)",
                        "circulant(5,1,2)", "kautz(2,1)"}) {
    SCOPED_TRACE(e);
    Topology g;
    try {
      g = EvaluateTopologyExpression(e);
    } catch (const std::exception& ex) {
      ADD_FAILURE() << ex.what();
      continue;
    }
    ASSERT_LE(g.num_nodes(), 6);
    std::int64_t brute = 0;
    for (int r : g.ComputeNodes()) brute = std::max(brute, BruteForceMinTreeHeight(g, r));
    MinHeightResult m;
    PipelineCheckReport rep = Checked(g, Collective::kAllgather, &m);
    EXPECT_EQ(rep.height_hops, brute);
    EXPECT_EQ(rep.height_lower_bound_hops, brute);
    // Not every small graph's family reaches ratio* (kautz(2,1): 3 against 5/2).
    EXPECT_GE(rep.ratio, m.optimal_ratio);
    PipelineOptions po;
    EXPECT_EQ(m.optimal_ratio, BuildPipelineSchedule(g, po).optimal_ratio);
  }
}

// The topologies of docs/min_height.md "What it reaches": ratio* at the height lower bound,
// certified by the checker (verdict optimal, height = the eccentricity bound).
TEST(MinHeight, ReachesRatioStarAtTheHeightBound) {
  for (const char* e : {"hypercube(3)", "torus(3,3)", "fattree(4)", "gpuboxes(2,4,300,25,4)"}) {
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    PipelineOptions po;
    const Rational ratio_star = BuildPipelineSchedule(g, po).optimal_ratio;
    MinHeightResult m;
    PipelineCheckReport r = Checked(g, Collective::kAllgather, &m);
    EXPECT_EQ(r.ratio, ratio_star);
    EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified);
    EXPECT_EQ(r.height_hops, r.height_lower_bound_hops);
  }
}

// Where the family stays above ratio* (docs/min_height.md "What it reaches"): DGX-1's hybrid
// cube-mesh (3/2 against 7/6) and kautz(2,1) (3 against 5/2); the schedule is still checked and
// at the height bound.
TEST(MinHeight, FamilyAboveRatioStarIsStillMinimalHeight) {
  for (const char* e : {"dgx1(1)", "kautz(2,1)"}) {
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    MinHeightResult m;
    PipelineCheckReport r = Checked(g, Collective::kAllgather, &m);
    EXPECT_GT(r.ratio, m.optimal_ratio);
    EXPECT_EQ(r.verdict, PipelineVerdict::kValid);
    EXPECT_EQ(r.height_hops, r.height_lower_bound_hops);
  }
}

// Reduce-scatter (the transpose) and allreduce (both phases) on a hypercube: ratio* and 2·ratio*,
// heights at the bound (the allreduce bound is the sum of the phases').
TEST(MinHeight, ReduceScatterAndAllreduce) {
  Topology g = EvaluateTopologyExpression("hypercube(3)");
  PipelineOptions po;
  const Rational ratio_star = BuildPipelineSchedule(g, po).optimal_ratio;
  PipelineCheckReport rs = Checked(g, Collective::kReduceScatter);
  EXPECT_EQ(rs.ratio, ratio_star);
  EXPECT_EQ(rs.height_hops, 3);
  EXPECT_EQ(rs.height_hops, rs.height_lower_bound_hops);
  PipelineCheckReport ar = Checked(g, Collective::kAllreduce);
  EXPECT_EQ(ar.ratio, 2 * ratio_star);
  EXPECT_EQ(ar.height_hops, 6);
  EXPECT_EQ(ar.height_hops, ar.height_lower_bound_hops);
}

// A mutant the checker must reject: one route of the family lengthened by a detour changes the
// measured height, so the schedule's claim no longer matches (kWrongHeight), or a route breaks.
TEST(MinHeight, MutatedHeightClaimIsRejected) {
  Topology g = EvaluateTopologyExpression("hypercube(3)");
  MinHeightResult m;
  Checked(g, Collective::kAllgather, &m);
  ASSERT_TRUE(m.schedule);
  PipelineSchedule s = *m.schedule;
  ASSERT_TRUE(s.height_hops);
  s.height_hops = *s.height_hops - 1;
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
}

// Above the column limit no program is built, and the result says why.
TEST(MinHeight, ColumnLimit) {
  Topology g = EvaluateTopologyExpression("hypercube(3)");
  MinHeightOptions o;
  o.max_columns = 10;
  MinHeightResult m = BuildShortestPathDagSchedule(g, o);
  EXPECT_FALSE(m.schedule);
  EXPECT_NE(m.why.find("limit"), std::string::npos) << m.why;
}

}  // namespace
}  // namespace collsynth
