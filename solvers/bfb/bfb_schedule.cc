#include "solvers/bfb/bfb_schedule.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <deque>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/input_error.h"
#include "core/thread_pool.h"
#include "graphs/properties.h"
#include "solvers/bfb/bfb_cell.h"
#include "solvers/bfb/bfb_cell_certificate.h"

namespace collsynth {
namespace {

constexpr std::uint16_t kUnreachable = 0xFFFF;

// Workers of a ParallelFor over `work` items (core/thread_pool.h: requested = 0 means the
// thread budget; inside an experiment task that is the task's share).
unsigned ThreadCount(unsigned requested, int work) {
  return ParallelWorkers(static_cast<std::size_t>(std::max(1, work)), requested);
}

// Hop distances, one BFS per row node r: to_row = false gives dist[r * n + x] = d(r, x)
// (over out-links), to_row = true gives dist[r * n + v] = d(v, r) (over in-links, i.e. G^T).
std::vector<std::uint16_t> DistanceMatrix(const Topology& g, unsigned threads,
                                          bool to_row = false) {
  const int n = g.num_nodes();
  std::vector<std::uint16_t> dist(static_cast<std::size_t>(n) * n, kUnreachable);
  ParallelFor(n, threads, [&](int r) {
    std::uint16_t* row = dist.data() + static_cast<std::size_t>(r) * n;
    std::vector<int> queue{r};
    queue.reserve(n);
    row[r] = 0;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      int x = queue[h];
      for (int e : to_row ? g.InLinks(x) : g.OutLinks(x)) {
        int y = to_row ? g.link(e).from : g.link(e).to;
        if (row[y] == kUnreachable) {
          row[y] = static_cast<std::uint16_t>(row[x] + 1);
          queue.push_back(y);
        }
      }
    }
  });
  return dist;
}

void RequireBfbInput(const Topology& g, const BfbOptions& o) {
  if (g.num_switches() > 0) {
    for (int v = 0; v < g.num_nodes(); ++v)
      if (g.IsSwitch(v))
        throw InputError(o.file, "node " + g.node(v).name,
                         "is a switch; BFB schedules need a direct-connect topology (seed 000 §6)");
  }
  if (g.num_compute() < 2)
    throw InputError(o.file, "topology", "BFB needs at least two compute nodes");
  if (g.num_nodes() > kMaxBfbNodes)
    throw InputError(o.file, "topology",
                     std::to_string(g.num_nodes()) + " nodes exceed the BFB limit of " +
                         std::to_string(kMaxBfbNodes) + " (N^2 distance matrix)");
  RequireStronglyConnected(g, o.file);
  if (!o.link_alpha.empty()) {
    if (static_cast<int>(o.link_alpha.size()) != g.num_links())
      throw InputError(o.file, "link alpha",
                       "expected one alpha per link (" + std::to_string(g.num_links()) + "), got " +
                           std::to_string(o.link_alpha.size()));
    for (int e = 0; e < g.num_links(); ++e)
      if (o.link_alpha[e] < 0)
        throw InputError(o.file,
                         "link " + g.node(g.link(e).from).name + " -> " + g.node(g.link(e).to).name,
                         "alpha must be >= 0");
  }
}

}  // namespace

