// The LP pieces shared by the all-to-all solvers (alltoall_optimum.cc, symmetric_alltoall.cc):
// the relay rule on links, and an LP built in two forms at once (CLP's double form and the exact
// form that solvers/backends/exact_basis.h re-solves at CLP's basis). Internal to
// solvers/alltoall/. No algorithm beyond appending rows, columns and entries.
#ifndef COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_LP_H_
#define COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_LP_H_

#include <map>
#include <optional>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"
#include "solvers/backends/exact_basis.h"
#include "solvers/backends/lp_backend.h"

namespace collsynth::alltoall_lp {

// May commodity `s` use link e (it never needs to enter its source; without relay it leaves a
// compute node only at s)?
bool Allowed(const Topology& g, int e, int s, bool relay);

struct Lp {
  std::vector<int> sources;
  std::vector<std::vector<int>> column;       // [k][e] -> LP column or -1
  std::vector<std::map<int, Rational>> want;  // [k]: t -> d_st
  int capacity_row0 = 0;
  double demand_scale = 1.0;  // the LP asks d_st · demand_scale (largest demand 1)
  LpProblem problem;
  // The same LP with exact coefficients and the demand unscaled (scaling the λ column keeps
  // every basis, so CLP's basis is one of this LP too, with λ in demand units).
  ExactLp exact;
};

// Appends a column (bounds [0, ∞), cost `cost`) to both forms of the LP.
void AddColumn(Lp* lp, double cost);
// Appends a row to both forms: [0, 0] when `capacity` is absent, else (-∞, capacity].
void AddRow(Lp* lp, const std::optional<Rational>& capacity);
// Appends a nonzero to both forms (`scale` applies to the float one only).
void AddEntry(Lp* lp, int row, int col, const Rational& value, double scale = 1.0);
// The sources (ascending), the demand per source and the scale; no rows or columns yet.
Lp BuildDemand(const DemandMatrix& demand);

}  // namespace collsynth::alltoall_lp

#endif  // COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_LP_H_
