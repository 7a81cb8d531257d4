// The ratio bound at a height (solvers/pipeline/height_bound.h, checked by
// proofs_check/height_bound_check.h; docs/min_height.md "A ratio bound at each height"):
// against a brute force over every spanning arborescence of small direct-connect graphs (the
// least ratio of any fractional packing of trees of height <= h, which the bound must never
// exceed), closed forms where the relaxation is exact, and the DGX-1 result the docs state.
#include "solvers/pipeline/height_bound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "fixtures/brute_force_trees.h"
#include "graphs/expression.h"
#include "proofs_check/height_bound_check.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

using testing::BruteForceRatioAtHeight;

Topology Gen(const std::string& expr) { return EvaluateTopologyExpression(expr); }

HeightBoundReport Checked(const Topology& g, Collective c, std::int64_t h) {
  const HeightBoundResult r = CertifyRatioAtHeight(g, c, h);
  EXPECT_TRUE(r.certificate.has_value()) << r.why;
  if (!r.certificate) return {};
  const HeightBoundReport report = CheckHeightBoundCertificate(g, *r.certificate);
  EXPECT_TRUE(report.ok) << report.violation;
  EXPECT_EQ(report.bound, r.bound);
  EXPECT_EQ(report.no_schedule, r.no_schedule);
  return report;
}

TEST(HeightBound, NeverAboveTheBruteForceLeastRatioAtThatHeight) {
  for (const std::string expr :
       {"uniring(1,4)", "uniring(2,3)", "biring(2,4)", "biring(2,5)", "complete(4)", "hypercube(2)",
        "circulant(5,1,2)", "circulant(6,1,3)"}) {
    SCOPED_TRACE(expr);
    const Topology g = Gen(expr);
    ASSERT_LE(g.num_nodes(), 6);
    for (int h = 1; h < g.num_nodes(); ++h) {
      SCOPED_TRACE("h = " + std::to_string(h));
      const double brute = BruteForceRatioAtHeight(g, h);
      const HeightBoundReport r = Checked(g, Collective::kAllgather, h);
      if (brute < 0) {
        // No tree of height <= h for some root: either the pair distance shows it, or the
        // bound is finite and means nothing (no schedule to bound).
        continue;
      }
      EXPECT_FALSE(r.no_schedule);
      EXPECT_LE(r.bound.convert_to<double>(), brute + 1e-9);
      // On these graphs the relaxation is exact (docs/min_height.md "Measured").
      EXPECT_NEAR(r.bound.convert_to<double>(), brute, 1e-9);
    }
  }
}

// K_m at height 1: every tree is the root's star, each link r -> t carries r's unit alone, so
// the least ratio is 1 (the relaxation is exact: each pair's only walk is its link).
TEST(HeightBound, CompleteGraphAtHeightOneIsOne) {
  for (int m : {3, 4, 6}) {
    const Topology g = Gen("complete(" + std::to_string(m) + ")");
    EXPECT_EQ(Checked(g, Collective::kAllgather, 1).bound, Rational(1));
    EXPECT_EQ(Checked(g, Collective::kReduceScatter, 1).bound, Rational(1));
  }
}

// Below the eccentricity bound there is no schedule: the pair more than h links apart says so.
TEST(HeightBound, BelowTheDiameterNoSchedule) {
  const Topology g = Gen("hypercube(3)");
  const HeightBoundReport r = Checked(g, Collective::kAllgather, 2);
  EXPECT_TRUE(r.no_schedule);
  EXPECT_FALSE(Checked(g, Collective::kAllgather, 3).no_schedule);
}

// Hypercube Q_3 at its diameter: the shortest-path-DAG family reaches ratio* = 7/3 at height 3
// (docs/min_height.md), so the bound there cannot exceed 7/3; every tree enters each of the 7
// other nodes once over its 3 in-links, so neither can it be below (7·8)/(8·3) = 7/3.
TEST(HeightBound, HypercubeAtItsDiameterIsRatioStar) {
  const Topology g = Gen("hypercube(3)");
  EXPECT_EQ(Checked(g, Collective::kAllgather, 3).bound, Rational(7, 3));
}

