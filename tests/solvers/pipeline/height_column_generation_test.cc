// Column generation at a height (solvers/pipeline/height_column_generation.h, docs/min_height.md
// "Column generation at a height"): every schedule is checked by the independent checker; on
// small direct-connect graphs its exact ratio equals the brute force over every spanning
// arborescence of height <= h (tests/fixtures/brute_force_trees.h); on DGX-1 at height 2 and
// kautz(2,1) at height 3 it reaches ratio*, and there the certified ratio bound at the height
// (solvers/pipeline/height_bound.h) is met, so the schedule is optimal at its height.
#include "solvers/pipeline/height_column_generation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "fixtures/brute_force_trees.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/height_bound.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

// The schedule at height <= h, checked: ok, the checker's ratio is the producer's, and the
// measured height is at most h.
PipelineCheckReport Checked(const Topology& g, Collective c, std::int64_t h,
                            HeightCgResult* out = nullptr) {
  HeightCgOptions o;
  o.collective = c;
  HeightColumnGeneration cg(g, o);
  HeightCgResult r = cg.At(h);
  EXPECT_TRUE(r.schedule.has_value()) << r.why;
  if (!r.schedule) return {};
  PipelineCheckReport rep = CheckPipelineSchedule(g, *r.schedule);
  EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
  EXPECT_EQ(rep.ratio, r.schedule->ratio);
  EXPECT_LE(rep.height_hops, h);
  if (out) *out = std::move(r);
  return rep;
}

// Small direct-connect graphs, at every height from the eccentricity bound up: the exact ratio
// of the checked schedule is the brute-force least ratio of any fractional packing of trees of
// height <= h, and the exact pricing proved that no tree improves the master.
TEST(HeightColumnGeneration, EqualsTheBruteForceOnSmallGraphs) {
  for (const std::string expr :
       {"uniring(2,4)", "biring(2,4)", "biring(2,5)", "complete(4)", "hypercube(2)",
        "circulant(5,1,2)", "circulant(6,1,3)", "kautz(2,1)"}) {
    SCOPED_TRACE(expr);
    const Topology g = EvaluateTopologyExpression(expr);
    ASSERT_LE(g.num_nodes(), 6);
    for (int h = 1; h < g.num_nodes(); ++h) {
      SCOPED_TRACE("h = " + std::to_string(h));
      const double brute = testing::BruteForceRatioAtHeight(g, h);
      if (brute < 0) {
        HeightColumnGeneration cg(g);
        EXPECT_FALSE(cg.At(h).schedule);  // no tree that low for some root
        continue;
      }
      HeightCgResult r;
      const PipelineCheckReport rep = Checked(g, Collective::kAllgather, h, &r);
      EXPECT_NEAR(rep.ratio.convert_to<double>(), brute, 1e-9);
      EXPECT_TRUE(r.pricing_exhausted);
    }
  }
}

// DGX-1 (ratio* = 7/6, diameter 2): the shortest-path-DAG family stays at 3/2 (min_height.h),
// but trees of height 2 that are not shortest-path trees reach 7/6; the checker certifies the
// ratio by its cut, and the bound at height 2 is met.
TEST(HeightColumnGeneration, Dgx1ReachesRatioStarAtHeightTwo) {
  const Topology g = EvaluateTopologyExpression("dgx1(1)");
  const Rational star = BuildPipelineSchedule(g, PipelineOptions{}).optimal_ratio;
  ASSERT_EQ(star, Rational(7, 6));
  const PipelineCheckReport rep = Checked(g, Collective::kAllgather, 2);
  EXPECT_EQ(rep.ratio, star);
  EXPECT_EQ(rep.verdict, PipelineVerdict::kOptimalCertified);
  EXPECT_EQ(rep.height_hops, 2);
  EXPECT_EQ(CertifyRatioAtHeight(g, Collective::kAllgather, 2).bound, rep.ratio);
}

// kautz(2,1) (ratio* = 5/2): 3 at height 2 and 5/2 at height 3, each equal to the certified
// bound at that height (height_bound_test.cc compares the bound with the brute force).
TEST(HeightColumnGeneration, KautzMeetsTheBoundAtHeightsTwoAndThree) {
  const Topology g = EvaluateTopologyExpression("kautz(2,1)");
  for (std::int64_t h : {2, 3}) {
    SCOPED_TRACE(h);
    const PipelineCheckReport rep = Checked(g, Collective::kAllgather, h);
    EXPECT_EQ(rep.ratio, CertifyRatioAtHeight(g, Collective::kAllgather, h).bound);
    EXPECT_EQ(rep.ratio, h == 2 ? Rational(3) : Rational(5, 2));
  }
}