BfbPlan SolveBfbPlan(const Topology& g, const BfbOptions& options) {
  RequireBfbInput(g, options);
  const int n = g.num_nodes();
  const unsigned threads = ThreadCount(options.threads, n);
  std::vector<std::uint16_t> dist = DistanceMatrix(g, threads);
  BfbPlan plan;
  plan.num_nodes = n;
  for (std::uint16_t d : dist) plan.diameter = std::max<int>(plan.diameter, d);
  const int diameter = plan.diameter;
  plan.cells.assign(diameter, std::vector<BfbCell>(n));
  BfbLpOptions lp_options;
  lp_options.use_clp_hint = options.use_clp_hint;
  lp_options.remove_unused_expensive_links = options.remove_unused_expensive_links;
  std::atomic<std::int64_t> flow_runs{0};
  ParallelFor(n, threads, [&](int u) {
    // In-links (w, u), w != u (a self-loop never lies on a shortest path).
    std::vector<int> senders, links;
    for (int e : g.InLinks(u)) {
      if (g.link(e).from == u) continue;
      senders.push_back(g.link(e).from);
      links.push_back(e);
    }
    for (int t = 1; t <= diameter; ++t) {
      BfbSubproblem& p = plan.cells[t - 1][u].problem;
      p.receiver = u;
      p.step = t;
      p.senders = senders;
      for (int e : links) {
        p.bandwidth.push_back(g.link(e).bandwidth);
        if (!options.link_alpha.empty()) p.alpha.push_back(options.link_alpha[e]);
      }
    }
    for (int v = 0; v < n; ++v) {
      if (v == u) continue;
      const std::uint16_t* row = dist.data() + static_cast<std::size_t>(v) * n;
      const int t = row[u];
      BfbSubproblem& p = plan.cells[t - 1][u].problem;
      std::vector<int> allowed;
      for (int k = 0; k < static_cast<int>(senders.size()); ++k)
        if (row[senders[k]] + 1 == t) allowed.push_back(k);
      p.sources.push_back(v);
      p.allowed.push_back(std::move(allowed));
    }
    std::int64_t runs = 0;
    for (int t = 1; t <= diameter; ++t) {
      BfbCell& cell = plan.cells[t - 1][u];
      cell.lp = SolveBfbSubproblem(cell.problem, lp_options);
      runs += cell.lp.flow_runs;
      assert(!VerifyBfbLpResult(cell.problem, cell.lp));
    }
    flow_runs += runs;
  });
  plan.flow_runs = flow_runs;
  plan.step_u_max.assign(diameter, Rational(0));
  plan.step_tb.assign(diameter, Rational(0));
  for (int t = 1; t <= diameter; ++t) {
    for (int u = 0; u < n; ++u) {
      const BfbCell& c = plan.cells[t - 1][u];
      if (!c.problem.sources.empty()) ++plan.num_subproblems;
      if (c.lp.value > plan.step_u_max[t - 1]) plan.step_u_max[t - 1] = c.lp.value;
      for (std::size_t w = 0; w < c.problem.senders.size(); ++w) {
        Rational time = c.lp.load[w] / c.problem.bandwidth[w];
        if (time > plan.step_tb[t - 1]) plan.step_tb[t - 1] = time;
      }
    }
  }
  return plan;
}

std::vector<StepSend> BfbAllgatherSends(const BfbPlan& plan) {
  std::vector<StepSend> sends;
  for (int t = 1; t <= plan.diameter; ++t) {
    for (const BfbCell& c : plan.cells[t - 1]) {
      for (std::size_t i = 0; i < c.problem.sources.size(); ++i) {
        Rational lo(0);
        for (std::size_t k = 0; k < c.problem.allowed[i].size(); ++k) {
          const Rational& x = c.lp.x[i][k];
          if (x == 0) continue;
          StepSend s;
          s.source = c.problem.sources[i];
          s.from = c.problem.senders[c.problem.allowed[i][k]];
          s.to = c.problem.receiver;
          s.step = t;
          s.chunk.push_back({lo, lo + x});
          lo += x;
          sends.push_back(std::move(s));
        }
      }
    }
  }
  return sends;
}

nlohmann::json BfbCertificatesJson(const Topology& g, const BfbPlan& plan) {
  nlohmann::json out = nlohmann::json::array();
  for (int t = 1; t <= plan.diameter; ++t) {
    for (const BfbCell& c : plan.cells[t - 1]) {
      if (c.problem.sources.empty()) continue;
      nlohmann::json j;
      j["u"] = g.node(c.problem.receiver).name;
      j["t"] = t;
      j["U"] = ToString(c.lp.value);
      if (c.lp.witness_alpha_sender >= 0) {
        j["alpha_link"] = {g.node(c.problem.senders[c.lp.witness_alpha_sender]).name,
                           g.node(c.problem.receiver).name};
      } else {
        nlohmann::json js = nlohmann::json::array(), jn = nlohmann::json::array();
        for (int i : c.lp.witness_sources) js.push_back(g.node(c.problem.sources[i]).name);
        for (int w : c.lp.witness_senders) jn.push_back(g.node(c.problem.senders[w]).name);
        j["J"] = std::move(js);
        j["N_J"] = std::move(jn);
      }
      out.push_back(std::move(j));
    }
  }
  return out;
}

