#include "solvers/bfb/schedule_expansion.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/isomorphism.hpp>
#include <set>
#include <utility>

#include "core/input_error.h"
#include "graphs/expansions.h"

namespace collsynth {
namespace {

void RequireDirectConnect(const Topology& g, const std::string& file, const char* what) {
  if (g.num_switches() > 0) {
    throw InputError(file, "topology",
                     std::string(what) + " needs a direct-connect topology (no switch nodes)");
  }
  if (g.num_compute() == 0) throw InputError(file, "topology", "no compute nodes");
}

void RequireAllgather(const StepSchedule& a, const std::string& file, const char* what) {
  if (a.collective != Collective::kAllgather) {
    throw InputError(file, "collective",
                     std::string(what) + " expands an allgather schedule, got '" +
                         CollectiveName(a.collective) + "' (reverse a reduce-scatter first)");
  }
}

// Validates that every send refers to existing nodes and links of g, with step >= 1.
void RequireScheduleOnTopology(const Topology& g, const StepSchedule& a, const std::string& file) {
  for (std::size_t i = 0; i < a.sends.size(); ++i) {
    const StepSend& s = a.sends[i];
    std::string item = "sends[" + std::to_string(i) + "]";
    auto valid = [&](int v) { return v >= 0 && v < g.num_nodes(); };
    if (!valid(s.source) || !valid(s.from) || !valid(s.to)) {
      throw InputError(file, item, "node id out of range for the topology");
    }
    if (!g.FindLink(s.from, s.to)) {
      throw InputError(file, item, "no link " + g.node(s.from).name + " -> " + g.node(s.to).name);
    }
    if (s.step < 1) throw InputError(file, item, "step must be >= 1");
  }
}

StepSchedule EmptyLike(const StepSchedule& a, Collective collective) {
  StepSchedule out;
  out.collective = collective;
  out.extra = a.extra;
  return out;
}

std::vector<Interval> FullShard() { return {Interval{Rational(0), Rational(1)}}; }

void CheckSize(std::int64_t nodes, const std::string& file, const std::string& what) {
  if (nodes > kMaxExpandedNodes) {
    throw InputError(file, what,
                     "expanded topology would have " + std::to_string(nodes) +
                         " nodes, more than the limit " + std::to_string(kMaxExpandedNodes));
  }
}

// Runs a graphs/expansions builder, turning its std::invalid_argument into an InputError.
template <typename F>
auto Expand(F&& build, const std::string& file, const char* what) -> decltype(build()) {
  try {
    return build();
  } catch (const std::invalid_argument& e) {
    throw InputError(file, what, e.what());
  }
}

}  // namespace

int MaxStep(const StepSchedule& a) {
  int t = 0;
  for (const StepSend& s : a.sends) t = std::max(t, s.step);
  return t;
}

std::vector<Interval> MapChunk(const std::vector<Interval>& chunk, const Rational& lo,
                               const Rational& hi) {
  std::vector<Interval> out;
  out.reserve(chunk.size());
  Rational w = hi - lo;
  for (const Interval& c : chunk) out.push_back(Interval{lo + c.lo * w, lo + c.hi * w});
  return out;
}

// Def. 1 / Def. 2.
ExpandedSchedule LineGraphSchedule(const Topology& g, const StepSchedule& a,
                                   const std::string& file) {
  RequireDirectConnect(g, file, "line-graph expansion");
  RequireAllgather(a, file, "line-graph expansion");
  RequireScheduleOnTopology(g, a, file);
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    std::string item = "link " + g.node(l.from).name + " -> " + g.node(l.to).name;
    if (l.multiplicity != 1) {
      throw InputError(file, item,
                       "line-graph expansion needs simple links (multiplicity 1), got " +
                           std::to_string(l.multiplicity));
    }
    if (l.bandwidth != g.link(0).bandwidth) {
      throw InputError(file, item, "line-graph expansion needs one link bandwidth for all links");
    }
  }
  LineGraphResult lg = Expand([&] { return LineGraphExpansion(g); }, file, "line graph");
  ExpandedSchedule r;
  r.topology = std::move(lg.topology);
  r.origin = lg.base_link;
  // With simple links, node x of L(G) is one base link; node_of[e] inverts that.
  std::vector<int> node_of(g.num_links(), -1);
  for (int x = 0; x < r.topology.num_nodes(); ++x) node_of[lg.base_link[x]] = x;
  StepSchedule& out = r.schedule;
  out = EmptyLike(a, Collective::kAllgather);
  // 1. ((v'v, S), (v'v, vu), 1) for each edge (v'v, vu) with v'v != vu.
  for (int e = 0; e < g.num_links(); ++e) {
    for (int f : g.OutLinks(g.link(e).to)) {
      if (f == e) continue;
      out.sends.push_back(StepSend{node_of[e], FullShard(), node_of[e], node_of[f], 1});
    }
  }
  // 2. ((v'v, C), (uw, ww'), t+1) for each ((v, C), (u, w), t) and v'v != ww'.
  for (const StepSend& s : a.sends) {
    int uw = *g.FindLink(s.from, s.to);
    for (int v_in : g.InLinks(s.source)) {  // v'v
      for (int w_out : g.OutLinks(s.to)) {  // ww'
        if (v_in == w_out) continue;
        out.sends.push_back(
            StepSend{node_of[v_in], s.chunk, node_of[uw], node_of[w_out], s.step + 1});
      }
    }
  }
  return r;
}

