#include "solvers/backends/exact_basis.h"

#include <map>
#include <set>
#include <utility>

namespace collsynth {
namespace {

// The value of a nonbasic variable, or std::nullopt (with *why set) when its status asks for
// an infinite bound or is superbasic.
std::optional<Rational> NonbasicValue(LpBasisStatus s, const std::optional<Rational>& lower,
                                      const std::optional<Rational>& upper, std::string* why) {
  switch (s) {
    case LpBasisStatus::kAtLower:
      if (!lower) *why = "at an infinite lower bound";
      return lower;
    case LpBasisStatus::kAtUpper:
      if (!upper) *why = "at an infinite upper bound";
      return upper;
    case LpBasisStatus::kFixed:
      if (lower) return lower;
      if (!upper) *why = "fixed without a bound";
      return upper;
    case LpBasisStatus::kFree:
      return Rational(0);
    case LpBasisStatus::kSuperbasic:
      *why = "superbasic (not a vertex)";
      return std::nullopt;
    case LpBasisStatus::kBasic:
      break;
  }
  *why = "basic";
  return std::nullopt;
}

bool Within(const Rational& x, const std::optional<Rational>& lower,
            const std::optional<Rational>& upper) {
  return (!lower || x >= *lower) && (!upper || x <= *upper);
}

// Does a nonbasic variable's reduced cost d have the sign its status asks for (minimization)?
bool DualSignOk(LpBasisStatus s, const Rational& d) {
  switch (s) {
    case LpBasisStatus::kAtLower:
      return d >= 0;
    case LpBasisStatus::kAtUpper:
      return d <= 0;
    case LpBasisStatus::kFree:
      return d == 0;
    default:
      return true;  // fixed: any sign
  }
}

}  // namespace

std::string ToString(ExactBasisOutcome outcome) {
  switch (outcome) {
    case ExactBasisOutcome::kOptimal:
      return "optimal";
    case ExactBasisOutcome::kPrimalInfeasible:
      return "primal infeasible";
    case ExactBasisOutcome::kDualInfeasible:
      return "dual infeasible";
    case ExactBasisOutcome::kSingular:
      return "singular";
    case ExactBasisOutcome::kBadBasis:
      return "bad basis";
  }
  return "unknown";
}

std::optional<std::vector<Rational>> SolveSparseExactly(
    int n, std::vector<std::vector<std::pair<int, Rational>>> rows_in, std::vector<Rational> rhs) {
  if (n < 0 || static_cast<int>(rows_in.size()) != n || static_cast<int>(rhs.size()) != n) {
    return std::nullopt;
  }
  std::vector<std::map<int, Rational>> row(n);
  std::vector<std::set<int>> col_rows(n);  // active rows with a nonzero in the column
  for (int i = 0; i < n; ++i) {
    for (auto& [c, v] : rows_in[i]) {
      if (c < 0 || c >= n) return std::nullopt;
      row[i][c] += v;
    }
    for (auto it = row[i].begin(); it != row[i].end();) {
      it = it->second == 0 ? row[i].erase(it) : std::next(it);
    }
    for (const auto& [c, v] : row[i]) col_rows[c].insert(i);
  }
  rows_in.clear();
  std::set<std::pair<std::size_t, int>> by_count;  // active rows by number of nonzeros
  for (int i = 0; i < n; ++i) by_count.insert({row[i].size(), i});
  std::vector<int> pivot_col(n, -1), order;
  order.reserve(n);
  while (!by_count.empty()) {
    const int r = by_count.begin()->second;
    by_count.erase(by_count.begin());
    if (row[r].empty()) return std::nullopt;  // a row depends on the pivoted ones: singular
    int c = -1;
    std::size_t fewest = 0;
    for (const auto& [cc, v] : row[r]) {
      if (c < 0 || col_rows[cc].size() < fewest) {
        c = cc;
        fewest = col_rows[cc].size();
      }
    }
    pivot_col[r] = c;
    order.push_back(r);
    for (const auto& [cc, v] : row[r]) col_rows[cc].erase(r);
    const Rational pivot = row[r].at(c);
    const std::vector<int> targets(col_rows[c].begin(), col_rows[c].end());
    for (int t : targets) {
      by_count.erase({row[t].size(), t});
      const Rational f = row[t].at(c) / pivot;
      for (const auto& [cc, v] : row[r]) {
        auto it = row[t].find(cc);
        if (it == row[t].end()) {
          row[t].emplace(cc, -f * v);
          col_rows[cc].insert(t);
        } else {
          it->second -= f * v;
          if (it->second == 0) {
            row[t].erase(it);
            col_rows[cc].erase(t);
          }
        }
      }
      rhs[t] -= f * rhs[r];
      by_count.insert({row[t].size(), t});
    }
  }
  std::vector<Rational> x(n);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int r = *it, c = pivot_col[r];
    Rational s = rhs[r];
    for (const auto& [cc, v] : row[r]) {
      if (cc != c) s -= v * x[cc];
    }
    x[c] = s / row[r].at(c);
  }
  return x;
}

