#include "solvers/pipeline/edge_splitting.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "solvers/backends/max_flow.h"

namespace collsynth {
namespace {

using Arc = std::pair<int, int>;

// D_c: the capacity graph plus a source s = g.num_nodes() with arcs s -> v of capacity c_v.
FlowNetwork SourceNetwork(const Topology& g, const CapacityGraph& d,
                          const std::vector<BigInt>& source_capacity) {
  const int s = g.num_nodes();
  FlowNetwork net(s + 1);
  for (const auto& [arc, c] : d.capacity) {
    if (arc.first != arc.second && c > 0) net.AddArc(arc.first, arc.second, c);
  }
  for (int v = 0; v < s; ++v) {
    if (source_capacity[v] > 0) net.AddArc(s, v, source_capacity[v]);
  }
  return net;
}

class Splitter {
 public:
  Splitter(const Topology& g, const CapacityGraph& d, const std::vector<BigInt>& src,
           const BigInt& threshold, const SplittingOptions& options)
      : g_(g),
        src_(src),
        threshold_(threshold),
        options_(options),
        out_(g.num_nodes()),
        in_(g.num_nodes()) {
    for (const auto& [arc, c] : d.capacity) {
      if (c <= 0 || arc.first == arc.second) continue;
      SetCap(arc, c);
      paths_[arc].push_back(RoutedPath{{arc.first, arc.second}, c});
    }
  }

  SplitResult Run(bool require_eulerian) {
    relaxed_ = !require_eulerian;
    for (int v = 0; require_eulerian && v < g_.num_nodes(); ++v) {
      BigInt in = 0, out = 0;
      for (int u : in_[v]) in += Cap({u, v});
      for (const auto& [t, c] : out_[v]) out += c;
      if (in != out) {
        throw std::logic_error("edge splitting: capacity graph not Eulerian at node " +
                               g_.node(v).name);
      }
    }
    if (CurrentConnectivity() < threshold_) {
      throw std::logic_error("edge splitting: min_v F(s, v) is below the threshold");
    }
    // Switches with few neighbours first (e.g. NICs before the leaf switches they hang
    // off): their splits are cheap, and the bigger switches then see compute neighbours.
    std::vector<std::pair<std::size_t, int>> order;
    for (int w = 0; w < g_.num_nodes(); ++w) {
      if (g_.IsSwitch(w)) order.push_back({in_[w].size() * out_[w].size(), w});
    }
    std::stable_sort(order.begin(), order.end());
    for (const auto& [degree, w] : order) RemoveSwitch(w);
    SplitResult r;
    for (int v = 0; v < g_.num_nodes(); ++v) {
      for (const auto& [t, c] : out_[v]) {
        r.direct.capacity[{v, t}] = c;
        r.routes[{v, t}] = paths_[{v, t}];
      }
    }
    r.preserved_connectivity = CurrentConnectivity();
    if (r.preserved_connectivity < threshold_) {
      throw std::logic_error("edge splitting lost connectivity");
    }
    r.split_operations = splits_;
    r.max_flow_calls = calls_;
    r.dropped_capacity = dropped_;
    r.rooted_min_cuts = rooted_cuts_;
    r.whole_switch_splits = whole_switches_;
    return r;
  }

 private:
  BigInt Cap(const Arc& a) const {
    auto it = out_[a.first].find(a.second);
    return it == out_[a.first].end() ? BigInt(0) : it->second;
  }
  void SetCap(const Arc& a, const BigInt& c) {
    if (c == 0) {
      out_[a.first].erase(a.second);
      in_[a.second].erase(a.first);
    } else {
      out_[a.first][a.second] = c;
      in_[a.second].insert(a.first);
    }
  }

  CapacityGraph CurrentGraph() const {
    CapacityGraph d;
    for (int v = 0; v < g_.num_nodes(); ++v) {
      for (const auto& [t, c] : out_[v]) d.capacity[{v, t}] = c;
    }
    return d;
  }

  BigInt CurrentConnectivity() {
    std::int64_t calls = 0;
    BigInt r = MinSourceConnectivity(g_, CurrentGraph(), src_, &calls);
    calls_ += calls;
    return r;
  }

