#include "solvers/pipeline/pipeline_schedule_builder.h"

#include <cassert>
#include <chrono>
#include <stdexcept>

#include "core/stopwatch.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/backends/max_flow.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/arborescence_packing.h"
#include "solvers/pipeline/collective_bounds.h"
#include "solvers/pipeline/edge_splitting.h"
#include "solvers/pipeline/integer_bandwidths.h"

namespace collsynth {
namespace {

using Clock = std::chrono::steady_clock;

void CheckInput(const Topology& g) {
  if (g.num_compute() < 2) throw std::invalid_argument("needs at least 2 compute nodes");
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (g.InBandwidth(v) != g.OutBandwidth(v)) {
      throw std::invalid_argument("not Eulerian at node " + g.node(v).name);
    }
  }
}

Rational MinBandwidth(const Topology& g) {
  Rational m = g.link(0).bandwidth;
  for (const Link& l : g.links()) m = l.bandwidth < m ? l.bandwidth : m;
  return m;
}

bool IsEulerian(const Topology& g, const CapacityGraph& d) {
  std::vector<BigInt> balance(g.num_nodes(), 0);
  for (const auto& [arc, c] : d.capacity) {
    balance[arc.first] += c;
    balance[arc.second] -= c;
  }
  for (const BigInt& b : balance) {
    if (b != 0) return false;
  }
  return true;
}

}  // namespace

std::optional<std::vector<PipelineTree>> RoutedTreesFor(
    const Topology& g, const CapacityGraph& d, const std::vector<BigInt>& source_capacity,
    const BigInt& threshold, const std::vector<std::pair<int, BigInt>>& demands,
    NonEulerianSplit non_eulerian, const PipelineOptions& options, PipelineStats* stats) {
  auto t0 = Clock::now();
  SplitResult split;
  if (non_eulerian == NonEulerianSplit::kTry && !IsEulerian(g, d)) {
    try {
      split = SplitOffSwitches(g, d, source_capacity, threshold, false, options.splitting);
    } catch (const std::logic_error&) {
      stats->splitting_seconds += SecondsSince(t0);
      return std::nullopt;
    }
  } else {
    split = SplitOffSwitches(g, d, source_capacity, threshold, true, options.splitting);
  }
  stats->splitting_seconds += SecondsSince(t0);
  stats->splitting_max_flows += split.max_flow_calls;
  stats->split_operations += split.split_operations;
  stats->split_whole_switches += split.whole_switch_splits;
  stats->split_rooted_cuts += split.rooted_min_cuts;
  auto t1 = Clock::now();
  PackingResult pack = PackArborescences(g, split.direct, demands, options.packing);
  stats->packing_seconds += SecondsSince(t1);
  stats->packing_max_flows += pack.mu_evaluations;
  stats->packing_condition_checks += pack.condition_checks;
  stats->packing_batch_arcs += pack.batch_arcs;
  stats->packing_rejected_proposals += pack.rejected_proposals;
  stats->packing_check_seconds += pack.condition_check_seconds;
  if (!pack.ok) throw std::logic_error("arborescence packing failed after edge splitting");
  stats->trees += static_cast<std::int64_t>(pack.trees.size());
  // Hand out each G* arc's physical paths to the trees that use it. Each packed tree is
  // released once converted (the routed trees are the bulk: N roots × (N-1) edges).
  auto& pool = split.routes;
  std::vector<PipelineTree> trees;
  trees.reserve(pack.trees.size());
  for (PackedTree& t : pack.trees) {
    PipelineTree pt;
    pt.root = t.root;
    pt.multiplicity = t.multiplicity;
    pt.edges.reserve(t.edges.size());
    for (const auto& [x, y] : t.edges) {
      PipelineTreeEdge e;
      e.from = x;
      e.to = y;
      BigInt need = t.multiplicity;
      auto& list = pool[{x, y}];
      while (need > 0) {
        if (list.empty()) throw std::logic_error("route pool exhausted");
        RoutedPath& p = list.back();
        BigInt take = p.multiplicity < need ? p.multiplicity : need;
        e.routes.push_back(PipelineRoute{p.nodes, take});
        need -= take;
        p.multiplicity -= take;
        if (p.multiplicity == 0) list.pop_back();
      }
      pt.edges.push_back(std::move(e));
    }
    decltype(t.edges)().swap(t.edges);
    trees.push_back(std::move(pt));
  }
  return trees;
}

