#include "solvers/bfb/step_milp.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "graphs/metrics.h"
#include "proofs_check/step_checker.h"
#include "solvers/backends/lp_backend.h"
#include "solvers/pipeline/allgather_optimum.h"

namespace collsynth {
namespace {

// A 0/1 value rounded from CBC's double (integrality tolerance is far below 0.5).
constexpr double kBinaryThreshold = 0.5;

using Clock = std::chrono::steady_clock;

// Shared preparation: compute nodes, distances, validation.
struct MilpGraph {
  std::vector<int> compute;            // item sources
  std::vector<std::vector<int>> dist;  // dist[k][v] from compute[k]
  int diameter = 0;
};

MilpGraph Prepare(const Topology& g, const StepMilpOptions& o) {
  if (g.num_switches() > 0)
    throw InputError(o.file, "topology",
                     "the step MILP needs a switchless (direct-connect) topology");
  if (g.num_compute() < 2) throw InputError(o.file, "topology", "needs at least two compute nodes");
  if (o.chunks < 1 || o.chunks > kMaxMilpChunks)
    throw InputError(o.file, "chunks", "must be in 1.." + std::to_string(kMaxMilpChunks));
  if (o.capacity < 0) throw InputError(o.file, "capacity", "must be >= 0");
  if (o.objective == StepMilpObjective::kLeastSteps && o.capacity < 1)
    throw InputError(o.file, "capacity", "least-steps needs a per-step capacity C >= 1");
  MilpGraph mg;
  mg.compute = g.ComputeNodes();
  for (int s : mg.compute) {
    mg.dist.push_back(BfsDistances(g, s));
    for (int v : mg.compute) {
      int d = mg.dist.back()[v];
      if (d < 0)
        throw InputError(o.file, g.node(v).name,
                         "unreachable from " + g.node(s).name + " (not strongly connected)");
      mg.diameter = std::max(mg.diameter, d);
    }
  }
  return mg;
}

// Column layout of the S-step program.
class MilpModel {
 public:
  MilpModel(const Topology& g, const MilpGraph& mg, int steps, const StepMilpOptions& o)
      : g_(g), mg_(mg), steps_(steps), chunks_(o.chunks) {
    const int n_src = static_cast<int>(mg.compute.size());
    const int items = n_src * chunks_;
    x_.assign(items, std::vector<std::vector<int>>(g.num_links(), std::vector<int>(steps + 1, -1)));
    h_.assign(items, std::vector<std::vector<int>>(g.num_nodes(), std::vector<int>(steps + 1, -1)));
    for (int i = 0; i < items; ++i) {
      const std::vector<int>& d = mg.dist[i / chunks_];
      for (int v = 0; v < g.num_nodes(); ++v)
        for (int t = 1; t <= steps; ++t)
          if (d[v] >= 1 && d[v] <= t) h_[i][v][t] = binaries_++;
      for (int e = 0; e < g.num_links(); ++e) {
        const Link& l = g.link(e);
        if (l.from == l.to || d[l.to] == 0) continue;  // self-loops and sends to the owner
        for (int t = 1; t <= steps; ++t)
          if (d[l.from] <= t - 1) x_[i][e][t] = binaries_++;
      }
    }
    y_first_ = binaries_;
  }

  std::int64_t binaries() const { return binaries_; }
  int items() const { return static_cast<int>(x_.size()); }
  int Source(int i) const { return mg_.compute[i / chunks_]; }
  int Chunk(int i) const { return i % chunks_; }
  int X(int i, int e, int t) const { return x_[i][e][t]; }

  // -1: constant 0, -2: constant 1, else a column.
  int H(int i, int v, int t) const {
    if (v == Source(i)) return -2;
    if (t == 0) return -1;
    return h_[i][v][t];
  }

