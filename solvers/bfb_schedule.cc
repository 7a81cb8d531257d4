#include "solvers/bfb_schedule.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "graphs/input_error.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

constexpr std::uint16_t kUnreachable = 0xFFFF;

unsigned ThreadCount(unsigned requested, int work) {
  unsigned t = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  return std::max(1u, std::min<unsigned>(t, static_cast<unsigned>(std::max(1, work))));
}

// Runs body(i) for i in [0, n) on `threads` threads; rethrows the first exception.
template <typename Body>
void ParallelFor(int n, unsigned threads, const Body& body) {
  std::atomic<int> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&]() {
    try {
      for (int i = next++; i < n; i = next++) body(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next = n;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

// dist[v * n + x] = d(v, x), hop distance over the links.
std::vector<std::uint16_t> DistanceMatrix(const Topology& g, unsigned threads) {
  const int n = g.num_nodes();
  std::vector<std::uint16_t> dist(static_cast<std::size_t>(n) * n, kUnreachable);
  ParallelFor(n, threads, [&](int v) {
    std::uint16_t* row = dist.data() + static_cast<std::size_t>(v) * n;
    std::vector<int> queue{v};
    row[v] = 0;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      int x = queue[h];
      for (int e : g.OutLinks(x)) {
        int y = g.link(e).to;
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
      throw InputError(o.file, "link alpha", "expected one alpha per link (" +
                                                 std::to_string(g.num_links()) + "), got " +
                                                 std::to_string(o.link_alpha.size()));
    for (int e = 0; e < g.num_links(); ++e)
      if (o.link_alpha[e] < 0)
        throw InputError(o.file, "link " + g.node(g.link(e).from).name + " -> " + g.node(g.link(e).to).name,
                         "alpha must be >= 0");
  }
}

}  // namespace

BfbCollective ParseBfbCollective(const std::string& name) {
  if (name == "allgather") return BfbCollective::kAllgather;
  if (name == "reduce-scatter") return BfbCollective::kReduceScatter;
  if (name == "allreduce") return BfbCollective::kAllreduce;
  throw std::invalid_argument("unknown collective '" + name +
                              "' (expected allgather, reduce-scatter or allreduce)");
}

std::string ToString(BfbCollective c) {
  switch (c) {
    case BfbCollective::kAllgather: return "allgather";
    case BfbCollective::kReduceScatter: return "reduce-scatter";
    case BfbCollective::kAllreduce: return "allreduce";
  }
  return "allgather";
}

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
void RequireReverseIsomorphism(const Topology& g, const std::vector<int>& f, const std::string& file) {
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

Rational SumOf(const std::vector<Rational>& v) {
  Rational s(0);
  for (const Rational& x : v) s += x;
  return s;
}

}  // namespace

BfbResult GenerateBfbSchedule(const Topology& g, const BfbOptions& options) {
  BfbResult r;
  StepSchedule& s = r.schedule;
  s.collective = ToString(options.collective);
  const bool need_ag = options.collective != BfbCollective::kReduceScatter;
  const bool need_rs = options.collective != BfbCollective::kAllgather;
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
      if (options.certificates) certs["reduce_scatter_on_transpose"] = BfbCertificatesJson(gt, rs_plan);
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
  if (options.collective == BfbCollective::kAllreduce) s.rs_steps = rs_steps;
  s.claimed_tl = r.tl;
  s.claimed_tb = r.tb;
  DegreeReport deg = ComputeDegrees(g);
  if (deg.regular && deg.link_bandwidth && deg.degree > 0) {
    const int phases = options.collective == BfbCollective::kAllreduce ? 2 : 1;
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
  return r;
}

}  // namespace collsynth
