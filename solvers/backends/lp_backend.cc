#include "solvers/backends/lp_backend.h"

#include <CbcHeuristic.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcHeuristicLocal.hpp>
#include <CbcModel.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <ClpEventHandler.hpp>
#include <ClpSimplex.hpp>
#include <ClpSolve.hpp>
#include <CoinMessageHandler.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>
#include <chrono>
#include <cmath>

namespace collsynth {
namespace {

bool WellFormed(const LpProblem& p) {
  const int n = p.num_cols();
  const int m = p.num_rows();
  if (static_cast<int>(p.col_lower.size()) != n || static_cast<int>(p.col_upper.size()) != n ||
      static_cast<int>(p.row_upper.size()) != m)
    return false;
  if (!p.integer.empty() && static_cast<int>(p.integer.size()) != n) return false;
  for (const LpEntry& e : p.entries) {
    if (e.row < 0 || e.row >= m || e.col < 0 || e.col >= n || !std::isfinite(e.value)) return false;
  }
  for (double c : p.objective)
    if (!std::isfinite(c)) return false;
  return true;
}

CoinPackedMatrix BuildMatrix(const LpProblem& p) {
  std::vector<int> rows, cols;
  std::vector<double> vals;
  rows.reserve(p.entries.size());
  cols.reserve(p.entries.size());
  vals.reserve(p.entries.size());
  for (const LpEntry& e : p.entries) {
    rows.push_back(e.row);
    cols.push_back(e.col);
    vals.push_back(e.value);
  }
  CoinPackedMatrix matrix(true, rows.data(), cols.data(), vals.data(),
                          static_cast<CoinBigIndex>(vals.size()));
  // The triplet constructor sizes the matrix by the largest index seen; empty trailing rows
  // or columns must still exist.
  matrix.setDimensions(p.num_rows(), p.num_cols());
  return matrix;
}

// Coin uses +-COIN_DBL_MAX for infinite bounds.
std::vector<double> CoinBounds(const std::vector<double>& b) {
  std::vector<double> out(b);
  for (double& x : out) {
    if (x == kLpInfinity) x = COIN_DBL_MAX;
    if (x == -kLpInfinity) x = -COIN_DBL_MAX;
  }
  return out;
}

LpOutcome ClpOutcome(int status, int secondary) {
  switch (status) {
    case 0:
      return secondary == 0 ? LpOutcome::kOptimal : LpOutcome::kNumericalTrouble;
    case 1:
      return LpOutcome::kInfeasible;
    case 2:
      return LpOutcome::kUnbounded;
    case 3:
    case 5:
      return LpOutcome::kStopped;
    default:
      return LpOutcome::kNumericalTrouble;
  }
}

LpBasisStatus BasisStatus(ClpSimplex::Status s) {
  switch (s) {
    case ClpSimplex::basic:
      return LpBasisStatus::kBasic;
    case ClpSimplex::atLowerBound:
      return LpBasisStatus::kAtLower;
    case ClpSimplex::atUpperBound:
      return LpBasisStatus::kAtUpper;
    case ClpSimplex::isFree:
      return LpBasisStatus::kFree;
    case ClpSimplex::isFixed:
      return LpBasisStatus::kFixed;
    case ClpSimplex::superBasic:
      break;
  }
  return LpBasisStatus::kSuperbasic;
}

using SteadyClock = std::chrono::steady_clock;

// Stops every simplex solve of one CBC call once the wall-clock deadline has passed (checked
// at the end of each iteration; CBC clones it into every solver copy it makes, so all copies
// share `fired`). Returning >= 0 from event() stops Clp with status 5.
class DeadlineHandler : public ClpEventHandler {
 public:
  DeadlineHandler(SteadyClock::time_point deadline, bool* fired)
      : deadline_(deadline), fired_(fired) {}
  int event(Event which) override {
    if (which != endOfIteration && which != endOfFactorization) return -1;
    if (SteadyClock::now() < deadline_) return -1;
    *fired_ = true;
    return 0;
  }
  ClpEventHandler* clone() const override { return new DeadlineHandler(*this); }

