#include "solvers/pipeline/pipeline_lp.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "core/stopwatch.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/integer_bandwidths.h"

namespace collsynth {
namespace {

using Clock = std::chrono::steady_clock;

// X = min_v B-(v) in integer-scaled bandwidths (= L · min_v B-(v); self-loops excluded): the
// denominator bound of ratio* = |S*∩V_c|·L / (L·B+(S*)).
BigInt DenominatorBound(const Topology& g) {
  const IntegerBandwidths ib = ScaleToIntegers(g);
  BigInt best = -1;
  for (int v : g.ComputeNodes()) {
    BigInt in = 0;
    for (int e : g.InLinks(v))
      if (g.link(e).from != v) in += ib.values[e];
    if (best < 0 || in < best) best = in;
  }
  if (best <= 0) throw std::invalid_argument("a compute node has no incoming bandwidth");
  return best;
}

}  // namespace

std::string ToString(PipelineLpStatus status) {
  switch (status) {
    case PipelineLpStatus::kCertified:
      return "certified";
    case PipelineLpStatus::kLpFailed:
      return "lp failed";
    case PipelineLpStatus::kNotCertified:
      return "not certified";
  }
  return "unknown";
}

LpProblem BuildPipelineLp(const Topology& g) {
  const std::vector<int> compute = g.ComputeNodes();
  const int n = static_cast<int>(compute.size());
  LpProblem p;
  auto col = [&p](double obj, double lo, double hi) { return p.AddColumn(obj, lo, hi); };
  auto row = [&p](double lo, double hi) { return p.AddRow(lo, hi); };
  auto add = [&p](int r, int c, double v) { p.AddEntry(r, c, v); };
  const int x = col(-1.0, 0.0, kLpInfinity);
  for (int v : compute) {
    // Net inflow rows, one per node: Σ_in f + g_w − Σ_out f  (= 0, or >= N·x at v).
    std::vector<int> net(g.num_nodes());
    for (int w = 0; w < g.num_nodes(); ++w) net[w] = w == v ? row(0.0, kLpInfinity) : row(0.0, 0.0);
    add(net[v], x, -static_cast<double>(n));
    for (int e = 0; e < g.num_links(); ++e) {
      const Link& l = g.link(e);
      if (l.from == l.to) continue;
      const int f = col(0.0, 0.0, l.bandwidth.convert_to<double>());
      add(net[l.to], f, 1.0);
      add(net[l.from], f, -1.0);
    }
    for (int u : compute) {
      const int s = col(0.0, 0.0, kLpInfinity);  // source arc s -> u, capacity x
      add(net[u], s, 1.0);
      const int cap = row(-kLpInfinity, 0.0);
      add(cap, s, 1.0);
      add(cap, x, -1.0);
    }
  }
  return p;
}

PipelineLpResult SolvePipelineLp(const Topology& g) {
  PipelineLpResult r;
  // Preconditions and the combinatorial optimum (throws std::invalid_argument like it).
  const AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  r.combinatorial_ratio = opt.ratio;
  std::vector<char> in_cut(g.num_nodes(), 0);
  for (int v : opt.bottleneck_cut) in_cut[v] = 1;
  r.cut_ratio = Rational(ComputeCount(g, in_cut)) / OutBandwidthOfSet(g, in_cut);

  auto start = Clock::now();
  const LpProblem lp = BuildPipelineLp(g);
  r.lp_cols = lp.num_cols();
  r.lp_rows = lp.num_rows();
  const LpSolution sol = SolveLpWithClp(lp);
  r.lp_seconds = SecondsSince(start);
  r.lp_outcome = sol.outcome;
  // CLP's answer is only a hint that the exact certification below accepts or refuses, so a
  // primal from a solve CLP flags as numerically troubled or stopped is still worth
  // certifying (seen on hypercube(4)); only a missing or non-positive x is a failure.
  const bool usable = sol.outcome == LpOutcome::kOptimal ||
                      sol.outcome == LpOutcome::kNumericalTrouble ||
                      sol.outcome == LpOutcome::kStopped;
  if (!usable || sol.primal.empty() || !std::isfinite(sol.primal[0]) || !(sol.primal[0] > 0)) {
    r.status = PipelineLpStatus::kLpFailed;
    return r;
  }
  start = Clock::now();
  r.lp_x = sol.primal[0];
  r.lp_ratio = 1.0 / r.lp_x;
  r.denominator_bound = DenominatorBound(g);
  r.ratio = ClosestFraction(Rational(r.lp_ratio), r.denominator_bound);
  if (r.ratio > 0) {
    const Rational x2 = Rational(r.denominator_bound) * Rational(r.denominator_bound);
    r.upper_holds = AllgatherRatioFeasible(g, r.ratio);
    const Rational below = r.ratio - Rational(1) / (2 * x2);
    r.lower_holds = below <= 0 || !AllgatherRatioFeasible(g, below);
  }
  r.status = r.upper_holds && r.lower_holds ? PipelineLpStatus::kCertified
                                            : PipelineLpStatus::kNotCertified;
  r.matches_combinatorial = r.ratio == r.combinatorial_ratio && r.ratio == r.cut_ratio;
  r.certify_seconds = SecondsSince(start);
  return r;
}

}  // namespace collsynth
