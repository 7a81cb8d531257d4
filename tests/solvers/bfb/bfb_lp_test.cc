// Tests of the per-(u,t) BFB LP (seed 000 §6.1 LP (3), App. D LP for Figure 5, Thm 19,
// App. D.3 LP (13)): known answers, brute force over all source sets J, CLP cross-checks,
// mutated results rejected, metamorphic scaling.
#include "solvers/bfb/bfb_lp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "test_util.h"

namespace collsynth {
namespace {

// App. D: the LP of u_2 in Figure 5. Sources v1, v2; senders w1, w2, w3;
// v1 may come from w1 or w2, v2 from w2 or w3.
BfbSubproblem Figure5U2() {
  BfbSubproblem p;
  p.receiver = 100;
  p.step = 3;
  p.sources = {1, 2};
  p.senders = {11, 12, 13};
  p.allowed = {{0, 1}, {1, 2}};
  return p;
}

TEST(BfbLpTest, Seed000Figure5U2HasUTwoThirdsAndPaperSolution) {
  BfbSubproblem p = Figure5U2();
  BfbLpResult r = SolveBfbSubproblem(p);
  EXPECT_EQ(r.value, Rational(2, 3));
  // The optimum is unique here: x_{v1,(w1,u2)} = 2/3, x_{v1,(w2,u2)} = 1/3 (as in §6.1).
  EXPECT_EQ(r.x[0][0], Rational(2, 3));
  EXPECT_EQ(r.x[0][1], Rational(1, 3));
  EXPECT_EQ(r.x[1][0], Rational(1, 3));
  EXPECT_EQ(r.x[1][1], Rational(2, 3));
  // Thm 19 witness: J = {v1, v2}, N(J) = {w1, w2, w3}, 2/3.
  EXPECT_EQ(r.witness_sources, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.witness_senders, (std::vector<int>{0, 1, 2}));
  EXPECT_FALSE(VerifyBfbLpResult(p, r).has_value());
}

TEST(BfbLpTest, Seed000Figure5U1IsBalancedAtOne) {
  // u_1: v1 from w1 or w2, v2 only from w2 (w3 is not an in-neighbour of u_1).
  BfbSubproblem p;
  p.sources = {1, 2};
  p.senders = {11, 12};
  p.allowed = {{0, 1}, {1}};
  BfbLpResult r = SolveBfbSubproblem(p);
  EXPECT_EQ(r.value, Rational(1));
  EXPECT_EQ(r.x[0][0], Rational(1));  // w1 sends v1, w2 sends v2 (§6.1)
  EXPECT_EQ(r.x[1][0], Rational(1));
  EXPECT_FALSE(VerifyBfbLpResult(p, r).has_value());
}

TEST(BfbLpTest, ClpAgreesWithExactOnFigure5) {
  LpSolution sol = SolveLpWithClp(BuildBfbLp(Figure5U2()));
  ASSERT_EQ(sol.outcome, LpOutcome::kOptimal);
  EXPECT_NEAR(sol.objective, 2.0 / 3.0, 1e-9);
  BfbLpOptions o;
  o.use_clp_hint = true;
  BfbLpResult r = SolveBfbSubproblem(Figure5U2(), o);
  EXPECT_EQ(r.value, Rational(2, 3));
  ASSERT_TRUE(r.clp_value.has_value());
  EXPECT_EQ(r.clp_outcome, LpOutcome::kOptimal);
}

BfbSubproblem RandomInstance(std::mt19937_64& rng, bool heterogeneous) {
  BfbSubproblem p;
  const int d = 1 + static_cast<int>(rng() % 5);
  const int m = static_cast<int>(rng() % 9);
  for (int w = 0; w < d; ++w) {
    p.senders.push_back(100 + w);
    if (heterogeneous) {
      p.bandwidth.push_back(
          Rational(1 + static_cast<int>(rng() % 4), 1 + static_cast<int>(rng() % 3)));
      p.alpha.push_back(Rational(static_cast<int>(rng() % 3), 1 + static_cast<int>(rng() % 2)));
    }
  }
  for (int i = 0; i < m; ++i) {
    p.sources.push_back(i);
    std::vector<int> a;
    for (int w = 0; w < d; ++w)
      if (rng() % 2) a.push_back(w);
    if (a.empty()) a.push_back(static_cast<int>(rng() % d));
    p.allowed.push_back(a);
  }
  return p;
}

// Thm 19 / its LP (13) analogue by brute force: max(max_w α_w, max over nonempty J of U_J).
Rational BruteForceOptimum(const BfbSubproblem& p) {
  Rational best(0);
  for (const Rational& a : p.alpha) best = std::max(best, a);
  const int m = static_cast<int>(p.sources.size());
  for (int mask = 1; mask < (1 << m); ++mask) {
    std::vector<int> j;
    for (int i = 0; i < m; ++i)
      if (mask >> i & 1) j.push_back(i);
    best = std::max(best, WitnessValue(p, j));
  }
  return best;
}

TEST(BfbLpTest, Thm19BruteForceAndClpAgreeOnRandomInstances) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 300; ++iter) {
    const bool het = iter % 2 == 1;
    BfbSubproblem p = RandomInstance(rng, het);
    BfbLpOptions o;
    o.remove_unused_expensive_links = false;  // LP (13) as printed: every link pays α
    o.use_clp_hint = iter % 3 == 0;
    BfbLpResult r = SolveBfbSubproblem(p, o);
    SCOPED_TRACE("seed " + std::to_string(seed) + " iteration " + std::to_string(iter));
    EXPECT_EQ(r.value, BruteForceOptimum(p));
    EXPECT_FALSE(VerifyBfbLpResult(p, r).has_value()) << *VerifyBfbLpResult(p, r);
    LpSolution sol = SolveLpWithClp(BuildBfbLp(p));
    ASSERT_EQ(sol.outcome, LpOutcome::kOptimal);
    EXPECT_NEAR(sol.objective, r.value.convert_to<double>(), 1e-7);
  }
}