namespace {

// Validates f: V(G^T) → V(G) as an isomorphism G^T ≅ G (links and bandwidths).
void RequireReverseIsomorphism(const Topology& g, const std::vector<int>& f,
                               const std::string& file) {
  const int n = g.num_nodes();
  if (static_cast<int>(f.size()) != n)
    throw InputError(file, "reverse isomorphism", "expected one image per node");
  std::vector<bool> hit(n, false);
  for (int x = 0; x < n; ++x) {
    if (f[x] < 0 || f[x] >= n || hit[f[x]])
      throw InputError(file, "reverse isomorphism", "not a permutation of the nodes");
    hit[f[x]] = true;
  }
  for (const Link& l : g.links()) {
    // (l.to, l.from) is a link of G^T; its image must be a link of G.
    auto e = g.FindLink(f[l.to], f[l.from]);
    if (!e || g.link(*e).bandwidth != l.bandwidth)
      throw InputError(file, "reverse isomorphism",
                       "maps transposed link " + g.node(l.to).name + " -> " + g.node(l.from).name +
                           " to a non-link (or different bandwidth) of the topology");
  }
}

void FinishBfbResult(const Topology& g, const BfbOptions& options, int rs_steps,
                     nlohmann::json certs, BfbResult& r);

Rational SumOf(const std::vector<Rational>& v) {
  Rational s(0);
  for (const Rational& x : v) s += x;
  return s;
}

}  // namespace

std::optional<BfbResult> GenerateFlatBfbSchedule(const Topology& g, const BfbOptions& options);

BfbResult GenerateBfbSchedule(const Topology& g, const BfbOptions& options) {
  if (options.collective == Collective::kBroadcast) {
    throw std::invalid_argument("BFB builds allgather, reduce-scatter or allreduce, not broadcast");
  }
  if (BfbFlatPlanApplies(g, options)) {
    RequireBfbInput(g, options);
    if (std::optional<BfbResult> fast = GenerateFlatBfbSchedule(g, options))
      return std::move(*fast);
  }
  BfbResult r;
  StepSchedule& s = r.schedule;
  s.collective = options.collective;
  const bool need_ag = options.collective != Collective::kReduceScatter;
  const bool need_rs = options.collective != Collective::kAllgather;
  const bool by_iso = need_rs && !options.reverse_isomorphism.empty();
  if (by_iso) RequireReverseIsomorphism(g, options.reverse_isomorphism, options.file);
  nlohmann::json certs;
  std::optional<BfbPlan> ag_plan;
  if (need_ag || by_iso) ag_plan = SolveBfbPlan(g, options);
  std::vector<StepSend> rs_sends;
  int rs_steps = 0;
  if (need_rs) {
    if (by_iso) {
      r.reduce_scatter_method = "isomorphism (Thm 4)";
      const std::vector<int>& f = options.reverse_isomorphism;
      const int d = ag_plan->diameter;
      for (StepSend send : BfbAllgatherSends(*ag_plan)) {
        int from = send.from, to = send.to;
        send.source = f[send.source];
        send.from = f[to];
        send.to = f[from];
        send.step = d - send.step + 1;
        rs_sends.push_back(std::move(send));
      }
      rs_steps = d;
      r.tb += SumOf(ag_plan->step_tb);
      r.u_sum += SumOf(ag_plan->step_u_max);
      r.flow_runs += ag_plan->flow_runs;
      r.num_subproblems += ag_plan->num_subproblems;
    } else {
      r.reduce_scatter_method = "transpose (Cor. 3.1)";
      Topology gt = g.Transpose();
      BfbOptions ot = options;
      if (!options.link_alpha.empty()) {
        ot.link_alpha.assign(gt.num_links(), Rational(0));
        for (int e = 0; e < gt.num_links(); ++e)
          ot.link_alpha[e] = options.link_alpha[*g.FindLink(gt.link(e).to, gt.link(e).from)];
      }
      BfbPlan rs_plan = SolveBfbPlan(gt, ot);
      const int d = rs_plan.diameter;
      for (StepSend send : BfbAllgatherSends(rs_plan)) {
        std::swap(send.from, send.to);
        send.step = d - send.step + 1;
        rs_sends.push_back(std::move(send));
      }
      rs_steps = d;
      r.tb += SumOf(rs_plan.step_tb);
      r.u_sum += SumOf(rs_plan.step_u_max);
      r.flow_runs += rs_plan.flow_runs;
      r.num_subproblems += rs_plan.num_subproblems;
      if (options.certificates)
        certs["reduce_scatter_on_transpose"] = BfbCertificatesJson(gt, rs_plan);
    }
    std::sort(rs_sends.begin(), rs_sends.end(),
              [](const StepSend& a, const StepSend& b) { return a.step < b.step; });
  }
  s.sends = std::move(rs_sends);
  if (need_ag) {
    for (StepSend& send : BfbAllgatherSends(*ag_plan)) {
      send.step += rs_steps;
      s.sends.push_back(std::move(send));
    }
    r.tb += SumOf(ag_plan->step_tb);
    r.u_sum += SumOf(ag_plan->step_u_max);
    r.flow_runs += ag_plan->flow_runs;
    r.num_subproblems += ag_plan->num_subproblems;
  }
  if (ag_plan && options.certificates) certs["allgather"] = BfbCertificatesJson(g, *ag_plan);
  r.tl = rs_steps + (need_ag ? ag_plan->diameter : 0);
  FinishBfbResult(g, options, rs_steps, std::move(certs), r);
  return r;
}