namespace {

// §2.4 on switch topologies, when G({⌊U*·b_e⌋}) is not Eulerian and Algorithm 1 fails on
// it: the least U' >= U* with every U'·b_e integral. With b_e = values_e / L and
// G = gcd(values), U' = ⌈U*·G/L⌉·L/G; G({U'·b_e}) is proportional to the bandwidths, hence
// Eulerian (Theorem 7 applies), and feasible because ⌊U·b_e⌋ only grows with U (Theorem 14).
Rational EulerianFloorU(const Topology& g, const Rational& u) {
  IntegerBandwidths ib = ScaleToIntegers(g);
  BigInt gcd = 0;
  for (const BigInt& b : ib.values) gcd = boost::multiprecision::gcd(gcd, b);
  Rational step(ib.scale, gcd);  // U' must be a multiple of L/G
  return Rational(Ceil(u / step)) * step;
}

// The least U > u at which some ⌊U·b_e⌋ grows (the next point where G({⌊U·b_e⌋}) changes).
Rational NextFloorBreakpoint(const Topology& g, const Rational& u) {
  std::optional<Rational> best;
  for (const Link& l : g.links()) {
    if (l.from == l.to) continue;
    Rational next = Rational(Floor(u * l.bandwidth) + 1) / l.bandwidth;
    if (!best || next < *best) best = next;
  }
  return *best;
}

// Trees for fixed k at the least U that works (`*U`, `*d` updated when it is not U*; then
// *search says how it was found). Tries U*, then the next breakpoints of ⌊U·b_e⌋ (G({⌊U·b_e⌋}) only
// changes there, and grows with U, so each passes Theorem 14's test), up to
// `max_breakpoints` of them below the Eulerian U' of EulerianFloorU, where Theorem 7
// guarantees success. Each try is one run of Algorithm 1 in relaxed mode.
std::vector<PipelineTree> FixedKTrees(const Topology& g, Rational* U, CapacityGraph* d,
                                      const std::vector<BigInt>& src, const BigInt& threshold,
                                      const std::vector<std::pair<int, BigInt>>& demands,
                                      const PipelineOptions& options,
                                      std::optional<FixedKSearch>* search, PipelineStats* stats) {
  const int max_breakpoints = options.fixed_k_breakpoints;
  const Rational least = *U;
  const Rational eulerian = EulerianFloorU(g, least);
  Rational u = least;
  int tried = 0;
  std::optional<std::vector<PipelineTree>> trees;
  while (u < eulerian && tried <= max_breakpoints) {
    CapacityGraph du = u == least ? *d : ScaledCapacityGraph(g, u, true);
    ++tried;
    trees = RoutedTreesFor(g, du, src, threshold, demands, NonEulerianSplit::kTry, options, stats);
    if (trees) {
      *d = std::move(du);
      break;
    }
    u = NextFloorBreakpoint(g, u);
  }
  bool fallback = false;
  if (!trees) {  // U* = U' (then G({⌊U*·b_e⌋}) is Eulerian), or the attempts ran out
    u = eulerian;
    *d = ScaledCapacityGraph(g, u, false);
    trees =
        RoutedTreesFor(g, *d, src, threshold, demands, NonEulerianSplit::kRefuse, options, stats);
    fallback = true;
  }
  search->reset();
  if (u != least) *search = FixedKSearch{least, tried, fallback};
  *U = u;
  return std::move(*trees);
}

// The schedule file's record of a fixed-k search above U* (docs/formats.md): producer
// metadata "fixed_k_least_U", "fixed_k_breakpoints_tried" and, for U = U',
// "fixed_k_eulerian_fallback": true.
void RecordFixedKSearch(const std::optional<FixedKSearch>& search, PipelineSchedule* s) {
  if (!search) return;
  if (search->eulerian_fallback) s->extra["fixed_k_eulerian_fallback"] = true;
  s->extra["fixed_k_least_U"] = ToString(search->least_u);
  s->extra["fixed_k_breakpoints_tried"] = search->breakpoints_tried;
}

// The fixed-k certificate of a schedule achieving U = k·ratio (proofs_check/pipeline_checker.h):
// the sink side of a failing Theorem-5 cut of G({⌊U'·b_e⌋}), U' the largest breakpoint below
// U; std::nullopt when the flow test passes there (the schedule is then not provably best).
std::optional<std::vector<int>> FixedKCut(const Topology& g, const std::vector<BigInt>& src,
                                          const BigInt& threshold, const Rational& u) {
  Rational below = 0;
  for (const Link& l : g.links()) {
    if (l.from == l.to) continue;
    Rational prev = Rational(Ceil(u * l.bandwidth) - 1) / l.bandwidth;
    if (prev > below) below = prev;
  }
  return SourceConnectivityCut(g, ScaledCapacityGraph(g, below, true), src, threshold);
}

// §2.4: the least U in [lo, hi] (scaled units, lo a valid lower bound, hi feasible) with
// min_v F(s, v; D(⌊U·b'_e⌋)) >= threshold, by the paper's binary search to width 1/max(b')^2
// and the closest fraction with denominator <= max(b') (U* has such a denominator because
// some ⌊U*·b'_e⌋ is tight; Proposition 2). Returned in the topology's units.
Rational LeastFloorU(const Topology& g, const std::vector<BigInt>& src, const BigInt& threshold,
                     Rational lo, Rational hi, std::int64_t* max_flow_calls) {
  IntegerBandwidths ib = ScaleToIntegers(g);
  auto feasible = [&](const Rational& u_scaled) {
    CapacityGraph d;
    for (int e = 0; e < g.num_links(); ++e) {
      const Link& l = g.link(e);
      BigInt c = Floor(u_scaled * ib.values[e]);
      if (l.from != l.to && c > 0) d.capacity[{l.from, l.to}] += c;
    }
    return MinSourceConnectivity(g, d, src, max_flow_calls) >= threshold;
  };
  BigInt max_b = 0;
  for (const BigInt& b : ib.values) max_b = b > max_b ? b : max_b;
  if (!feasible(hi)) throw std::logic_error("fixed-k upper bound infeasible");
  if (feasible(lo)) return lo * ib.scale;
  Rational width(BigInt(1), max_b * max_b);
  while (hi - lo >= width) {
    Rational mid = (lo + hi) / 2;
    if (feasible(mid))
      hi = mid;
    else
      lo = mid;
  }
  Rational u = ClosestFraction((lo + hi) / 2, max_b);
  if (!feasible(u)) throw std::logic_error("fixed-k reconstruction infeasible");
  return u * ib.scale;
}

PipelineSchedule AllgatherSchedule(const Topology& g, const PipelineOptions& options,
                                   PipelineBuildResult* out) {
  const std::optional<BigInt>& fixed_k = options.fixed_k;
  PipelineStats& stats = out->stats;
  auto t0 = Clock::now();
  AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  stats.optimum_max_flows += opt.max_flow_calls;
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  BigInt k = opt.k;
  Rational U = opt.U;
  CapacityGraph d;
  if (fixed_k) {
    k = *fixed_k;
    U = FixedKMinimalU(g, k, &stats.optimum_max_flows);
    d = ScaledCapacityGraph(g, U, true);
    out->fixed_k = FixedKResult();
    out->fixed_k->theorem15_bound = opt.ratio + 1 / (Rational(k) * MinBandwidth(g));  // Theorem 15
    out->fixed_k->lower_bound = U / Rational(k);
  } else {
    d = ScaledCapacityGraph(g, U, false);
  }
  stats.optimum_seconds += SecondsSince(t0);
  std::vector<BigInt> src(g.num_nodes(), 0);
  std::vector<std::pair<int, BigInt>> demands;
  for (int v : g.ComputeNodes()) {
    src[v] = k;
    demands.push_back({v, k});
  }
  if (fixed_k) {
    std::optional<FixedKSearch> search;
    s.trees = FixedKTrees(g, &U, &d, src, k * g.num_compute(), demands, options, &search, &stats);
    RecordFixedKSearch(search, &s);
    out->fixed_k->searches = {std::move(search)};
  } else {
    s.trees = *RoutedTreesFor(g, d, src, k * g.num_compute(), demands, NonEulerianSplit::kRefuse,
                              options, &stats);
  }
  s.U = U;
  s.k = k;
  s.ratio = PipelineScheduleRatio(g, s);
  if (fixed_k) s.fixed_k_cut = FixedKCut(g, src, k * g.num_compute(), s.ratio * Rational(k));
  out->optimal_ratio = opt.ratio;
  if (s.ratio == opt.ratio) s.bottleneck_cut = opt.bottleneck_cut;
  s.extra["optimal_ratio"] = ToString(opt.ratio);
  s.extra["cut_compute"] = opt.cut_compute;
  s.extra["cut_bandwidth"] = ToString(opt.cut_bandwidth);
  return s;
}

}  // namespace

