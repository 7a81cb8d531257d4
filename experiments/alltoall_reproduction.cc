// Experiment kind "alltoall-reproduction": the all-to-all claims of seed 002 (TopoOpt §5.4-5.5,
// Eq. (1), Figures 14-15) and of Basu, Zhao et al. (arXiv 2309.13541, generalised Kautz graphs),
// computed exactly from the certified optimum (solvers/alltoall/alltoall_optimum.h) and the
// checked flows schedules (proofs_check/flow_checker.h); docs/reproduction.md "All-to-all".
// Every routing, genkautz and time row stands for a flows schedule the checker accepted
// (verified = yes, T the checker's), except an ecmp routing too large to list (below). One task
// per topology.
//   "routing": [{"topology": EXPR, "relay": bool}, ...] — per topology and routing (optimal =
//     the certified flow decomposed into paths, alltoall_paths.h; and each of "baselines"), a
//     "routing" row (T, α, bandwidth tax, average path length of the routing and of shortest
//     paths, link loads, whether α = average shortest path: the claim) and, when "cdf" is true,
//     the "path_cdf" rows (Fig. 14: hops per path, weighted by the flow it carries) and the
//     "load_cdf" rows (Fig. 15: traffic per link, weighted by link count).
//   "baselines": names of alltoall_baselines.h (default ["ecmp", "topoopt-forwarding"]);
//     topoopt-forwarding is skipped where the topology does not relay. An ecmp routing of more
//     than kMaxBaselinePaths paths (selectperms(128,4)) is measured from its exact loads
//     (alltoall_metrics.h), verified n/a with a `note`; "ecmp_max_paths" (default 2^20) lowers
//     that limit (the tests compare both measurements).
//   "genkautz": [{"d": d, "n": [N, ...]}, ...] — "genkautz" rows: λ*, T* and the fraction of the
//     (N-1)·(average distance)/d lower bound that T* reaches.
//   "time": {"topologies": [{"topology", "relay"}], "baselines": [...], "sizes": [bytes...],
//     "alpha": seconds, "chunks": P} — "time" rows: the α-β simulation
//     (simulate/alltoall_simulation.h) of the optimal and the naive flows at each size M (bytes
//     per node, M/N per pair), links at 1 GB/s per unit bandwidth, and the gap to the optimal.
// Exact rationals throughout; decimals are FormatDecimal of the exact value.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/rational.h"
#include "core/stopwatch.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "proofs_check/alltoall_certificate_check.h"
#include "proofs_check/flow_checker.h"
#include "schedules/flow_schedule.h"
#include "simulate/simulation_run.h"
#include "solvers/alltoall/alltoall_baselines.h"
#include "solvers/alltoall/alltoall_metrics.h"
#include "solvers/alltoall/alltoall_optimum.h"
#include "solvers/alltoall/alltoall_paths.h"

namespace collsynth::experiments {
namespace {

const char* const kUnit = "M/N per unit bandwidth";

struct TopoSpec {
  std::string expr;
  bool relay = true;
};

struct GenKautzSpec {
  std::int64_t d = 0, n = 0;
};

struct TimeSpec {
  std::vector<TopoSpec> topologies;
  std::vector<std::string> baselines;
  std::vector<std::int64_t> sizes;
  Rational alpha;
  std::int64_t chunks = 1;
};

struct Plan {
  std::vector<TopoSpec> routing;
  std::vector<std::string> baselines;
  bool cdf = true;
  std::size_t ecmp_max_paths = kMaxBaselinePaths;
  std::vector<GenKautzSpec> genkautz;
  std::optional<TimeSpec> time;
};

std::string YesNo(bool b) { return b ? "yes" : "no"; }

// What one checked flows schedule does on g (exact).
struct RoutingStats {
  Rational time;                             // the checker's T = max_e load_e / b_e
  std::vector<Rational> load;                // per link, for the demand itself
  std::map<std::int64_t, Rational> by_hops;  // hops -> demand carried on paths of that length
  Rational path_length;                      // Σ demand·hops / Σ demand
  Rational tax;                              // Σ load on links leaving compute nodes / Σ demand
};

Rational TotalDemand(const DemandMatrix& d) {
  Rational t = 0;
  for (const DemandEntry& x : d.entries) t += x.amount;
  return t;
}

// Checks s with proofs_check (throws std::runtime_error when it rejects) and measures it.
RoutingStats CheckAndMeasure(const Topology& g, const FlowSchedule& s, const std::string& what) {
  const FlowCheckReport check = CheckFlowSchedule(g, s);
  if (!check.ok || !check.time) {
    throw std::runtime_error(
        what + ": the flow checker rejects it: " +
        (check.errors.empty() ? FlowVerdictName(check.verdict) : check.errors.front()));
  }
  RoutingStats r;
  r.time = *check.time;
  r.load.assign(g.num_links(), Rational(0));
  std::map<std::pair<int, int>, Rational> amount;
  for (const DemandEntry& x : s.demand.entries) amount[{x.from, x.to}] = x.amount;
  Rational weighted = 0;
  for (const PairFlows& p : s.flows) {
    const Rational& d = amount.at({p.from, p.to});
    for (const FlowPath& path : p.paths) {
      const Rational w = d * path.share;
      const std::int64_t hops = static_cast<std::int64_t>(path.nodes.size()) - 1;
      r.by_hops[hops] += w;
      weighted += w * hops;
      for (std::size_t i = 0; i + 1 < path.nodes.size(); ++i) {
        r.load[*g.FindLink(path.nodes[i], path.nodes[i + 1])] += w;
      }
    }
  }
  const Rational total = TotalDemand(s.demand);
  r.path_length = weighted / total;
  Rational egress = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    if (g.IsCompute(g.link(e).from)) egress += r.load[e];
  }
  r.tax = egress / total;
  return r;
}

// The capacity leaving compute nodes (n·B_T of seed 002 Eq. (1)).
Rational EgressCapacity(const Topology& g) {
  Rational c = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    if (g.IsCompute(g.link(e).from)) c += g.link(e).bandwidth;
  }
  return c;
}

