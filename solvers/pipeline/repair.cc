#include "solvers/pipeline/repair.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstddef>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include "core/stopwatch.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/edge_splitting.h"
#include "solvers/pipeline/residual_routes.h"

namespace collsynth {
namespace {

using Clock = std::chrono::steady_clock;

// Rounds of Theorem 9's test in the residual packing (each may drop more kept trees).
constexpr int kMaxCutRounds = 64;

// A broken route of OLD (trees[i].edges[edge].routes[route]) and the routes replacing it.
struct RoutePatch {
  std::size_t edge = 0, route = 0;
  std::vector<PipelineRoute> routes;
};

// What one attempt at a target changes in OLD; the kept trees are left in OLD.
struct RepairPlan {
  std::vector<BigInt> loads;  // per link: the repaired schedule's load
  std::map<std::size_t, std::vector<RoutePatch>> rerouted;  // tree index -> its patches
  std::set<std::size_t> dropped;                            // tree indices replaced
  std::vector<PipelineTree> added;                          // trees packed for them
  RepairStats counts;
  std::string why;  // why the attempt failed
};

// One repair at a target: capacities ⌊k·target·b_e⌋, OLD's multiplicities times `factor`.
class RepairAttempt {
 public:
  RepairAttempt(const Topology& g, const PipelineSchedule& old, const BigInt& k,
                const Rational& target, const PipelineOptions& options)
      : g_(g),
        old_(old),
        options_(options),
        factor_(k / old.k),
        cap_(g.num_links()),
        links_(g),
        search_(g) {
    for (int e = 0; e < g.num_links(); ++e) {
      cap_[e] = Floor(Rational(k) * target * g.link(e).bandwidth);
    }
    res_ = cap_;
  }

  // The plan, or std::nullopt (plan_.why says why) when the target cannot be reached this way.
  std::optional<RepairPlan> Run() {
    if (!ChargeSurvivingRoutes() || !RerouteAffectedTrees() || !PackDroppedDemand()) {
      return std::nullopt;
    }
    plan_.loads.resize(res_.size());
    for (std::size_t e = 0; e < res_.size(); ++e) plan_.loads[e] = cap_[e] - res_[e];
    return std::move(plan_);
  }
  const std::string& why() const { return plan_.why; }
  std::int64_t routes_broken() const { return plan_.counts.routes_broken; }

 private:
  using Journal = std::vector<std::pair<std::vector<int>, BigInt>>;

  void Charge(const std::vector<int>& links, const BigInt& m, Journal* journal) {
    for (int e : links) res_[e] -= m;
    if (journal) journal->push_back({links, m});
  }
  void Undo(Journal* journal) {
    for (auto& [links, m] : *journal) {
      for (int e : links) res_[e] += m;
    }
    journal->clear();
  }

  bool ChargeSurvivingRoutes();
  bool RerouteAffectedTrees();
  bool RerouteTree(std::size_t i, std::vector<RoutePatch>* patches, Journal* journal);
  bool RouteSegment(int u, int v, BigInt amount, std::vector<PipelineRoute>* routes,
                    Journal* journal);
  template <typename F>
  void ForEachRoute(std::size_t i, F f) const;
  void DropTree(std::size_t i);
  bool PackDroppedDemand();
  CapacityGraph ResidualGraph() const;
  bool DropTreesInto(const std::vector<int>& x, const CapacityGraph& residual,
                     const std::vector<BigInt>& src, const BigInt& total);

