#include "solvers/alltoall/symmetric_alltoall.h"

#include <utility>
#include <vector>

#include "core/stopwatch.h"
#include "proofs_check/symmetric_flow_checker.h"
#include "schedules/alltoall_flow.h"
#include "solvers/alltoall/alltoall_lp.h"
#include "solvers/alltoall/alltoall_paths.h"
#include "solvers/backends/exact_basis.h"

namespace collsynth {
namespace {

using alltoall_lp::AddColumn;
using alltoall_lp::AddEntry;
using alltoall_lp::AddRow;
using alltoall_lp::Allowed;
using alltoall_lp::Lp;

// The reduced LP (see the header); col[e] is f(e)'s column or -1, its capacity rows start at
// *cap0 (one per link orbit).
Lp BuildReducedLp(const Topology& g, const ComputeRegularGroup& h, int r, bool relay,
                  std::vector<int>* col, int* cap0) {
  const int n = g.num_nodes(), m = g.num_links();
  Lp lp;
  AddColumn(&lp, -1.0);  // λ
  col->assign(m, -1);
  for (int e = 0; e < m; ++e) {
    if (!Allowed(g, e, r, relay)) continue;
    (*col)[e] = lp.problem.num_cols();
    AddColumn(&lp, 0.0);
  }
  for (int v = 0; v < n; ++v) {
    if (v == r) continue;
    const int row = lp.problem.num_rows();
    AddRow(&lp, std::nullopt);
    for (int e : g.InLinks(v)) {
      if ((*col)[e] >= 0) AddEntry(&lp, row, (*col)[e], 1);
    }
    for (int e : g.OutLinks(v)) {
      if ((*col)[e] >= 0) AddEntry(&lp, row, (*col)[e], -1);
    }
    if (g.IsCompute(v)) AddEntry(&lp, row, 0, -1);
  }
  *cap0 = lp.problem.num_rows();
  std::vector<Rational> bandwidth(h.link_orbit_size.size());
  for (int e = 0; e < m; ++e) bandwidth[h.link_orbit[e]] = g.link(e).bandwidth;
  for (const Rational& b : bandwidth) AddRow(&lp, b);
  const Rational count = g.num_compute();
  for (int e = 0; e < m; ++e) {
    const int o = h.link_orbit[e];
    if ((*col)[e] >= 0) AddEntry(&lp, *cap0 + o, (*col)[e], count / h.link_orbit_size[o]);
  }
  return lp;
}

// The compact schedule of the exact solution: r's paths, the sources' exponents, one length per
// orbit with a positive price w_O: ℓ = w_O / |O| on each of its links.
SymmetricFlowSchedule CompactSchedule(const Topology& g, const ComputeRegularGroup& h, int r,
                                      bool relay, const ExactBasisSolution& x,
                                      const std::vector<int>& col, int cap0) {
  SymmetricFlowSchedule s;
  s.relay = relay;
  s.time = 1 / x.primal[0];
  s.generators = h.generators;
  s.orders = h.orders;
  s.root = r;
  for (int v : g.ComputeNodes()) s.sources.push_back({v, h.exponents[v]});
  s.lengths.emplace();
  std::vector<bool> written(h.link_orbit_size.size(), false);
  for (int e = 0; e < g.num_links(); ++e) {
    const int o = h.link_orbit[e];
    // the orbit's price w_O spread over its |O| links (docs/alltoall.md, the dual)
    const Rational len = -x.row_duals[cap0 + o] / h.link_orbit_size[o];
    if (written[o] || len == 0) continue;
    written[o] = true;
    s.lengths->emplace_back(e, len);
  }
  AlltoallCertificate one;  // r's commodity alone, for the exact path decomposition
  one.relay = relay;
  one.lambda = x.primal[0];
  one.sources = {r};
  one.flow.assign(1, std::vector<Rational>(g.num_links()));
  for (int e = 0; e < g.num_links(); ++e) {
    if (col[e] >= 0) one.flow[0][e] = x.primal[col[e]];
  }
  for (int t : g.ComputeNodes()) {
    if (t != r) one.demand.entries.push_back({r, t, Rational(1)});
  }
  s.flows = FlowScheduleFromCertificate(g, one, /*uniform=*/false).flows;
  return s;
}

}  // namespace

SymmetricAlltoallResult ComputeSymmetricAlltoall(const Topology& g, const ComputeRegularGroup& h,
                                                 bool relay, ClpMethod method) {
  SymmetricAlltoallResult out;
  int r = -1;
  for (int v : g.ComputeNodes()) {
    bool zero = h.exponents[v].size() == h.generators.size();
    for (std::int64_t e : h.exponents[v]) zero = zero && e == 0;
    if (zero) r = v;
  }
  if (r < 0 || g.num_compute() < 2) {
    out.why = "the group gives no compute node the identity (exponents 0)";
    return out;
  }
  std::vector<int> col;
  int cap0 = 0;
  Lp lp = BuildReducedLp(g, h, r, relay, &col, &cap0);
  out.lp_columns = lp.problem.num_cols();
  out.lp_rows = lp.problem.num_rows();
  // CLP's dual simplex meets numerical trouble on the larger fat-trees' degenerate reduced LP
  // (fattree(16)); the other methods are tried in turn until one's basis is exactly optimal.
  ExactBasisSolution x;
  for (ClpMethod m :
       {method, ClpMethod::kDualPresolve, ClpMethod::kPrimal, ClpMethod::kBarrierCrossover}) {
    auto start = SteadyClock::now();
    const LpSolution sol = SolveLpWithClp(lp.problem, m);
    out.lp_seconds += SecondsSince(start);
    if (sol.outcome != LpOutcome::kOptimal) {
      out.why += (out.why.empty() ? "" : "; ") + std::string("CLP: ") + ToString(sol.outcome);
      continue;
    }
    start = SteadyClock::now();
    x = SolveAtBasis(lp.exact, sol.basis);
    out.exact_seconds += SecondsSince(start);
    if (x.outcome == ExactBasisOutcome::kOptimal && x.primal[0] > 0) break;
    out.why += (out.why.empty() ? "" : "; ") +
               std::string("the reduced LP's basis is not optimal in exact arithmetic (") +
               ToString(x.outcome) + (x.detail.empty() ? "" : ": " + x.detail) + ")";
  }
  if (x.outcome != ExactBasisOutcome::kOptimal || x.primal.empty() || x.primal[0] <= 0) return out;
  out.why.clear();
  auto start = SteadyClock::now();
  SymmetricFlowSchedule s = CompactSchedule(g, h, r, relay, x, col, cap0);
  out.paths_seconds = SecondsSince(start);
  start = SteadyClock::now();
  const FlowCheckReport check = CheckSymmetricFlowSchedule(g, s);
  out.check_seconds = SecondsSince(start);
  if (!check.ok || !check.optimal || !*check.optimal || check.time != s.time) {
    out.why = "the compact schedule fails its checker: " +
              (check.errors.empty() ? std::string("not certified optimal by its lengths")
                                    : check.errors[0]);
    return out;
  }
  out.certified = true;
  out.lambda = x.primal[0];
  out.schedule = std::move(s);
  return out;
}

}  // namespace collsynth
