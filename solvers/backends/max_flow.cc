#include "solvers/backends/max_flow.h"

#include <stdexcept>

#include "solvers/backends/lemon_graph.h"

namespace collsynth {

int FlowNetwork::AddArc(int from, int to, const BigInt& capacity) {
  if (from < 0 || to < 0 || from >= num_nodes_ || to >= num_nodes_) {
    throw std::logic_error("FlowNetwork::AddArc: node id out of range");
  }
  if (capacity < 0) throw std::logic_error("FlowNetwork::AddArc: negative capacity");
  tail_.push_back(from);
  head_.push_back(to);
  capacity_.push_back(capacity);
  infinite_.push_back(0);
  return num_arcs() - 1;
}

int FlowNetwork::AddInfiniteArc(int from, int to) {
  int a = AddArc(from, to, 0);
  infinite_[a] = 1;
  return a;
}

std::optional<RootedMinCut> MinCutFromRoot(const FlowNetwork& network, int root) {
  if (root < 0 || root >= network.num_nodes()) throw std::logic_error("MinCutFromRoot: bad root");
  if (network.num_nodes() < 2) throw std::logic_error("MinCutFromRoot: needs two nodes");
  BigInt total = 0;
  for (int a = 0; a < network.num_arcs(); ++a) {
    if (network.infinite(a)) return std::nullopt;
    total += network.capacity(a);
  }
  if (total >= (BigInt(1) << 62)) return std::nullopt;
  using Digraph = lemon::SmartDigraph;
  Digraph graph;
  std::vector<Digraph::Node> node(network.num_nodes());
  for (auto& v : node) v = graph.addNode();
  Digraph::ArcMap<std::int64_t> cap(graph);
  for (int a = 0; a < network.num_arcs(); ++a) {
    if (network.tail(a) == network.head(a) || network.capacity(a) == 0) continue;
    cap[graph.addArc(node[network.tail(a)], node[network.head(a)])] =
        static_cast<std::int64_t>(network.capacity(a));
  }
  lemon::HaoOrlin<Digraph, Digraph::ArcMap<std::int64_t>> ho(graph, cap);
  ho.init(node[root]);
  ho.calculateOut();
  RootedMinCut r;
  r.value = BigInt(ho.minCutValue());
  Digraph::NodeMap<bool> side(graph);
  ho.minCutMap(side);
  r.source_side.resize(network.num_nodes());
  for (int v = 0; v < network.num_nodes(); ++v) r.source_side[v] = side[node[v]] ? 1 : 0;
  return r;
}

void FlowNetwork::SetCapacity(int arc, const BigInt& capacity) {
  if (capacity < 0) throw std::logic_error("FlowNetwork::SetCapacity: negative capacity");
  capacity_[arc] = capacity;
  infinite_[arc] = 0;
}

void FlowNetwork::SetInfinite(int arc) {
  capacity_[arc] = 0;
  infinite_[arc] = 1;
}

BigInt CutCapacity(const FlowNetwork& network, const std::vector<char>& side, bool* infinite) {
  BigInt total = 0;
  *infinite = false;
  for (int a = 0; a < network.num_arcs(); ++a) {
    if (side[network.tail(a)] && !side[network.head(a)]) {
      if (network.infinite(a))
        *infinite = true;
      else
        total += network.capacity(a);
    }
  }
  return total;
}

struct MaxFlowSolver::Impl {
  using Digraph = lemon::SmartDigraph;
  Digraph graph;
  std::vector<Digraph::Node> nodes;
  std::vector<Digraph::Arc> arcs;
  Digraph::ArcMap<std::int64_t> cap64{graph};
  Digraph::ArcMap<BigInt> cap_big{graph};
  std::unique_ptr<lemon::Preflow<Digraph, Digraph::ArcMap<std::int64_t>>> flow64;
  std::unique_ptr<lemon::Preflow<Digraph, Digraph::ArcMap<BigInt>>> flow_big;
  BigInt finite_sum = 0;
  int num_infinite = 0;
  bool dirty = true;  // capacity maps must be refreshed
  bool use64 = true;
  bool infinite_stale = false;  // int64 stand-in for infinity must be refreshed
  // Preflows: `work` is the map Preflow writes into (the last solve's preflow), `saved`
  // the copy taken by SaveFlow. Each remembers the source it was computed for (-1: none)
  // and the number type.
  Digraph::ArcMap<std::int64_t> work64{graph}, saved64{graph};
  Digraph::ArcMap<BigInt> work_big{graph}, saved_big{graph};
  int work_source = -1, saved_source = -1;
  bool work_is64 = true, saved_is64 = true;
};

MaxFlowSolver::MaxFlowSolver(const FlowNetwork& network)
    : network_(network), impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.graph.reserveNode(network_.num_nodes());
  m.graph.reserveArc(network_.num_arcs());
  for (int v = 0; v < network_.num_nodes(); ++v) m.nodes.push_back(m.graph.addNode());
  for (int a = 0; a < network_.num_arcs(); ++a) {
    m.arcs.push_back(m.graph.addArc(m.nodes[network_.tail(a)], m.nodes[network_.head(a)]));
  }
  for (int a = 0; a < network_.num_arcs(); ++a) {
    if (network_.infinite(a))
      ++m.num_infinite;
    else
      m.finite_sum += network_.capacity(a);
  }
}