// Where the least ratio falls as the height grows. kautz(2,1) (ratio* = 5/2, diameter 2): at
// height 2 the brute force's least ratio is 3, and the bound meets it, so every schedule of
// ratio* is at least 3 links tall; at height 3 both are 5/2. DGX-1 (ratio* = 7/6): the least
// ratio at height 2 is already 7/6 (taller shortest-path trees are not needed), and the bound
// says the same.
TEST(HeightBound, MeetsTheBruteForceWhereTheHeightCosts) {
  const Topology kautz = Gen("kautz(2,1)");
  EXPECT_NEAR(BruteForceRatioAtHeight(kautz, 2), 3.0, 1e-9);
  EXPECT_EQ(Checked(kautz, Collective::kAllgather, 2).bound, Rational(3));
  EXPECT_NEAR(BruteForceRatioAtHeight(kautz, 3), 2.5, 1e-9);
  EXPECT_EQ(Checked(kautz, Collective::kAllgather, 3).bound, Rational(5, 2));
  const Topology dgx = Gen("dgx1(1)");
  const Rational star = BuildPipelineSchedule(dgx, PipelineOptions{}).schedule.ratio;
  ASSERT_EQ(star, Rational(7, 6));
  EXPECT_NEAR(BruteForceRatioAtHeight(dgx, 2), 7.0 / 6.0, 1e-9);
  EXPECT_EQ(Checked(dgx, Collective::kAllgather, 2).bound, star);
}

// Random small Eulerian digraphs (a Hamiltonian cycle plus random cycles, each with its own
// bandwidth): the bound never exceeds the brute force at any height, and meets it where the
// relaxation is exact; reduce-scatter gives the allgather bound of the reversed graph.
TEST(HeightBound, RandomEulerianDigraphsNeverAboveTheBruteForce) {
  std::mt19937 rng(20261128);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 4 + trial % 2;
    const Topology g = testing::RandomEulerianDigraph(n, "random" + std::to_string(trial), rng);
    SCOPED_TRACE(trial);
    for (int h = 1; h < n; ++h) {
      const double brute = BruteForceRatioAtHeight(g, h);
      const HeightBoundReport r = Checked(g, Collective::kAllgather, h);
      if (brute < 0) continue;
      EXPECT_FALSE(r.no_schedule);
      EXPECT_LE(r.bound.convert_to<double>(), brute + 1e-9) << "h = " << h;
      // Reduce-scatter is the allgather of the reversed graph: the same value on G^T.
      Topology t("transpose");
      for (int v = 0; v < n; ++v) t.AddCompute("n" + std::to_string(v));
      for (const Link& l : g.links()) t.AddLink(l.to, l.from, l.bandwidth, l.multiplicity);
      EXPECT_EQ(Checked(g, Collective::kReduceScatter, h).bound,
                Checked(t, Collective::kAllgather, h).bound)
          << "h = " << h;
    }
  }
}

// One switch, N hosts, unit duplex links: every tree enters each host over its one link, so
// the least ratio is N - 1 at height 2 (direct), and nothing is 1 link tall.
TEST(HeightBound, StarThroughOneSwitch) {
  for (int n : {3, 5}) {
    Topology g("star");
    const int s = g.AddSwitch("s");
    for (int v = 0; v < n; ++v)
      g.AddDuplexLink(g.AddCompute("h" + std::to_string(v)), s, Rational(1));
    EXPECT_TRUE(Checked(g, Collective::kAllgather, 1).no_schedule);
    EXPECT_EQ(Checked(g, Collective::kAllgather, 2).bound, Rational(n - 1));
    EXPECT_EQ(Checked(g, Collective::kReduceScatter, 3).bound, Rational(n - 1));
  }
}

// Mutants: malformed certificates are violations, never bounds.
TEST(HeightBound, CheckerRejectsMalformedCertificates) {
  const Topology g = Gen("complete(3)");
  HeightBoundResult res = CertifyRatioAtHeight(g, Collective::kAllgather, 1);
  ASSERT_TRUE(res.certificate);
  ASSERT_FALSE(res.certificate->pairs.empty());
  {
    HeightBoundCertificate c = *res.certificate;
    c.pairs[0].lengths.push_back({0, Rational(-1)});
    EXPECT_FALSE(CheckHeightBoundCertificate(g, c).ok);
  }
  {
    HeightBoundCertificate c = *res.certificate;
    c.pairs[0].lengths.push_back({g.num_links(), Rational(1)});
    EXPECT_FALSE(CheckHeightBoundCertificate(g, c).ok);
  }
  {
    HeightBoundCertificate c = *res.certificate;
    c.pairs[0].target = c.pairs[0].root;
    EXPECT_FALSE(CheckHeightBoundCertificate(g, c).ok);
  }
  {
    HeightBoundCertificate c = *res.certificate;
    c.collective = Collective::kAllreduce;
    EXPECT_FALSE(CheckHeightBoundCertificate(g, c).ok);
  }
}

}  // namespace
}  // namespace collsynth