  const Topology& g_;
  const PipelineSchedule& old_;
  const PipelineOptions& options_;
  const BigInt factor_;
  std::vector<BigInt> cap_, res_;  // ⌊k·target·b_e⌋ and what is left of it
  LinkFinder links_;
  SwitchSearch search_;
  std::map<std::size_t, std::vector<RoutePatch>> broken_;  // affected trees' broken routes
  RepairPlan plan_;
};

// Step 2: every route over links of g is charged; trees with a broken route are affected.
bool RepairAttempt::ChargeSurvivingRoutes() {
  for (std::size_t i = 0; i < old_.trees.size(); ++i) {
    const std::vector<PipelineTreeEdge>& edges = old_.trees[i].edges;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      for (std::size_t r = 0; r < edges[e].routes.size(); ++r) {
        const PipelineRoute& route = edges[e].routes[r];
        if (std::optional<std::vector<int>> links = links_.RouteLinks(route.path)) {
          Charge(*links, route.multiplicity * factor_, nullptr);
        } else {
          broken_[i].push_back({e, r, {}});
          ++plan_.counts.routes_broken;
        }
      }
    }
  }
  for (int e = 0; e < g_.num_links(); ++e) {
    if (res_[e] < 0 && g_.link(e).from != g_.link(e).to) {
      plan_.why = "the kept routes overload link " + g_.node(g_.link(e).from).name + " -> " +
                  g_.node(g_.link(e).to).name + " at the target";
      return false;
    }
  }
  return true;
}

// Step 3: reroute each affected tree's broken routes, or drop the tree.
bool RepairAttempt::RerouteAffectedTrees() {
  for (auto& [i, patches] : broken_) {
    Journal journal;
    if (RerouteTree(i, &patches, &journal)) {
      plan_.rerouted.emplace(i, std::move(patches));
      continue;
    }
    Undo(&journal);
    DropTree(i);
  }
  plan_.counts.trees_rerouted = static_cast<std::int64_t>(plan_.rerouted.size());
  plan_.counts.trees_replaced = static_cast<std::int64_t>(plan_.dropped.size());
  return true;
}

// Each broken route of tree i rerouted with residual capacity (the patches); false when some
// broken route finds no room.
bool RepairAttempt::RerouteTree(std::size_t i, std::vector<RoutePatch>* patches, Journal* journal) {
  const PipelineTree& t = old_.trees[i];
  std::int64_t added = 0;
  for (RoutePatch& p : *patches) {
    const PipelineTreeEdge& e = t.edges[p.edge];
    if (!RouteSegment(e.from, e.to, e.routes[p.route].multiplicity * factor_, &p.routes, journal)) {
      return false;
    }
    added += static_cast<std::int64_t>(p.routes.size());
  }
  plan_.counts.routes_removed += static_cast<std::int64_t>(patches->size());
  plan_.counts.routes_added += added;
  return true;
}

// Paths u -> v through switches carrying `amount` in total: one path with room for all of it,
// else the amount in halves, quarters, ... (each piece on the first path with room for it).
bool RepairAttempt::RouteSegment(int u, int v, BigInt amount, std::vector<PipelineRoute>* routes,
                                 Journal* journal) {
  return RouteThroughSwitches(
      g_, search_, u, v, std::move(amount), res_,
      [&](const std::vector<int>& links, const BigInt& piece) { Charge(links, piece, journal); },
      routes);
}

// Calls f(path, multiplicity) for every route tree i has now: OLD's routes times factor_, a
// rerouted tree's broken ones replaced by their patches (a dropped affected tree: its broken
// routes as in OLD).
template <typename F>
void RepairAttempt::ForEachRoute(std::size_t i, F f) const {
  auto it = plan_.rerouted.find(i);
  const std::vector<RoutePatch>* patches = it == plan_.rerouted.end() ? nullptr : &it->second;
  std::size_t next = 0;  // patches are in (edge, route) order
  const std::vector<PipelineTreeEdge>& edges = old_.trees[i].edges;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    for (std::size_t r = 0; r < edges[e].routes.size(); ++r) {
      if (patches && next < patches->size() && (*patches)[next].edge == e &&
          (*patches)[next].route == r) {
        for (const PipelineRoute& p : (*patches)[next++].routes) f(p.path, p.multiplicity);
      } else {
        f(edges[e].routes[r].path, edges[e].routes[r].multiplicity * factor_);
      }
    }
  }
}

