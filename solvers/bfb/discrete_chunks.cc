#include "solvers/bfb/discrete_chunks.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/checked_math.h"
#include "core/input_error.h"
#include "graphs/properties.h"
#include "solvers/backends/lemon_graph.h"
#include "solvers/backends/lp_backend.h"
#include "theory/moore_bound.h"

namespace collsynth {
namespace {

// ILP (12) for CBC: columns y_{i,k} then W; rows: per sender load - W <= 0, per source = P.
LpProblem BuildIlp12(const BfbSubproblem& p, std::int64_t chunks) {
  LpProblem lp;
  const int d = static_cast<int>(p.senders.size());
  int cols = 0;
  for (const auto& a : p.allowed) cols += static_cast<int>(a.size());
  const double pd = static_cast<double>(chunks);
  lp.objective.assign(cols + 1, 0.0);
  lp.objective[cols] = 1.0;
  lp.col_lower.assign(cols + 1, 0.0);
  lp.col_upper.assign(cols + 1, pd);
  lp.col_upper[cols] = kLpInfinity;
  lp.integer.assign(cols + 1, true);
  lp.integer[cols] = false;
  for (int w = 0; w < d; ++w) {
    lp.row_lower.push_back(-kLpInfinity);
    lp.row_upper.push_back(0.0);
    lp.entries.push_back({w, cols, -1.0});
  }
  int col = 0;
  for (std::size_t i = 0; i < p.sources.size(); ++i) {
    lp.row_lower.push_back(pd);
    lp.row_upper.push_back(pd);
    for (int k : p.allowed[i]) {
      lp.entries.push_back({k, col, 1.0});
      lp.entries.push_back({d + static_cast<int>(i), col, 1.0});
      ++col;
    }
  }
  return lp;
}

// Max load (in chunks) of y, or -1 when y is not a valid P-chunk assignment.
std::int64_t MaxLoad(const BfbSubproblem& p, const std::vector<std::vector<std::int64_t>>& y,
                     std::int64_t chunks) {
  std::vector<std::int64_t> load(p.senders.size(), 0);
  if (y.size() != p.sources.size()) return -1;
  for (std::size_t i = 0; i < y.size(); ++i) {
    std::int64_t sum = 0;
    if (y[i].size() != p.allowed[i].size()) return -1;
    for (std::size_t k = 0; k < y[i].size(); ++k) {
      if (y[i][k] < 0 || y[i][k] > chunks) return -1;
      sum += y[i][k];
      load[p.allowed[i][k]] += y[i][k];
    }
    if (sum != chunks) return -1;
  }
  std::int64_t m = 0;
  for (std::int64_t l : load) m = std::max(m, l);
  return m;
}

// Integral y with every load <= cap (exists when cap >= P·U*·b): integer max flow.
std::vector<std::vector<std::int64_t>> IntegralFlow(const BfbSubproblem& p, std::int64_t chunks,
                                                    std::int64_t cap) {
  using Digraph = lemon::SmartDigraph;
  Digraph g;
  Digraph::ArcMap<std::int64_t> capacity(g);
  Digraph::Node s = g.addNode(), t = g.addNode();
  std::vector<Digraph::Node> wn;
  for (std::size_t w = 0; w < p.senders.size(); ++w) {
    wn.push_back(g.addNode());
    capacity[g.addArc(wn.back(), t)] = cap;
  }
  std::vector<std::vector<Digraph::Arc>> arcs(p.sources.size());
  for (std::size_t i = 0; i < p.sources.size(); ++i) {
    Digraph::Node v = g.addNode();
    capacity[g.addArc(s, v)] = chunks;
    for (int k : p.allowed[i]) {
      arcs[i].push_back(g.addArc(v, wn[k]));
      capacity[arcs[i].back()] = chunks;
    }
  }
  lemon::Preflow<Digraph, Digraph::ArcMap<std::int64_t>> preflow(g, capacity, s, t);
  preflow.run();
  if (preflow.flowValue() != chunks * static_cast<std::int64_t>(p.sources.size()))
    throw std::logic_error("discrete chunks: certified capacity admits no integral flow");
  std::vector<std::vector<std::int64_t>> y(p.sources.size());
  for (std::size_t i = 0; i < p.sources.size(); ++i)
    for (const auto& a : arcs[i]) y[i].push_back(preflow.flow(a));
  return y;
}

// Sends of a P-chunk schedule (consecutive chunks per (u, t, v)).
void AddChunkSends(const BfbSubproblem& p, const std::vector<std::vector<std::int64_t>>& y,
                   std::int64_t chunks, std::vector<StepSend>* sends) {
  for (std::size_t i = 0; i < p.sources.size(); ++i) {
    std::int64_t lo = 0;
    for (std::size_t k = 0; k < y[i].size(); ++k) {
      if (y[i][k] == 0) continue;
      StepSend s;
      s.source = p.sources[i];
      s.from = p.senders[p.allowed[i][k]];
      s.to = p.receiver;
      s.step = p.step;
      s.chunk.push_back({Rational(lo, chunks), Rational(lo + y[i][k], chunks)});
      lo += y[i][k];
      sends->push_back(std::move(s));
    }
  }
}

}  // namespace

BigInt LcmChunkCount(const BfbPlan& plan) {
  BigInt l = 1;
  for (const auto& step : plan.cells)
    for (const BfbCell& c : step)
      for (const auto& row : c.lp.x)
        for (const Rational& x : row) l = Lcm(l, Denominator(x));
  // Endpoints are partial sums of x, so their denominators divide l as well.
  return l;
}

std::vector<std::vector<std::int64_t>> RoundBfbShares(const BfbSubproblem& p, const BfbLpResult& r,
                                                      std::int64_t chunks) {
  std::vector<std::vector<std::int64_t>> y(p.sources.size());
  for (std::size_t i = 0; i < p.sources.size(); ++i) {
    std::vector<Rational> frac;
    std::int64_t sum = 0;
    for (const Rational& x : r.x[i]) {
      Rational v = x * chunks;
      std::int64_t f = ToInt64(Floor(v));
      y[i].push_back(f);
      frac.push_back(v - f);
      sum += f;
    }
    std::vector<std::size_t> order(frac.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return frac[a] > frac[b]; });
    for (std::size_t k = 0; sum < chunks; ++k) {  // Σ floor <= P <= Σ ceil (App. D.2)
      if (frac[order[k]] == 0) throw std::logic_error("rounding: shares do not sum to P");
      ++y[i][order[k]];
      ++sum;
    }
  }
  return y;
}

