#include "solvers/pipeline/collective_bounds.h"

#include <optional>
#include <stdexcept>

#include "solvers/backends/max_flow.h"
#include "solvers/pipeline/integer_bandwidths.h"

namespace collsynth {
namespace {

// The topology as a flow network on integer-scaled bandwidths, with one spare node.
FlowNetwork ScaledNetwork(const Topology& g, const IntegerBandwidths& ib, int extra_nodes) {
  FlowNetwork net(g.num_nodes() + extra_nodes);
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    if (l.from != l.to) net.AddArc(l.from, l.to, ib.values[e]);
  }
  return net;
}

}  // namespace

BroadcastBound ComputeBroadcastBound(const Topology& g, int root) {
  if (root < 0 || root >= g.num_nodes() || !g.IsCompute(root)) {
    throw std::invalid_argument("broadcast root must be a compute node");
  }
  IntegerBandwidths ib = ScaleToIntegers(g);
  BroadcastBound b;
  b.root = root;
  BigInt best = -1;
  std::vector<char> side;
  // Without switches every other node is a compute node: min_v F(root, v) is the minimum
  // root-rooted cut, one Hao-Orlin run instead of N-1 max-flows.
  std::optional<RootedMinCut> rooted;
  if (g.num_compute() == g.num_nodes() && g.num_nodes() > 1)
    rooted = MinCutFromRoot(ScaledNetwork(g, ib, 0), root);
  if (rooted) {
    best = rooted->value;
    side = std::move(rooted->source_side);
  }
  std::optional<MaxFlowSolver> solver;
  if (!rooted) solver.emplace(ScaledNetwork(g, ib, 0));
  for (int v : g.ComputeNodes()) {
    if (rooted) break;
    if (v == root) continue;
    MaxFlowResult r = solver->Solve(root, v, true);
    if (best < 0 || r.value < best) {
      best = r.value;
      side = r.source_side;
    }
  }
  if (best <= 0) throw std::invalid_argument("broadcast root cannot reach every compute node");
  b.min_cut = Rational(best) / ib.scale;
  b.ratio = 1 / b.min_cut;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (side[v]) b.cut.push_back(v);
  }
  return b;
}

std::vector<SingleNodeCut> ComputeSingleNodeCuts(const Topology& g, const std::vector<int>& nodes) {
  std::vector<SingleNodeCut> out;
  // (7): μ_v = F(v, t) with infinite arcs u -> t for every other compute node u. Without
  // switches the only S with S ∩ V_c = {v} is {v}: μ_v = B+({v}), v's out-bandwidth to other
  // nodes (self-loops do not leave {v}), and S_v = {v}.
  if (g.num_compute() == g.num_nodes()) {
    for (int v : nodes) {
      SingleNodeCut c;
      for (int e : g.OutLinks(v))
        if (g.link(e).to != v) c.mu += g.link(e).bandwidth;
      c.cut = {v};
      out.push_back(std::move(c));
    }
    return out;
  }
  IntegerBandwidths ib = ScaleToIntegers(g);
  int t = g.num_nodes();
  FlowNetwork net = ScaledNetwork(g, ib, 1);
  std::vector<int> arc_of(g.num_nodes(), -1);
  for (int u : g.ComputeNodes()) arc_of[u] = net.AddInfiniteArc(u, t);
  MaxFlowSolver solver(net);
  for (int v : nodes) {
    solver.SetCapacity(arc_of[v], 0);
    const MaxFlowResult r = solver.Solve(v, t, true);
    SingleNodeCut c;
    c.mu = Rational(r.value) / ib.scale;
    // The source side holds v and no other compute node (its arc to t is infinite).
    for (int u = 0; u < g.num_nodes(); ++u) {
      if (r.source_side[u]) c.cut.push_back(u);
    }
    solver.SetInfinite(arc_of[v]);
    out.push_back(std::move(c));
  }
  return out;
}

AllreduceBounds ComputeAllreduceBounds(const Topology& g, const AllgatherOptimum& optimum) {
  IntegerBandwidths ib = ScaleToIntegers(g);
  std::vector<int> compute = g.ComputeNodes();
  const int n = static_cast<int>(compute.size());
  AllreduceBounds a;
  const bool switchless = n == g.num_nodes();
  // (6): min_{v != v0} F(v0, v). Without switches every other node is a compute node, so it
  // is the minimum v0-rooted cut: one Hao-Orlin run instead of N-1 max-flows.
  {
    BigInt best = -1;
    std::vector<char> side;
    std::optional<RootedMinCut> rooted;
    if (switchless) rooted = MinCutFromRoot(ScaledNetwork(g, ib, 0), compute[0]);
    if (rooted) {
      best = rooted->value;
      side = std::move(rooted->source_side);
    }
    std::optional<MaxFlowSolver> solver;
    if (!rooted) solver.emplace(ScaledNetwork(g, ib, 0));
    for (int i = 1; i < n && !rooted; ++i) {
      MaxFlowResult r = solver->Solve(compute[0], compute[i], true);
      if (best < 0 || r.value < best) {
        best = r.value;
        side = r.source_side;
      }
    }
    a.min_cut = Rational(best) / ib.scale;
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (side[v]) a.min_cut_set.push_back(v);
    }
    a.bound6 = Rational(n) / a.min_cut;
  }
  // (7): μ_v = F(v, t) with infinite arcs u -> t for every other compute node u. Without
  // switches the only S with S ∩ V_c = {v} is {v}: μ_v = B+({v}), v's out-bandwidth to other
  // nodes (self-loops do not leave {v}), and S_v = {v}.
  std::vector<Rational> mu(g.num_nodes());
  std::vector<SingleNodeCut> cuts = ComputeSingleNodeCuts(g, compute);
  for (std::size_t i = 0; i < compute.size(); ++i) {
    mu[compute[i]] = cuts[i].mu;
    if (cuts[i].mu > a.max_single_cut) a.max_single_cut = cuts[i].mu;
    a.single_cuts.push_back(std::move(cuts[i].cut));
  }
  a.bound7 = Rational(2 * (n - 1)) / a.max_single_cut;
  a.lower_bound = a.bound6 > a.bound7 ? a.bound6 : a.bound7;
  a.rs_ag_ratio = 2 * optimum.ratio;
  a.theorem19_a = 2 * optimum.cut_compute == n;
  if (optimum.cut_compute == 1) {
    for (int v : optimum.bottleneck_cut) {
      if (g.IsCompute(v)) a.theorem19_b = mu[v] == a.max_single_cut;
    }
  }
  a.rs_ag_optimal = a.theorem19_a || a.theorem19_b || a.rs_ag_ratio == a.lower_bound;
  return a;
}

}  // namespace collsynth
