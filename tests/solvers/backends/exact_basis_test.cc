// Exact re-solve at a simplex basis (solvers/backends/exact_basis.h): tiny LPs solved by hand
// (vertices, duals and objective as exact fractions CLP's doubles cannot represent), CLP's
// own basis re-solved exactly (which also pins CLP's row-status convention for >= rows),
// non-optimal bases flagged on the right side, and the sparse elimination against A·x = b on
// seeded random systems.
#include "solvers/backends/exact_basis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "test_util.h"

namespace collsynth {
namespace {

using S = LpBasisStatus;

// min -x - y  s.t.  x + 2y <= 4/3,  3x + y <= 2,  x, y >= 0. Both rows tight at the optimum:
// x + 2y = 4/3, 3x + y = 2 give x = 8/15, y = 2/5 (objective -14/15); the prices solve
// y1 (1, 2) + y2 (3, 1) = (-1, -1): y1 = -2/5, y2 = -1/5 (dual objective 4/3·y1 + 2·y2 =
// -14/15, equal).
ExactLp TwoRowLp() {
  ExactLp lp;
  lp.objective = {-1, -1};
  lp.col_lower = {Rational(0), Rational(0)};
  lp.col_upper = {std::nullopt, std::nullopt};
  lp.row_lower = {std::nullopt, std::nullopt};
  lp.row_upper = {Rational(4, 3), Rational(2)};
  lp.entries = {{0, 0, 1}, {0, 1, 2}, {1, 0, 3}, {1, 1, 1}};
  return lp;
}

LpProblem AsDouble(const ExactLp& lp) {
  auto d = [](const std::optional<Rational>& b, double inf) {
    return b ? b->convert_to<double>() : inf;
  };
  LpProblem p;
  for (int j = 0; j < lp.num_cols(); ++j) {
    p.objective.push_back(lp.objective[j].convert_to<double>());
    p.col_lower.push_back(d(lp.col_lower[j], -kLpInfinity));
    p.col_upper.push_back(d(lp.col_upper[j], kLpInfinity));
  }
  for (int i = 0; i < lp.num_rows(); ++i) {
    p.row_lower.push_back(d(lp.row_lower[i], -kLpInfinity));
    p.row_upper.push_back(d(lp.row_upper[i], kLpInfinity));
  }
  for (const ExactLpEntry& a : lp.entries)
    p.entries.push_back({a.row, a.col, a.value.convert_to<double>()});
  return p;
}

TEST(ExactBasis, HandSolvedVertexAndPrices) {
  const ExactLp lp = TwoRowLp();
  const ExactBasisSolution x =
      SolveAtBasis(lp, {{S::kBasic, S::kBasic}, {S::kAtUpper, S::kAtUpper}});
  ASSERT_EQ(x.outcome, ExactBasisOutcome::kOptimal) << x.detail;
  EXPECT_EQ(x.primal, (std::vector<Rational>{Rational(8, 15), Rational(2, 5)}));
  EXPECT_EQ(x.row_duals, (std::vector<Rational>{Rational(-2, 5), Rational(-1, 5)}));
  EXPECT_EQ(x.objective, Rational(-14, 15));
}

TEST(ExactBasis, ClpBasisReSolvedExactly) {
  const ExactLp lp = TwoRowLp();
  const LpSolution sol = SolveLpWithClp(AsDouble(lp));
  ASSERT_EQ(sol.outcome, LpOutcome::kOptimal);
  const ExactBasisSolution x = SolveAtBasis(lp, sol.basis);
  ASSERT_EQ(x.outcome, ExactBasisOutcome::kOptimal) << x.detail;
  EXPECT_EQ(x.primal[0], Rational(8, 15));
  EXPECT_EQ(x.primal[1], Rational(2, 5));
  EXPECT_EQ(x.objective, Rational(-14, 15));
}

// A >= row and an equality row: min 2x + y s.t. x + y >= 2, x - y = 1/3, x, y >= 0. Optimum
// x = 7/6, y = 5/6 (objective 19/6); prices y1 (1, 1) + y2 (1, -1) = (2, 1): y1 = 3/2 >= 0 on the
// >= row at its lower bound, y2 = 1/2; dual objective 2·3/2 + 1/3·1/2 = 19/6. CLP's status for
// the >= row must read as "at lower" for the exact re-solve to find this.
TEST(ExactBasis, ClpRowStatusConventionOnGreaterEqualAndEqualityRows) {
  ExactLp lp;
  lp.objective = {2, 1};
  lp.col_lower = {Rational(0), Rational(0)};
  lp.col_upper = {std::nullopt, std::nullopt};
  lp.row_lower = {Rational(2), Rational(1, 3)};
  lp.row_upper = {std::nullopt, Rational(1, 3)};
  lp.entries = {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, -1}};
  const LpSolution sol = SolveLpWithClp(AsDouble(lp));
  ASSERT_EQ(sol.outcome, LpOutcome::kOptimal);
  const ExactBasisSolution x = SolveAtBasis(lp, sol.basis);
  ASSERT_EQ(x.outcome, ExactBasisOutcome::kOptimal) << x.detail;
  EXPECT_EQ(x.primal, (std::vector<Rational>{Rational(7, 6), Rational(5, 6)}));
  EXPECT_EQ(x.row_duals, (std::vector<Rational>{Rational(3, 2), Rational(1, 2)}));
  EXPECT_EQ(x.objective, Rational(19, 6));
}

// Every ClpMethod of SolveLpWithClp ends at a simplex basis (presolve is undone, barrier is
// crossed over) that the exact re-solve finds optimal, with the hand-solved vertex of TwoRowLp
// (8/15, 2/5) and its prices (-2/5, -1/5): a method that stopped at an interior point, left a
// superbasic or returned the presolved problem's basis would fail here.
TEST(ExactBasis, EveryClpMethodEndsAtAnExactlyOptimalBasis) {
  const ExactLp lp = TwoRowLp();
  for (ClpMethod method :
       {ClpMethod::kDual, ClpMethod::kPrimal, ClpMethod::kInitialSolve, ClpMethod::kPrimalIdiot,
        ClpMethod::kSprint, ClpMethod::kBarrierCrossover, ClpMethod::kDualPresolve}) {
    const LpSolution sol = SolveLpWithClp(AsDouble(lp), method);
    ASSERT_EQ(sol.outcome, LpOutcome::kOptimal) << static_cast<int>(method);
    const ExactBasisSolution x = SolveAtBasis(lp, sol.basis);
    ASSERT_EQ(x.outcome, ExactBasisOutcome::kOptimal) << static_cast<int>(method) << x.detail;
    EXPECT_EQ(x.primal, (std::vector<Rational>{Rational(8, 15), Rational(2, 5)}));
    EXPECT_EQ(x.row_duals, (std::vector<Rational>{Rational(-2, 5), Rational(-1, 5)}));
  }
}

// Non-optimal bases of TwoRowLp: x basic with row 0 tight and y at 0 gives x = 4/3, which
// puts row 1 at 4 > 2 (primal infeasible); y basic with row 0 tight and x at 0 is the feasible
// vertex (0, 2/3), but x's reduced cost -1 - (-1/2)·1 = -1/2 < 0 at its lower bound (dual
// infeasible); a basis with two basic columns and one tight row is not square (bad basis).
TEST(ExactBasis, NonOptimalBasesAreFlagged) {
  const ExactLp lp = TwoRowLp();
  ExactBasisSolution a = SolveAtBasis(lp, {{S::kBasic, S::kAtLower}, {S::kAtUpper, S::kBasic}});
  EXPECT_EQ(a.outcome, ExactBasisOutcome::kPrimalInfeasible);
  EXPECT_EQ(a.primal[0], Rational(4, 3));
  ExactBasisSolution b = SolveAtBasis(lp, {{S::kAtLower, S::kBasic}, {S::kAtUpper, S::kBasic}});
  EXPECT_EQ(b.outcome, ExactBasisOutcome::kDualInfeasible);
  EXPECT_EQ(b.primal[1], Rational(2, 3));
  EXPECT_EQ(SolveAtBasis(lp, {{S::kBasic, S::kBasic}, {S::kAtUpper, S::kBasic}}).outcome,
            ExactBasisOutcome::kBadBasis);
  EXPECT_EQ(SolveAtBasis(lp, {{S::kBasic, S::kSuperbasic}, {S::kAtUpper, S::kBasic}}).outcome,
            ExactBasisOutcome::kBadBasis);
}

// Two proportional rows make the basis matrix singular.
TEST(ExactBasis, SingularBasisIsReported) {
  ExactLp lp = TwoRowLp();
  lp.entries = {{0, 0, 1}, {0, 1, 2}, {1, 0, 2}, {1, 1, 4}};
  EXPECT_EQ(SolveAtBasis(lp, {{S::kBasic, S::kBasic}, {S::kAtUpper, S::kAtUpper}}).outcome,
            ExactBasisOutcome::kSingular);
}

// Seeded random sparse systems with a planted exact solution: the solve returns it (M is made
// nonsingular by a dominant diagonal under a random column permutation).
TEST(ExactBasis, SparseEliminationRecoversPlantedSolutions) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 25);
    std::vector<int> perm(n);
    for (int i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<std::vector<std::pair<int, Rational>>> rows(n);
    std::vector<Rational> x(n), rhs(n);
    for (int i = 0; i < n; ++i)
      x[i] = Rational(static_cast<int>(rng() % 21) - 10, 1 + static_cast<int>(rng() % 7));
    for (int i = 0; i < n; ++i) {
      rows[i].push_back({perm[i], Rational(4 * n + 1)});
      for (int k = 0; k < 3; ++k) {
        const int c = static_cast<int>(rng() % n);
        if (c != perm[i])
          rows[i].push_back(
              {c, Rational(static_cast<int>(rng() % 5) - 2, 1 + static_cast<int>(rng() % 3))});
      }
      for (const auto& [c, v] : rows[i]) rhs[i] += v * x[c];
    }
    const auto got = SolveSparseExactly(n, rows, rhs);
    ASSERT_TRUE(got.has_value()) << "seed " << seed << " trial " << trial;
    EXPECT_EQ(*got, x) << "seed " << seed << " trial " << trial;
  }
}

}  // namespace
}  // namespace collsynth
