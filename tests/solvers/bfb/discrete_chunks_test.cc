// Discrete chunked BFB schedules (seed 000 App. D.2): the LCM chunk count makes the exact
// schedule integral; for P chunks per shard the ILP (12) optimum (CBC, certified) is never
// better than the LP relaxation and never worse than the rounded LP, and Theorem 20's bound
// holds on every run (many topologies x many P). Schedules pass the step checker.
#include "solvers/bfb/discrete_chunks.h"

#include <gtest/gtest.h>

#include <random>

#include "core/input_error.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

using namespace bfb_test;

void ExpectValid(const Topology& g, const StepSchedule& s) {
  StepCheckOptions o;
  o.check_bfb = true;
  StepCheckReport rep = CheckStepSchedule(g, s, o);
  EXPECT_TRUE(rep.ok) << g.name() << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
  ASSERT_TRUE(s.claimed_tb.has_value());
  EXPECT_EQ(rep.tb, *s.claimed_tb) << g.name();
}

TEST(DiscreteChunksTest, AppD2LcmChunkCountMakesScheduleIntegral) {
  for (const Topology& g : {GeneralizedKautz(2, 10), GeneralizedKautz(3, 20), Torus({3, 4})}) {
    BfbPlan plan = SolveBfbPlan(g, {});
    BigInt l = LcmChunkCount(plan);
    for (const StepSend& s : BfbAllgatherSends(plan))
      for (const Interval& iv : s.chunk) {
        EXPECT_EQ(Denominator(iv.lo * Rational(l)), 1);
        EXPECT_EQ(Denominator(iv.hi * Rational(l)), 1);
      }
    // With P = LCM the rounding is exact, so rounded = ILP = LP (App. D.2 (a)).
    if (l <= 1000) {
      DiscreteChunkResult d = SolveDiscreteChunks(g, ToInt64(l));
      EXPECT_EQ(d.tb_rounded, d.tb_lp) << g.name();
      EXPECT_EQ(d.tb_ilp, d.tb_lp) << g.name();
    }
  }
}

TEST(DiscreteChunksTest, Thm20BoundAndIlpBetweenLpAndRoundingOnManyRuns) {
  std::vector<Topology> graphs = {GeneralizedKautz(2, 7),  GeneralizedKautz(2, 12),
                                  GeneralizedKautz(3, 15), Torus({3, 4}),
                                  Torus({3, 5}),           Hypercube(3),
                                  CompleteBipartite(3),    Circulant(13, {2, 5}),
                                  LinePetersen(),          DirectedCirculant(9, {1, 2})};
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 4; ++k) graphs.push_back(RandomDigraph(6 + k, 8, seed + k));
  for (const Topology& g : graphs) {
    for (std::int64_t p : {1, 2, 3, 5, 7}) {
      DiscreteChunkResult d = SolveDiscreteChunks(g, p);
      SCOPED_TRACE(g.name() + " P = " + std::to_string(p) + " seed " + std::to_string(seed));
      EXPECT_LE(d.tb_lp, d.tb_ilp);       // LP relaxation is a lower bound
      EXPECT_LE(d.tb_ilp, d.tb_rounded);  // the optimum is never worse than rounding
      EXPECT_TRUE(d.thm20_holds) << ToString(d.tb_rounded) << " > " << ToString(d.tb_ilp) << " + "
                                 << ToString(d.thm20_gap);
      EXPECT_EQ(d.cbc_repaired, 0);  // CBC reached the certified optimum
      if (p == 3) {
        ExpectValid(g, d.ilp_schedule);
        ExpectValid(g, d.rounded_schedule);
      }
    }
  }
}

TEST(DiscreteChunksTest, Figure5RoundingKeepsSharesBelowLpPlusOne) {
  // u_2 of Figure 5 with P = 2: y_LP = (4/3, 2/3 | 2/3, 4/3) rounds to (1,1 | 1,1) or
  // similar with each y < y_LP + 1 and Σ = P; ILP optimum W = ceil(2 · 2/3) = 2.
  BfbSubproblem p;
  p.sources = {1, 2};
  p.senders = {11, 12, 13};
  p.allowed = {{0, 1}, {1, 2}};
  BfbLpResult r = SolveBfbSubproblem(p);
  auto y = RoundBfbShares(p, r, 2);
  for (std::size_t i = 0; i < y.size(); ++i) {
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < y[i].size(); ++k) {
      EXPECT_LT(Rational(y[i][k]), r.x[i][k] * 2 + 1);
      sum += y[i][k];
    }
    EXPECT_EQ(sum, 2);
  }
}

TEST(DiscreteChunksTest, ExactFlowWithoutCbcGivesTheSameOptimum) {
  Topology g = GeneralizedKautz(3, 20);
  DiscreteChunkOptions no_cbc;
  no_cbc.use_cbc = false;
  for (std::int64_t p : {2, 4}) {
    EXPECT_EQ(SolveDiscreteChunks(g, p).tb_ilp, SolveDiscreteChunks(g, p, no_cbc).tb_ilp);
  }
}

TEST(DiscreteChunksTest, RejectsBadChunkCountAndMixedBandwidth) {
  EXPECT_THROW(SolveDiscreteChunks(Torus({3, 3}), 0), InputError);
  Topology g = Torus({3, 3});
  Topology h("mixed");
  for (const Node& v : g.nodes()) h.AddCompute(v.name);
  for (const Link& l : g.links()) h.AddLink(l.from, l.to, l.from == 0 ? Rational(2) : Rational(1));
  EXPECT_THROW(SolveDiscreteChunks(h, 3), InputError);
}

}  // namespace
}  // namespace collsynth