bool IsDirectConnect(const Topology& g) { return g.num_switches() == 0; }

// The certified optimum and its flows schedule; throws when not certified.
struct Optimum {
  Rational lambda;
  FlowSchedule schedule;
};

Optimum CertifiedOptimum(const Topology& g, const DemandMatrix& demand, bool relay) {
  const std::string cut = DisconnectedDemandPair(g, demand, relay);
  if (!cut.empty()) throw std::runtime_error(g.name() + ": pair " + cut + " has no path");
  AlltoallOptions o;
  o.relay = relay;
  // The optimal flow is not unique and the CDFs of Figs. 14-15 depend on which one: the shipped
  // results use the full LP's (CLP's vertex re-solved exactly), not the regular-group
  // reduction's group-invariant flow (same λ*; docs/performance.md "All-to-all optimum at
  // N = 256").
  o.regular_group = false;
  const AlltoallOptimum opt = ComputeAlltoallOptimum(g, demand, o);
  const AlltoallCheckReport check = CheckAlltoallCertificate(g, opt.certificate);
  if (opt.outcome != AlltoallOutcome::kCertified || !check.ok) {
    throw std::runtime_error(g.name() + ": all-to-all optimum not certified: " + opt.detail +
                             check.violation);
  }
  return {check.lower, FlowScheduleFromCertificate(g, opt.certificate, true)};
}

ExperimentRow BaseRow(const Topology& g, const std::string& expr, const std::string& routing,
                      const std::string& part, bool relay) {
  ExperimentRow row;
  row.instance = expr;
  row.algorithm = routing;
  row.collective = Collective::kAlltoall;
  row.nodes = g.num_compute();
  row.extra = {{"part", part}, {"relay", YesNo(relay)}};
  return row;
}

void AddExact(ExperimentRow* row, const std::string& name, const Rational& v) {
  row->extra.emplace_back(name, ToString(v));
  row->extra.emplace_back(name + "_decimal", FormatDecimal(v));
}

struct NamedRouting {
  std::string name;
  // nullopt: an ecmp routing with more than kMaxBaselinePaths paths, measured from its exact
  // loads (ComputeEcmpRouting) instead of a checked schedule.
  std::optional<FlowSchedule> schedule;
};

// The ECMP routing's loads and hop distribution without listing its paths: every path is a
// shortest one, so the flow on paths of h hops is the demand of the pairs at distance h.
RoutingStats MeasureEcmpLoads(const Topology& g, const DemandMatrix& demand, bool relay) {
  const EcmpRouting ecmp = ComputeEcmpRouting(g, demand, relay);
  RoutingStats r;
  r.load = ecmp.load;
  r.time = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    const Rational x = r.load[e] / g.link(e).bandwidth;
    if (x > r.time) r.time = x;
  }
  r.path_length = ecmp.average_path_length;
  r.tax = ecmp.bandwidth_tax;
  std::map<int, std::vector<int>> to_relay;  // destination -> hop counts (relay case)
  for (const DemandEntry& x : demand.entries) {
    if (relay) {
      auto it = to_relay.find(x.to);
      if (it == to_relay.end()) {
        it = to_relay.emplace(x.to, HopsTo(g, x.to, std::vector<bool>(g.num_nodes(), true))).first;
      }
      r.by_hops[it->second[x.from]] += x.amount;
    } else {
      r.by_hops[HopsTo(g, x.to, Forwarders(g, x.from, false))[x.from]] += x.amount;
    }
  }
  return r;
}