namespace {

// Claims, the T_B bound and the metadata of a generated schedule (both paths).
void FinishBfbResult(const Topology& g, const BfbOptions& options, int rs_steps,
                     nlohmann::json certs, BfbResult& r) {
  StepSchedule& s = r.schedule;
  s.collective = options.collective;
  if (options.collective == Collective::kAllreduce) s.rs_steps = rs_steps;
  s.claimed_tl = r.tl;
  s.claimed_tb = r.tb;
  DegreeReport deg = ComputeDegrees(g);
  if (deg.regular && deg.link_bandwidth && deg.degree > 0) {
    const int phases = options.collective == Collective::kAllreduce ? 2 : 1;
    r.tb_lower_bound = Rational(phases * static_cast<std::int64_t>(g.num_compute() - 1)) /
                       (Rational(deg.degree) * *deg.link_bandwidth);
    r.bandwidth_optimal = r.tb == *r.tb_lower_bound;
  }
  nlohmann::json& x = s.extra;
  x["generator"] = "bfb";
  x["reference"] = "seed 000 §6.1 LP (3), App. D (Thm 19 certificates)";
  x["tl"] = r.tl;
  x["tb"] = ToString(r.tb);
  x["u_sum"] = ToString(r.u_sum);
  if (!r.reduce_scatter_method.empty()) x["reduce_scatter_method"] = r.reduce_scatter_method;
  if (r.tb_lower_bound) {
    x["tb_lower_bound"] = ToString(*r.tb_lower_bound);
    x["bandwidth_optimal"] = *r.bandwidth_optimal;
  }
  if (!options.link_alpha.empty()) x["heterogeneous"] = "LP (13), App. D.3";
  if (options.certificates) x["certificates"] = std::move(certs);
}

// A compact schedule's steps reversed (Def. 7): step t -> d - t + 1, and each link record
// (a, b) becomes (map[b], map[a]) with sources mapped (identity map: the transpose).
std::vector<CompactStep> ReversedSteps(const CompactStepSchedule& c, int d,
                                       const std::vector<int>* map) {
  std::vector<CompactStep> out;
  for (auto it = c.steps.rbegin(); it != c.steps.rend(); ++it) {
    CompactStep cs = *it;
    cs.step = d - cs.step + 1;
    std::swap(cs.from, cs.to);
    if (map) {
      for (auto& v : cs.from) v = (*map)[v];
      for (auto& v : cs.to) v = (*map)[v];
      for (auto& v : cs.source) v = (*map)[v];
    }
    out.push_back(std::move(cs));
  }
  return out;
}

}  // namespace