// Tree i is dropped: its routes (over links of g) give their capacity back, a rerouted tree's
// patches included.
void RepairAttempt::DropTree(std::size_t i) {
  ForEachRoute(i, [&](const std::vector<int>& path, const BigInt& m) {
    if (std::optional<std::vector<int>> links = links_.RouteLinks(path))
      Charge(*links, -m, nullptr);
  });
  if (auto it = plan_.rerouted.find(i); it != plan_.rerouted.end()) {
    plan_.counts.routes_removed -= static_cast<std::int64_t>(it->second.size());
    for (const RoutePatch& p : it->second) {
      plan_.counts.routes_added -= static_cast<std::int64_t>(p.routes.size());
    }
    plan_.rerouted.erase(it);
  }
  for (const PipelineTreeEdge& e : old_.trees[i].edges) {
    plan_.counts.routes_removed += static_cast<std::int64_t>(e.routes.size());
  }
  plan_.dropped.insert(i);
}

// Step 4: the dropped trees' multiplicity per root, packed into the residual capacity by the plain
// path's building block (solvers/pipeline/pipeline_schedule_builder.h, RoutedTreesFor: Algorithm 1
// on the residual, which is Eulerian at every switch, then Algorithm 2), with source capacity the
// demand at each root and threshold their sum. Theorem 9's condition is tested first; a set X it
// fails for (a minimum cut) is too poorly entered by the residual, and trees that enter X
// more often than their demand needs are dropped too (their surplus covers the deficit), then the
// test again, at most kMaxCutRounds times.
bool RepairAttempt::PackDroppedDemand() {
  if (plan_.dropped.empty()) return true;
  std::vector<BigInt> src(g_.num_nodes(), 0);
  BigInt total = 0;
  CapacityGraph residual;
  for (int round = 0;; ++round) {
    src.assign(g_.num_nodes(), 0);
    for (std::size_t i : plan_.dropped)
      src[old_.trees[i].root] += old_.trees[i].multiplicity * factor_;
    total = 0;
    for (const BigInt& m : src) total += m;
    residual = ResidualGraph();
    std::optional<std::vector<int>> cut = SourceConnectivityCut(g_, residual, src, total);
    if (!cut) break;
    if (round == kMaxCutRounds || !DropTreesInto(*cut, residual, src, total)) {
      plan_.why = "the residual capacity entering a set of " + std::to_string(cut->size()) +
                  " nodes cannot carry the replaced trees (seed 004 Theorem 9)";
      return false;
    }
  }
  std::vector<std::pair<int, BigInt>> demands;
  for (int v = 0; v < g_.num_nodes(); ++v) {
    if (src[v] > 0) demands.push_back({v, src[v]});
  }
  PipelineStats stats;
  std::optional<std::vector<PipelineTree>> trees;
  try {
    trees =
        RoutedTreesFor(g_, residual, src, total, demands, NonEulerianSplit::kTry, options_, &stats);
  } catch (const std::logic_error& e) {  // said, never hidden: the fallback then runs
    plan_.why = std::string("the residual packing failed: ") + e.what();
    return false;
  }
  if (!trees) {
    plan_.why = "edge splitting could not isolate a switch of the residual capacity";
    return false;
  }
  for (const PipelineTree& t : *trees) {
    for (const PipelineTreeEdge& e : t.edges) {
      plan_.counts.routes_added += static_cast<std::int64_t>(e.routes.size());
    }
  }
  plan_.counts.trees_rerouted = static_cast<std::int64_t>(plan_.rerouted.size());
  plan_.counts.trees_replaced = static_cast<std::int64_t>(plan_.dropped.size());
  plan_.counts.trees_added = static_cast<std::int64_t>(trees->size());
  for (const PipelineTree& t : *trees) {  // charged, so that the loads are the schedule's
    for (const PipelineTreeEdge& e : t.edges) {
      for (const PipelineRoute& r : e.routes)
        Charge(*links_.RouteLinks(r.path), r.multiplicity, nullptr);
    }
  }
  plan_.added = std::move(*trees);
  return true;
}