// Def. 3 / Def. 4 (the main text's (u_j, w_i): copy j relays v_j's chunks, every copy of w
// receives them), generalized to unequal in-link bandwidths in step 2 by splitting the shard
// in proportion to bandwidth (equal chunks C_1..C_{nd} for a d-regular uniform G).
ExpandedSchedule DegreeExpandedSchedule(const Topology& g, const StepSchedule& a, int n,
                                        const std::string& file) {
  RequireDirectConnect(g, file, "degree expansion");
  RequireAllgather(a, file, "degree expansion");
  RequireScheduleOnTopology(g, a, file);
  if (n < 1) throw InputError(file, "n", "degree expansion needs n >= 1");
  CheckSize(static_cast<std::int64_t>(n) * g.num_nodes(), file, "degree expansion");
  for (const Link& l : g.links()) {
    if (l.from == l.to) {
      throw InputError(file, "link " + g.node(l.from).name + " -> " + g.node(l.to).name,
                       "degree expansion needs a topology without self-loops (Def. 3)");
    }
  }
  const int nn = g.num_nodes();
  DegreeExpansionResult de =
      Expand([&] { return DegreeExpansionWithMap(g, n); }, file, "degree expansion");
  std::vector<int> copy_id(static_cast<std::size_t>(n) * nn, -1);
  for (int x = 0; x < de.topology.num_nodes(); ++x) copy_id[de.copy[x] * nn + de.base_node[x]] = x;
  auto id = [&](int v, int i) { return copy_id[i * nn + v]; };  // copy i (0-based) of v
  ExpandedSchedule r;
  r.topology = std::move(de.topology);
  r.origin = de.base_node;
  StepSchedule& out = r.schedule;
  out = EmptyLike(a, Collective::kAllgather);
  for (const StepSend& s : a.sends) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        out.sends.push_back(StepSend{id(s.source, j), s.chunk, id(s.from, j), id(s.to, i), s.step});
      }
    }
  }
  if (n > 1) {
    int t_last = MaxStep(a) + 1;
    for (int u = 0; u < nn; ++u) {
      // In-links of u_j: every copy of every in-neighbour of u; bandwidth shares.
      Rational in_total = g.InBandwidth(u) * n;
      for (int j = 0; j < n; ++j) {
        Rational lo = 0;
        for (int e : g.InLinks(u)) {
          for (int k = 0; k < n; ++k) {
            Rational hi = lo + g.link(e).bandwidth / in_total;
            for (int i = 0; i < n; ++i) {
              if (i == j) continue;
              out.sends.push_back(
                  StepSend{id(u, i), {Interval{lo, hi}}, id(g.link(e).from, k), id(u, j), t_last});
            }
            lo = hi;
          }
        }
      }
    }
  }
  return r;
}