  // Theorem 8's flow networks for one egress arc f = (w, t): D_c (nodes of g plus s = n)
  // with every arc that splitting at w can touch, plus the arcs that the two terms of (2)
  // make infinite ((u, s), (w, s), (v, w), (v, t) for every compute v), at capacity 0
  // until a query needs them. Built once per egress arc and updated in place after each
  // split, instead of once per evaluation of (2).
  void BuildEgressNetwork(int w, int t) {
    const int n = g_.num_nodes(), s = n;
    FlowNetwork net(n + 1);
    arc_id_.clear();
    for (int v = 0; v < n; ++v) {
      for (const auto& [x, c] : out_[v]) arc_id_[{v, x}] = net.AddArc(v, x, c);
    }
    for (int u : in_[w]) {
      if (u != t && !arc_id_.count({u, t})) arc_id_[{u, t}] = net.AddArc(u, t, 0);
    }
    for (int v = 0; v < n; ++v) {
      if (src_[v] > 0) net.AddArc(s, v, src_[v]);
    }
    to_s_.assign(n, -1);
    for (int u : in_[w]) to_s_[u] = net.AddArc(u, s, 0);
    to_s_[w] = net.AddArc(w, s, 0);
    to_w_.assign(n, -1);
    to_t_.assign(n, -1);
    for (int v = 0; v < n; ++v) {
      if (!g_.IsCompute(v)) continue;
      to_w_[v] = net.AddArc(v, w, 0);
      if (v != t) to_t_[v] = net.AddArc(v, t, 0);  // v = t: t is on the sink side anyway
    }
    solver_ = std::make_unique<MaxFlowSolver>(net);
  }

  void SyncCapacity(const Arc& a) {
    auto it = arc_id_.find(a);
    if (it != arc_id_.end()) solver_->SetCapacity(it->second, Cap(a));
  }

  // min(limit, min_{v∈V_c} F(a, b; D̂_v) - T), where D̂_v is D_c with the arcs `infinite`
  // (ids in the egress network) and per_v[v] made infinite. One max-flow when its min cut
  // leaves a compute node on the sink side (then that v attains the min), else one
  // warm-started max-flow per compute v (adding an infinite arc keeps the base preflow a
  // preflow, so each of them only pushes the extra flow).
  BigInt Term(int a, int b, const std::vector<int>& infinite, const std::vector<int>& per_v,
              const BigInt& limit) {
    for (int arc : infinite) solver_->SetInfinite(arc);
    BigInt best = limit;
    MaxFlowResult base = solver_->Solve(a, b, true);
    ++calls_;
    bool loop = !base.unbounded() && base.value - threshold_ < limit;
    if (loop) {
      for (int v = 0; v < g_.num_nodes(); ++v) {
        if (g_.IsCompute(v) && !base.source_side[v]) {
          best = base.value - threshold_;
          loop = false;
          break;
        }
      }
    }
    if (loop) {
      solver_->SaveFlow();
      for (int v = 0; v < g_.num_nodes() && best > 0; ++v) {
        if (per_v[v] < 0) continue;
        solver_->SetInfinite(per_v[v]);
        MaxFlowResult r = solver_->SolveFromSaved(a, b, false);
        ++calls_;
        solver_->SetCapacity(per_v[v], 0);
        if (!r.unbounded()) best = std::min(best, BigInt(r.value - threshold_));
      }
    }
    for (int arc : infinite) solver_->SetCapacity(arc, 0);  // the caller restores real arcs
    return best;
  }

  // Theorem 8, eq. (2), on the egress network of (w, t).
  BigInt SplitAmount(int u, int w, int t) {
    BigInt m = std::min(Cap({u, w}), Cap({w, t}));
    auto ut = arc_id_.find({u, t});
    int ut_arc = u != t ? ut->second : -1;
    std::vector<int> infinite = {to_s_[u]};
    if (ut_arc >= 0) infinite.push_back(ut_arc);
    // (u, w) side: infinite (u, s), (u, t), (v, w); flow u -> w.
    m = Term(u, w, infinite, to_w_, m);
    if (ut_arc >= 0) solver_->SetCapacity(ut_arc, Cap({u, t}));
    if (m <= 0) return 0;
    // (w, t) side: infinite (w, s), (u, t), (v, t); flow w -> t.
    infinite[0] = to_s_[w];
    m = Term(w, t, infinite, to_t_, m);
    if (ut_arc >= 0) solver_->SetCapacity(ut_arc, Cap({u, t}));
    return m > 0 ? m : BigInt(0);
  }

  std::vector<RoutedPath> Take(const Arc& a, BigInt amount) {
    std::vector<RoutedPath> taken;
    auto& list = paths_[a];
    while (amount > 0) {
      if (list.empty()) throw std::logic_error("edge splitting: path bookkeeping underflow");
      RoutedPath& last = list.back();
      if (last.multiplicity <= amount) {
        amount -= last.multiplicity;
        taken.push_back(std::move(last));
        list.pop_back();
      } else {
        last.multiplicity -= amount;
        taken.push_back(RoutedPath{last.nodes, amount});
        amount = 0;
      }
    }
    if (list.empty()) paths_.erase(a);
    return taken;
  }