  LpProblem Build(const StepMilpOptions& o) const {
    LpProblem p;
    const int cols = static_cast<int>(binaries_) + steps_;
    p.objective.assign(cols, 0.0);
    p.col_lower.assign(cols, 0.0);
    p.col_upper.assign(cols, 1.0);
    p.integer.assign(cols, true);
    for (int t = 1; t <= steps_; ++t) {
      const int y = y_first_ + t - 1;
      p.integer[y] = false;
      p.col_upper[y] = kLpInfinity;
      if (o.objective == StepMilpObjective::kBandwidth) p.objective[y] = 1.0;
    }
    auto row = [&p](double lo, double hi) {
      p.row_lower.push_back(lo);
      p.row_upper.push_back(hi);
      return p.num_rows() - 1;
    };
    auto add = [&p](int r, int c, double v) { p.entries.push_back({r, c, v}); };
    for (int i = 0; i < items(); ++i) {
      const int src = Source(i);
      for (int v = 0; v < g_.num_nodes(); ++v) {
        if (v == src) continue;
        const int last = H(i, v, steps_);
        if (last < 0) return Infeasible();  // unreachable within S steps
        p.col_lower[last] = 1.0;            // all nodes hold all chunks at the end
        // h_{v,t} - h_{v,t-1} - Σ_u x_{(u,v),t} = 0 wherever a term exists.
        for (int t = 1; t <= steps_; ++t) {
          const int cur = H(i, v, t);
          if (cur < 0) continue;  // d(s,v) > t: no variable, no incoming sends either
          const int r = row(0.0, 0.0);
          add(r, cur, 1.0);
          const int prev = H(i, v, t - 1);
          if (prev >= 0) add(r, prev, -1.0);
          for (int e : g_.InLinks(v))
            if (X(i, e, t) >= 0) add(r, X(i, e, t), -1.0);
        }
      }
      // x_{(u,v),t} <= h_{u,t-1}.
      for (int e = 0; e < g_.num_links(); ++e)
        for (int t = 1; t <= steps_; ++t) {
          const int x = X(i, e, t);
          if (x < 0) continue;
          const int held = H(i, g_.link(e).from, t - 1);
          if (held == -2) continue;
          const int r = row(-kLpInfinity, 0.0);
          add(r, x, 1.0);
          add(r, held, -1.0);  // held >= 0: d(s,u) <= t-1 was required for x
        }
    }
    for (int e = 0; e < g_.num_links(); ++e) {
      const Link& l = g_.link(e);
      const double cap = static_cast<double>(o.capacity) * static_cast<double>(l.multiplicity);
      const double pb = static_cast<double>(chunks_) * l.bandwidth.convert_to<double>();
      for (int t = 1; t <= steps_; ++t) {
        std::vector<int> xs;
        for (int i = 0; i < items(); ++i)
          if (X(i, e, t) >= 0) xs.push_back(X(i, e, t));
        if (xs.empty()) continue;
        if (o.capacity > 0) {
          const int r = row(-kLpInfinity, cap);
          for (int x : xs) add(r, x, 1.0);
        }
        if (o.objective == StepMilpObjective::kBandwidth) {
          const int r = row(-kLpInfinity, 0.0);
          for (int x : xs) add(r, x, 1.0);
          add(r, y_first_ + t - 1, -pb);
        }
      }
    }
    return p;
  }

  // The schedule of a 0/1 solution: empty steps removed, one send per (source, link, step).
  StepSchedule ToSchedule(const std::vector<double>& x) const {
    std::map<int, int> step_index;  // used step -> 1-based compressed step
    std::map<std::tuple<int, int, int>, std::vector<int>> chunks;  // (step, source, link)
    for (int i = 0; i < items(); ++i)
      for (int e = 0; e < g_.num_links(); ++e)
        for (int t = 1; t <= steps_; ++t) {
          const int c = X(i, e, t);
          if (c < 0 || x[c] < kBinaryThreshold) continue;
          step_index[t] = 0;
          chunks[{t, Source(i), e}].push_back(Chunk(i));
        }
    int k = 0;
    for (auto& [t, idx] : step_index) idx = ++k;
    StepSchedule s;
    s.collective = Collective::kAllgather;
    for (auto& [key, cs] : chunks) {
      const auto& [t, src, e] = key;
      std::sort(cs.begin(), cs.end());
      StepSend send;
      send.source = src;
      send.from = g_.link(e).from;
      send.to = g_.link(e).to;
      send.step = step_index.at(t);
      for (std::size_t a = 0; a < cs.size();) {
        std::size_t b = a + 1;
        while (b < cs.size() && cs[b] == cs[b - 1] + 1) ++b;
        send.chunk.push_back({Rational(cs[a], chunks_), Rational(cs[b - 1] + 1, chunks_)});
        a = b;
      }
      s.sends.push_back(std::move(send));
    }
    return s;
  }

 private:
  static LpProblem Infeasible() {
    LpProblem p;  // 0 <= x <= -1: CBC reports infeasible
    p.objective = {0.0};
    p.col_lower = {0.0};
    p.col_upper = {1.0};
    p.integer = {true};
    p.row_lower = {2.0};
    p.row_upper = {kLpInfinity};
    p.entries = {{0, 0, 1.0}};
    return p;
  }