// Def. 5 / Def. 14: subshard i runs the base schedule dimension by dimension, phase j on
// dimension (i + j) mod n, so the n subshards use disjoint links at every step.
ExpandedSchedule CartesianPowerSchedule(const Topology& g, const StepSchedule& a, int n,
                                        const std::string& file) {
  RequireDirectConnect(g, file, "Cartesian power expansion");
  RequireAllgather(a, file, "Cartesian power expansion");
  RequireScheduleOnTopology(g, a, file);
  if (n < 1) throw InputError(file, "n", "Cartesian power needs n >= 1");
  const int nn = g.num_nodes();
  std::int64_t total = 1;
  for (int k = 0; k < n; ++k) {
    total *= nn;
    CheckSize(total, file, "Cartesian power");
  }
  const int count = static_cast<int>(total);
  std::vector<int> stride(n);
  {
    int s = 1;
    for (int k = n - 1; k >= 0; --k) {
      stride[k] = s;
      s *= nn;
    }
  }
  ProductResult pr = Expand([&] { return CartesianPowerWithMap(g, n); }, file, "Cartesian power");
  ExpandedSchedule r;
  r.topology = std::move(pr.topology);
  r.origin.assign(count, -1);
  // Work in row-major coordinate indices (first coordinate most significant); at_index maps
  // an index to the node id of the generated product.
  std::vector<int> at_index(count, -1);
  std::vector<std::vector<int>> coord(count, std::vector<int>(n));  // by index
  for (int v = 0; v < count; ++v) {
    int idx = 0;
    for (int k = 0; k < n; ++k) idx += pr.factor_node[v][k] * stride[k];
    at_index[idx] = v;
    coord[idx] = pr.factor_node[v];
  }
  r.coordinates = std::move(pr.factor_node);
  StepSchedule& out = r.schedule;
  out = EmptyLike(a, Collective::kAllgather);
  const int t_max = MaxStep(a);
  for (int i = 0; i < n; ++i) {
    Rational lo(i, n), hi(i + 1, n);
    std::vector<int> done;  // dimensions processed in earlier phases
    for (int j = 0; j < n; ++j) {
      int k = (i + j) % n;
      // Relay nodes: every node with coordinate k equal to 0 (we add the base offset).
      // Sources: relay with coordinate k := w and any values on `done` dimensions.
      for (const StepSend& s : a.sends) {
        std::vector<Interval> chunk = MapChunk(s.chunk, lo, hi);
        for (int base = 0; base < count; ++base) {
          if (coord[base][k] != 0) continue;
          int from = base + s.from * stride[k];
          int to = base + s.to * stride[k];
          int src0 = base + s.source * stride[k];
          // Enumerate the values of the done dimensions for the source.
          std::vector<int> digits(done.size(), 0);
          int src_base = src0;
          for (int d : done) src_base -= coord[base][d] * stride[d];
          while (true) {
            int src = src_base;
            for (std::size_t q = 0; q < done.size(); ++q) src += digits[q] * stride[done[q]];
            out.sends.push_back(
                StepSend{at_index[src], chunk, at_index[from], at_index[to], s.step + j * t_max});
            std::size_t q = 0;
            while (q < digits.size() && ++digits[q] == nn) digits[q++] = 0;
            if (q == digits.size()) break;
          }
        }
      }
      done.push_back(k);
    }
  }
  return r;
}

ExpandedSchedule ReverseSchedule(const Topology& g, const StepSchedule& a,
                                 const std::string& file) {
  RequireScheduleOnTopology(g, a, file);
  Collective flipped;
  if (a.collective == Collective::kAllgather)
    flipped = Collective::kReduceScatter;
  else if (a.collective == Collective::kReduceScatter)
    flipped = Collective::kAllgather;
  else {
    throw InputError(
        file, "collective",
        std::string(
            "the reverse schedule (Def. 7) is defined for allgather and reduce-scatter, got '") +
            CollectiveName(a.collective) + "'");
  }
  ExpandedSchedule r;
  r.topology = g.Transpose();
  r.topology.set_name("transpose(" + g.name() + ")");
  for (int v = 0; v < g.num_nodes(); ++v) r.origin.push_back(v);
  r.schedule = EmptyLike(a, flipped);
  int t_max = MaxStep(a);
  for (const StepSend& s : a.sends) {
    r.schedule.sends.push_back(StepSend{s.source, s.chunk, s.to, s.from, t_max - s.step + 1});
  }
  return r;
}