// The optimal routing first, then each baseline that applies.
std::vector<NamedRouting> Routings(const Topology& g, const DemandMatrix& demand, bool relay,
                                   FlowSchedule optimal, const std::vector<std::string>& baselines,
                                   bool allow_loads, std::size_t max_paths = kMaxBaselinePaths) {
  std::vector<NamedRouting> out;
  out.push_back({"optimal", std::move(optimal)});
  for (const std::string& b : baselines) {
    const AlltoallBaseline which = *ParseAlltoallBaseline(b);
    if (which == AlltoallBaseline::kTopoOptForwarding && !relay) continue;
    AlltoallBaselineOptions o;
    o.which = which;
    o.relay = relay;
    o.max_paths = max_paths;
    try {
      out.push_back({b, BuildAlltoallBaseline(g, demand, o, g.name())});
    } catch (const InputError&) {
      if (which != AlltoallBaseline::kEcmp || !allow_loads) throw;
      out.push_back({b, std::nullopt});  // too many equal-cost paths to list
    }
  }
  return out;
}

std::vector<ExperimentRow> RunRouting(const TopoSpec& spec,
                                      const std::vector<std::string>& baselines, bool cdf,
                                      std::size_t max_paths) {
  const auto start = SteadyClock::now();
  const Topology g = EvaluateTopologyExpression(spec.expr);
  const DemandMatrix demand = UniformDemand(g);
  Optimum opt = CertifiedOptimum(g, demand, spec.relay);
  const Rational t_star = 1 / opt.lambda;
  const Rational total = TotalDemand(demand);
  // α of Eq. (1): the all-to-all time over the time A/(n·B) of a perfect network, i.e.
  // T·(capacity leaving compute nodes)/Σ demand.
  const Rational egress = EgressCapacity(g);
  const Rational shortest = ComputeEcmpRouting(g, demand, spec.relay).average_path_length;
  const bool direct = IsDirectConnect(g);
  const double setup = SecondsSince(start);
  std::vector<ExperimentRow> rows, cdf_rows;
  for (NamedRouting& r :
       Routings(g, demand, spec.relay, std::move(opt.schedule), baselines, true, max_paths)) {
    const auto t0 = SteadyClock::now();
    const RoutingStats st = r.schedule ? CheckAndMeasure(g, *r.schedule, spec.expr + " " + r.name)
                                       : MeasureEcmpLoads(g, demand, spec.relay);
    ExperimentRow row = BaseRow(g, spec.expr, r.name, "routing", spec.relay);
    row.verified = r.schedule ? Verified::kYes : Verified::kNotApplicable;
    row.tb = st.time;
    row.lower_bound = t_star;
    row.tb_unit = kUnit;
    const Rational alpha = st.time * egress / total;
    Rational lo = st.load[0], hi = st.load[0];
    bool saturated = true;
    for (int e = 0; e < g.num_links(); ++e) {
      lo = std::min(lo, st.load[e]);
      hi = std::max(hi, st.load[e]);
      if (st.load[e] != st.time * g.link(e).bandwidth) saturated = false;
    }
    AddExact(&row, "alpha", alpha);
    AddExact(&row, "bandwidth_tax", st.tax);
    AddExact(&row, "avg_path_length", st.path_length);
    AddExact(&row, "avg_shortest_path", shortest);
    row.extra.emplace_back("shortest_paths_only", YesNo(st.path_length == shortest));
    row.extra.emplace_back("saturates_all", YesNo(saturated));
    row.extra.emplace_back("min_load", ToString(lo));
    row.extra.emplace_back("max_load", ToString(hi));
    AddExact(&row, "load_spread", 1 - lo / hi);
    // The claim (seed 002 §5.5): optimal routing makes α equal to the average path length.
    // Stated for host-forwarding (direct-connect) topologies, decided on the optimal row.
    row.extra.emplace_back("claim_holds",
                           r.name != "optimal" || !direct ? "n/a" : YesNo(alpha == shortest));
    row.extra.emplace_back("note",
                           r.schedule ? "" : "more than 2^20 ECMP paths: exact loads, no schedule");
    row.wall_seconds = SecondsSince(t0) + (r.name == "optimal" ? setup : 0.0);
    const Verified row_verified = row.verified;
    rows.push_back(std::move(row));
    if (!cdf) continue;
    Rational acc = 0;
    for (const auto& [hops, w] : st.by_hops) {
      acc += w / total;
      ExperimentRow c = BaseRow(g, spec.expr, r.name, "path_cdf", spec.relay);
      c.verified = row_verified;
      c.extra.emplace_back("value", std::to_string(hops));
      c.extra.emplace_back("value_decimal", std::to_string(hops));
      c.extra.emplace_back("weight", ToString(w / total));
      AddExact(&c, "cdf", acc);
      cdf_rows.push_back(std::move(c));
    }
    std::map<Rational, std::int64_t> by_load;
    for (const Rational& l : st.load) ++by_load[l];
    acc = 0;
    for (const auto& [l, count] : by_load) {
      const Rational w = Rational(count) / g.num_links();
      acc += w;
      ExperimentRow c = BaseRow(g, spec.expr, r.name, "load_cdf", spec.relay);
      c.verified = row_verified;
      AddExact(&c, "value", l);
      c.extra.emplace_back("weight", ToString(w));
      AddExact(&c, "cdf", acc);
      cdf_rows.push_back(std::move(c));
    }
  }
  for (ExperimentRow& c : cdf_rows) rows.push_back(std::move(c));
  return rows;
}