// The flat path of GenerateBfbSchedule; nullopt when a compact denominator overflows.
std::optional<BfbResult> GenerateFlatBfbSchedule(const Topology& g, const BfbOptions& options) {
  BfbResult r;
  const bool need_ag = options.collective != Collective::kReduceScatter;
  const bool need_rs = options.collective != Collective::kAllgather;
  const bool by_iso = need_rs && !options.reverse_isomorphism.empty();
  if (by_iso) RequireReverseIsomorphism(g, options.reverse_isomorphism, options.file);
  nlohmann::json certs;
  std::optional<BfbFlatPlan> ag_plan;
  std::optional<CompactStepSchedule> ag;
  auto add_plan = [&r](const BfbFlatPlan& p) {
    r.tb += SumOf(p.step_tb);
    r.u_sum += SumOf(p.step_u_max);
    r.flow_runs += p.flow_runs;
    r.num_subproblems += p.num_subproblems;
  };
  if (need_ag || by_iso) {
    ag_plan = SolveBfbFlatPlan(g, options);
    ag = BfbFlatAllgatherSends(g, *ag_plan);
    if (!ag) return std::nullopt;
  }
  CompactStepSchedule c;
  int rs_steps = 0;
  if (need_rs) {
    if (by_iso) {
      r.reduce_scatter_method = "isomorphism (Thm 4)";
      rs_steps = ag_plan->diameter;
      c.steps = ReversedSteps(*ag, rs_steps, &options.reverse_isomorphism);
      add_plan(*ag_plan);
    } else {
      r.reduce_scatter_method = "transpose (Cor. 3.1)";
      Topology gt = g.Transpose();
      BfbFlatPlan rs_plan = SolveBfbFlatPlan(gt, options);
      std::optional<CompactStepSchedule> rs = BfbFlatAllgatherSends(gt, rs_plan);
      if (!rs) return std::nullopt;
      rs_steps = rs_plan.diameter;
      c.steps = ReversedSteps(*rs, rs_steps, nullptr);
      add_plan(rs_plan);
      if (options.certificates)
        certs["reduce_scatter_on_transpose"] = BfbFlatCertificatesJson(gt, rs_plan);
    }
  }
  if (need_ag) {
    for (CompactStep& cs : ag->steps) {
      cs.step += rs_steps;
      c.steps.push_back(std::move(cs));
    }
    add_plan(*ag_plan);
  }
  if (ag_plan && options.certificates) certs["allgather"] = BfbFlatCertificatesJson(g, *ag_plan);
  r.tl = rs_steps + (need_ag ? ag_plan->diameter : 0);
  FinishBfbResult(g, options, rs_steps, std::move(certs), r);
  const StepSchedule& s = r.schedule;
  CopyStepHeader(s, c);
  c.extra = s.extra;
  if (options.materialize_sends) r.schedule.sends = StepsFromCompact(c).sends;
  r.compact = std::move(c);
  return r;
}

