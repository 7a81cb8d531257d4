#include "solvers/alltoall/alltoall_baselines.h"

#include <map>
#include <queue>
#include <stdexcept>
#include <utility>

#include "core/input_error.h"
#include "solvers/alltoall/alltoall_metrics.h"

namespace collsynth {
namespace {

// The path from s to t along parent pointers of a breadth-first search from s.
std::vector<int> PathFromParents(const std::vector<int>& parent, int s, int t) {
  std::vector<int> back = {t};
  for (int v = t; v != s; v = parent[v]) {
    if (parent[v] < 0) throw std::logic_error("BuildAlltoallBaseline: a disconnected pair");
    back.push_back(parent[v]);
  }
  return std::vector<int>(back.rbegin(), back.rend());
}

// Breadth-first search from s over links in id order, expanding only nodes that forward.
std::vector<int> BfsParents(const Topology& g, int s, const std::vector<bool>& forwards) {
  std::vector<int> parent(g.num_nodes(), -1);
  std::vector<bool> seen(g.num_nodes(), false);
  std::queue<int> q;
  seen[s] = true;
  q.push(s);
  while (!q.empty()) {
    const int u = q.front();
    q.pop();
    if (!forwards[u]) continue;
    for (int e : g.OutLinks(u)) {
      const int w = g.link(e).to;
      if (seen[w]) continue;
      seen[w] = true;
      parent[w] = u;
      q.push(w);
    }
  }
  return parent;
}

// The out-links of v that lie on a shortest path to the destination of `h`, in id order.
std::vector<int> NextHops(const Topology& g, const std::vector<int>& h, int v) {
  std::vector<int> next;
  for (int e : g.OutLinks(v)) {
    const int w = g.link(e).to;
    if (h[w] >= 0 && h[w] == h[v] - 1) next.push_back(e);
  }
  return next;
}

// Every ECMP path from s to t with its share (the product of 1/|next hops|), depth first.
void EcmpPaths(const Topology& g, const std::vector<int>& h, int t, std::vector<int>* prefix,
               const Rational& share, std::vector<FlowPath>* out, std::size_t* total,
               std::size_t max_paths, const std::string& file) {
  const int v = prefix->back();
  if (v == t) {
    if (++*total > max_paths) {
      throw InputError(file, "ecmp",
                       "more than " + std::to_string(max_paths) +
                           " equal-cost shortest paths in all; the ecmp baseline lists each "
                           "path with its share, so it is limited to that many");
    }
    out->push_back({*prefix, share});
    return;
  }
  const std::vector<int> next = NextHops(g, h, v);
  if (next.empty()) throw std::logic_error("BuildAlltoallBaseline: a dead end on a shortest path");
  const Rational part = share / static_cast<long>(next.size());
  for (int e : next) {
    prefix->push_back(g.link(e).to);
    EcmpPaths(g, h, t, prefix, part, out, total, max_paths, file);
    prefix->pop_back();
  }
}

}  // namespace

const std::vector<std::string>& AlltoallBaselineNames() {
  static const std::vector<std::string> names = {"direct", "ecmp", "topoopt-forwarding"};
  return names;
}

std::optional<AlltoallBaseline> ParseAlltoallBaseline(const std::string& name) {
  if (name == "direct") return AlltoallBaseline::kDirect;
  if (name == "ecmp") return AlltoallBaseline::kEcmp;
  if (name == "topoopt-forwarding") return AlltoallBaseline::kTopoOptForwarding;
  return std::nullopt;
}

FlowSchedule BuildAlltoallBaseline(const Topology& g, const DemandMatrix& demand,
                                   const AlltoallBaselineOptions& o, const std::string& file) {
  if (o.which == AlltoallBaseline::kTopoOptForwarding && !o.relay) {
    throw InputError(file, "topoopt-forwarding",
                     "is host-based forwarding (every host relays), so it takes no --no-relay");
  }
  FlowSchedule s;
  s.relay = o.relay;
  s.uniform = o.uniform;
  s.demand = demand;
  std::vector<Rational> load(g.num_links(), Rational(0));
  // Hop counts to a destination: one per destination with relay (every node forwards),
  // else per pair (only switches and the source forward).
  std::map<int, std::vector<int>> hops_to;
  std::vector<int> pair_hops;
  auto hops = [&](int from, int to) -> const std::vector<int>& {
    if (!o.relay) return pair_hops = HopsTo(g, to, Forwarders(g, from, false));
    auto [it, fresh] = hops_to.try_emplace(to);
    if (fresh) it->second = HopsTo(g, to, Forwarders(g, from, true));
    return it->second;
  };
  std::map<int, std::vector<int>> parents;  // direct: BFS parents per source
  std::size_t total = 0;
  for (const DemandEntry& d : demand.entries) {
    PairFlows pair{d.from, d.to, {}};
    switch (o.which) {
      case AlltoallBaseline::kDirect: {
        auto [it, fresh] = parents.try_emplace(d.from);
        if (fresh) it->second = BfsParents(g, d.from, Forwarders(g, d.from, o.relay));
        pair.paths.push_back({PathFromParents(it->second, d.from, d.to), Rational(1)});
        break;
      }
      case AlltoallBaseline::kTopoOptForwarding: {
        const std::vector<int>& h = hops(d.from, d.to);
        std::vector<int> path = {d.from};
        while (path.back() != d.to) {
          const std::vector<int> next = NextHops(g, h, path.back());
          if (next.empty()) throw std::logic_error("BuildAlltoallBaseline: no next hop");
          path.push_back(g.link(next.front()).to);  // the least link id
        }
        pair.paths.push_back({std::move(path), Rational(1)});
        break;
      }
      case AlltoallBaseline::kEcmp: {
        std::vector<int> prefix = {d.from};
        EcmpPaths(g, hops(d.from, d.to), d.to, &prefix, Rational(1), &pair.paths, &total,
                  o.max_paths, file);
        break;
      }
    }
    for (const FlowPath& p : pair.paths) {  // the claimed time's loads (ecmp: its own, below)
      for (std::size_t i = 0; i + 1 < p.nodes.size(); ++i) {
        load[*g.FindLink(p.nodes[i], p.nodes[i + 1])] += d.amount * p.share;
      }
    }
    s.flows.push_back(std::move(pair));
  }
  if (o.which == AlltoallBaseline::kEcmp) {  // the same routing as the metrics' ECMP
    s.time = 1 / ComputeEcmpRouting(g, demand, o.relay).lambda;
    return s;
  }
  s.time = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    if (load[e] > 0 && load[e] / g.link(e).bandwidth > s.time)
      s.time = load[e] / g.link(e).bandwidth;
  }
  return s;
}

}  // namespace collsynth