std::vector<ExperimentRow> RunGenKautz(const GenKautzSpec& spec) {
  const auto start = SteadyClock::now();
  const std::string expr =
      "genkautz(" + std::to_string(spec.d) + "," + std::to_string(spec.n) + ")";
  const Topology g = EvaluateTopologyExpression(expr);
  const DemandMatrix demand = UniformDemand(g);
  const Optimum opt = CertifiedOptimum(g, demand, true);
  const RoutingStats st = CheckAndMeasure(g, opt.schedule, expr + " optimal");
  const Rational shortest = ComputeEcmpRouting(g, demand, true).average_path_length;
  // Basu, Zhao et al.'s bound: every node sends (N-1) blocks over L̄ hops on average through its
  // d links: T >= (N-1)·L̄/d. Self-loops (x = -dx-a mod N) carry nothing, so the bound over the
  // other links, Σ d·L̄ / Σ_{non-loop} c, is tighter.
  const Rational bound = Rational(spec.n - 1) * shortest / spec.d;
  Rational loopless_capacity = 0;
  std::int64_t loops = 0;
  for (const Link& l : g.links()) {
    if (l.from == l.to) {
      loops += l.multiplicity;
    } else {
      loopless_capacity += l.bandwidth;
    }
  }
  const Rational bound_loopless = TotalDemand(demand) * shortest / loopless_capacity;
  ExperimentRow row = BaseRow(g, expr, "optimal", "genkautz", true);
  row.verified = Verified::kYes;
  row.tb = st.time;
  row.lower_bound = bound;
  row.tb_unit = kUnit;
  row.extra.emplace_back("d", std::to_string(spec.d));
  row.extra.emplace_back("self_loops", std::to_string(loops));
  AddExact(&row, "avg_shortest_path", shortest);
  AddExact(&row, "lambda", opt.lambda);
  AddExact(&row, "bound", bound);
  AddExact(&row, "fraction", bound / st.time);
  AddExact(&row, "bound_loopless", bound_loopless);
  AddExact(&row, "fraction_loopless", bound_loopless / st.time);
  row.wall_seconds = SecondsSince(start);
  return {row};
}