// ---------------------------------------------------------------------------------------
// Flat fast path.
namespace {

constexpr int kMaxFlatDegree = 64;
constexpr std::int64_t kMaxFlatBandwidth = std::int64_t{1} << 20;

// Integer link bandwidths, or nullopt when some bandwidth is not an integer in [1, 2^20].
std::optional<std::vector<std::int64_t>> IntegerBandwidths(const Topology& g) {
  std::vector<std::int64_t> b(g.num_links());
  for (int e = 0; e < g.num_links(); ++e) {
    const Rational& x = g.link(e).bandwidth;
    if (Denominator(x) != 1 || x < 1 || x > kMaxFlatBandwidth) return std::nullopt;
    b[e] = ToInt64(Numerator(x));
  }
  return b;
}

// Per-thread scratch for one receiver.
struct FlatScratch {
  std::vector<std::int32_t> count;
  std::vector<std::int32_t> v_by_step;
  std::vector<std::uint64_t> mask_by_step;
  std::vector<std::pair<std::uint64_t, int>> order;  // (mask, position) in a cell
  std::vector<int> group_of;                         // per position
  std::vector<std::uint64_t> group_mask;
  std::vector<std::int64_t> group_count;
  std::vector<int> group_start;          // per group + 1: its range in `order`
  BfbCellNetwork<std::int64_t> network;  // the cell for the engine (S = 1, no α)
  BfbCellSolver<std::int64_t> solver;
  struct Piece {
    int pos, k;
    std::int64_t amount;
  };
  std::vector<Piece> pieces;
};

struct Frac {
  std::int64_t num = 0, den = 1;
  bool operator>(const Frac& o) const {
    return static_cast<__int128>(num) * o.den > static_cast<__int128>(o.num) * den;
  }
};

// Solves and certifies the cells of receiver u; returns per step (U, max load/(L·B)).
void SolveFlatReceiver(const Topology& g, int u, int diameter,
                       const std::vector<std::uint16_t>& distt, const std::vector<std::int64_t>& bw,
                       FlatScratch& sc, BfbFlatReceiver& out, std::vector<Frac>& step_u,
                       std::vector<Frac>& step_tb, std::int64_t& flow_runs) {
  const int n = g.num_nodes();
  std::vector<int> links;
  for (int e : g.InLinks(u))
    if (g.link(e).from != u) links.push_back(e);
  const int d = static_cast<int>(links.size());
  std::vector<std::int64_t> b(d);
  std::vector<const std::uint16_t*> row_w(d);
  for (int k = 0; k < d; ++k) {
    b[k] = bw[links[k]];
    row_w[k] = distt.data() + static_cast<std::size_t>(g.link(links[k]).from) * n;
  }
  const std::uint16_t* row_u = distt.data() + static_cast<std::size_t>(u) * n;
  // Sources bucketed by step, with their allowed in-links as a bit mask.
  sc.count.assign(diameter + 2, 0);
  for (int v = 0; v < n; ++v)
    if (v != u) ++sc.count[row_u[v] + 1];
  for (int t = 1; t <= diameter + 1; ++t) sc.count[t] += sc.count[t - 1];
  // Now sc.count[t] is the first position of step t (step 0 is u itself, never counted).
  out.cell_begin.assign(diameter + 1, 0);
  for (int t = 1; t <= diameter; ++t) out.cell_begin[t] = sc.count[t + 1];
  const int m_total = n - 1;
  sc.v_by_step.resize(m_total);
  sc.mask_by_step.resize(m_total);
  std::vector<std::int32_t> fill(sc.count.begin(), sc.count.end());
  for (int v = 0; v < n; ++v) {
    if (v == u) continue;
    const int t = row_u[v];
    std::uint64_t mask = 0;
    for (int k = 0; k < d; ++k)
      if (row_w[k][v] + 1 == t) mask |= std::uint64_t{1} << k;
    const int p = fill[t]++;
    sc.v_by_step[p] = v;
    sc.mask_by_step[p] = mask;
  }
  out.source.assign(sc.v_by_step.begin(), sc.v_by_step.end());
  out.in_witness.assign(m_total, 0);
  out.scale.assign(diameter, 1);
  out.value_num.assign(diameter, 0);
  out.value_den.assign(diameter, 1);
  out.witness_links.assign(diameter, 0);
  out.share_begin.assign(1, 0);
  out.share_link.clear();
  out.share_num.clear();
  step_u.assign(diameter, Frac{});
  step_tb.assign(diameter, Frac{});
  std::vector<std::int64_t> load(d);
  for (int t = 1; t <= diameter; ++t) {
    const int a = out.cell_begin[t - 1], z = out.cell_begin[t], m = z - a;
    if (m == 0) continue;
    // Groups of sources with equal masks.
    sc.order.clear();
    for (int p = a; p < z; ++p) {
      if (sc.mask_by_step[p] == 0)
        throw std::logic_error("BFB flat plan: a source has no allowed in-link");
      sc.order.emplace_back(sc.mask_by_step[p], p);
    }
    std::sort(sc.order.begin(), sc.order.end());
    sc.group_mask.clear();
    sc.group_count.clear();
    sc.group_of.resize(m_total);
    for (const auto& [mask, p] : sc.order) {
      if (sc.group_mask.empty() || sc.group_mask.back() != mask) {
        sc.group_mask.push_back(mask);
        sc.group_count.push_back(0);
      }
      ++sc.group_count.back();
      sc.group_of[p] = static_cast<int>(sc.group_mask.size()) - 1;
    }
    const int num_groups = static_cast<int>(sc.group_mask.size());
    sc.group_start.assign(1, 0);
    for (std::int64_t c : sc.group_count)
      sc.group_start.push_back(sc.group_start.back() + static_cast<int>(c));
    // The exact optimum (bfb_cell.h): Dinkelbach from J = all sources.
    BfbCellNetwork<std::int64_t>& net = sc.network;
    net.bandwidth = b;
    net.ClearGroups();
    for (int gi = 0; gi < num_groups; ++gi) {
      net.AddGroup(sc.group_count[gi]);
      for (std::uint64_t mk = sc.group_mask[gi]; mk; mk &= mk - 1)
        net.AddGroupLink(__builtin_ctzll(mk));
    }
    const std::int64_t runs_before = sc.solver.flow_runs();
    const BfbCellOptimum<std::int64_t> opt = sc.solver.Solve(net);
    flow_runs += sc.solver.flow_runs() - runs_before;
    const std::int64_t p_num = opt.value.num, q_den = opt.value.den;
    // Split each group's flow onto its members (north-west corner), in member order.
    sc.pieces.clear();
    SplitBfbCellFlow(net, opt, [&](int gi, int member, int entry, std::int64_t amount) {
      sc.pieces.push_back({sc.order[sc.group_start[gi] + member].second, net.link[entry], amount});
    });
    // Shares per source entry (in-link order), by a counting sort of the pieces.
    std::sort(sc.pieces.begin(), sc.pieces.end(),
              [](const FlatScratch::Piece& x, const FlatScratch::Piece& y) {
                return x.pos != y.pos ? x.pos < y.pos : x.k < y.k;
              });
    {
      std::size_t pi = 0;
      for (int p = a; p < z; ++p) {
        for (; pi < sc.pieces.size() && sc.pieces[pi].pos == p; ++pi) {
          out.share_link.push_back(sc.pieces[pi].k);
          out.share_num.push_back(sc.pieces[pi].amount);
        }
        out.share_begin.push_back(static_cast<std::int32_t>(out.share_link.size()));
      }
    }
    for (int p = a; p < z; ++p) out.in_witness[p] = opt.witness[sc.group_of[p]];
    out.scale[t - 1] = opt.flow_scale;
    out.value_num[t - 1] = p_num;
    out.value_den[t - 1] = q_den;
    {
      std::uint64_t witness = 0;
      for (int gi = 0; gi < num_groups; ++gi)
        if (opt.witness[gi]) witness |= sc.group_mask[gi];
      out.witness_links[t - 1] = witness;
    }
    // Certificate, from the stored cell alone by the separate checker (bfb_cell_certificate.h):
    // x feasible with load <= U·B·L on every in-link (so the optimum is <= U), and U_J == U
    // for the witness J (so >= U).
    BfbCellClaim claim;
    claim.num_links = d;
    claim.bandwidth = b.data();
    claim.num_sources = m;
    claim.allowed = sc.mask_by_step.data() + a;
    claim.share_begin = out.share_begin.data() + a;
    claim.share_link = out.share_link.data();
    claim.share_num = out.share_num.data();
    claim.in_witness = out.in_witness.data() + a;
    claim.value_num = p_num;
    claim.value_den = q_den;
    claim.shares_scale = out.scale[t - 1];
    claim.witness_links = out.witness_links[t - 1];
    if (std::optional<std::string> bad = CheckBfbCellCertificate(claim, &load))
      throw std::logic_error("BFB flat plan: certificate failed (" + *bad + ")");
    Frac tb{0, 1};
    for (int k = 0; k < d; ++k) {
      Frac f{load[k], q_den * b[k]};
      if (f > tb) tb = f;
    }
    step_u[t - 1] = Frac{p_num, q_den};
    step_tb[t - 1] = tb;
  }
}

Rational ToRational(const Frac& f) { return Rational(f.num, f.den); }

}  // namespace