CapacityGraph RepairAttempt::ResidualGraph() const {
  CapacityGraph residual;
  for (int e = 0; e < g_.num_links(); ++e) {
    const Link& l = g_.link(e);
    if (l.from != l.to && res_[e] > 0) residual.capacity[{l.from, l.to}] += res_[e];
  }
  return residual;
}

// Drops trees (kept or rerouted) that enter X more than their demand needs, most surplus
// first, until their surplus covers X's deficit; false when they cannot.
bool RepairAttempt::DropTreesInto(const std::vector<int>& x, const CapacityGraph& residual,
                                  const std::vector<BigInt>& src, const BigInt& total) {
  std::vector<char> in_x(g_.num_nodes(), 0);
  for (int v : x) in_x[v] = 1;
  BigInt deficit = total;  // threshold - (residual into X + source capacity inside X)
  for (const auto& [arc, c] : residual.capacity)
    deficit -= !in_x[arc.first] && in_x[arc.second] ? c : BigInt(0);
  for (int v : x) deficit -= src[v];
  std::vector<std::pair<BigInt, std::size_t>> surplus;
  for (std::size_t i = 0; i < old_.trees.size(); ++i) {
    if (plan_.dropped.count(i)) continue;
    const PipelineTree& t = old_.trees[i];
    BigInt into = in_x[t.root] ? BigInt(0) : BigInt(-t.multiplicity * factor_);
    ForEachRoute(i, [&](const std::vector<int>& path, const BigInt& m) {
      for (std::size_t j = 0; j + 1 < path.size(); ++j) {
        if (!in_x[path[j]] && in_x[path[j + 1]]) into += m;
      }
    });
    if (into > 0) surplus.push_back({into, i});
  }
  std::sort(surplus.rbegin(), surplus.rend());
  for (const auto& [gain, i] : surplus) {
    if (deficit <= 0) break;
    DropTree(i);
    deficit -= gain;
  }
  return deficit <= 0;
}

// Step 1's cheap target: the largest cut ratio among OLD's cut and the single-node cuts V - v on
// g (lower bounds on ratio*, bound (1)), with that cut.
AllgatherOptimum CheapTarget(const Topology& g, const PipelineSchedule& old) {
  AllgatherOptimum t;
  t.ratio = -1;
  const std::vector<int> compute = g.ComputeNodes();
  for (int v : compute) {
    Rational in = 0;
    for (int e : g.InLinks(v)) in += g.link(e).from != v ? g.link(e).bandwidth : Rational(0);
    if (in == 0) continue;
    Rational r = Rational(g.num_compute() - 1) / in;
    if (r <= t.ratio) continue;
    t.ratio = r;
    t.cut_compute = g.num_compute() - 1;
    t.cut_bandwidth = in;
    t.bottleneck_cut.clear();
    for (int w = 0; w < g.num_nodes(); ++w) {
      if (w != v) t.bottleneck_cut.push_back(w);
    }
  }
  if (old.bottleneck_cut) {
    CutBound b = CheckCutBound(g, Collective::kAllgather, *old.bottleneck_cut);
    if (b.ok && b.bound > t.ratio) {
      t.ratio = b.bound;
      t.bottleneck_cut = *old.bottleneck_cut;
      std::sort(t.bottleneck_cut.begin(), t.bottleneck_cut.end());
      t.cut_compute = 0;
      for (int w : t.bottleneck_cut) t.cut_compute += g.IsCompute(w);
      t.cut_bandwidth = Rational(t.cut_compute) / b.bound;
    }
  }
  MinimalUk(g, t.ratio, &t.U, &t.k);
  return t;
}

BigInt Lcm(const BigInt& a, const BigInt& b) { return a / boost::multiprecision::gcd(a, b) * b; }