  void Split(int u, int w, int t, const BigInt& m) {
    ++splits_;
    SetCap({u, w}, Cap({u, w}) - m);
    SetCap({w, t}, Cap({w, t}) - m);
    std::vector<RoutedPath> first = Take({u, w}, m), second = Take({w, t}, m);
    if (u == t) return;  // a self-loop carries nothing useful
    SetCap({u, t}, Cap({u, t}) + m);
    auto& dest = paths_[{u, t}];
    std::size_t i = 0, j = 0;
    BigInt left_i = first[0].multiplicity, left_j = second[0].multiplicity;
    while (i < first.size() && j < second.size()) {
      BigInt amt = std::min(left_i, left_j);
      RoutedPath p{first[i].nodes, amt};
      p.nodes.insert(p.nodes.end(), second[j].nodes.begin() + 1, second[j].nodes.end());
      if (!dest.empty() && dest.back().nodes == p.nodes)
        dest.back().multiplicity += amt;
      else
        dest.push_back(std::move(p));
      left_i -= amt;
      left_j -= amt;
      if (left_i == 0 && ++i < first.size()) left_i = first[i].multiplicity;
      if (left_j == 0 && ++j < second.size()) left_j = second[j].multiplicity;
    }
  }

  // Strict mode (Eulerian input): one pass over the egress arcs of w, each split off
  // completely (Theorem 7). Relaxed mode (non-Eulerian input, §2.4's floor graphs): a
  // second pass retries what the first left (later splits can free earlier pairs); then, if
  // w has lost all its ingress or all its egress capacity, the arcs left at w lie on no
  // s -> v path (nothing enters w, or nothing leaves it), so dropping them keeps every
  // F(s, v): w is isolated. Anything else is a switch that cannot be isolated.
  // Fast path (strict mode, SplittingOptions::whole_switches): split w off completely in
  // one go along a rotation pairing (RotationPlan) and keep it when one rooted min cut
  // (MinCutFromRoot from s, over every node) shows min_v F(s, v) >= T: a sufficient test,
  // since it bounds the compute sinks and the switch sinks alike. Two rotations are tried:
  // by the first neighbour's capacity (a switch whose links are duplex and equal becomes a
  // directed ring of its neighbours, as in seed 004 Figure 2) and by about 0.382 of the
  // switch's capacity (neighbours far apart in id order, e.g. other boxes of a rail switch,
  // get paired). After a failed test everything is undone; when both fail, Theorem 8
  // decides pair by pair. O(deg(w)) splits and at most two Hao-Orlin runs instead of
  // O(deg(w)^2) evaluations of (2), each up to 2(N+1) max-flows.
  bool TrySplitWholeSwitch(int w) {
    std::vector<std::pair<int, BigInt>> ins, outs;  // in id order (std::set / std::map)
    BigInt total = 0, out_total = 0;
    for (int u : in_[w]) {
      ins.push_back({u, Cap({u, w})});
      total += ins.back().second;
    }
    for (const auto& [t, c] : out_[w]) {
      outs.push_back({t, c});
      out_total += c;
    }
    if (ins.empty() || total != out_total) return false;
    BigInt ring = 0;  // out capacity up to and including the first ingress neighbour
    for (const auto& [t, c] : outs) {
      if (t <= ins[0].first) ring += c;
    }
    std::vector<BigInt> offsets = {ring % total};
    BigInt spread = total * 382 / 1000;
    if (spread != offsets[0]) offsets.push_back(spread);
    std::set<int> neighbours;
    for (const auto& [u, c] : ins) neighbours.insert(u);
    for (const auto& [t, c] : outs) neighbours.insert(t);
    for (const BigInt& offset : offsets) {
      std::optional<std::vector<std::tuple<int, int, BigInt>>> plan =
          RotationPlan(ins, outs, offset);
      if (!plan) continue;
      if (neighbours.size() <= 2) {
        // At most two neighbours a, b and no self-loop: all of b's ingress goes to a and all
        // of a's egress came from b (and vice versa), so for every set Y without w the new
        // arcs entering Y carry exactly what entered Y ∪ {w} and Y - {w} before: every
        // F(s, v), v != w, is unchanged. No test needed (NIC-like switches).
        for (const auto& [u, t, m] : *plan) Split(u, w, t, m);
      } else if (!ApplyIfCertified(w, *plan)) {
        continue;
      }
      ++whole_switches_;
      return true;
    }
    return false;
  }