Rational PipelineScheduleRatio(const Topology& g, const PipelineSchedule& s) {
  std::vector<BigInt> load(g.num_links(), 0);
  bool reversed = s.collective == Collective::kReduceScatter;
  for (const PipelineTree& t : s.trees) {
    for (const PipelineTreeEdge& e : t.edges) {
      for (const PipelineRoute& r : e.routes) {
        for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
          int a = r.path[i], b = r.path[i + 1];
          if (reversed) std::swap(a, b);
          auto link = g.FindLink(a, b);
          if (!link) throw std::logic_error("route uses a missing link");
          load[*link] += r.multiplicity;
        }
      }
    }
  }
  Rational best = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    Rational r = Rational(load[e]) / (Rational(s.k) * g.link(e).bandwidth);
    if (r > best) best = r;
  }
  return best;
}

Rational FixedKMinimalU(const Topology& g, const BigInt& k, std::int64_t* max_flow_calls) {
  if (k < 1) throw std::invalid_argument("fixed k must be >= 1");
  CheckInput(g);
  const int n = g.num_compute();
  std::vector<BigInt> src(g.num_nodes(), 0);
  for (int v : g.ComputeNodes()) src[v] = k;
  IntegerBandwidths ib = ScaleToIntegers(g);
  BigInt min_in = -1;
  for (int v : g.ComputeNodes()) {
    BigInt in = 0;
    for (int e : g.InLinks(v)) in += g.link(e).from != v ? ib.values[e] : BigInt(0);
    if (min_in < 0 || in < min_in) min_in = in;
  }
  // Theorem 14's range (scaled units): (N-1)k / min_v B-(v) <= U* <= (N-1)k.
  return LeastFloorU(g, src, k * n, Rational(BigInt(k * (n - 1)), min_in), Rational(k * (n - 1)),
                     max_flow_calls);
}

