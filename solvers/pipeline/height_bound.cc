#include "solvers/pipeline/height_bound.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graphs/metrics.h"
#include "proofs_check/height_bound_check.h"
#include "solvers/backends/lp_backend.h"

namespace collsynth {
namespace {

constexpr int kFar = -1;  // BfsDistances' "unreachable"

bool Within(int d, std::int64_t budget) { return d != kFar && d <= budget; }

// One arc of the layered copy: link e taken as the (layer+1)-th link of a walk.
struct Arc {
  int link;
  int layer;
};

}  // namespace

std::int64_t TallestUsefulHeight(const Topology& g) {
  const std::int64_t n = g.num_compute(), s = g.num_switches();
  return n < 2 ? 0 : (n - 1) * (s + 1);
}

HeightBoundResult CertifyRatioAtHeight(const Topology& g, Collective collective, std::int64_t h,
                                       const HeightBoundOptions& options) {
  if (collective != Collective::kAllgather && collective != Collective::kReduceScatter) {
    throw std::invalid_argument("the ratio bound at a height covers allgather and reduce-scatter");
  }
  HeightBoundResult out;
  const std::vector<int> compute = g.ComputeNodes();
  if (compute.size() < 2) {
    out.why = "fewer than two compute nodes";
    return out;
  }
  if (h < 0) throw std::invalid_argument("height < 0");
  h = std::min(h, TallestUsefulHeight(g));  // (height_bound.h): also keeps the layers finite
  const bool rs = collective == Collective::kReduceScatter;
  // A walk of the commodity (r, t) goes from src to dst: r to t for allgather, t to r for
  // reduce-scatter (its data climbs the tree).
  std::map<int, std::vector<int>> from, to;  // hop distances from / to each compute node
  const Topology reversed = g.Transpose();
  for (int c : compute) {
    from[c] = BfsDistances(g, c);
    to[c] = BfsDistances(reversed, c);
  }
  struct Commodity {
    int root, target, src, dst;
    std::vector<Arc> arcs;
  };
  std::vector<Commodity> commodities;
  std::int64_t columns = 1;
  std::map<std::pair<int, int>, int> usage_col;  // (root, link) -> column of y
  for (int r : compute) {
    for (int t : compute) {
      if (r == t) continue;
      Commodity k{r, t, rs ? t : r, rs ? r : t, {}};
      const std::vector<int>& ds = from[k.src];
      const std::vector<int>& dt = to[k.dst];
      if (!Within(ds[k.dst], h)) {
        // More than h links apart: no schedule of height <= h; the certificate says so with
        // this pair alone.
        HeightBoundCertificate cert;
        cert.collective = collective;
        cert.max_height_hops = h;
        cert.pairs.push_back({r, t, {}});
        const HeightBoundReport report = CheckHeightBoundCertificate(g, cert);
        out.no_schedule = report.no_schedule;
        out.bound = report.bound;
        out.certificate = std::move(cert);
        return out;
      }
      for (int e = 0; e < g.num_links(); ++e) {
        const Link& l = g.link(e);
        if (l.from == k.dst || l.to == k.src) continue;
        const int u = l.from, v = l.to;
        for (std::int64_t layer = 0; layer < h; ++layer) {
          if (u == k.src && layer > 0) break;
          if (Within(ds[u], layer) && Within(dt[v], h - 1 - layer)) {
            k.arcs.push_back({e, static_cast<int>(layer)});
          }
        }
      }
      columns += static_cast<std::int64_t>(k.arcs.size());
      if (columns + static_cast<std::int64_t>(compute.size()) * g.num_links() >
          options.max_columns) {
        out.why = "the relaxation at height " + std::to_string(h) + " has more than " +
                  std::to_string(options.max_columns) + " columns";
        return out;
      }
      commodities.push_back(std::move(k));
    }
  }
  LpProblem p;
  const int z = p.AddColumn(1);
  // Data crosses link e from tail(e) to head(e); reduce-scatter's climbs the reversed routes.
  auto head = [&](int e) { return rs ? g.link(e).from : g.link(e).to; };
  auto tail = [&](int e) { return rs ? g.link(e).to : g.link(e).from; };
  for (int r : compute) {
    for (int e = 0; e < g.num_links(); ++e) {
      if (head(e) != r) usage_col.emplace(std::make_pair(r, e), p.AddColumn(0));  // y_r(e)
    }
  }
  // Per root: every compute node v != r is entered once per tree (Σ_{head e = v} y_r(e) = 1),
  // and a route leaves every switch it enters (Σ_{head e = s} y_r(e) = Σ_{tail e = s} y_r(e)).
  struct PotentialRow {
    int root, node, row;
  };
  std::vector<PotentialRow> potential_rows;
  for (int r : compute) {
    std::vector<int> row(g.num_nodes(), -1);
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (v == r) continue;
      const double need = g.IsCompute(v) ? 1 : 0;
      row[v] = p.AddRow(need, need);
      potential_rows.push_back({r, v, row[v]});
    }
    for (int e = 0; e < g.num_links(); ++e) {
      if (head(e) == r) continue;
      const int col = usage_col.at({r, e});
      p.AddEntry(row[head(e)], col, 1);
      if (g.IsSwitch(tail(e))) p.AddEntry(row[tail(e)], col, -1);
    }
  }
  // Capacity rows b_e·z - Σ_r y_r(e) >= 0.
  std::map<int, int> cap_row;
  for (const auto& [key, col] : usage_col) {
    auto [it, fresh] = cap_row.emplace(key.second, 0);
    if (fresh) {
      it->second = p.AddRow(0, kLpInfinity);
      p.AddEntry(it->second, z, g.link(key.second).bandwidth.convert_to<double>());
    }
    p.AddEntry(it->second, col, -1);
  }
  // Per commodity: flow conservation in the layered copy, and the usage rows whose duals are
  // the certificate's lengths.
  struct UsageRow {
    std::size_t commodity;
    int link;
    int row;
  };
  std::vector<UsageRow> usage_rows;
  for (std::size_t c = 0; c < commodities.size(); ++c) {
    const Commodity& k = commodities[c];
    const int source_row = p.AddRow(1, 1);
    std::map<std::pair<int, int>, int> node_row;  // (node, layer) -> conservation row
    std::map<int, int> link_row;
    auto conservation = [&](int v, int layer) {
      auto [it, fresh] = node_row.emplace(std::make_pair(v, layer), 0);
      if (fresh) it->second = p.AddRow(0, 0);
      return it->second;
    };
    for (const Arc& a : k.arcs) {
      const int col = p.AddColumn(0);
      const Link& l = g.link(a.link);
      if (a.layer == 0) {
        p.AddEntry(source_row, col, 1);
      } else {
        p.AddEntry(conservation(l.from, a.layer), col, -1);  // leaves (u, layer)
      }
      if (l.to != k.dst) p.AddEntry(conservation(l.to, a.layer + 1), col, 1);
      auto [it, fresh] = link_row.emplace(a.link, 0);
      if (fresh) {
        it->second = p.AddRow(0, kLpInfinity);  // y_r(e) - Σ_layers f(e) >= 0
        p.AddEntry(it->second, usage_col.at({k.root, a.link}), 1);
        usage_rows.push_back({c, a.link, it->second});
      }
      p.AddEntry(it->second, col, -1);
    }
  }
  out.columns = p.num_cols();
  const LpSolution sol = SolveLpWithClp(p);
  if (sol.outcome != LpOutcome::kOptimal) {
    out.why = "CLP: " + ToString(sol.outcome);
    return out;
  }
  out.lp_value = sol.objective;
  // Duals in the convention c - A^T y >= 0 (rows >= their lower bound have y >= 0); should the
  // backend report the opposite sign, the capacity rows' duals (w_e >= 0) show it.
  double sign_sum = 0;
  for (const auto& [e, row] : cap_row) sign_sum += sol.row_duals[row];
  const double sign = sign_sum < 0 ? -1 : 1;
  double largest = 0;
  for (const UsageRow& u : usage_rows) largest = std::max(largest, std::fabs(sol.row_duals[u.row]));
  for (const PotentialRow& u : potential_rows) {
    largest = std::max(largest, std::fabs(sol.row_duals[u.row]));
  }
  if (largest == 0) {
    out.why = "CLP returned no positive dual";
    return out;
  }
  // Round the lengths (scaled to at most 1) to fractions of bounded denominator; keep the
  // rounding whose checked bound is best. Any lengths >= 0 give a valid bound.
  bool have = false;
  for (const char* den : {"1000", "1000000", "1000000000"}) {
    HeightBoundCertificate cert;
    cert.collective = collective;
    cert.max_height_hops = h;
    cert.pairs.reserve(commodities.size());
    for (const Commodity& k : commodities) cert.pairs.push_back({k.root, k.target, {}});
    for (const UsageRow& u : usage_rows) {
      const double x = sign * sol.row_duals[u.row] / largest;
      if (x <= 0) continue;  // lengths are >= 0 (a negative dual is rounding noise)
      Rational q = ClosestFraction(Rational(x), BigInt(den));
      if (q > 0) cert.pairs[u.commodity].lengths.emplace_back(u.link, std::move(q));
    }
    std::map<int, std::size_t> root_index;
    for (const PotentialRow& u : potential_rows) {
      const double x = sign * sol.row_duals[u.row] / largest;
      Rational q = ClosestFraction(Rational(x), BigInt(den));
      if (q == 0) continue;
      auto [it, fresh] = root_index.emplace(u.root, cert.roots.size());
      if (fresh) cert.roots.push_back({u.root, {}, {}});
      HeightBoundRoot& hr = cert.roots[it->second];
      (g.IsCompute(u.node) ? hr.receive : hr.forward).emplace_back(u.node, std::move(q));
    }
    const HeightBoundReport report = CheckHeightBoundCertificate(g, cert);
    if (!report.ok) continue;
    if (!have || report.bound > out.bound) {
      have = true;
      out.bound = report.bound;
      out.no_schedule = report.no_schedule;
      out.certificate = std::move(cert);
    }
  }
  if (!have) out.why = "no rounding of CLP's duals passed the check";
  return out;
}

}  // namespace collsynth
