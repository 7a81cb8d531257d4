#include "solvers/alltoall/alltoall_metrics.h"

#include <algorithm>
#include <map>
#include <queue>
#include <utility>

namespace collsynth {

std::vector<int> HopsTo(const Topology& g, int t, const std::vector<bool>& forwards) {
  std::vector<int> h(g.num_nodes(), -1);
  std::queue<int> q;
  h[t] = 0;
  q.push(t);
  while (!q.empty()) {
    const int w = q.front();
    q.pop();
    for (int e : g.InLinks(w)) {
      const int u = g.link(e).from;
      if (h[u] < 0 && forwards[u]) {
        h[u] = h[w] + 1;
        q.push(u);
      }
    }
  }
  return h;
}

std::vector<bool> Forwarders(const Topology& g, int source, bool relay) {
  std::vector<bool> forwards(g.num_nodes(), relay);
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (g.IsSwitch(v) || v == source) forwards[v] = true;
  }
  return forwards;
}

namespace {

// Sends inject[v] from every v towards t, split evenly over shortest-path next hops; adds to
// `load`. Returns Σ inject[v]·hops(v).
Rational SpreadTo(const Topology& g, int t, const std::vector<int>& h,
                  std::map<int, Rational> inject, std::vector<Rational>* load) {
  Rational hop_weighted = 0;
  for (const auto& [v, a] : inject) hop_weighted += a * h[v];
  std::vector<int> order;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (h[v] > 0) order.push_back(v);
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) { return h[a] > h[b]; });
  for (int v : order) {
    auto it = inject.find(v);
    if (it == inject.end() || it->second == 0) continue;
    std::vector<int> next;
    for (int e : g.OutLinks(v)) {
      const int w = g.link(e).to;
      if (h[w] >= 0 && h[w] == h[v] - 1) next.push_back(e);
    }
    const Rational share = it->second / static_cast<long>(next.size());
    for (int e : next) {
      (*load)[e] += share;
      const int w = g.link(e).to;
      if (w != t) inject[w] += share;
    }
  }
  return hop_weighted;
}

Rational TotalDemand(const DemandMatrix& d) {
  Rational total = 0;
  for (const DemandEntry& x : d.entries) total += x.amount;
  return total;
}

Rational ComputeEgress(const Topology& g, const std::vector<Rational>& load) {
  Rational sum = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    if (g.IsCompute(g.link(e).from)) sum += load[e];
  }
  return sum;
}

}  // namespace

Rational BandwidthTax(const Topology& g, const AlltoallCertificate& cert) {
  std::vector<Rational> load(g.num_links());
  for (const auto& row : cert.flow) {
    for (int e = 0; e < g.num_links(); ++e) load[e] += row[e];
  }
  return ComputeEgress(g, load) / (cert.lambda * TotalDemand(cert.demand));
}

EcmpRouting ComputeEcmpRouting(const Topology& g, const DemandMatrix& demand, bool relay) {
  EcmpRouting r;
  r.load.assign(g.num_links(), Rational(0));
  Rational hops = 0;
  std::map<int, std::vector<const DemandEntry*>> by_target;
  for (const DemandEntry& x : demand.entries) by_target[x.to].push_back(&x);
  for (const auto& [t, entries] : by_target) {
    if (relay) {
      const std::vector<int> h = HopsTo(g, t, std::vector<bool>(g.num_nodes(), true));
      std::map<int, Rational> inject;
      for (const DemandEntry* x : entries) inject[x->from] += x->amount;
      hops += SpreadTo(g, t, h, inject, &r.load);
      continue;
    }
    for (const DemandEntry* x : entries) {  // only switches and the source forward
      const std::vector<int> h = HopsTo(g, t, Forwarders(g, x->from, false));
      hops += SpreadTo(g, t, h, {{x->from, x->amount}}, &r.load);
    }
  }
  const Rational total = TotalDemand(demand);
  r.average_path_length = hops / total;
  r.bandwidth_tax = ComputeEgress(g, r.load) / total;
  bool first = true;
  for (int e = 0; e < g.num_links(); ++e) {
    if (r.load[e] == 0) continue;
    const Rational x = g.link(e).bandwidth / r.load[e];
    if (first || x < r.lambda) r.lambda = x;
    first = false;
  }
  return r;
}

}  // namespace collsynth