bool BfbFlatPlanApplies(const Topology& g, const BfbOptions& options) {
  if (!options.flat || options.use_clp_hint || !options.link_alpha.empty()) return false;
  if (!IntegerBandwidths(g)) return false;
  for (int u = 0; u < g.num_nodes(); ++u)
    if (g.InLinks(u).size() > static_cast<std::size_t>(kMaxFlatDegree)) return false;
  return true;
}

BfbFlatPlan SolveBfbFlatPlan(const Topology& g, const BfbOptions& options) {
  RequireBfbInput(g, options);
  if (!BfbFlatPlanApplies(g, options))
    throw std::logic_error(
        "SolveBfbFlatPlan: needs integer bandwidths <= 2^20, no alpha, in-degree <= 64");
  const std::vector<std::int64_t> bw = *IntegerBandwidths(g);
  const int n = g.num_nodes();
  const unsigned threads = ThreadCount(options.threads, n);
  std::vector<std::uint16_t> distt = DistanceMatrix(g, threads, /*to_row=*/true);
  BfbFlatPlan plan;
  plan.num_nodes = n;
  for (std::uint16_t x : distt) plan.diameter = std::max<int>(plan.diameter, x);
  const int diameter = plan.diameter;
  plan.receivers.resize(n);
  std::vector<std::vector<Frac>> step_u(n), step_tb(n);
  std::atomic<std::int64_t> flow_runs{0};
  std::vector<FlatScratch> scratch(threads);  // body(w) runs once per w: one scratch each
  std::atomic<int> next{0};
  ParallelFor(static_cast<int>(threads), threads, [&](int w) {
    FlatScratch& sc = scratch[w];
    std::int64_t runs = 0;
    for (int u = next++; u < n; u = next++)
      SolveFlatReceiver(g, u, diameter, distt, bw, sc, plan.receivers[u], step_u[u], step_tb[u],
                        runs);
    flow_runs += runs;
  });
  plan.flow_runs = flow_runs;
  std::vector<Frac> u_max(diameter), tb_max(diameter);
  for (int u = 0; u < n; ++u) {
    const BfbFlatReceiver& r = plan.receivers[u];
    for (int t = 1; t <= diameter; ++t) {
      if (r.cell_begin[t] == r.cell_begin[t - 1]) continue;
      ++plan.num_subproblems;
      ++plan.certified;
      if (step_u[u][t - 1] > u_max[t - 1]) u_max[t - 1] = step_u[u][t - 1];
      if (step_tb[u][t - 1] > tb_max[t - 1]) tb_max[t - 1] = step_tb[u][t - 1];
    }
  }
  for (int t = 0; t < diameter; ++t) {
    plan.step_u_max.push_back(ToRational(u_max[t]));
    plan.step_tb.push_back(ToRational(tb_max[t]));
  }
  return plan;
}

