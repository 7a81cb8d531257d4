#include "proofs_check/alltoall_certificate_check.h"

#include <map>
#include <optional>
#include <queue>
#include <set>
#include <utility>
#include <vector>

namespace collsynth {
namespace {

std::string LinkName(const Topology& g, int e) {
  return g.node(g.link(e).from).name + "->" + g.node(g.link(e).to).name;
}

// Checks the demand entries themselves; "" when well formed.
std::string DemandProblem(const Topology& g, const DemandMatrix& d) {
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    const DemandEntry& x = d.entries[i];
    const std::string item = "demand entry " + std::to_string(i);
    if (x.from < 0 || x.from >= g.num_nodes() || x.to < 0 || x.to >= g.num_nodes()) {
      return item + ": node id out of range";
    }
    if (!g.IsCompute(x.from) || !g.IsCompute(x.to)) return item + ": not a compute node";
    if (x.from == x.to) return item + ": from == to";
    if (x.amount <= 0) return item + ": amount <= 0";
    if (!seen.insert({x.from, x.to}).second) return item + ": pair repeated";
  }
  if (d.entries.empty()) return "demand: no entry";
  return "";
}

// Primal part; "" when the flow is feasible at λ.
std::string PrimalProblem(const Topology& g, const AlltoallCertificate& c) {
  if (c.lambda <= 0) return "lambda " + ToString(c.lambda) + " <= 0";
  if (c.flow.size() != c.sources.size()) return "flow: one row per source expected";
  const int n = g.num_nodes(), m = g.num_links();
  std::map<int, std::size_t> commodity;  // source -> k
  for (std::size_t k = 0; k < c.sources.size(); ++k) {
    const int s = c.sources[k];
    if (s < 0 || s >= n) return "commodity " + std::to_string(k) + ": source id out of range";
    if (!commodity.insert({s, k}).second) return "commodity " + std::to_string(k) + ": repeated";
    if (static_cast<int>(c.flow[k].size()) != m) {
      return "commodity " + std::to_string(k) + ": one value per link expected";
    }
  }
  // d(s, v) per commodity
  std::vector<std::map<int, Rational>> want(c.sources.size());
  for (const DemandEntry& x : c.demand.entries) {
    auto it = commodity.find(x.from);
    if (it == commodity.end()) return "source " + g.node(x.from).name + ": no commodity";
    want[it->second][x.to] = x.amount;
  }
  std::vector<Rational> load(m);
  for (std::size_t k = 0; k < c.sources.size(); ++k) {
    const int s = c.sources[k];
    std::vector<Rational> net(n);  // inflow - outflow
    for (int e = 0; e < m; ++e) {
      const Rational& f = c.flow[k][e];
      if (f < 0) return "commodity " + g.node(s).name + ": link " + LinkName(g, e) + " flow < 0";
      if (f == 0) continue;
      const int u = g.link(e).from;
      if (!c.relay && u != s && g.IsCompute(u)) {
        return "commodity " + g.node(s).name + ": compute node " + g.node(u).name +
               " relays on link " + LinkName(g, e) + " (no relay)";
      }
      net[g.link(e).to] += f;
      net[u] -= f;
      load[e] += f;
    }
    for (int v = 0; v < n; ++v) {
      if (v == s) continue;
      auto it = want[k].find(v);
      const Rational expect = it == want[k].end() ? Rational(0) : c.lambda * it->second;
      if (net[v] != expect) {
        return "commodity " + g.node(s).name + ": node " + g.node(v).name + " receives " +
               ToString(net[v]) + ", lambda*demand is " + ToString(expect);
      }
    }
  }
  for (int e = 0; e < m; ++e) {
    if (load[e] > g.link(e).bandwidth) {
      return "link " + LinkName(g, e) + ": load " + ToString(load[e]) + " > bandwidth " +
             ToString(g.link(e).bandwidth);
    }
  }
  return "";
}

// Exact Dijkstra from s under lengths ℓ; without relay only the source and switches forward.
std::vector<std::optional<Rational>> Distances(const Topology& g, const std::vector<Rational>& len,
                                               int s, bool relay) {
  std::vector<std::optional<Rational>> dist(g.num_nodes());
  std::vector<bool> done(g.num_nodes(), false);
  using Item = std::pair<Rational, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
  dist[s] = Rational(0);
  q.push({Rational(0), s});
  while (!q.empty()) {
    auto [d, v] = q.top();
    q.pop();
    if (done[v]) continue;
    done[v] = true;
    if (v != s && !relay && g.IsCompute(v)) continue;  // reached, but forwards nothing
    for (int e : g.OutLinks(v)) {
      const int w = g.link(e).to;
      Rational nd = d + len[e];
      if (!dist[w] || nd < *dist[w]) {
        dist[w] = nd;
        q.push({nd, w});
      }
    }
  }
  return dist;
}

}  // namespace

std::string AlltoallDualBound(const Topology& g, const DemandMatrix& demand,
                              const std::vector<Rational>& length, bool relay, Rational* upper) {
  const int m = g.num_links();
  if (static_cast<int>(length.size()) != m) return "length: one value per link expected";
  Rational capacity_cost = 0;
  for (int e = 0; e < m; ++e) {
    if (length[e] < 0) return "length of link " + LinkName(g, e) + " < 0";
    capacity_cost += g.link(e).bandwidth * length[e];
  }
  std::map<int, std::vector<const DemandEntry*>> by_source;
  for (const DemandEntry& x : demand.entries) by_source[x.from].push_back(&x);
  Rational weighted = 0;
  for (const auto& [s, entries] : by_source) {
    const auto dist = Distances(g, length, s, relay);
    for (const DemandEntry* x : entries) {
      if (!dist[x->to]) {
        return "pair " + g.node(s).name + "->" + g.node(x->to).name + ": no path";
      }
      weighted += x->amount * *dist[x->to];
    }
  }
  if (weighted <= 0) return "sum of demand * distance is 0 (no bound)";
  *upper = capacity_cost / weighted;
  return "";
}

AlltoallCheckReport CheckAlltoallCertificate(const Topology& g, const AlltoallCertificate& cert) {
  AlltoallCheckReport r;
  std::string problem = DemandProblem(g, cert.demand);
  if (!problem.empty()) {
    r.violation = problem;
    return r;
  }
  std::string primal = PrimalProblem(g, cert);
  r.primal_ok = primal.empty();
  if (r.primal_ok) r.lower = cert.lambda;
  std::string dual = AlltoallDualBound(g, cert.demand, cert.length, cert.relay, &r.upper);
  r.dual_ok = dual.empty();
  if (!r.primal_ok) {
    r.violation = "primal: " + primal;
  } else if (!r.dual_ok) {
    r.violation = "dual: " + dual;
  } else if (r.upper != r.lower) {
    r.violation =
        "bounds differ: lambda " + ToString(r.lower) + " < dual bound " + ToString(r.upper);
  }
  r.ok = r.violation.empty();
  return r;
}

}  // namespace collsynth
