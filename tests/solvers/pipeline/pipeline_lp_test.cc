// The pipeline optimum as an LP (seed 004 Theorem 1), solved by CLP and certified exactly:
// on seeded random Eulerian digraphs with switches the certified LP optimum equals the
// combinatorial optimum and brute force over all cuts; known answers (seed 004 Figure 1)
// and metamorphic properties (scaling bandwidths) hold.
#include "solvers/pipeline/pipeline_lp.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "solvers/pipeline_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

void ExpectCertifiedEqual(const Topology& g, const Rational& expected, const std::string& what) {
  PipelineLpResult r = SolvePipelineLp(g);
  ASSERT_EQ(r.lp_outcome, LpOutcome::kOptimal) << what;
  EXPECT_EQ(r.status, PipelineLpStatus::kCertified) << what << " hint " << r.lp_ratio;
  EXPECT_TRUE(r.upper_holds) << what;
  EXPECT_TRUE(r.lower_holds) << what;
  EXPECT_EQ(r.ratio, expected) << what;
  EXPECT_TRUE(r.matches_combinatorial) << what;
  EXPECT_EQ(r.combinatorial_ratio, expected) << what;
  EXPECT_NEAR(r.lp_ratio, expected.convert_to<double>(), 1e-6) << what;
}

// Seed 004 Figure 1: two clusters of 4 behind 10b switches plus a global b switch; the
// bottleneck is a cluster cut, ratio* = 4/(4b).
TEST(PipelineLpTest, Seed004Figure1TwoClusterOptimum) {
  ExpectCertifiedEqual(testing::TwoClusterTopology(), Rational(1), "two-cluster");
}

TEST(PipelineLpTest, EqualsCombinatorialOptimumOnRandomEulerianDigraphs) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 120; ++round) {
    int compute = 2 + static_cast<int>(rng() % 7);
    int switches = static_cast<int>(rng() % 5);
    Topology g = testing::RandomEulerianTopology(
        rng, compute, switches, static_cast<int>(rng() % 6), 1 + static_cast<int>(rng() % 9));
    const std::string what = "seed " + std::to_string(seed) + " round " + std::to_string(round);
    ExpectCertifiedEqual(g, testing::BruteForceAllgatherRatio(g), what);
  }
}

TEST(PipelineLpTest, ScalingBandwidthsScalesTheOptimumInversely) {
  std::mt19937_64 rng(testing::TestSeed() + 1);
  for (int round = 0; round < 10; ++round) {
    Topology g = testing::RandomEulerianTopology(rng, 5, 2, 3, 4);
    Topology h(g.name() + "x7/3");
    for (const Node& v : g.nodes()) h.AddNode(v.name, v.kind);
    for (const Link& l : g.links()) h.AddLink(l.from, l.to, l.bandwidth * Rational(7, 3));
    PipelineLpResult a = SolvePipelineLp(g);
    PipelineLpResult b = SolvePipelineLp(h);
    ASSERT_EQ(a.status, PipelineLpStatus::kCertified);
    ASSERT_EQ(b.status, PipelineLpStatus::kCertified);
    EXPECT_EQ(b.ratio, a.ratio * Rational(3, 7));
  }
}

TEST(PipelineLpTest, KnownTopologies) {
  // Bidirectional unit ring of 6: every node receives 5 shards over 2 links.
  ExpectCertifiedEqual(testing::RingTopology(6, {Rational(1)}), Rational(5, 2), "ring 6");
  ExpectCertifiedEqual(testing::HypercubeTopology(3), Rational(7, 3), "hypercube 3");
}

TEST(PipelineLpTest, NonEulerianIsRejected) {
  Topology g("one-way");
  g.AddCompute("a");
  g.AddCompute("b");
  g.AddLink(0, 1, Rational(1));
  g.AddLink(1, 0, Rational(2));
  EXPECT_THROW(SolvePipelineLp(g), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