// Multiplies a tree's multiplicities by `factor` and replaces its broken routes by their patches.
void PatchTree(PipelineTree* t, const BigInt& factor, std::vector<RoutePatch>* patches) {
  if (factor != 1) {
    t->multiplicity *= factor;
    for (PipelineTreeEdge& e : t->edges) {
      for (PipelineRoute& r : e.routes) r.multiplicity *= factor;
    }
  }
  if (!patches) return;
  // Last patch first, so that the indices of the earlier ones stay valid.
  for (auto p = patches->rbegin(); p != patches->rend(); ++p) {
    std::vector<PipelineRoute>& routes = t->edges[p->edge].routes;
    routes.erase(routes.begin() + static_cast<std::ptrdiff_t>(p->route));
    routes.insert(routes.begin() + static_cast<std::ptrdiff_t>(p->route),
                  std::make_move_iterator(p->routes.begin()),
                  std::make_move_iterator(p->routes.end()));
  }
}

// OLD with the plan applied, at the target (trees moved out of OLD).
PipelineSchedule Assemble(const Topology& g, PipelineSchedule& old, RepairPlan& plan,
                          const AllgatherOptimum& target, const BigInt& k) {
  const BigInt factor = k / old.k;
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  s.trees.reserve(old.trees.size() + plan.added.size());
  for (std::size_t i = 0; i < old.trees.size(); ++i) {
    if (plan.dropped.count(i)) continue;
    auto it = plan.rerouted.find(i);
    PatchTree(&old.trees[i], factor, it != plan.rerouted.end() ? &it->second : nullptr);
    s.trees.push_back(std::move(old.trees[i]));
  }
  for (PipelineTree& t : plan.added) s.trees.push_back(std::move(t));
  s.k = k;
  s.U = Rational(k) * target.ratio;
  s.ratio = 0;  // max_e load_e / (k·b_e), from the loads the attempt charged
  for (int e = 0; e < g.num_links(); ++e) {
    const Rational r = Rational(plan.loads[e]) / (Rational(k) * g.link(e).bandwidth);
    if (r > s.ratio) s.ratio = r;
  }
  if (s.ratio == target.ratio) s.bottleneck_cut = target.bottleneck_cut;
  s.extra["optimal_ratio"] = ToString(target.ratio);
  s.extra["cut_compute"] = target.cut_compute;
  s.extra["cut_bandwidth"] = ToString(target.cut_bandwidth);
  return s;
}

std::int64_t CountRoutes(const PipelineSchedule& s) {
  std::int64_t n = 0;
  for (const PipelineTree& t : s.trees) {
    for (const PipelineTreeEdge& e : t.edges) n += static_cast<std::int64_t>(e.routes.size());
  }
  return n;
}

// The attempt's counts into the result, and the method they amount to.
void RecordCounts(const RepairStats& counts, RepairResult* out) {
  RepairStats& st = out->stats;
  st.trees_rerouted = counts.trees_rerouted;
  st.trees_replaced = counts.trees_replaced;
  st.trees_added = counts.trees_added;
  st.trees_kept = st.trees_old - st.trees_rerouted - st.trees_replaced;
  st.routes_broken = counts.routes_broken;
  st.routes_removed = counts.routes_removed;
  st.routes_added = counts.routes_added;
  out->method = st.trees_replaced > 0  ? RepairMethod::kResidualPacking
                : st.routes_broken > 0 ? RepairMethod::kRerouted
                                       : RepairMethod::kUnchanged;
}