 private:
  SteadyClock::time_point deadline_;
  bool* fired_;
};

}  // namespace

std::string ToString(LpOutcome outcome) {
  switch (outcome) {
    case LpOutcome::kOptimal:
      return "optimal";
    case LpOutcome::kInfeasible:
      return "infeasible";
    case LpOutcome::kUnbounded:
      return "unbounded";
    case LpOutcome::kStopped:
      return "stopped";
    case LpOutcome::kNumericalTrouble:
      return "numerical trouble";
    case LpOutcome::kBadInput:
      return "bad input";
  }
  return "unknown";
}

LpSolution SolveLpWithClp(const LpProblem& p) { return SolveLpWithClp(p, ClpMethod::kDual); }

LpSolution SolveLpWithClp(const LpProblem& p, ClpMethod method) {
  LpSolution sol;
  if (!WellFormed(p)) return sol;
  ClpSimplex model;
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  CoinPackedMatrix matrix = BuildMatrix(p);
  std::vector<double> cl = CoinBounds(p.col_lower), cu = CoinBounds(p.col_upper);
  std::vector<double> rl = CoinBounds(p.row_lower), ru = CoinBounds(p.row_upper);
  model.loadProblem(matrix, cl.data(), cu.data(), p.objective.data(), rl.data(), ru.data());
  ClpSolve solve;
  switch (method) {
    case ClpMethod::kDual:
      model.dual();
      break;
    case ClpMethod::kPrimal:
      model.primal();
      break;
    case ClpMethod::kInitialSolve:
      model.initialSolve();
      break;
    case ClpMethod::kPrimalIdiot:
      solve.setSolveType(ClpSolve::usePrimal);
      solve.setSpecialOption(1, 2);
      model.initialSolve(solve);
      break;
    case ClpMethod::kSprint:
      solve.setSolveType(ClpSolve::usePrimalorSprint);
      solve.setSpecialOption(1, 3);
      model.initialSolve(solve);
      break;
    case ClpMethod::kBarrierCrossover:
      solve.setSolveType(ClpSolve::useBarrier);
      model.initialSolve(solve);
      break;
    case ClpMethod::kDualPresolve:
      solve.setSolveType(ClpSolve::useDual);
      model.initialSolve(solve);
      break;
  }
  // Dual simplex can stop with numerical trouble on degenerate LPs (the pipeline LP of
  // hypercube(4)); primal simplex from the basis it reached usually finishes the job.
  if (model.status() != 0 && model.status() != 1 && model.status() != 2) model.primal(1);
  sol.outcome = ClpOutcome(model.status(), model.secondaryStatus());
  // Status 0 with a secondary status (e.g. scaled optimal, unscaled slightly infeasible)
  // still has a usable point: it is returned, flagged kNumericalTrouble, for callers that
  // certify exactly.
  if (model.status() != 0) return sol;
  sol.objective = model.objectiveValue();
  const double* x = model.getColSolution();
  sol.primal.assign(x, x + p.num_cols());
  const double* y = model.getRowPrice();
  sol.row_duals.assign(y, y + p.num_rows());
  for (int j = 0; j < p.num_cols(); ++j)
    sol.basis.cols.push_back(BasisStatus(model.getColumnStatus(j)));
  for (int i = 0; i < p.num_rows(); ++i)
    sol.basis.rows.push_back(BasisStatus(model.getRowStatus(i)));
  return sol;
}

LpSolution SolveIlpWithCbc(const LpProblem& p) { return SolveIlpWithCbc(p, CbcOptions{}); }

LpSolution SolveIlpWithCbc(const LpProblem& p, const CbcOptions& options) {
  const auto entry = SteadyClock::now();
  const bool limited = options.time_limit_seconds > 0;
  const auto deadline =
      entry + std::chrono::duration_cast<SteadyClock::duration>(
                  std::chrono::duration<double>(limited ? options.time_limit_seconds : 0.0));
  LpSolution sol;
  if (!WellFormed(p)) return sol;
  bool fired = false;
  OsiClpSolverInterface solver;
  if (limited) {
    DeadlineHandler handler(deadline, &fired);
    solver.getModelPtr()->passInEventHandler(&handler);  // copied by Clp
  }
  solver.messageHandler()->setLogLevel(0);
  solver.getModelPtr()->setLogLevel(0);
  CoinPackedMatrix matrix = BuildMatrix(p);
  std::vector<double> cl = CoinBounds(p.col_lower), cu = CoinBounds(p.col_upper);
  std::vector<double> rl = CoinBounds(p.row_lower), ru = CoinBounds(p.row_upper);
  solver.loadProblem(matrix, cl.data(), cu.data(), p.objective.data(), rl.data(), ru.data());
  for (int j = 0; j < p.num_cols(); ++j) {
    if (!p.integer.empty() && p.integer[j]) solver.setInteger(j);
  }
  CbcModel model(solver);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
  model.setNumberThreads(0);
  model.setUseElapsedTime(true);
  if (limited) {
    // CBC's own clock starts at branchAndBound(): give it what is left of the call's budget.
    const double left = std::chrono::duration<double>(deadline - SteadyClock::now()).count();
    if (left <= 0) {
      sol.outcome = LpOutcome::kStopped;
      sol.stopped_lp_at_deadline = true;
      return sol;
    }
    model.setMaximumSeconds(left);
  }
  if (options.max_nodes > 0) model.setMaximumNodes(options.max_nodes);
  // Cut generators and heuristics live as long as the model uses them (CbcModel copies them).
  CglProbing probing;
  probing.setUsingObjective(1);
  probing.setMaxPass(3);
  probing.setMaxProbe(100);
  probing.setMaxLook(50);
  probing.setRowCuts(3);
  CglGomory gomory;
  gomory.setLimit(300);
  CglKnapsackCover knapsack;
  CglClique clique;
  clique.setStarCliqueReport(false);
  clique.setRowCliqueReport(false);
  CglMixedIntegerRounding2 mir;
  CglFlowCover flow;
  if (options.standard_cuts) {
    model.addCutGenerator(&probing, -1, "Probing");
    model.addCutGenerator(&gomory, -1, "Gomory");
    model.addCutGenerator(&knapsack, -1, "Knapsack");
    model.addCutGenerator(&clique, -1, "Clique");
    model.addCutGenerator(&mir, -1, "MIR2");
    model.addCutGenerator(&flow, -1, "FlowCover");
    CbcRounding rounding(model);
    model.addHeuristic(&rounding);
    CbcHeuristicLocal local(model);
    model.addHeuristic(&local);
    CbcHeuristicFPump pump(model);
    model.addHeuristic(&pump);
  }
  const auto start = std::chrono::steady_clock::now();
  model.branchAndBound();
  sol.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sol.stopped_lp_at_deadline = fired;
  // A stopped LP may have pruned a node as infeasible: CBC's bound is then not a proof.
  if (!fired) sol.best_bound = model.getBestPossibleObjValue();
  if (fired) {
    sol.outcome = LpOutcome::kStopped;  // claims void (LpSolution::stopped_lp_at_deadline)
  } else if (model.isProvenOptimal()) {
    sol.outcome = LpOutcome::kOptimal;
  } else if (model.isProvenInfeasible()) {
    sol.outcome = LpOutcome::kInfeasible;
  } else if (model.isContinuousUnbounded()) {
    sol.outcome = LpOutcome::kUnbounded;
  } else if (model.status() == 1 || model.status() == 5) {
    sol.outcome = LpOutcome::kStopped;
  } else {
    sol.outcome = LpOutcome::kNumericalTrouble;
  }
  if (sol.outcome == LpOutcome::kStopped && options.keep_incumbent &&
      model.bestSolution() != nullptr) {
    sol.objective = model.getObjValue();
    const double* x = model.bestSolution();
    sol.primal.assign(x, x + p.num_cols());
    return sol;
  }
  if (sol.outcome != LpOutcome::kOptimal || model.bestSolution() == nullptr) {
    if (sol.outcome == LpOutcome::kOptimal) sol.outcome = LpOutcome::kNumericalTrouble;
    return sol;
  }
  sol.objective = model.getObjValue();
  const double* x = model.bestSolution();
  sol.primal.assign(x, x + p.num_cols());
  return sol;
}

}  // namespace collsynth
