#include "solvers/alltoall/alltoall_lp.h"

#include <algorithm>

namespace collsynth::alltoall_lp {

bool Allowed(const Topology& g, int e, int s, bool relay) {
  const int u = g.link(e).from;
  if (g.link(e).to == s) return false;
  return u == s || relay || g.IsSwitch(u);
}

void AddColumn(Lp* lp, double cost) {
  lp->problem.objective.push_back(cost);
  lp->problem.col_lower.push_back(0.0);
  lp->problem.col_upper.push_back(kLpInfinity);
  lp->exact.objective.push_back(Rational(cost));
  lp->exact.col_lower.push_back(Rational(0));
  lp->exact.col_upper.push_back(std::nullopt);
}

void AddRow(Lp* lp, const std::optional<Rational>& capacity) {
  lp->problem.row_lower.push_back(capacity ? -kLpInfinity : 0.0);
  lp->problem.row_upper.push_back(capacity ? capacity->convert_to<double>() : 0.0);
  lp->exact.row_lower.push_back(capacity ? std::nullopt : std::optional<Rational>(0));
  lp->exact.row_upper.push_back(capacity ? capacity : std::optional<Rational>(0));
}

void AddEntry(Lp* lp, int row, int col, const Rational& value, double scale) {
  lp->problem.entries.push_back({row, col, value.convert_to<double>() * scale});
  lp->exact.entries.push_back({row, col, value});
}

Lp BuildDemand(const DemandMatrix& demand) {
  Lp lp;
  std::map<int, int> k_of;
  for (const DemandEntry& x : demand.entries) {
    if (k_of.emplace(x.from, 0).second) lp.sources.push_back(x.from);
  }
  std::sort(lp.sources.begin(), lp.sources.end());
  for (std::size_t k = 0; k < lp.sources.size(); ++k) k_of[lp.sources[k]] = static_cast<int>(k);
  lp.want.resize(lp.sources.size());
  double dmax = 0.0;
  for (const DemandEntry& x : demand.entries) {
    lp.want[k_of[x.from]][x.to] = x.amount;
    dmax = std::max(dmax, x.amount.convert_to<double>());
  }
  if (dmax > 0.0) lp.demand_scale = 1.0 / dmax;
  return lp;
}

}  // namespace collsynth::alltoall_lp