  // Pairs the ingress units [0, C) of a switch (neighbours in id order) with the egress
  // units shifted by `offset` (mod C): ingress unit p goes to egress unit p + offset. A
  // north-west corner walk over the ingress list and the rotated egress list; std::nullopt
  // when some neighbour would be paired with itself (that capacity would be lost).
  static std::optional<std::vector<std::tuple<int, int, BigInt>>> RotationPlan(
      const std::vector<std::pair<int, BigInt>>& ins,
      const std::vector<std::pair<int, BigInt>>& outs, const BigInt& offset) {
    std::vector<std::pair<int, BigInt>> rotated;
    BigInt before = 0;
    std::size_t cut = 0;
    while (before + outs[cut].second <= offset) before += outs[cut++].second;
    rotated.push_back({outs[cut].first, before + outs[cut].second - offset});
    for (std::size_t j = cut + 1; j < outs.size(); ++j) rotated.push_back(outs[j]);
    for (std::size_t j = 0; j < cut; ++j) rotated.push_back(outs[j]);
    if (offset > before) rotated.push_back({outs[cut].first, offset - before});
    std::vector<std::tuple<int, int, BigInt>> plan;
    std::size_t i = 0, j = 0;
    BigInt left_i = ins[0].second, left_j = rotated[0].second;
    while (i < ins.size() && j < rotated.size()) {
      BigInt m = std::min(left_i, left_j);
      if (ins[i].first == rotated[j].first) return std::nullopt;
      plan.push_back({ins[i].first, rotated[j].first, m});
      left_i -= m;
      left_j -= m;
      if (left_i == 0 && ++i < ins.size()) left_i = ins[i].second;
      if (left_j == 0 && ++j < rotated.size()) left_j = rotated[j].second;
    }
    return plan;
  }

  // Applies the splits of `plan` at w and keeps them when the rooted min cut from s over
  // every node (isolated switches get an arc from s of capacity T, so they never bind) is
  // at least T; otherwise restores every arc the plan touched and returns false.
  bool ApplyIfCertified(int w, const std::vector<std::tuple<int, int, BigInt>>& plan) {
    std::map<Arc, std::pair<BigInt, std::optional<std::vector<RoutedPath>>>> saved;
    auto save = [&](const Arc& a) {
      if (saved.count(a)) return;
      auto it = paths_.find(a);
      saved[a] = {Cap(a), it == paths_.end() ? std::nullopt
                                             : std::optional<std::vector<RoutedPath>>(it->second)};
    };
    for (const auto& [u, t, m] : plan) {
      save({u, w});
      save({w, t});
      save({u, t});
    }
    const std::int64_t splits_before = splits_;
    for (const auto& [u, t, m] : plan) Split(u, w, t, m);
    const int n = g_.num_nodes(), s = n;
    FlowNetwork net = SourceNetwork(g_, CurrentGraph(), src_);
    for (int v = 0; v < n; ++v) {
      if (!g_.IsCompute(v) && out_[v].empty() && in_[v].empty()) net.AddArc(s, v, threshold_);
    }
    std::optional<RootedMinCut> cut = MinCutFromRoot(net, s);
    ++rooted_cuts_;
    if (cut && cut->value >= threshold_) return true;
    // The minimum is below T. When its sink side holds a compute node it is a compute cut:
    // the plan fails. When it holds only switches (a switch not yet split off, e.g. one
    // with little capacity, may lie below T without harm), decide with one max-flow per
    // compute sink (the arcs from s to isolated switches carry nothing further).
    bool switch_only = cut.has_value();
    for (int v = 0; switch_only && v < n; ++v)
      switch_only = cut->source_side[v] || !g_.IsCompute(v);
    if (switch_only && CurrentConnectivity() >= threshold_) return true;
    for (const auto& [a, state] : saved) {
      SetCap(a, state.first);
      if (state.second)
        paths_[a] = *state.second;
      else
        paths_.erase(a);
    }
    splits_ = splits_before;
    return false;
  }