// Steps 1-4 on the allgather frame (g^T for reduce-scatter); false when no target worked.
bool RepairAtOptimum(const Topology& g, PipelineSchedule& old, const PipelineOptions& options,
                     RepairResult* out) {
  auto t0 = Clock::now();
  AllgatherOptimum target = CheapTarget(g, old);
  out->stats.optimum_seconds = SecondsSince(t0);
  for (int attempt = 0; attempt < 2; ++attempt) {
    const BigInt k = Lcm(old.k, target.k);
    auto t1 = Clock::now();
    RepairAttempt run(g, old, k, target.ratio, options);
    std::optional<RepairPlan> plan = run.Run();
    out->stats.repair_seconds += SecondsSince(t1);
    ++out->stats.attempts;
    if (plan) {
      PipelineSchedule s = Assemble(g, old, *plan, target, k);
      if (s.ratio == target.ratio) {
        RecordCounts(plan->counts, out);
        out->schedule = std::move(s);
        out->optimum = std::move(target);
        return true;
      }
      out->why_fresh = "the repaired schedule's ratio is not the target";  // assembly moved OLD
      return false;
    }
    out->why_fresh = run.why();
    out->stats.routes_broken = run.routes_broken();
    if (out->stats.optimum_computed) break;
    auto t2 = Clock::now();
    AllgatherOptimum exact = ComputeAllgatherOptimum(g);
    out->stats.optimum_seconds += SecondsSince(t2);
    out->stats.optimum_computed = true;
    if (exact.ratio == target.ratio) break;  // the same target again would fail the same way
    target = std::move(exact);
  }
  return false;
}

// Step 5: a fresh synthesis; the certificate is the one it carries.
void RepairFresh(const Topology& g, Collective collective, const PipelineOptions& options,
                 RepairResult* out) {
  auto t0 = Clock::now();
  PipelineOptions opt = options;
  opt.collective = collective;
  PipelineBuildResult built = BuildPipelineSchedule(g, opt);
  out->stats.fresh_seconds = SecondsSince(t0);
  out->method = RepairMethod::kFresh;
  RepairStats& st = out->stats;
  st.trees_kept = st.trees_rerouted = 0;
  st.trees_replaced = st.trees_old;
  st.trees_added = static_cast<std::int64_t>(built.schedule.trees.size());
  st.routes_added = CountRoutes(built.schedule);
  AllgatherOptimum& c = out->optimum;
  c.ratio = built.optimal_ratio;
  c.bottleneck_cut = built.schedule.bottleneck_cut.value_or(std::vector<int>());
  c.cut_compute = built.schedule.extra.value("cut_compute", 0);
  c.cut_bandwidth = ParseRational(built.schedule.extra.value("cut_bandwidth", std::string("0")));
  c.U = built.schedule.U;
  c.k = built.schedule.k;
  out->schedule = std::move(built.schedule);
}

}  // namespace

const char* RepairMethodName(RepairMethod m) {
  switch (m) {
    case RepairMethod::kUnchanged:
      return "unchanged";
    case RepairMethod::kRerouted:
      return "rerouted";
    case RepairMethod::kResidualPacking:
      return "residual-packing";
    case RepairMethod::kFresh:
      return "fresh";
  }
  return "?";
}

RepairResult RepairPipelineSchedule(const Topology& g, PipelineSchedule old,
                                    const PipelineOptions& fresh) {
  const Collective c = old.collective;
  if (c != Collective::kAllgather && c != Collective::kReduceScatter) {
    throw std::invalid_argument("repair takes allgather and reduce-scatter schedules");
  }
  RepairResult out;
  out.old_ratio = old.ratio;
  out.stats.trees_old = static_cast<std::int64_t>(old.trees.size());
  const std::int64_t old_routes = CountRoutes(old);
  const bool rs = c == Collective::kReduceScatter;
  const Topology frame = rs ? g.Transpose() : Topology();
  if (RepairAtOptimum(rs ? frame : g, old, fresh, &out)) {
    out.schedule.collective = c;
  } else {
    RepairFresh(g, c, fresh, &out);
    out.stats.routes_removed = old_routes;
  }
  assert(CheckPipelineSchedule(g, out.schedule).ok);  // STYLE rule 5 (debug builds)
  return out;
}

}  // namespace collsynth