MaxFlowSolver::~MaxFlowSolver() = default;

void MaxFlowSolver::SetCapacity(int arc, const BigInt& capacity) {
  if (capacity < 0) throw std::logic_error("MaxFlowSolver::SetCapacity: negative capacity");
  Impl& m = *impl_;
  if (network_.infinite(arc))
    --m.num_infinite;
  else
    m.finite_sum -= network_.capacity(arc);
  network_.SetCapacity(arc, capacity);
  m.finite_sum += capacity;
  if (m.use64 && !m.dirty) {
    // Fast path: stay on int64 when the new totals still fit.
    BigInt bound = (BigInt(m.num_infinite) + 1) * (m.finite_sum + 1);
    if (bound < (BigInt(1) << 62)) {
      m.cap64[m.arcs[arc]] = static_cast<std::int64_t>(capacity);
      m.infinite_stale = m.num_infinite > 0;
      return;
    }
  }
  m.dirty = true;
}

void MaxFlowSolver::SetInfinite(int arc) {
  Impl& m = *impl_;
  if (network_.infinite(arc)) return;
  m.finite_sum -= network_.capacity(arc);
  ++m.num_infinite;
  network_.SetInfinite(arc);
  if (m.use64 && !m.dirty) {
    BigInt bound = (BigInt(m.num_infinite) + 1) * (m.finite_sum + 1);
    if (bound < (BigInt(1) << 62)) {
      m.infinite_stale = true;  // every infinite arc gets the new stand-in at Solve
      return;
    }
  }
  m.dirty = true;
}

namespace {

template <typename Graph, typename From, typename To>
void CopyArcMap(const Graph& graph, const From& from, To& to) {
  for (typename Graph::ArcIt a(graph); a != lemon::INVALID; ++a) to.set(a, from[a]);
}

}  // namespace

void MaxFlowSolver::SaveFlow() {
  Impl& m = *impl_;
  if (m.work_source < 0) return;
  if (m.work_is64)
    CopyArcMap(m.graph, m.work64, m.saved64);
  else
    CopyArcMap(m.graph, m.work_big, m.saved_big);
  m.saved_source = m.work_source;
  m.saved_is64 = m.work_is64;
}

MaxFlowResult MaxFlowSolver::Solve(int source, int sink, bool want_cut, bool want_flow) {
  return SolveImpl(source, sink, want_cut, want_flow, WarmStart::kNone);
}

MaxFlowResult MaxFlowSolver::SolveFromSaved(int source, int sink, bool want_cut, bool want_flow) {
  return SolveImpl(source, sink, want_cut, want_flow, WarmStart::kSaved);
}

MaxFlowResult MaxFlowSolver::SolveFromLast(int source, int sink, bool want_cut, bool want_flow) {
  return SolveImpl(source, sink, want_cut, want_flow, WarmStart::kLast);
}