  void RemoveSwitch(int w) {
    if (!relaxed_ && options_.whole_switches && TrySplitWholeSwitch(w)) return;
    for (int pass = 0; pass < (relaxed_ ? 2 : 1); ++pass) {
      std::vector<int> heads;
      for (const auto& [t, c] : out_[w]) heads.push_back(t);
      for (int t : heads) {
        if (Cap({w, t}) == 0) continue;
        BuildEgressNetwork(w, t);
        std::vector<int> tails(in_[w].begin(), in_[w].end());
        // Prefer pairs that do not produce a self-loop.
        std::stable_partition(tails.begin(), tails.end(), [t](int u) { return u != t; });
        for (int u : tails) {
          if (Cap({w, t}) == 0) break;
          if (Cap({u, w}) == 0) continue;
          BigInt m = SplitAmount(u, w, t);
          if (m > 0) {
            Split(u, w, t, m);
            for (const Arc& a : {Arc{u, w}, Arc{w, t}, Arc{u, t}}) SyncCapacity(a);
          }
        }
        if (Cap({w, t}) != 0 && !relaxed_) {
          throw std::logic_error("edge splitting: arc " + g_.node(w).name + " -> " +
                                 g_.node(t).name + " could not be split off (Theorem 7 violated)");
        }
      }
      if (in_[w].empty() || out_[w].empty()) break;
    }
    if (relaxed_ && (in_[w].empty() || out_[w].empty())) DropArcsAt(w);
    if (!in_[w].empty() || !out_[w].empty()) {
      throw std::logic_error("edge splitting: switch " + g_.node(w).name + " not isolated");
    }
  }

  void DropArcsAt(int w) {
    std::vector<Arc> arcs;
    for (int u : in_[w]) arcs.push_back({u, w});
    for (const auto& [t, c] : out_[w]) arcs.push_back({w, t});
    for (const Arc& a : arcs) {
      dropped_ += Cap(a);
      paths_.erase(a);
      SetCap(a, 0);
    }
  }

  const Topology& g_;
  std::vector<BigInt> src_;
  BigInt threshold_;
  SplittingOptions options_;
  std::vector<std::map<int, BigInt>> out_;
  std::vector<std::set<int>> in_;
  std::map<Arc, std::vector<RoutedPath>> paths_;
  std::int64_t splits_ = 0, calls_ = 0, rooted_cuts_ = 0, whole_switches_ = 0;
  bool relaxed_ = false;
  BigInt dropped_ = 0;
  // Egress network of the arc being split off (BuildEgressNetwork).
  std::unique_ptr<MaxFlowSolver> solver_;
  std::map<Arc, int> arc_id_;
  std::vector<int> to_s_, to_w_, to_t_;
};

}  // namespace

CapacityGraph ScaledCapacityGraph(const Topology& g, const Rational& c, bool floor_values) {
  CapacityGraph d;
  for (const Link& l : g.links()) {
    if (l.from == l.to) continue;
    Rational v = c * l.bandwidth;
    BigInt iv;
    if (floor_values) {
      iv = Floor(v);
    } else {
      if (Denominator(v) != 1) {
        throw std::logic_error("ScaledCapacityGraph: U·b_e is not an integer");
      }
      iv = Numerator(v);
    }
    if (iv > 0) d.capacity[{l.from, l.to}] += iv;
  }
  return d;
}

BigInt MinSourceConnectivity(const Topology& g, const CapacityGraph& d,
                             const std::vector<BigInt>& source_capacity,
                             std::int64_t* max_flow_calls) {
  const int s = g.num_nodes();
  MaxFlowSolver solver(SourceNetwork(g, d, source_capacity));
  BigInt best = -1;
  for (int v = 0; v < s; ++v) {
    if (!g.IsCompute(v)) continue;
    BigInt f = solver.Solve(s, v, false).value;
    if (best < 0 || f < best) best = f;
  }
  if (max_flow_calls) *max_flow_calls += solver.calls();
  return best;
}

std::optional<std::vector<int>> SourceConnectivityCut(const Topology& g, const CapacityGraph& d,
                                                      const std::vector<BigInt>& source_capacity,
                                                      const BigInt& threshold) {
  const int s = g.num_nodes();
  MaxFlowSolver solver(SourceNetwork(g, d, source_capacity));
  for (int v = 0; v < s; ++v) {
    if (!g.IsCompute(v)) continue;
    MaxFlowResult r = solver.Solve(s, v, true);
    if (r.value >= threshold) continue;
    std::vector<int> sink_side;
    for (int x = 0; x < s; ++x) {
      if (!r.source_side[x]) sink_side.push_back(x);
    }
    return sink_side;
  }
  return std::nullopt;
}

SplitResult SplitOffSwitches(const Topology& g, const CapacityGraph& d,
                             const std::vector<BigInt>& source_capacity, const BigInt& threshold,
                             bool require_eulerian, const SplittingOptions& options) {
  if (static_cast<int>(source_capacity.size()) != g.num_nodes()) {
    throw std::logic_error("SplitOffSwitches: one source capacity per node expected");
  }
  Splitter splitter(g, d, source_capacity, threshold, options);
  return splitter.Run(require_eulerian);
}

}  // namespace collsynth
