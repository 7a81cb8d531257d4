// Exact re-solve of a linear program at a given simplex basis: the float vertex CLP stops at
// (solvers/backends/lp_backend.h) turned into its exact rational value, primal and dual, with
// exact feasibility and optimality verdicts (STYLE.md rule 8: "take the basis ... rebuild the
// rational solution"). LP: minimize c·x s.t. row_lower <= A x <= row_upper, col_lower <= x <=
// col_upper (bounds optional = infinite), as in LpProblem but with exact coefficients.
// Method: nonbasic columns and row activities sit at their bounds (kAtLower / kAtUpper /
// kFixed; kFree at 0; kSuperbasic is rejected); with B the basic columns and R the nonbasic
// rows (|B| == |R| in a basis), the primal solves A[R][B] x_B = r_R - A[R][N] x_N, and the dual
// (row prices y, 0 on basic rows) solves y_R·A[R][B] = c_B; both by sparse Gaussian
// elimination over the rationals with a Markowitz-style pivot (fewest entries first), which
// keeps the network-like blocks of flow LPs triangular. Then: primal feasible = basic values
// within their bounds; dual feasible = every nonbasic reduced cost (c_j - y·A_j for columns,
// y_i for row activities) has the sign its bound asks (>= 0 at a lower, <= 0 at an upper,
// 0 when free); optimal = both (then c·x = the dual objective exactly).
// Complexity: that of sparse elimination on a |R| x |R| system, O(|R|^3) rational operations in
// the worst case (fill-in), near-linear on triangular-after-permutation bases.
// Number types: exact Rational (GMP) only.
#ifndef COLLSYNTH_SOLVERS_BACKENDS_EXACT_BASIS_H_
#define COLLSYNTH_SOLVERS_BACKENDS_EXACT_BASIS_H_

#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "solvers/backends/lp_backend.h"

namespace collsynth {

struct ExactLpEntry {
  int row = 0;
  int col = 0;
  Rational value;
};

// minimize objective·x  s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper;
// std::nullopt bounds are infinite.
struct ExactLp {
  std::vector<Rational> objective;
  std::vector<std::optional<Rational>> col_lower, col_upper;
  std::vector<std::optional<Rational>> row_lower, row_upper;
  std::vector<ExactLpEntry> entries;
  int num_cols() const { return static_cast<int>(objective.size()); }
  int num_rows() const { return static_cast<int>(row_lower.size()); }
};

enum class ExactBasisOutcome {
  kOptimal,           // primal and dual feasible: an exact optimum with its exact dual
  kPrimalInfeasible,  // the basic solution breaks a bound (values still returned)
  kDualInfeasible,    // primal feasible, a reduced cost has the wrong sign (values returned)
  kSingular,          // the basis matrix is singular (no values)
  kBadBasis,          // sizes, |B| != |R|, a superbasic or a nonbasic infinite bound
};

std::string ToString(ExactBasisOutcome outcome);

struct ExactBasisSolution {
  ExactBasisOutcome outcome = ExactBasisOutcome::kBadBasis;
  std::string detail;               // which bound or reduced cost failed, when not optimal
  std::vector<Rational> primal;     // per column (kOptimal, k*Infeasible)
  std::vector<Rational> row_duals;  // per row, CLP's sign convention (<= 0 on a tight <= row
                                    // of a minimization)
  Rational objective;               // objective·primal
};

// Solves `lp` at `basis` exactly (see the header comment).
ExactBasisSolution SolveAtBasis(const ExactLp& lp, const LpBasis& basis);

// Sparse exact solve of the square system M x = rhs (M given by rows: (column, value) pairs,
// n x n); std::nullopt when M is singular. Exposed for tests.
std::optional<std::vector<Rational>> SolveSparseExactly(
    int n, std::vector<std::vector<std::pair<int, Rational>>> rows, std::vector<Rational> rhs);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BACKENDS_EXACT_BASIS_H_