  const Topology& g_;
  const MilpGraph& mg_;
  int steps_;
  int chunks_;
  std::vector<std::vector<std::vector<int>>> x_, h_;
  std::int64_t binaries_ = 0;
  int y_first_ = 0;
};

std::int64_t CountBinaries(const Topology& g, const MilpGraph& mg, int steps, int chunks) {
  std::int64_t n = 0;
  for (const std::vector<int>& d : mg.dist) {
    std::int64_t per = 0;
    for (int v = 0; v < g.num_nodes(); ++v)
      if (d[v] >= 1) per += std::max(0, steps - d[v] + 1);
    for (const Link& l : g.links())
      if (l.from != l.to && d[l.to] != 0) per += std::max(0, steps - d[l.from]);
    n += per * chunks;
  }
  return n;
}

// `budget` seconds counted from `stage_start` (RemainingBudgetSeconds).
StepMilpSolve SolveOnce(const Topology& g, const MilpGraph& mg, int steps, const StepMilpOptions& o,
                        double budget, Clock::time_point stage_start) {
  const auto start = Clock::now();
  StepMilpSolve out;
  out.steps = steps;
  out.binaries = CountBinaries(g, mg, steps, o.chunks);
  if (out.binaries > kMaxMilpBinaries) {
    out.outcome = StepMilpOutcome::kTooLarge;
    return out;
  }
  if (steps < mg.diameter) {  // some node is farther than S hops from some shard
    out.outcome = StepMilpOutcome::kInfeasible;
    out.seconds = SecondsSince(start);
    return out;
  }
  MilpModel model(g, mg, steps, o);
  LpProblem p = model.Build(o);
  out.rows = p.num_rows();
  const double left = RemainingBudgetSeconds(budget, SecondsSince(stage_start));
  if (left <= 0) {  // the build used up the budget: CBC is not started
    out.outcome = StepMilpOutcome::kTimeLimit;
    out.time_limit_reached = true;
    out.seconds = SecondsSince(start);
    return out;
  }
  CbcOptions cbc;
  cbc.time_limit_seconds = std::isfinite(left) ? left : 0.0;
  out.cbc_time_limit = cbc.time_limit_seconds;
  cbc.keep_incumbent = true;
  cbc.standard_cuts = o.standard_cuts;
  LpSolution sol = SolveIlpWithCbc(p, cbc);
  out.time_limit_reached = sol.outcome == LpOutcome::kStopped;
  switch (sol.outcome) {
    case LpOutcome::kOptimal:
      out.outcome = StepMilpOutcome::kOptimal;
      break;
    case LpOutcome::kInfeasible:
      out.outcome = StepMilpOutcome::kInfeasible;
      break;
    case LpOutcome::kStopped:
      out.outcome = sol.primal.empty() ? StepMilpOutcome::kTimeLimit : StepMilpOutcome::kFeasible;
      break;
    default:
      out.outcome = StepMilpOutcome::kSolverError;
      break;
  }
  if (out.outcome == StepMilpOutcome::kOptimal || out.outcome == StepMilpOutcome::kFeasible) {
    out.cbc_objective = sol.objective;
    out.cbc_bound = std::isfinite(sol.best_bound) ? std::max(0.0, sol.best_bound) : 0.0;
    out.cbc_bound_valid = std::isfinite(sol.best_bound);
    if (out.outcome == StepMilpOutcome::kOptimal)
      out.cbc_bound = std::min(out.cbc_bound, sol.objective);
    out.schedule = model.ToSchedule(sol.primal);
    StepCheckReport report = CheckStepSchedule(g, out.schedule);
    out.verified = report.ok;
    out.check_errors = report.errors;
    out.tl = report.tl;
    out.tb = report.tb;
    out.has_schedule = report.ok;
    if (report.ok) {
      out.schedule.claimed_tl = report.tl;
      out.schedule.claimed_tb = report.tb;
      out.schedule.extra = {{"producer", "step-milp"},
                            {"milp_steps", steps},
                            {"chunks", o.chunks},
                            {"capacity", o.capacity},
                            {"objective", ToString(o.objective)},
                            {"cbc_outcome", ToString(out.outcome)}};
    } else {
      out.outcome = StepMilpOutcome::kSolverError;
    }
  } else if (std::isfinite(sol.best_bound)) {
    out.cbc_bound = std::max(0.0, sol.best_bound);
    out.cbc_bound_valid = true;
  }
  out.seconds = SecondsSince(start);
  return out;
}

// ratio* when the topology is Eulerian, else max_v (N-1)/B-(v) (every node receives N-1 shards).
Rational TbLowerBound(const Topology& g) {
  bool eulerian = true;
  for (int v = 0; v < g.num_nodes(); ++v)
    eulerian = eulerian && g.InBandwidth(v) == g.OutBandwidth(v);
  if (eulerian) return ComputeAllgatherOptimum(g).ratio;
  Rational best = 0;
  for (int v : g.ComputeNodes())
    best = std::max(best, Rational(g.num_compute() - 1) / g.InBandwidth(v));
  return best;
}

}  // namespace

double RemainingBudgetSeconds(double budget_seconds, double elapsed_seconds) {
  if (budget_seconds <= 0) return std::numeric_limits<double>::infinity();
  return budget_seconds - elapsed_seconds;
}

Rational RelativeGap(const Rational& tb, const Rational& bound) {
  if (tb <= 0) return Rational(0);
  return (tb - bound) / tb;
}

std::string ToString(StepMilpObjective objective) {
  return objective == StepMilpObjective::kBandwidth ? "bandwidth" : "least-steps";
}

std::string ToString(StepMilpOutcome outcome) {
  switch (outcome) {
    case StepMilpOutcome::kOptimal:
      return "optimal";
    case StepMilpOutcome::kFeasible:
      return "feasible";
    case StepMilpOutcome::kInfeasible:
      return "infeasible";
    case StepMilpOutcome::kTimeLimit:
      return "time limit";
    case StepMilpOutcome::kTooLarge:
      return "too large";
    case StepMilpOutcome::kSolverError:
      return "solver error";
  }
  return "unknown";
}

StepMilpSolve SolveStepMilpOnce(const Topology& g, int steps, const StepMilpOptions& options,
                                double time_limit_seconds) {
  const auto start = Clock::now();
  MilpGraph mg = Prepare(g, options);
  if (steps < 1 || steps > kMaxMilpSteps)
    throw InputError(options.file, "steps", "must be in 1.." + std::to_string(kMaxMilpSteps));
  StepMilpSolve out = SolveOnce(g, mg, steps, options, time_limit_seconds, start);
  out.seconds = SecondsSince(start);
  return out;
}

StepMilpResult SynthesizeStepMilp(const Topology& g, const StepMilpOptions& options) {
  const auto start = Clock::now();
  MilpGraph mg = Prepare(g, options);
  StepMilpResult result;
  result.diameter = mg.diameter;
  const int lo = options.min_steps > 0 ? options.min_steps : mg.diameter;
  const int hi = options.max_steps > 0 ? options.max_steps : lo;
  if (lo < 1 || hi < lo || hi > kMaxMilpSteps)
    throw InputError(options.file, "steps",
                     "need 1 <= min_steps <= max_steps <= " + std::to_string(kMaxMilpSteps));
  for (int s = lo; s <= hi; ++s) {
    if (RemainingBudgetSeconds(options.time_limit_seconds, SecondsSince(start)) <= 0) {
      result.time_limit_reached = true;
      break;
    }
    result.solves.push_back(SolveOnce(g, mg, s, options, options.time_limit_seconds, start));
    const StepMilpSolve& cur = result.solves.back();
    if (cur.outcome == StepMilpOutcome::kTooLarge) break;  // a larger S is larger still
    result.time_limit_reached = result.time_limit_reached || cur.time_limit_reached;
    if (cur.verified) {  // for least steps a schedule is the answer, even when cut short
      const StepMilpSolve* b = result.Best();
      if (b == nullptr || cur.tb < b->tb) result.best = static_cast<int>(result.solves.size()) - 1;
      if (options.objective == StepMilpObjective::kLeastSteps) break;
    }
    // Least steps: an S the budget cut short without a schedule decides nothing, and a
    // schedule at a larger S would not be proven least.
    if (options.objective == StepMilpObjective::kLeastSteps && cur.time_limit_reached) break;
  }
  result.seconds = SecondsSince(start);
  if (const StepMilpSolve* b = result.Best()) {
    result.tb_lower_bound = TbLowerBound(g);
    result.certified_optimal = b->tb == result.tb_lower_bound;
  }
  return result;
}

}  // namespace collsynth
