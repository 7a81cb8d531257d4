// LpBackend: a minimal, silent wrapper around Coin-OR CLP (LP) and CBC (ILP) for the small
// per-(node, step) programs of the BFB family (seed 000 §6.1 LP (3), App. D.2 ILP (12),
// App. D.3 LP (13)). Problems are given in double precision because the solvers only speak
// double; every answer is a HINT that callers certify exactly (STYLE.md rule 8).
// Complexity: that of the simplex / branch and bound; intended for problems with at most a
// few thousand columns. Solver logging is switched off (log level 0) so that command-line
// JSON output stays parseable. Thread safety: each call builds its own solver objects.
// The solver headers are included only by lp_backend.cc (they stay out of public headers).
#ifndef COLLSYNTH_SOLVERS_BACKENDS_LP_BACKEND_H_
#define COLLSYNTH_SOLVERS_BACKENDS_LP_BACKEND_H_

#include <limits>
#include <string>
#include <vector>

namespace collsynth {

// Infinite bound for LpProblem (doubles only; never used for exact numbers).
inline constexpr double kLpInfinity = std::numeric_limits<double>::infinity();

// One nonzero coefficient a[row][col].
struct LpEntry {
  int row = 0;
  int col = 0;
  double value = 0.0;
};

// minimize obj·x  s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper.
struct LpProblem {
  std::vector<double> objective;             // one per column
  std::vector<double> col_lower, col_upper;  // one per column
  std::vector<double> row_lower, row_upper;  // one per row
  std::vector<LpEntry> entries;
  std::vector<bool> integer;  // per column; empty = all continuous
  int num_cols() const { return static_cast<int>(objective.size()); }
  int num_rows() const { return static_cast<int>(row_lower.size()); }
  // Appends a continuous column (its objective coefficient and bounds) or a row (its bounds)
  // and returns its index; AddEntry sets a[row][col] (entries of one cell add up).
  int AddColumn(double cost, double lower = 0, double upper = kLpInfinity) {
    objective.push_back(cost);
    col_lower.push_back(lower);
    col_upper.push_back(upper);
    return num_cols() - 1;
  }
  int AddRow(double lower, double upper) {
    row_lower.push_back(lower);
    row_upper.push_back(upper);
    return num_rows() - 1;
  }
  void AddEntry(int row, int col, double value) { entries.push_back({row, col, value}); }
};

// CLP's status() x secondaryStatus() (and CBC's) folded into one outcome (STYLE.md rule 6):
// "optimal after scaling but infeasible unscaled" is kNumericalTrouble, not kOptimal.
enum class LpOutcome {
  kOptimal,
  kInfeasible,
  kUnbounded,
  kStopped,           // iteration/time limit or event handler
  kNumericalTrouble,  // errors, or scaled-optimal but unscaled infeasible
  kBadInput,          // malformed LpProblem (sizes, indices, NaN)
};

std::string ToString(LpOutcome outcome);

// Status of one column or one row activity in a simplex basis (CLP's Status, wrapped so that
// no solver header leaks). Nonbasic values sit at a bound: kAtLower / kAtUpper / kFixed; a
// nonbasic kFree variable is 0; kSuperbasic is between its bounds (not a vertex).
enum class LpBasisStatus { kBasic, kAtLower, kAtUpper, kFree, kSuperbasic, kFixed };

// The final basis of a simplex solve: one status per column and one per row activity (the row
// activity a_i·x is the row's variable, bounded by row_lower / row_upper). Re-solving the basis
// system exactly turns the float vertex into its exact value (solvers/backends/exact_basis.h).
struct LpBasis {
  std::vector<LpBasisStatus> cols;
  std::vector<LpBasisStatus> rows;
};

struct LpSolution {
  LpOutcome outcome = LpOutcome::kBadInput;
  double objective = 0.0;
  std::vector<double> primal;     // column values (empty unless kOptimal)
  std::vector<double> row_duals;  // LP only (empty for ILPs)
  LpBasis basis;                  // CLP only, when kOptimal: the optimal basis
  // CBC only: the best bound on the objective proven by branch and bound (a lower bound for
  // minimization; equals `objective` up to tolerance when kOptimal). NaN when unknown.
  double best_bound = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0.0;  // CBC only: wall time of branch and bound
  // CBC only: the deadline (CbcOptions::time_limit_seconds) stopped an LP inside CBC (root,
  // cut loop, heuristic, strong branching). CBC may then have taken the stopped LP for an
  // infeasible node, so its optimality / infeasibility claims are void: the outcome is
  // kStopped (with the incumbent when keep_incumbent), never kOptimal or kInfeasible, and
  // best_bound is NaN.
  bool stopped_lp_at_deadline = false;
};

// Limits for SolveIlpWithCbc. The defaults reproduce the two-argument-free overload.
struct CbcOptions {
  // Wall-clock budget of the whole call (steady clock from entry: loading the problem, branch
  // and bound, every LP solve inside it); <= 0 = no limit. CBC's own limit is checked only
  // between nodes and cut passes, so the LP solves (root LP, feasibility pump passes, which
  // took seconds past the limit on seed 000 Table 6's hypercube(4)) are also stopped at the
  // deadline by a Clp event handler checked every simplex iteration. What can still overrun: one
  // step of CBC that runs no simplex iteration (a cut generator or rounding pass; typically
  // milliseconds) and freeing the model.
  double time_limit_seconds = 0.0;
  // When CBC stops early (kStopped) with a feasible incumbent, return it in `primal` and
  // `objective` (outcome stays kStopped: the incumbent is not proven optimal).
  bool keep_incumbent = false;
  // Add CBC's standard cut generators (probing, Gomory, knapsack covers, clique, MIR, flow
  // covers) and rounding heuristics, as the cbc driver does; for larger 0/1 programs.
  bool standard_cuts = false;
  // Branch-and-bound node limit (CbcModel::setMaximumNodes); <= 0 = no limit. Unlike the
  // wall-clock limit it stops at the same point on every machine (deterministic results).
  int max_nodes = 0;
};

// How SolveLpWithClp runs CLP. Every method ends at a simplex basis (barrier runs CLP's
// crossover), so the exact re-solve (solvers/backends/exact_basis.h) applies to all of them.
enum class ClpMethod {
  kDual,              // ClpSimplex::dual() on the LP as given (then primal() on trouble)
  kPrimal,            // ClpSimplex::primal() on the LP as given
  kInitialSolve,      // ClpSimplex::initialSolve(): presolve, CLP's automatic choice
  kPrimalIdiot,       // initialSolve, primal after Forrest's "idiot" crash, presolve on
  kSprint,            // initialSolve, primal with sprint (column subsets), presolve on
  kBarrierCrossover,  // initialSolve, barrier (CLP's own sparse Cholesky) then crossover
  kDualPresolve,      // initialSolve, dual simplex, presolve on
};

// Solves the continuous relaxation with CLP's dual simplex (integer flags ignored).
LpSolution SolveLpWithClp(const LpProblem& problem);
// The same with the method chosen (kDual is the one-argument overload).
LpSolution SolveLpWithClp(const LpProblem& problem, ClpMethod method);
// Solves with CBC branch and bound (columns flagged integer are integer).
LpSolution SolveIlpWithCbc(const LpProblem& problem);
LpSolution SolveIlpWithCbc(const LpProblem& problem, const CbcOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BACKENDS_LP_BACKEND_H_