TEST(BfbLpTest, MutatedResultsAreRejected) {
  BfbSubproblem p = Figure5U2();
  BfbLpResult good = SolveBfbSubproblem(p);
  BfbLpResult lower = good;
  lower.value = Rational(1, 2);  // below the witness: load exceeds U
  EXPECT_TRUE(VerifyBfbLpResult(p, lower).has_value());
  BfbLpResult shares = good;
  shares.x[0][0] = Rational(1, 3);  // v1 no longer delivered whole
  EXPECT_TRUE(VerifyBfbLpResult(p, shares).has_value());
  BfbLpResult witness = good;
  witness.witness_sources = {0};  // |J|/|N(J)| = 1/2 != 2/3
  EXPECT_TRUE(VerifyBfbLpResult(p, witness).has_value());
  BfbLpResult higher = good;
  higher.value = Rational(1);  // feasible but not proven by the witness
  EXPECT_TRUE(VerifyBfbLpResult(p, higher).has_value());
}

TEST(BfbLpTest, ScalingBandwidthScalesOptimum) {
  std::mt19937_64 rng(testing::TestSeed() + 1);
  for (int iter = 0; iter < 50; ++iter) {
    BfbSubproblem p = RandomInstance(rng, false);
    if (p.sources.empty()) continue;
    BfbSubproblem q = p;
    q.bandwidth.assign(p.senders.size(), Rational(7, 3));
    EXPECT_EQ(SolveBfbSubproblem(q).value, SolveBfbSubproblem(p).value * Rational(3, 7));
  }
}