std::optional<CompactStepSchedule> BfbFlatAllgatherSends(const Topology& g,
                                                         const BfbFlatPlan& plan) {
  CompactStepSchedule c;
  const int n = plan.num_nodes;
  std::vector<std::vector<std::int64_t>> bucket;  // per in-link of u: (source, lo, hi) triples
  for (int t = 1; t <= plan.diameter; ++t) {
    std::int64_t den = 1;
    for (const BfbFlatReceiver& r : plan.receivers) {
      const std::int64_t l = r.scale[t - 1];
      const std::int64_t q = l / std::gcd(den, l);
      if (__builtin_mul_overflow(den, q, &den)) return std::nullopt;
    }
    CompactStep cs;
    cs.step = t;
    cs.denominator = den;
    for (int u = 0; u < n; ++u) {
      const BfbFlatReceiver& r = plan.receivers[u];
      const std::int64_t f = den / r.scale[t - 1];
      std::vector<int> links;
      for (int e : g.InLinks(u))
        if (g.link(e).from != u) links.push_back(e);
      bucket.resize(std::max(bucket.size(), links.size()));
      for (auto& bk : bucket) bk.clear();
      for (std::int32_t p = r.cell_begin[t - 1]; p < r.cell_begin[t]; ++p) {
        std::int64_t lo = 0;
        for (std::int32_t h = r.share_begin[p]; h < r.share_begin[p + 1]; ++h) {
          const std::size_t k = static_cast<std::size_t>(r.share_link[h]);
          const std::int64_t hi = lo + r.share_num[h] * f;
          bucket[k].insert(bucket[k].end(), {r.source[p], lo, hi});
          lo = hi;
        }
      }
      for (std::size_t k = 0; k < links.size(); ++k) {
        if (bucket[k].empty()) continue;
        cs.AddRecord(g.link(links[k]).from, u);
        for (std::size_t q = 0; q < bucket[k].size(); q += 3) {
          cs.AddSend(static_cast<int>(bucket[k][q]));
          cs.AddInterval(bucket[k][q + 1], bucket[k][q + 2]);
        }
      }
    }
    c.steps.push_back(std::move(cs));
  }
  return c;
}

nlohmann::json BfbFlatCertificatesJson(const Topology& g, const BfbFlatPlan& plan) {
  nlohmann::json out = nlohmann::json::array();
  for (int t = 1; t <= plan.diameter; ++t) {
    for (int u = 0; u < plan.num_nodes; ++u) {
      const BfbFlatReceiver& r = plan.receivers[u];
      if (r.cell_begin[t] == r.cell_begin[t - 1]) continue;
      nlohmann::json j;
      j["u"] = g.node(u).name;
      j["t"] = t;
      j["U"] = ToString(Rational(r.value_num[t - 1], r.value_den[t - 1]));
      nlohmann::json js = nlohmann::json::array(), jn = nlohmann::json::array();
      for (std::int32_t p = r.cell_begin[t - 1]; p < r.cell_begin[t]; ++p)
        if (r.in_witness[p]) js.push_back(g.node(r.source[p]).name);
      int k = 0;
      for (int e : g.InLinks(u)) {
        if (g.link(e).from == u) continue;
        if (r.witness_links[t - 1] >> k & 1) jn.push_back(g.node(g.link(e).from).name);
        ++k;
      }
      j["J"] = std::move(js);
      j["N_J"] = std::move(jn);
      out.push_back(std::move(j));
    }
  }
  return out;
}

}  // namespace collsynth