// Routes through switches: one switch with n hosts; every tree enters each host over its one
// link, so the least ratio at height 2 is n - 1 (tests/solvers/pipeline/height_bound_test.cc).
TEST(HeightColumnGeneration, StarThroughOneSwitch) {
  Topology g("star");
  const int s = g.AddSwitch("s");
  for (int v = 0; v < 4; ++v)
    g.AddDuplexLink(g.AddCompute("h" + std::to_string(v)), s, Rational(1));
  HeightColumnGeneration cg(g);
  EXPECT_FALSE(cg.At(1).schedule);
  EXPECT_EQ(Checked(g, Collective::kAllgather, 2).ratio, Rational(3));
  EXPECT_EQ(Checked(g, Collective::kReduceScatter, 2).ratio, Rational(3));
}

// Reduce-scatter is the allgather of G^T, and allreduce takes the best split of its height
// between the phases (heights and ratios add up): on a directed ring plus chords, each compared
// with the phases built separately.
TEST(HeightColumnGeneration, ReduceScatterAndAllreduceSplits) {
  const Topology g = EvaluateTopologyExpression("kautz(2,1)");
  const Topology t = g.Transpose();
  for (std::int64_t h : {2, 3}) {
    HeightCgResult rs;
    const PipelineCheckReport r = Checked(g, Collective::kReduceScatter, h, &rs);
    EXPECT_EQ(r.ratio, Checked(t, Collective::kAllgather, h).ratio);
  }
  HeightCgResult ar;
  const PipelineCheckReport rep = Checked(g, Collective::kAllreduce, 5, &ar);
  Rational least = -1;
  for (std::int64_t h1 = 2; h1 <= 3; ++h1) {
    const Rational sum = Checked(g, Collective::kReduceScatter, h1).ratio +
                         Checked(g, Collective::kAllgather, 5 - h1).ratio;
    if (least < 0 || sum < least) least = sum;
  }
  EXPECT_EQ(rep.ratio, least);
  EXPECT_EQ(ar.phase_heights[0] + ar.phase_heights[1], 5);
}

// Random small Eulerian digraphs (a Hamiltonian cycle plus random cycles with their own
// bandwidths, tests/fixtures/brute_force_trees.h): at every height the
// checked exact ratio is the brute force's, so the exact re-solve keeps the LP's value with
// non-unit bandwidths too.
TEST(HeightColumnGeneration, RandomEulerianDigraphsEqualTheBruteForce) {
  std::mt19937 rng(20261128);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 4 + trial % 2;
    const Topology g = testing::RandomEulerianDigraph(n, "random" + std::to_string(trial), rng);
    SCOPED_TRACE(trial);
    for (int h = 1; h < n; ++h) {
      const double brute = testing::BruteForceRatioAtHeight(g, h);
      if (brute < 0) continue;
      EXPECT_NEAR(Checked(g, Collective::kAllgather, h).ratio.convert_to<double>(), brute, 1e-9)
          << "h = " << h;
    }
  }
}

// Mutants the checker must reject: a tree's multiplicity changed (the claimed ratio and the
// per-root count of trees no longer hold) and a height claim lowered by one.
TEST(HeightColumnGeneration, MutantsAreRejected) {
  const Topology g = EvaluateTopologyExpression("dgx1(1)");
  HeightColumnGeneration cg(g);
  const HeightCgResult r = cg.At(2);
  ASSERT_TRUE(r.schedule);
  ASSERT_TRUE(CheckPipelineSchedule(g, *r.schedule).ok);
  PipelineSchedule more = *r.schedule;
  more.trees[0].multiplicity += 1;
  EXPECT_FALSE(CheckPipelineSchedule(g, more).ok);
  PipelineSchedule lower = *r.schedule;
  lower.height_hops = *lower.height_hops - 1;
  EXPECT_FALSE(CheckPipelineSchedule(g, lower).ok);
}

// Heights beyond any tree's ((N - 1)·(|V| - 1) links) give the same result as that height,
// without building layers or splits for each (the CLI takes --height up to 2^40).
TEST(HeightColumnGeneration, HugeHeights) {
  const Topology g = EvaluateTopologyExpression("kautz(2,1)");
  const std::int64_t huge = std::int64_t{1} << 40;
  EXPECT_EQ(Checked(g, Collective::kAllgather, huge).ratio, Rational(5, 2));
  EXPECT_EQ(Checked(g, Collective::kAllreduce, huge).ratio,
            Checked(g, Collective::kAllreduce, 2 * 5 * 5).ratio);
}

// Above the size limit nothing is built, and the result says why.
TEST(HeightColumnGeneration, SizeLimit) {
  const Topology g = EvaluateTopologyExpression("hypercube(3)");
  HeightCgOptions o;
  o.max_compute = 4;
  HeightColumnGeneration cg(g, o);
  const HeightCgResult r = cg.At(3);
  EXPECT_FALSE(r.schedule);
  EXPECT_NE(r.why.find("limit"), std::string::npos) << r.why;
}

}  // namespace
}  // namespace collsynth