// Bandwidths ×c and α ÷c (c = 10^30 / 7) divide every α + load/B by c with the same x: the
// cell engine (bfb_cell.h) no longer fits int64 and runs on BigInt, exactly.
TEST(BfbLpTest, HugeBandwidthsRunExactlyOnBigInt) {
  std::mt19937_64 rng(testing::TestSeed() + 2);
  const Rational c = Rational(BigInt("1000000000000000000000000000000")) / 7;
  for (int iter = 0; iter < 60; ++iter) {
    BfbSubproblem p = RandomInstance(rng, iter % 2 == 1);
    if (p.sources.empty()) continue;
    BfbLpOptions o;
    o.remove_unused_expensive_links = false;
    o.use_clp_hint = iter % 3 == 0;
    BfbSubproblem q = p;
    q.bandwidth.assign(p.senders.size(), Rational(1));
    for (std::size_t w = 0; w < p.senders.size(); ++w) {
      if (!p.bandwidth.empty()) q.bandwidth[w] = p.bandwidth[w];
      q.bandwidth[w] *= c;
      if (!q.alpha.empty()) q.alpha[w] /= c;
    }
    const BfbLpResult r = SolveBfbSubproblem(p, o);
    const BfbLpResult big = SolveBfbSubproblem(q, o);
    SCOPED_TRACE("seed " + std::to_string(testing::TestSeed() + 2) + " iteration " +
                 std::to_string(iter));
    EXPECT_EQ(big.value, r.value / c);
    EXPECT_FALSE(VerifyBfbLpResult(q, big).has_value()) << *VerifyBfbLpResult(q, big);
  }
}

TEST(BfbLpTest, AppD3UnusedExpensiveLinkIsRemoved) {
  // One source; w0 (α = 0) and w1 (α = 5) both allowed. LP (13) as printed pays α = 5
  // on the idle link; App. D.3 removes it and re-solves: U = 1 through w0.
  BfbSubproblem p;
  p.sources = {1};
  p.senders = {10, 11};
  p.allowed = {{0, 1}};
  p.alpha = {Rational(0), Rational(5)};
  p.bandwidth = {Rational(1), Rational(1)};
  BfbLpOptions keep;
  keep.remove_unused_expensive_links = false;
  BfbLpResult literal = SolveBfbSubproblem(p, keep);
  EXPECT_EQ(literal.value, Rational(5));
  EXPECT_EQ(literal.witness_alpha_sender, 1);
  BfbLpResult r = SolveBfbSubproblem(p);
  EXPECT_EQ(r.value, Rational(1));
  EXPECT_TRUE(r.removed[1]);
  EXPECT_FALSE(r.removed[0]);
  EXPECT_EQ(r.x[0][0], Rational(1));
  EXPECT_FALSE(VerifyBfbLpResult(p, r).has_value());
}

TEST(BfbLpTest, AppD3ExpensiveLinkStaysWhenWorthIt) {
  // v0 only via w0; v1 via w0 or w1 (α = 1/2, B = 1).
  // Without w1: U = 2. With w1: v1 over w1 costs 1/2 + 1 = 3/2; balance x on w1:
  // w0: 1 + (1 - x) = U, w1: 1/2 + x = U  =>  x = 3/4, U = 5/4.
  BfbSubproblem p;
  p.sources = {1, 2};
  p.senders = {10, 11};
  p.allowed = {{0}, {0, 1}};
  p.alpha = {Rational(0), Rational(1, 2)};
  BfbLpResult r = SolveBfbSubproblem(p);
  EXPECT_EQ(r.value, Rational(5, 4));
  EXPECT_FALSE(r.removed[1]);
  EXPECT_EQ(r.x[1][1], Rational(3, 4));
  EXPECT_FALSE(VerifyBfbLpResult(p, r).has_value());
}

TEST(BfbLpTest, RejectsMalformedSubproblems) {
  BfbSubproblem p = Figure5U2();
  p.allowed[0].clear();
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { SolveBfbSubproblem(p); }));
  BfbSubproblem q = Figure5U2();
  q.bandwidth = {Rational(1), Rational(0), Rational(1)};
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { SolveBfbSubproblem(q); }));
}

TEST(BfbLpTest, ClpBackendReportsInfeasibleAndBadInput) {
  LpProblem lp;  // x in [0, 1], x >= 2
  lp.objective = {1.0};
  lp.col_lower = {0.0};
  lp.col_upper = {1.0};
  lp.row_lower = {2.0};
  lp.row_upper = {kLpInfinity};
  lp.entries = {{0, 0, 1.0}};
  EXPECT_EQ(SolveLpWithClp(lp).outcome, LpOutcome::kInfeasible);
  lp.entries = {{3, 0, 1.0}};
  EXPECT_EQ(SolveLpWithClp(lp).outcome, LpOutcome::kBadInput);
}

}  // namespace
}  // namespace collsynth