ExactBasisSolution SolveAtBasis(const ExactLp& lp, const LpBasis& basis) {
  ExactBasisSolution out;
  const int ncols = lp.num_cols(), nrows = lp.num_rows();
  if (static_cast<int>(lp.col_lower.size()) != ncols ||
      static_cast<int>(lp.col_upper.size()) != ncols ||
      static_cast<int>(lp.row_upper.size()) != nrows ||
      static_cast<int>(basis.cols.size()) != ncols ||
      static_cast<int>(basis.rows.size()) != nrows) {
    out.detail = "sizes differ";
    return out;
  }
  // Phase 1: nonbasic values and the basic / nonbasic index maps.
  std::vector<Rational> x(ncols), activity(nrows);
  std::vector<int> b_of(ncols, -1), r_of(nrows, -1), basic_cols, tight_rows;
  std::string why;
  for (int j = 0; j < ncols; ++j) {
    if (basis.cols[j] == LpBasisStatus::kBasic) {
      b_of[j] = static_cast<int>(basic_cols.size());
      basic_cols.push_back(j);
      continue;
    }
    auto v = NonbasicValue(basis.cols[j], lp.col_lower[j], lp.col_upper[j], &why);
    if (!v) {
      out.detail = "column " + std::to_string(j) + " " + why;
      return out;
    }
    x[j] = *v;
  }
  for (int i = 0; i < nrows; ++i) {
    if (basis.rows[i] == LpBasisStatus::kBasic) continue;
    auto v = NonbasicValue(basis.rows[i], lp.row_lower[i], lp.row_upper[i], &why);
    if (!v) {
      out.detail = "row " + std::to_string(i) + " " + why;
      return out;
    }
    r_of[i] = static_cast<int>(tight_rows.size());
    tight_rows.push_back(i);
    activity[i] = *v;
  }
  const int n = static_cast<int>(basic_cols.size());
  if (n != static_cast<int>(tight_rows.size())) {
    out.detail = std::to_string(n) + " basic columns but " + std::to_string(tight_rows.size()) +
                 " nonbasic rows";
    return out;
  }
  // Phase 2: the primal A[R][B] x_B = r_R - A[R][N] x_N and the dual y_R A[R][B] = c_B.
  std::vector<std::vector<std::pair<int, Rational>>> m(n), mt(n);
  std::vector<Rational> rhs(n), cost(n);
  for (int k = 0; k < n; ++k) {
    rhs[k] = activity[tight_rows[k]];
    cost[k] = lp.objective[basic_cols[k]];
  }
  for (const ExactLpEntry& a : lp.entries) {
    if (a.row < 0 || a.row >= nrows || a.col < 0 || a.col >= ncols) {
      out.detail = "entry out of range";
      return out;
    }
    const int r = r_of[a.row], b = b_of[a.col];
    if (r < 0) continue;
    if (b < 0) {
      rhs[r] -= a.value * x[a.col];
    } else {
      m[r].push_back({b, a.value});
      mt[b].push_back({r, a.value});
    }
  }
  auto xb = SolveSparseExactly(n, std::move(m), std::move(rhs));
  auto yr = xb ? SolveSparseExactly(n, std::move(mt), std::move(cost)) : std::nullopt;
  if (!xb || !yr) {
    out.outcome = ExactBasisOutcome::kSingular;
    out.detail = "the basis matrix is singular";
    return out;
  }
  for (int k = 0; k < n; ++k) x[basic_cols[k]] = (*xb)[k];
  std::vector<Rational> y(nrows);
  for (int k = 0; k < n; ++k) y[tight_rows[k]] = (*yr)[k];
  // Phase 3: feasibility of both sides.
  std::vector<Rational> reduced(lp.objective), act(nrows);
  for (const ExactLpEntry& a : lp.entries) {
    act[a.row] += a.value * x[a.col];
    reduced[a.col] -= a.value * y[a.row];
  }
  out.primal = std::move(x);
  out.row_duals = std::move(y);
  out.objective = 0;
  for (int j = 0; j < ncols; ++j) out.objective += lp.objective[j] * out.primal[j];
  out.outcome = ExactBasisOutcome::kOptimal;
  for (int j = 0; j < ncols && out.outcome == ExactBasisOutcome::kOptimal; ++j) {
    if (!Within(out.primal[j], lp.col_lower[j], lp.col_upper[j])) {
      out.outcome = ExactBasisOutcome::kPrimalInfeasible;
      out.detail =
          "column " + std::to_string(j) + " = " + ToString(out.primal[j]) + " outside its bounds";
    }
  }
  for (int i = 0; i < nrows && out.outcome == ExactBasisOutcome::kOptimal; ++i) {
    if (!Within(act[i], lp.row_lower[i], lp.row_upper[i])) {
      out.outcome = ExactBasisOutcome::kPrimalInfeasible;
      out.detail =
          "row " + std::to_string(i) + " activity " + ToString(act[i]) + " outside its bounds";
    }
  }
  if (out.outcome != ExactBasisOutcome::kOptimal) return out;
  for (int j = 0; j < ncols; ++j) {
    if (basis.cols[j] != LpBasisStatus::kBasic && !DualSignOk(basis.cols[j], reduced[j])) {
      out.outcome = ExactBasisOutcome::kDualInfeasible;
      out.detail = "column " + std::to_string(j) + " reduced cost " + ToString(reduced[j]);
      return out;
    }
  }
  for (int i = 0; i < nrows; ++i) {
    if (basis.rows[i] != LpBasisStatus::kBasic && !DualSignOk(basis.rows[i], out.row_duals[i])) {
      out.outcome = ExactBasisOutcome::kDualInfeasible;
      out.detail = "row " + std::to_string(i) + " dual " + ToString(out.row_duals[i]);
      return out;
    }
  }
  return out;
}

}  // namespace collsynth