StepSchedule ConcatenateAllreduce(const StepSchedule& rs, const StepSchedule& ag) {
  StepSchedule out = ag;
  out.collective = Collective::kAllreduce;
  int t = MaxStep(rs);
  out.rs_steps = t;
  out.claimed_tl.reset();
  out.claimed_tb.reset();
  out.sends = rs.sends;
  for (StepSend s : ag.sends) {
    s.step += t;
    out.sends.push_back(std::move(s));
  }
  return out;
}

// Appendix F.
ExpandedSchedule BidirectionalSchedule(const Topology& g, const StepSchedule& a,
                                       const std::string& file) {
  RequireDirectConnect(g, file, "the bidirectional conversion");
  RequireAllgather(a, file, "the bidirectional conversion");
  RequireScheduleOnTopology(g, a, file);
  const int nn = g.num_nodes();
  for (const Link& l : g.links()) {
    if (l.from != l.to && g.FindLink(l.to, l.from)) {
      throw InputError(file, "link " + g.node(l.from).name + " -> " + g.node(l.to).name,
                       "App. F needs a unidirectional topology: the opposite link exists too");
    }
  }
  // Isomorphism g: G -> G^T with Boost.Graph, then verified link by link.
  using BGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  BGraph b1(nn), b2(nn);
  for (const Link& l : g.links()) {
    boost::add_edge(l.from, l.to, b1);
    boost::add_edge(l.to, l.from, b2);
  }
  std::vector<BGraph::vertex_descriptor> f(nn);
  bool found = false;
  try {
    found = boost::isomorphism(b1, b2,
                               boost::isomorphism_map(boost::make_iterator_property_map(
                                   f.begin(), boost::get(boost::vertex_index, b1))));
  } catch (const std::exception&) {
    found = false;
  }
  auto verified = [&]() {
    std::vector<bool> hit(nn, false);
    for (int v = 0; v < nn; ++v) {
      if (static_cast<int>(f[v]) < 0 || static_cast<int>(f[v]) >= nn || hit[f[v]]) return false;
      hit[f[v]] = true;
    }
    for (const Link& l : g.links()) {
      // (u, v) in G  ->  (f(u), f(v)) in G^T, i.e. (f(v), f(u)) in G with equal bandwidth.
      auto back = g.FindLink(static_cast<int>(f[l.to]), static_cast<int>(f[l.from]));
      if (!back || g.link(*back).bandwidth != l.bandwidth ||
          g.link(*back).multiplicity != l.multiplicity) {
        return false;
      }
    }
    return true;
  };
  if (!found || !verified()) {
    throw InputError(file, "topology",
                     "not reverse-symmetric: no isomorphism G -> G^T preserving bandwidths was "
                     "found (App. F needs one)");
  }
  ExpandedSchedule r;
  r.topology = Expand([&] { return Bidirectional(g); }, file, "bidirectional");
  for (int v = 0; v < nn; ++v) r.origin.push_back(v);
  r.schedule = EmptyLike(a, Collective::kAllgather);
  Rational half(1, 2);
  for (const StepSend& s : a.sends) {
    r.schedule.sends.push_back(
        StepSend{s.source, MapChunk(s.chunk, 0, half), s.from, s.to, s.step});
  }
  for (const StepSend& s : a.sends) {
    r.schedule.sends.push_back(StepSend{static_cast<int>(f[s.source]), MapChunk(s.chunk, half, 1),
                                        static_cast<int>(f[s.from]), static_cast<int>(f[s.to]),
                                        s.step});
  }
  return r;
}

}  // namespace collsynth
