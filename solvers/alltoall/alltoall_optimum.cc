#include "solvers/alltoall/alltoall_optimum.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "proofs_check/alltoall_certificate_check.h"
#include "solvers/alltoall/alltoall_lp.h"
#include "solvers/backends/exact_basis.h"
#include "solvers/backends/lp_backend.h"

namespace collsynth {
namespace {

using alltoall_lp::AddColumn;
using alltoall_lp::AddEntry;
using alltoall_lp::AddRow;
using alltoall_lp::Allowed;
using alltoall_lp::BuildDemand;
using alltoall_lp::Lp;

// Flow below this (relative to λ times the largest demand, which the LP scales to 1; CLP's
// feasibility tolerance is 1e-7) is taken for zero when the LP's flow is decomposed into paths.
constexpr double kFlowTolerance = 1e-6;
// Denominator bounds tried when rounding the LP's path amounts and lengths: small first (a
// vertex of a small LP has small denominators, and a large bound would fit the float noise).
constexpr long long kDenominators[] = {100LL,         1000LL,         10000LL,        100000LL,
                                       1000000LL,     10000000LL,     100000000LL,    1000000000LL,
                                       10000000000LL, 100000000000LL, 1000000000000LL};

struct Path {
  int to = -1;
  std::vector<int> links;
  double amount = 0.0;
};

// Phase 1: the source-aggregated LP (max λ as min -λ; column 0 is λ).
Lp BuildLp(const Topology& g, const DemandMatrix& demand, bool relay) {
  Lp lp = BuildDemand(demand);
  const LpProblem& p = lp.problem;
  AddColumn(&lp, -1.0);
  const int n = g.num_nodes(), m = g.num_links();
  lp.column.assign(lp.sources.size(), std::vector<int>(m, -1));
  for (std::size_t k = 0; k < lp.sources.size(); ++k) {
    for (int e = 0; e < m; ++e) {
      if (!Allowed(g, e, lp.sources[k], relay)) continue;
      lp.column[k][e] = p.num_cols();
      AddColumn(&lp, 0.0);
    }
  }
  for (std::size_t k = 0; k < lp.sources.size(); ++k) {
    const int s = lp.sources[k];
    for (int v = 0; v < n; ++v) {
      if (v == s) continue;
      const int row = p.num_rows();
      AddRow(&lp, std::nullopt);
      for (int e : g.InLinks(v)) {
        if (lp.column[k][e] >= 0) AddEntry(&lp, row, lp.column[k][e], 1);
      }
      for (int e : g.OutLinks(v)) {
        if (lp.column[k][e] >= 0) AddEntry(&lp, row, lp.column[k][e], -1);
      }
      auto it = lp.want[k].find(v);
      if (it != lp.want[k].end()) AddEntry(&lp, row, 0, -it->second, lp.demand_scale);
    }
  }
  lp.capacity_row0 = p.num_rows();
  for (int e = 0; e < m; ++e) {
    const int row = p.num_rows();
    AddRow(&lp, g.link(e).bandwidth);
    for (std::size_t k = 0; k < lp.sources.size(); ++k) {
      if (lp.column[k][e] >= 0) AddEntry(&lp, row, lp.column[k][e], 1);
    }
  }
  return lp;
}

// Phase 2: commodity k's LP flow as paths from its source (cycles cancelled).
std::vector<Path> Decompose(const Topology& g, const Lp& lp, const LpSolution& sol, std::size_t k,
                            double tolerance) {
  const int s = lp.sources[k];
  std::vector<double> r(g.num_links(), 0.0);
  for (int e = 0; e < g.num_links(); ++e) {
    if (lp.column[k][e] >= 0) r[e] = std::max(0.0, sol.primal[lp.column[k][e]]);
  }
  std::vector<Path> paths;
  const double lambda = sol.primal[0];
  for (const auto& [t, amount] : lp.want[k]) {
    double remaining = lambda * amount.convert_to<double>() * lp.demand_scale;
    int guard = 4 * g.num_links() + 16;
    while (remaining > tolerance && guard-- > 0) {
      std::vector<int> nodes = {t}, links;
      std::map<int, int> pos = {{t, 0}};
      bool stuck = false, cycle = false;
      while (nodes.back() != s) {
        int best = -1;
        for (int e : g.InLinks(nodes.back())) {
          if (r[e] > tolerance && (best < 0 || r[e] > r[best])) best = e;
        }
        if (best < 0) {
          stuck = true;
          break;
        }
        const int u = g.link(best).from;
        auto seen = pos.find(u);
        if (seen != pos.end()) {  // cancel the cycle u -> nodes.back() -> ... -> u
          std::vector<int> c = {best};
          for (std::size_t j = seen->second; j < links.size(); ++j) c.push_back(links[j]);
          double low = r[best];
          for (int e : c) low = std::min(low, r[e]);
          for (int e : c) r[e] -= low;
          cycle = true;
          break;
        }
        pos[u] = static_cast<int>(nodes.size());
        nodes.push_back(u);
        links.push_back(best);
      }
      if (stuck) break;
      if (cycle) continue;
      double a = remaining;
      for (int e : links) a = std::min(a, r[e]);
      for (int e : links) r[e] -= a;
      remaining -= a;
      std::reverse(links.begin(), links.end());
      paths.push_back({t, std::move(links), a});
    }
  }
  return paths;
}

// Phase 3 (primal): exact flow from the paths. Each path's share of its pair's delivered amount
// (a number in [0, 1], well scaled whatever λ is) is rounded at denominator bound `den`, the
// shares of a pair are normalized to sum to 1, and the pair gets `target`·d_st along them;
// then every flow is scaled by the largest factor <= 1 that keeps loads within bandwidth.
// cert->lambda is the λ reached (0 when some pair has no path with a positive share).
void RoundPrimal(const Topology& g, const Lp& lp, const std::vector<std::vector<Path>>& paths,
                 const BigInt& den, const Rational& target, AlltoallCertificate* cert) {
  const int m = g.num_links();
  cert->sources = lp.sources;
  cert->flow.assign(lp.sources.size(), std::vector<Rational>(m));
  cert->lambda = 0;
  for (std::size_t k = 0; k < lp.sources.size(); ++k) {
    std::map<int, double> sent;  // float amount per destination
    for (const Path& p : paths[k]) sent[p.to] += p.amount;
    std::vector<Rational> share(paths[k].size());
    std::map<int, Rational> total;
    for (std::size_t i = 0; i < paths[k].size(); ++i) {
      const Path& p = paths[k][i];
      share[i] = ClosestFraction(Rational(p.amount / sent[p.to]), den);
      if (share[i] < 0) share[i] = 0;
      total[p.to] += share[i];
    }
    for (const auto& [t, d] : lp.want[k]) {
      if (total[t] <= 0) return;  // the pair gets nothing
    }
    for (std::size_t i = 0; i < paths[k].size(); ++i) {
      const Path& p = paths[k][i];
      if (share[i] == 0) continue;
      const Rational a = share[i] / total[p.to] * target * lp.want[k].at(p.to);
      for (int e : p.links) cert->flow[k][e] += a;
    }
  }
  std::vector<Rational> load(m);
  for (const auto& row : cert->flow) {
    for (int e = 0; e < m; ++e) load[e] += row[e];
  }
  Rational scale = 1;
  for (int e = 0; e < m; ++e) {
    if (load[e] > 0 && g.link(e).bandwidth / load[e] < scale) scale = g.link(e).bandwidth / load[e];
  }
  if (scale != 1) {
    for (auto& row : cert->flow) {
      for (Rational& f : row) f *= scale;
    }
  }
  cert->lambda = target * scale;
}

// Phase 3 (primal, second candidate): by complementary slackness an optimal flow uses only
// ℓ-shortest paths, so split every pair's demand evenly, hop by hop, over the out-links that lie
// on a shortest s-t path under the exact lengths ℓ (ECMP over ℓ, exact), and scale to the least
// c_e / load_e. On topologies whose automorphisms act transitively on the links (tori,
// hypercubes, rings, complete graphs) this flow loads every link equally and meets the dual
// bound exactly, where rounding the LP's degenerate vertex may not. Needs ℓ > 0 on every link
// (no zero-length cycles); cert->lambda = 0 otherwise.
void ShortestPathSplit(const Topology& g, const Lp& lp, const std::vector<Rational>& len,
                       bool relay, AlltoallCertificate* cert) {
  const int n = g.num_nodes(), m = g.num_links();
  cert->lambda = 0;
  for (const Rational& x : len) {
    if (x <= 0) return;
  }
  cert->sources = lp.sources;
  cert->flow.assign(lp.sources.size(), std::vector<Rational>(m));
  for (std::size_t k = 0; k < lp.sources.size(); ++k) {
    const int s = lp.sources[k];
    // exact Dijkstra from s (only the source and, with relay, any node forwards)
    std::vector<Rational> dist(n);
    std::vector<bool> reached(n, false), done(n, false);
    using Item = std::pair<Rational, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
    reached[s] = true;
    q.push({Rational(0), s});
    std::vector<int> order;  // by increasing distance
    while (!q.empty()) {
      auto [d, v] = q.top();
      q.pop();
      if (done[v]) continue;
      done[v] = true;
      order.push_back(v);
      if (v != s && !relay && g.IsCompute(v)) continue;
      for (int e : g.OutLinks(v)) {
        if (!Allowed(g, e, s, relay)) continue;
        const int w = g.link(e).to;
        Rational nd = d + len[e];
        if (!reached[w] || nd < dist[w]) {
          reached[w] = true;
          dist[w] = nd;
          q.push({nd, w});
        }
      }
    }
    auto tight = [&](int e) {
      const int u = g.link(e).from, w = g.link(e).to;
      return Allowed(g, e, s, relay) && done[u] && done[w] && dist[u] + len[e] == dist[w] &&
             (u == s || relay || g.IsSwitch(u));
    };
    for (const auto& [t, amount] : lp.want[k]) {
      if (!done[t]) return;
      // nodes on a shortest s-t path: reverse reachability from t over tight links
      std::vector<bool> to_t(n, false);
      to_t[t] = true;
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int v = *it;
        if (v == t) continue;
        for (int e : g.OutLinks(v)) {
          if (tight(e) && to_t[g.link(e).to]) to_t[v] = true;
        }
      }
      std::vector<Rational> at(n);
      at[s] = amount;
      for (int v : order) {
        if (v == t || at[v] == 0) continue;
        std::vector<int> next;
        for (int e : g.OutLinks(v)) {
          if (tight(e) && to_t[g.link(e).to]) next.push_back(e);
        }
        if (next.empty()) return;
        const Rational share = at[v] / static_cast<long>(next.size());
        for (int e : next) {
          cert->flow[k][e] += share;
          at[g.link(e).to] += share;
        }
      }
    }
  }
  std::vector<Rational> load(m);
  for (const auto& row : cert->flow) {
    for (int e = 0; e < m; ++e) load[e] += row[e];
  }
  Rational lambda = -1;
  for (int e = 0; e < m; ++e) {
    if (load[e] > 0 && (lambda < 0 || g.link(e).bandwidth / load[e] < lambda)) {
      lambda = g.link(e).bandwidth / load[e];
    }
  }
  if (lambda <= 0) return;
  for (auto& row : cert->flow) {
    for (Rational& f : row) f *= lambda;
  }
  cert->lambda = lambda;
}

// Phase 3 (dual): lengths from the capacity rows' duals, normalized to max 1, rounded.
std::vector<Rational> RoundDual(const std::vector<double>& duals, const BigInt& den) {
  double top = 0.0;
  for (double y : duals) top = std::max(top, -y);
  std::vector<Rational> len(duals.size());
  if (top <= 0.0) return len;
  for (std::size_t e = 0; e < duals.size(); ++e) {
    const double x = std::max(0.0, -duals[e] / top);
    len[e] = ClosestFraction(Rational(x), den);
    if (len[e] < 0) len[e] = 0;
  }
  return len;
}

// The group generated by g's declared automorphisms when it acts regularly on the nodes:
// elem[s] is its one element that maps node 0 to s, as a permutation of the link ids
// (elem[s][e] = the image of link e). Empty when there are no declared automorphisms, an image
// is not a link, or the group is not regular (two products map 0 to the same node and differ).
// O(V · generators · (V + E)).
std::vector<std::vector<int>> RegularGroupOnLinks(const Topology& g) {
  const int n = g.num_nodes(), m = g.num_links();
  const std::vector<std::vector<int>>& gens = g.automorphisms();
  if (gens.empty() || n == 0) return {};
  std::vector<std::vector<int>> node(n);
  node[0].resize(n);
  for (int v = 0; v < n; ++v) node[0][v] = v;
  std::queue<int> q;
  q.push(0);
  while (!q.empty()) {
    const int s = q.front();
    q.pop();
    for (const std::vector<int>& gen : gens) {
      if (static_cast<int>(gen.size()) != n) return {};
      std::vector<int> c(n);
      for (int v = 0; v < n; ++v) c[v] = gen[node[s][v]];
      const int t = c[0];
      if (t < 0 || t >= n) return {};
      if (node[t].empty()) {
        node[t] = std::move(c);
        q.push(t);
      } else if (node[t] != c) {
        return {};
      }
    }
  }
  std::vector<std::vector<int>> elem(n, std::vector<int>(m));
  for (int s = 0; s < n; ++s) {
    if (node[s].empty()) return {};
    for (int e = 0; e < m; ++e) {
      const std::optional<int> image = g.FindLink(node[s][g.link(e).from], node[s][g.link(e).to]);
      if (!image) return {};
      elem[s][e] = *image;
    }
  }
  return elem;
}

// Whether the demand is invariant under the group (d(π s, π t) = d(s, t) for every element π,
// given by its action on the nodes through the links' endpoints) and asks something of node 0.
bool DemandIsInvariant(const Topology& g, const Lp& lp, const std::vector<std::vector<int>>& elem) {
  if (lp.sources.size() != static_cast<std::size_t>(g.num_nodes())) return false;
  std::vector<int> image(g.num_nodes());
  for (const std::vector<int>& pi : elem) {
    for (int e = 0; e < g.num_links(); ++e) {
      image[g.link(e).from] = g.link(pi[e]).from;
      image[g.link(e).to] = g.link(pi[e]).to;
    }
    for (std::size_t k = 0; k < lp.sources.size(); ++k) {
      const std::map<int, Rational>& to = lp.want[image[lp.sources[k]]];
      if (to.size() != lp.want[k].size()) return false;
      for (const auto& [t, a] : lp.want[k]) {
        auto it = to.find(image[t]);
        if (it == to.end() || it->second != a) return false;
      }
    }
  }
  return true;
}

// The regular-group reduction (see the header comment): source 0's commodity alone, each of its
// flows f_0(e) loading link π_s(e) for every source s; λ* of this LP is λ* of the full one
// (averaging an optimal flow over the group keeps it optimal). The expanded flow and the
// group-averaged lengths ℓ̄(e) = (1/N) Σ_s ℓ(π_s(e)) go to the checker. True when it accepted
// them (cert then holds both).
bool SolveByRegularGroup(const Topology& g, const DemandMatrix& demand, bool relay,
                         ClpMethod method, AlltoallCertificate* cert, int* columns, int* rows) {
  const std::vector<std::vector<int>> elem = RegularGroupOnLinks(g);
  if (elem.empty()) return false;
  Lp lp = BuildDemand(demand);
  // sources are node ids ascending; with every node a source, commodity k has source k
  if (!DemandIsInvariant(g, lp, elem) || lp.sources.front() != 0) return false;
  const int n = g.num_nodes(), m = g.num_links();
  AddColumn(&lp, -1.0);
  std::vector<int> col(m, -1);
  for (int e = 0; e < m; ++e) {
    if (!Allowed(g, e, 0, relay)) continue;
    col[e] = lp.problem.num_cols();
    AddColumn(&lp, 0.0);
  }
  for (int v = 1; v < n; ++v) {
    const int row = lp.problem.num_rows();
    AddRow(&lp, std::nullopt);
    for (int e : g.InLinks(v)) {
      if (col[e] >= 0) AddEntry(&lp, row, col[e], 1);
    }
    for (int e : g.OutLinks(v)) {
      if (col[e] >= 0) AddEntry(&lp, row, col[e], -1);
    }
    auto it = lp.want[0].find(v);
    if (it != lp.want[0].end()) AddEntry(&lp, row, 0, -it->second, lp.demand_scale);
  }
  const int cap0 = lp.problem.num_rows();
  for (int e = 0; e < m; ++e) AddRow(&lp, g.link(e).bandwidth);
  for (int s = 0; s < n; ++s) {
    for (int e = 0; e < m; ++e) {
      if (col[e] >= 0) AddEntry(&lp, cap0 + elem[s][e], col[e], 1);
    }
  }
  *columns = lp.problem.num_cols();
  *rows = lp.problem.num_rows();
  const LpSolution sol = SolveLpWithClp(lp.problem, method);
  if (sol.outcome != LpOutcome::kOptimal) return false;
  const ExactBasisSolution x = SolveAtBasis(lp.exact, sol.basis);
  if (x.outcome != ExactBasisOutcome::kOptimal) return false;
  AlltoallCertificate c = *cert;
  c.lambda = x.primal[0];
  c.sources = lp.sources;
  c.flow.assign(n, std::vector<Rational>(m));
  for (int s = 0; s < n; ++s) {
    for (int e = 0; e < m; ++e) {
      if (col[e] >= 0) c.flow[s][elem[s][e]] = x.primal[col[e]];
    }
  }
  c.length.assign(m, Rational(0));
  for (int e = 0; e < m; ++e) {
    for (int s = 0; s < n; ++s) c.length[e] -= x.row_duals[cap0 + elem[s][e]];
    c.length[e] /= n;
  }
  if (!CheckAlltoallCertificate(g, c).ok) return false;
  *cert = std::move(c);
  return true;
}

}  // namespace