DiscreteChunkResult SolveDiscreteChunks(const Topology& g, std::int64_t chunks,
                                        const DiscreteChunkOptions& options) {
  if (chunks < 1 || chunks > kMaxChunks)
    throw InputError(options.file, "--chunks", "P must be in 1.." + std::to_string(kMaxChunks));
  DegreeReport deg = ComputeDegrees(g);
  if (!deg.link_bandwidth)
    throw InputError(options.file, "links",
                     "discrete chunks (ILP (12), App. D.2) need links of equal bandwidth");
  const Rational b = *deg.link_bandwidth;
  BfbOptions bo;
  bo.threads = options.threads;
  bo.file = options.file;
  BfbPlan plan = SolveBfbPlan(g, bo);
  DiscreteChunkResult r;
  r.chunks = chunks;
  r.diameter = plan.diameter;
  r.degree = static_cast<int>(deg.max_in);
  std::vector<StepSend> ilp_sends, round_sends;
  for (int t = 1; t <= plan.diameter; ++t) {
    std::int64_t w_ilp_max = 0, w_round_max = 0;
    for (const BfbCell& c : plan.cells[t - 1]) {
      if (c.problem.sources.empty()) continue;
      // Link bandwidth of this instance: merged parallel links count as several unit links.
      // W is measured in chunks per unit of b, i.e. load / (B_w / b).
      for (const Rational& bw : c.problem.bandwidth)
        if (bw != b)
          throw InputError(options.file, "links",
                           "discrete chunks need single links of one bandwidth (found a merged "
                           "or different-bandwidth link into " +
                               g.node(c.problem.receiver).name + ")");
      // Certified lower bound ceil(P·b·U*), attained by an integral flow.
      const std::int64_t bound = ToInt64(Ceil(c.lp.value * b * chunks));
      std::vector<std::vector<std::int64_t>> y;
      std::int64_t w = -1;
      if (options.use_cbc) {
        LpSolution sol = SolveIlpWithCbc(BuildIlp12(c.problem, chunks));
        ++r.cbc_solves;
        if (sol.outcome == LpOutcome::kOptimal) {
          y.resize(c.problem.sources.size());
          int col = 0;
          for (std::size_t i = 0; i < c.problem.sources.size(); ++i)
            for (std::size_t k = 0; k < c.problem.allowed[i].size(); ++k)
              y[i].push_back(std::llround(sol.primal[col++]));
          w = MaxLoad(c.problem, y, chunks);
        }
      }
      if (w != bound) {
        if (options.use_cbc) ++r.cbc_repaired;
        y = IntegralFlow(c.problem, chunks, bound);
        w = MaxLoad(c.problem, y, chunks);
        if (w != bound) throw std::logic_error("discrete chunks: repair missed the bound");
      }
      w_ilp_max = std::max(w_ilp_max, w);
      AddChunkSends(c.problem, y, chunks, &ilp_sends);
      std::vector<std::vector<std::int64_t>> yr = RoundBfbShares(c.problem, c.lp, chunks);
      std::int64_t wr = MaxLoad(c.problem, yr, chunks);
      if (wr < 0) throw std::logic_error("discrete chunks: rounding is not a P-chunk assignment");
      w_round_max = std::max(w_round_max, wr);
      AddChunkSends(c.problem, yr, chunks, &round_sends);
    }
    r.tb_ilp += Rational(w_ilp_max) / (b * chunks);
    r.tb_rounded += Rational(w_round_max) / (b * chunks);
  }
  for (const Rational& x : plan.step_tb) r.tb_lp += x;
  const std::int64_t n = g.num_compute();
  r.moore_optimal = deg.regular && MooreOptimalSteps(BigInt(n), deg.degree) == plan.diameter;
  if (r.moore_optimal) {
    r.thm20_gap = Rational(n) / (b * chunks);
  } else {
    Rational sum(0), power(1);
    for (int i = 0; i < plan.diameter; ++i, power *= r.degree) sum += power;
    r.thm20_gap = sum / (b * chunks);
  }
  r.thm20_holds = r.tb_rounded <= r.tb_ilp + r.thm20_gap;
  for (StepSchedule* s : {&r.ilp_schedule, &r.rounded_schedule}) {
    s->collective = Collective::kAllgather;
    s->claimed_tl = plan.diameter;
    s->extra["generator"] = "bfb";
    s->extra["chunks_per_shard"] = chunks;
    s->extra["reference"] = "seed 000 App. D.2";
  }
  r.ilp_schedule.sends = std::move(ilp_sends);
  r.ilp_schedule.claimed_tb = r.tb_ilp;
  r.ilp_schedule.extra["discrete"] = "ILP (12)";
  r.rounded_schedule.sends = std::move(round_sends);
  r.rounded_schedule.claimed_tb = r.tb_rounded;
  r.rounded_schedule.extra["discrete"] = "rounded LP relaxation";
  return r;
}

}  // namespace collsynth