MaxFlowResult MaxFlowSolver::SolveImpl(int source, int sink, bool want_cut, bool want_flow,
                                       WarmStart warm) {
  if (source == sink || source < 0 || sink < 0 || source >= network_.num_nodes() ||
      sink >= network_.num_nodes()) {
    throw std::logic_error("MaxFlowSolver::Solve: bad source/sink");
  }
  ++calls_;
  Impl& m = *impl_;
  if (m.dirty) {
    BigInt bound = (BigInt(m.num_infinite) + 1) * (m.finite_sum + 1);
    m.use64 = bound < (BigInt(1) << 62);
    BigInt inf = m.finite_sum + 1;
    for (int a = 0; a < network_.num_arcs(); ++a) {
      const BigInt& c = network_.infinite(a) ? inf : network_.capacity(a);
      if (m.use64)
        m.cap64[m.arcs[a]] = static_cast<std::int64_t>(c);
      else
        m.cap_big[m.arcs[a]] = c;
    }
    m.dirty = false;
    m.infinite_stale = false;
  } else if (m.infinite_stale) {
    std::int64_t inf = static_cast<std::int64_t>(m.finite_sum + 1);
    for (int a = 0; a < network_.num_arcs(); ++a) {
      if (network_.infinite(a)) m.cap64[m.arcs[a]] = inf;
    }
    m.infinite_stale = false;
  }
  MaxFlowResult r;
  // A preflow computed for the same source stays a preflow for any sink; arcs whose
  // capacity dropped below their flow are clamped, which can leave a node with negative
  // excess: then Preflow::init(flowMap) refuses it and the solve starts cold.
  bool warm_ok = false;
  if (warm == WarmStart::kSaved) {
    warm_ok = m.saved_source == source && m.saved_is64 == m.use64;
    if (warm_ok && m.use64) CopyArcMap(m.graph, m.saved64, m.work64);
    if (warm_ok && !m.use64) CopyArcMap(m.graph, m.saved_big, m.work_big);
  } else if (warm == WarmStart::kLast) {
    warm_ok = m.work_source == source && m.work_is64 == m.use64;
  }
  auto finish = [&](auto& pf, auto& work, const auto& cap) {
    pf.source(m.nodes[source]).target(m.nodes[sink]);
    bool started = false;
    if (warm_ok) {
      for (Impl::Digraph::ArcIt a(m.graph); a != lemon::INVALID; ++a) {
        if (work[a] > cap[a]) work.set(a, cap[a]);
      }
      started = pf.init(work);
    }
    if (started)
      ++warm_starts_;
    else
      pf.init();
    pf.startFirstPhase();
    m.work_source = source;
    m.work_is64 = m.use64;
    r.value = pf.flowValue();
    if (r.value > m.finite_sum) {
      r.status = MaxFlowStatus::kUnbounded;
      return;
    }
    if (want_cut) {
      r.source_side.assign(network_.num_nodes(), 0);
      for (int v = 0; v < network_.num_nodes(); ++v) r.source_side[v] = pf.minCut(m.nodes[v]);
    }
    if (want_flow) {
      // The second phase only moves excess back to the source: the value and the first
      // phase's cut stay, and the flow map remains a valid warm start for this source.
      pf.startSecondPhase();
      r.flow.resize(network_.num_arcs());
      for (int a = 0; a < network_.num_arcs(); ++a) r.flow[a] = BigInt(pf.flow(m.arcs[a]));
    }
  };
  if (m.use64) {
    if (!m.flow64) {
      m.flow64 =
          std::make_unique<lemon::Preflow<Impl::Digraph, Impl::Digraph::ArcMap<std::int64_t>>>(
              m.graph, m.cap64, m.nodes[source], m.nodes[sink]);
      m.flow64->flowMap(m.work64);
    }
    finish(*m.flow64, m.work64, m.cap64);
  } else {
    if (!m.flow_big) {
      m.flow_big = std::make_unique<lemon::Preflow<Impl::Digraph, Impl::Digraph::ArcMap<BigInt>>>(
          m.graph, m.cap_big, m.nodes[source], m.nodes[sink]);
      m.flow_big->flowMap(m.work_big);
    }
    finish(*m.flow_big, m.work_big, m.cap_big);
  }
  return r;
}

MaxFlowResult ComputeMaxFlow(const FlowNetwork& network, int source, int sink) {
  MaxFlowSolver solver(network);
  return solver.Solve(source, sink, /*want_cut=*/true, /*want_flow=*/true);
}

std::optional<std::string> VerifyMaxFlowCertificate(const FlowNetwork& network, int source,
                                                    int sink, const MaxFlowResult& r) {
  const int n = network.num_nodes();
  if (r.status != MaxFlowStatus::kOptimal) return "status is not optimal";
  if (static_cast<int>(r.flow.size()) != network.num_arcs())
    return "flow has the wrong number of arcs";
  if (static_cast<int>(r.source_side.size()) != n) return "cut has the wrong number of nodes";
  std::vector<BigInt> net_out(n, BigInt(0));
  for (int a = 0; a < network.num_arcs(); ++a) {
    if (r.flow[a] < 0) return "negative flow on arc " + std::to_string(a);
    if (!network.infinite(a) && r.flow[a] > network.capacity(a))
      return "flow above capacity on arc " + std::to_string(a);
    net_out[network.tail(a)] += r.flow[a];
    net_out[network.head(a)] -= r.flow[a];
  }
  for (int v = 0; v < n; ++v) {
    if (v != source && v != sink && net_out[v] != 0)
      return "flow not conserved at node " + std::to_string(v);
  }
  if (net_out[source] != r.value)
    return "source sends " + net_out[source].str() + ", not the value";
  if (!r.source_side[source] || r.source_side[sink])
    return "cut does not separate source from sink";
  bool infinite = false;
  const BigInt cut = CutCapacity(network, r.source_side, &infinite);
  if (infinite) return "an infinite arc leaves the cut";
  if (cut != r.value) return "cut capacity " + cut.str() + " != value " + r.value.str();
  return std::nullopt;
}

}  // namespace collsynth