PipelineBuildResult BuildPipelineSchedule(const Topology& g, const PipelineOptions& options) {
  CheckInput(g);
  PipelineBuildResult out;
  switch (options.collective) {
    case Collective::kAllgather:
      out.schedule = AllgatherSchedule(g, options, &out);
      break;
    case Collective::kReduceScatter: {
      out.schedule = AllgatherSchedule(g.Transpose(), options, &out);
      out.schedule.collective = Collective::kReduceScatter;
      out.schedule.ratio = PipelineScheduleRatio(g, out.schedule);
      break;
    }
    case Collective::kAllreduce: {
      PipelineBuildResult rs, ag;
      PipelineSchedule rs_s = AllgatherSchedule(g.Transpose(), options, &rs);
      rs_s.collective = Collective::kReduceScatter;
      rs_s.ratio = PipelineScheduleRatio(g, rs_s);
      PipelineSchedule ag_s = AllgatherSchedule(g, options, &ag);
      out.schedule = ComposeRsAgAllreduce(std::move(rs_s), std::move(ag_s));
      out.optimal_ratio = rs.optimal_ratio + ag.optimal_ratio;
      if (options.fixed_k) {
        out.fixed_k = FixedKResult();
        out.fixed_k->theorem15_bound = rs.fixed_k->theorem15_bound + ag.fixed_k->theorem15_bound;
        out.fixed_k->lower_bound = rs.fixed_k->lower_bound + ag.fixed_k->lower_bound;
        out.fixed_k->searches = {rs.fixed_k->searches.front(), ag.fixed_k->searches.front()};
      }
      for (PipelineStats* st : {&rs.stats, &ag.stats}) {
        out.stats.optimum_max_flows += st->optimum_max_flows;
        out.stats.splitting_max_flows += st->splitting_max_flows;
        out.stats.split_operations += st->split_operations;
        out.stats.split_whole_switches += st->split_whole_switches;
        out.stats.split_rooted_cuts += st->split_rooted_cuts;
        out.stats.packing_max_flows += st->packing_max_flows;
        out.stats.trees += st->trees;
        out.stats.optimum_seconds += st->optimum_seconds;
        out.stats.splitting_seconds += st->splitting_seconds;
        out.stats.packing_seconds += st->packing_seconds;
      }
      AllgatherOptimum opt = ComputeAllgatherOptimum(g);
      AllreduceBounds b = ComputeAllreduceBounds(g, opt);
      out.allreduce = CertifyRsAgAllreduce(out.schedule, b.bound6, b.min_cut_set, b.bound7,
                                           std::move(b.single_cuts), b.rs_ag_optimal);
      break;
    }
    case Collective::kBroadcast: {
      auto t0 = Clock::now();
      BroadcastBound bb = ComputeBroadcastBound(g, options.root);
      PipelineSchedule& s = out.schedule;
      s.collective = Collective::kBroadcast;
      s.root = options.root;
      BigInt k;
      Rational U;
      CapacityGraph d;
      if (options.fixed_k) {
        // Broadcast with exactly k trees: the least U keeping λ_r(⌊U·b_e⌋) >= k, in
        // [0, k / min b'] (k / min b' makes every link carry >= k).
        k = *options.fixed_k;
        if (k < 1) throw std::invalid_argument("fixed k must be >= 1");
        std::vector<BigInt> src1(g.num_nodes(), 0);
        src1[options.root] = k;
        IntegerBandwidths ib = ScaleToIntegers(g);
        BigInt min_scaled = ib.values.front();
        for (const BigInt& b : ib.values) min_scaled = b < min_scaled ? b : min_scaled;
        U = LeastFloorU(g, src1, k, Rational(0), Rational(k, min_scaled),
                        &out.stats.optimum_max_flows);
        d = ScaledCapacityGraph(g, U, true);
        out.fixed_k = FixedKResult();
        out.fixed_k->theorem15_bound = bb.ratio + 1 / (Rational(k) * MinBandwidth(g));
        out.fixed_k->lower_bound = U / Rational(k);
      } else {
        MinimalUk(g, bb.ratio, &U, &k);
        d = ScaledCapacityGraph(g, U, false);
      }
      out.stats.optimum_seconds += SecondsSince(t0);
      std::vector<BigInt> src(g.num_nodes(), 0);
      src[options.root] = k;
      if (options.fixed_k) {
        std::optional<FixedKSearch> search;
        s.trees = FixedKTrees(g, &U, &d, src, k, {{options.root, k}}, options, &search, &out.stats);
        RecordFixedKSearch(search, &s);
        out.fixed_k->searches = {std::move(search)};
      } else {
        s.trees = *RoutedTreesFor(g, d, src, k, {{options.root, k}}, NonEulerianSplit::kRefuse,
                                  options, &out.stats);
      }
      s.U = U;
      s.k = k;
      s.ratio = PipelineScheduleRatio(g, s);
      if (options.fixed_k) s.fixed_k_cut = FixedKCut(g, src, k, s.ratio * Rational(k));
      out.optimal_ratio = bb.ratio;
      s.extra["broadcast_min_cut"] = ToString(bb.min_cut);
      if (s.ratio == bb.ratio) s.bottleneck_cut = bb.cut;  // bound (5)
      std::vector<std::string> names;
      for (int v : bb.cut) names.push_back(g.node(v).name);
      s.extra["broadcast_cut"] = names;
      break;
    }
    case Collective::kAlltoall:
      throw std::invalid_argument("pipeline schedules: no alltoall (see the flows format)");
  }
  assert(CheckPipelineSchedule(g, out.schedule).ok);  // STYLE rule 5 (debug builds)
  return out;
}

}  // namespace collsynth