std::string ToString(AlltoallOutcome outcome) {
  switch (outcome) {
    case AlltoallOutcome::kCertified:
      return "certified";
    case AlltoallOutcome::kNotCertified:
      return "not-certified";
    case AlltoallOutcome::kLpFailed:
      return "lp-failed";
  }
  return "unknown";
}

std::string DisconnectedDemandPair(const Topology& g, const DemandMatrix& demand, bool relay) {
  std::map<int, std::vector<int>> by_source;
  for (const DemandEntry& x : demand.entries) by_source[x.from].push_back(x.to);
  for (const auto& [s, targets] : by_source) {
    std::vector<bool> seen(g.num_nodes(), false);
    std::queue<int> q;
    seen[s] = true;
    q.push(s);
    while (!q.empty()) {
      const int v = q.front();
      q.pop();
      if (v != s && !relay && g.IsCompute(v)) continue;
      for (int e : g.OutLinks(v)) {
        const int w = g.link(e).to;
        if (!seen[w]) {
          seen[w] = true;
          q.push(w);
        }
      }
    }
    for (int t : targets) {
      if (!seen[t]) return g.node(s).name + "->" + g.node(t).name;
    }
  }
  return "";
}

AlltoallOptimum ComputeAlltoallOptimum(const Topology& g, const DemandMatrix& demand,
                                       const AlltoallOptions& options) {
  AlltoallOptimum out;
  if (options.regular_group) {
    AlltoallCertificate cert;
    cert.relay = options.relay;
    cert.demand = demand;
    if (SolveByRegularGroup(g, demand, options.relay, options.clp_method, &cert, &out.lp_columns,
                            &out.lp_rows)) {
      out.lp_lambda = cert.lambda.convert_to<double>();
      out.lower = out.upper = cert.lambda;
      out.has_lower = out.has_upper = true;
      out.certified_by = out.primal_from = out.dual_from = kFromRegularGroup;
      out.basis_outcome = ExactBasisOutcome::kOptimal;
      out.certificate = std::move(cert);
      out.outcome = AlltoallOutcome::kCertified;
      return out;
    }
  }
  Lp lp = BuildLp(g, demand, options.relay);
  out.lp_columns = lp.problem.num_cols();
  out.lp_rows = lp.problem.num_rows();
  const LpSolution sol = SolveLpWithClp(lp.problem, options.clp_method);
  if (sol.outcome != LpOutcome::kOptimal) {
    out.detail = "CLP: " + ToString(sol.outcome);
    return out;
  }
  out.lp_lambda = sol.primal[0] * lp.demand_scale;

  AlltoallCertificate best;
  best.relay = options.relay;
  best.demand = demand;
  bool have_lower = false, have_upper = false, tried_split = false;
  // keeps a primal candidate the checker accepts when it beats the best so far
  auto offer_primal = [&](const AlltoallCertificate& c, const char* from) {
    const AlltoallCheckReport r = CheckAlltoallCertificate(g, c);
    if (!r.primal_ok || (have_lower && r.lower <= out.lower)) return;
    out.lower = r.lower;
    best.lambda = c.lambda;
    best.sources = c.sources;
    best.flow = c.flow;
    have_lower = true;
    out.primal_from = from;
  };
  auto finish = [&]() {
    out.has_lower = have_lower;
    out.has_upper = have_upper;
    out.certified_by = out.primal_from == kFromExactBasis && out.dual_from == kFromExactBasis
                           ? kFromExactBasis
                           : kFromRounding;
    out.certificate = std::move(best);
    assert(CheckAlltoallCertificate(g, out.certificate).ok);
    out.outcome = AlltoallOutcome::kCertified;
    return out;
  };

  // Phase 2: the exact vertex at CLP's optimal basis. Its halves that the checker accepts are
  // kept as bounds for the ladder below when they do not close the gap together.
  if (options.exact_basis) {
    const ExactBasisSolution x = SolveAtBasis(lp.exact, sol.basis);
    out.basis_outcome = x.outcome;
    out.basis_detail = x.detail;
    if (!x.primal.empty()) {
      AlltoallCertificate cand = best;
      cand.lambda = x.primal[0];
      cand.sources = lp.sources;
      cand.flow.assign(lp.sources.size(), std::vector<Rational>(g.num_links()));
      for (std::size_t k = 0; k < lp.sources.size(); ++k) {
        for (int e = 0; e < g.num_links(); ++e) {
          if (lp.column[k][e] >= 0) cand.flow[k][e] = x.primal[lp.column[k][e]];
        }
      }
      cand.length.resize(g.num_links());
      for (int e = 0; e < g.num_links(); ++e) {
        cand.length[e] = -x.row_duals[lp.capacity_row0 + e];
      }
      const AlltoallCheckReport rep = CheckAlltoallCertificate(g, cand);
      if (rep.primal_ok) offer_primal(cand, kFromExactBasis);
      if (rep.dual_ok) {
        out.upper = rep.upper;
        best.length = cand.length;
        have_upper = true;
        out.dual_from = kFromExactBasis;
      }
      if (have_lower && have_upper && out.lower == out.upper) return finish();
    }
  }

  // Phase 3: the LP's flow as paths and its duals, for the rounding ladder.
  const double tolerance = kFlowTolerance * std::max(1.0, sol.primal[0]);
  std::vector<std::vector<Path>> paths(lp.sources.size());
  for (std::size_t k = 0; k < lp.sources.size(); ++k)
    paths[k] = Decompose(g, lp, sol, k, tolerance);
  const std::vector<double> duals(sol.row_duals.begin() + lp.capacity_row0, sol.row_duals.end());

  // Phase 4: the denominator ladder; the best primal and the best dual found so far are kept
  // apart (each is a valid bound on its own) and combined.
  {  // the split over hop-count and over 1/c shortest paths needs no dual
    std::vector<Rational> inverse(g.num_links());
    for (int e = 0; e < g.num_links(); ++e) inverse[e] = 1 / g.link(e).bandwidth;
    for (const auto& metric : {std::vector<Rational>(g.num_links(), 1), inverse}) {
      AlltoallCertificate split = best;
      ShortestPathSplit(g, lp, metric, options.relay, &split);
      if (split.lambda > 0) offer_primal(split, kFromShortestPathSplit);
    }
  }
  for (long long d : kDenominators) {
    const BigInt den(d);
    AlltoallCertificate cand;
    cand.relay = options.relay;
    cand.demand = demand;
    cand.length = RoundDual(duals, den);
    // the primal aims at the best dual bound so far (the LP's λ when there is none yet)
    cand.lambda = 1;
    cand.sources = lp.sources;
    AlltoallCheckReport rep = CheckAlltoallCertificate(g, cand);
    if (rep.dual_ok && (!have_upper || rep.upper < out.upper)) {
      out.upper = rep.upper;
      best.length = cand.length;
      have_upper = true;
      out.dual_from = kFromRounding;
    }
    if (rep.dual_ok && !tried_split) {  // once, with the first valid lengths
      tried_split = true;
      AlltoallCertificate split = cand;
      ShortestPathSplit(g, lp, cand.length, options.relay, &split);
      if (split.lambda > 0) offer_primal(split, kFromShortestPathSplit);
      if (have_lower && have_upper && out.lower == out.upper) {
        out.denominator = d;
        return finish();
      }
    }
    const Rational target = have_upper ? out.upper : ClosestFraction(Rational(out.lp_lambda), den);
    RoundPrimal(g, lp, paths, den, target, &cand);
    offer_primal(cand, kFromRounding);
    if (have_lower && have_upper && out.lower == out.upper) {
      out.denominator = d;
      return finish();
    }
  }
  out.has_lower = have_lower;
  out.has_upper = have_upper;
  out.outcome = AlltoallOutcome::kNotCertified;
  out.detail = std::string("the exact basis (") + ToString(out.basis_outcome) +
               (out.basis_detail.empty() ? "" : ": " + out.basis_detail) +
               ") did not certify and no denominator up to 10^12 closed the gap" +
               (have_lower ? "" : " (no feasible rounded flow)") +
               (have_upper ? "" : " (no valid rounded length)");
  return out;
}

}  // namespace collsynth
