#include "graphs/properties.h"

#include <algorithm>
#include <deque>

#include "core/input_error.h"

namespace collsynth {
namespace {

std::vector<char> Reach(const Topology& g, int s, bool forward) {
  std::vector<char> seen(g.num_nodes(), 0);
  std::vector<int> stack{s};
  seen[s] = 1;
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    const auto& adj = forward ? g.OutLinks(v) : g.InLinks(v);
    for (int e : adj) {
      int w = forward ? g.link(e).to : g.link(e).from;
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back(w);
      }
    }
  }
  return seen;
}

}  // namespace

EulerianReport CheckEulerian(const Topology& g) {
  EulerianReport r;
  for (int v = 0; v < g.num_nodes(); ++v) {
    Rational in = g.InBandwidth(v), out = g.OutBandwidth(v);
    if (in != out) {
      r.eulerian = false;
      r.node = v;
      r.in_bandwidth = in;
      r.out_bandwidth = out;
      return r;
    }
  }
  return r;
}

ConnectivityReport CheckStronglyConnected(const Topology& g) {
  ConnectivityReport r;
  auto compute = g.ComputeNodes();
  if (compute.empty()) return r;
  int s = compute.front();
  auto fwd = Reach(g, s, true);
  for (int v : compute) {
    if (!fwd[v]) return ConnectivityReport{false, s, v};
  }
  auto bwd = Reach(g, s, false);
  for (int v : compute) {
    if (!bwd[v]) return ConnectivityReport{false, v, s};
  }
  return r;
}

DegreeReport ComputeDegrees(const Topology& g) {
  DegreeReport r;
  bool first = true;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (!g.IsCompute(v)) continue;
    std::int64_t o = g.OutDegree(v), i = g.InDegree(v);
    if (first) {
      r.min_out = r.max_out = o;
      r.min_in = r.max_in = i;
      first = false;
    }
    r.min_out = std::min(r.min_out, o);
    r.max_out = std::max(r.max_out, o);
    r.min_in = std::min(r.min_in, i);
    r.max_in = std::max(r.max_in, i);
  }
  bool uniform = true;
  std::optional<Rational> b;
  for (const Link& l : g.links()) {
    if (l.from == l.to) ++r.self_loops;
    if (l.multiplicity > 1) ++r.multi_links;
    Rational unit = l.bandwidth / l.multiplicity;
    if (!b)
      b = unit;
    else if (*b != unit)
      uniform = false;
  }
  if (uniform) r.link_bandwidth = b;
  r.regular = !first && g.num_switches() == 0 && uniform && r.min_out == r.max_out &&
              r.min_in == r.max_in && r.min_out == r.min_in;
  if (r.regular) r.degree = r.min_out;
  return r;
}

void RequireStronglyConnected(const Topology& g, const std::string& file) {
  if (g.num_compute() == 0) throw InputError(file, "nodes", "the topology has no compute nodes");
  auto c = CheckStronglyConnected(g);
  if (!c.strongly_connected) {
    throw InputError(file, "node " + g.node(c.from).name,
                     "cannot reach compute node " + g.node(c.to).name +
                         ": the topology is not strongly connected over its compute nodes");
  }
}

void RequireEulerianStronglyConnected(const Topology& g, const std::string& file) {
  RequireStronglyConnected(g, file);
  auto e = CheckEulerian(g);
  if (!e.eulerian) {
    throw InputError(file, "node " + g.node(e.node).name,
                     "not Eulerian: in-bandwidth " + ToString(e.in_bandwidth) +
                         " != out-bandwidth " + ToString(e.out_bandwidth));
  }
}

}  // namespace collsynth