std::vector<ExperimentRow> RunTime(const TopoSpec& spec, const TimeSpec& t) {
  const Topology g = EvaluateTopologyExpression(spec.expr);
  const DemandMatrix demand = UniformDemand(g);
  Optimum opt = CertifiedOptimum(g, demand, spec.relay);
  const std::vector<NamedRouting> routings =
      Routings(g, demand, spec.relay, std::move(opt.schedule), t.baselines, false);
  std::vector<ExperimentRow> rows;
  std::vector<Rational> optimal_time;  // per size
  for (const NamedRouting& r : routings) {
    const RoutingStats st = CheckAndMeasure(g, *r.schedule, spec.expr + " " + r.name);
    for (std::size_t i = 0; i < t.sizes.size(); ++i) {
      const auto t0 = SteadyClock::now();
      SimulationModel m;
      m.size = t.sizes[i];
      m.default_alpha = t.alpha;
      m.chunks = t.chunks;
      const SimulationRun run = SimulateAlltoallSchedule(*r.schedule, g, m, "");
      const Rational us = run.result.completion * 1000000;
      if (r.name == "optimal") optimal_time.push_back(us);
      ExperimentRow row = BaseRow(g, spec.expr, r.name, "time", spec.relay);
      row.verified = Verified::kYes;
      row.tb = st.time;
      row.lower_bound = 1 / opt.lambda;
      row.tb_unit = kUnit;
      row.extra.emplace_back("size_bytes", std::to_string(t.sizes[i]));
      row.extra.emplace_back("chunks", std::to_string(t.chunks));
      AddExact(&row, "time_us", us);
      AddExact(&row, "gap", us / optimal_time[i]);
      row.wall_seconds = SecondsSince(t0);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::vector<TopoSpec> ReadTopologies(const Params& p, const std::string& key) {
  std::vector<TopoSpec> out;
  for (const Params& o : p.Objects(key)) {
    out.push_back({o.Topology("topology"), o.Bool("relay", true)});
  }
  return out;
}

std::vector<std::string> ReadBaselines(const Params& p) {
  std::vector<std::string> names = p.Has("baselines")
                                       ? p.Strings("baselines")
                                       : std::vector<std::string>{"ecmp", "topoopt-forwarding"};
  for (const std::string& b : names) {
    if (!ParseAlltoallBaseline(b)) {
      throw p.Error("baselines",
                    "unknown all-to-all baseline '" + b + "' (direct, ecmp, topoopt-forwarding)");
    }
  }
  return names;
}

Plan ParsePlan(const Params& p) {
  Plan plan;
  plan.routing = ReadTopologies(p, "routing");
  plan.baselines = ReadBaselines(p);
  plan.cdf = p.Bool("cdf", true);
  plan.ecmp_max_paths =
      static_cast<std::size_t>(p.Int("ecmp_max_paths", static_cast<std::int64_t>(kMaxBaselinePaths),
                                     1, static_cast<std::int64_t>(kMaxBaselinePaths)));
  for (const Params& o : p.Objects("genkautz")) {
    const std::int64_t d = o.IntIn("d", 1, 64);
    for (std::int64_t n : o.Ints("n", {}, 2, 1 << 16)) plan.genkautz.push_back({d, n});
  }
  if (p.Has("time")) {
    const Params o = p.Object("time");
    TimeSpec t;
    t.topologies = ReadTopologies(o, "topologies");
    t.baselines = ReadBaselines(o);
    t.sizes = o.Ints("sizes", {}, 1, std::int64_t{1} << 40);
    t.alpha = o.Exact("alpha", "0");
    if (t.alpha < 0) throw o.Error("alpha", "must be >= 0 (seconds)");
    t.chunks = o.Int("chunks", 1, 1, 64);
    plan.time = t;
  }
  return plan;
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Plan plan = ParsePlan(Params(in));
  std::vector<ExperimentTask> tasks;
  for (const TopoSpec& s : plan.routing) {
    tasks.push_back(
        {s.expr + " routing", [s, b = plan.baselines, cdf = plan.cdf, m = plan.ecmp_max_paths] {
           return RunRouting(s, b, cdf, m);
         }});
  }
  for (const GenKautzSpec& s : plan.genkautz) {
    tasks.push_back({"genkautz " + std::to_string(s.d) + "," + std::to_string(s.n),
                     [s] { return RunGenKautz(s); }});
  }
  if (plan.time) {
    for (const TopoSpec& s : plan.time->topologies) {
      tasks.push_back({s.expr + " time", [s, t = *plan.time] { return RunTime(s, t); }});
    }
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("alltoall-reproduction", &MakeTasks,
                                         {"part",
                                          "relay",
                                          "alpha",
                                          "alpha_decimal",
                                          "bandwidth_tax",
                                          "bandwidth_tax_decimal",
                                          "avg_path_length",
                                          "avg_path_length_decimal",
                                          "avg_shortest_path",
                                          "avg_shortest_path_decimal",
                                          "shortest_paths_only",
                                          "saturates_all",
                                          "min_load",
                                          "max_load",
                                          "load_spread",
                                          "load_spread_decimal",
                                          "claim_holds",
                                          "value",
                                          "value_decimal",
                                          "weight",
                                          "cdf",
                                          "cdf_decimal",
                                          "note",
                                          "d",
                                          "self_loops",
                                          "lambda",
                                          "lambda_decimal",
                                          "bound",
                                          "bound_decimal",
                                          "fraction",
                                          "fraction_decimal",
                                          "bound_loopless",
                                          "bound_loopless_decimal",
                                          "fraction_loopless",
                                          "fraction_loopless_decimal",
                                          "size_bytes",
                                          "chunks",
                                          "time_us",
                                          "time_us_decimal",
                                          "gap",
                                          "gap_decimal"});

}  // namespace
}  // namespace collsynth::experiments
