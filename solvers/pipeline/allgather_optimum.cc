#include "solvers/pipeline/allgather_optimum.h"

#include <algorithm>
#include <stdexcept>

#include "solvers/backends/max_flow.h"
#include "solvers/pipeline/integer_bandwidths.h"

namespace collsynth {
namespace {

// Theorem 1's flow network G_x on integer bandwidths, scaled by p for x = q/p (λ = p/q):
// link arcs p·b'_e, source arcs s -> u (u compute) with capacity q.
// min_v F(s, v) over the compute nodes v is, on a direct-connect topology (every node but s
// is a compute node), the minimum s-rooted cut: one Hao-Orlin push-relabel run
// (MinCutFromRoot, exact on int64) instead of N max-flows, each of which pays O(V + E) to
// initialise. With switch nodes (a cut whose sink side holds only switches must not count),
// or capacities beyond int64, the test runs the N max-flows.
class Theorem1Oracle {
 public:
  // `sinks`: the compute nodes whose F(s, v) is computed (empty: all of them).
  Theorem1Oracle(const Topology& g, const ProgressCallback& progress,
                 const std::vector<int>& sinks = {})
      : g_(g),
        ib_(ScaleToIntegers(g)),
        compute_(g.ComputeNodes()),
        sinks_(sinks.empty() ? compute_ : sinks),
        source_(g.num_nodes()),
        progress_(progress) {
    FlowNetwork net(g.num_nodes() + 1);
    for (int e = 0; e < g.num_links(); ++e) {
      const Link& l = g.link(e);
      link_arc_.push_back(l.from == l.to ? -1 : net.AddArc(l.from, l.to, ib_.values[e]));
    }
    for (int u : compute_) source_arc_.push_back(net.AddArc(source_, u, 1));
    solver_ = std::make_unique<MaxFlowSolver>(net);
  }

  const IntegerBandwidths& scaled() const { return ib_; }
  std::int64_t calls() const { return solver_->calls(); }
  std::int64_t rooted_cuts() const { return rooted_cuts_; }

  struct Outcome {
    bool feasible = true;
    BigInt min_value;
    std::vector<char> cut;  // S = source side minus s, of the least-value cut
  };

  // λ = p/q in scaled units (ratio of the integer-bandwidth graph).
  Outcome Test(const BigInt& p, const BigInt& q, bool stop_at_first_violation = false) {
    for (int e = 0; e < g_.num_links(); ++e) {
      if (link_arc_[e] >= 0) solver_->SetCapacity(link_arc_[e], p * ib_.values[e]);
    }
    for (int a : source_arc_) solver_->SetCapacity(a, q);
    Outcome out;
    BigInt target = q * static_cast<long>(compute_.size());
    const std::int64_t n = static_cast<std::int64_t>(compute_.size());
    if (compute_.size() == static_cast<std::size_t>(g_.num_nodes())) {
      if (auto rooted = MinCutFromRoot(solver_->network(), source_)) {
        ++rooted_cuts_;
        out.min_value = rooted->value;
        out.cut.assign(rooted->source_side.begin(), rooted->source_side.end() - 1);
        out.feasible = out.min_value >= target;
        if (progress_) progress_(n, n);
        return out;
      }
    }
    bool first = true;
    std::int64_t done = 0;
    const std::int64_t num_sinks = static_cast<std::int64_t>(sinks_.size());
    for (int v : sinks_) {
      MaxFlowResult r = solver_->Solve(source_, v, true);
      if (r.unbounded()) throw std::logic_error("Theorem 1 network: unbounded flow");
      if (first || r.value < out.min_value) {
        out.min_value = r.value;
        out.cut.assign(r.source_side.begin(), r.source_side.end() - 1);
        first = false;
      }
      if (progress_) progress_(++done, num_sinks);
      if (stop_at_first_violation && out.min_value < target) break;
    }
    out.feasible = out.min_value >= target;
    return out;
  }

 private:
  const Topology& g_;
  IntegerBandwidths ib_;
  std::vector<int> compute_;
  std::vector<int> sinks_;
  int source_;
  std::vector<int> link_arc_, source_arc_;
  std::unique_ptr<MaxFlowSolver> solver_;
  ProgressCallback progress_;
  std::int64_t rooted_cuts_ = 0;
};

// ratio of a set in scaled units: |S ∩ V_c| / B'+(S).
Rational ScaledRatio(const Topology& g, const IntegerBandwidths& ib, const std::vector<char>& s) {
  BigInt out = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    if (s[l.from] && !s[l.to]) out += ib.values[e];
  }
  int c = ComputeCount(g, s);
  if (out == 0) {
    throw std::logic_error("cut with zero out-bandwidth (graph not strongly connected?)");
  }
  return Rational(BigInt(c), out);
}

void CheckPreconditions(const Topology& g) {
  if (g.num_compute() < 2) throw std::invalid_argument("needs at least 2 compute nodes");
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (g.InBandwidth(v) != g.OutBandwidth(v)) {
      throw std::invalid_argument("not Eulerian at node " + g.node(v).name);
    }
  }
}

// Dinkelbach iterations from the set `cut`; returns the final (optimal) λ and cut.
Rational Dinkelbach(const Topology& g, Theorem1Oracle& oracle, std::vector<char>* cut, int* tests) {
  Rational lambda = ScaledRatio(g, oracle.scaled(), *cut);
  for (;;) {
    ++*tests;
    auto out = oracle.Test(Numerator(lambda), Denominator(lambda));
    if (out.feasible) return lambda;
    Rational next = ScaledRatio(g, oracle.scaled(), out.cut);
    if (next <= lambda) throw std::logic_error("Dinkelbach step did not increase the ratio");
    lambda = next;
    *cut = std::move(out.cut);
  }
}

}  // namespace

void MinimalUk(const Topology& g, const Rational& ratio, Rational* U, BigInt* k) {
  BigInt kk = 1;
  for (const Link& l : g.links()) {
    kk = boost::multiprecision::lcm(kk, Denominator(ratio * l.bandwidth));
  }
  *k = kk;
  *U = ratio * kk;
}

bool AllgatherRatioFeasible(const Topology& g, const Rational& ratio) {
  CheckPreconditions(g);
  if (ratio <= 0) return false;
  Theorem1Oracle oracle(g, {});
  Rational scaled = ratio / oracle.scaled().scale;
  return oracle.Test(Numerator(scaled), Denominator(scaled), true).feasible;
}

AllgatherOptimum ComputeAllgatherOptimum(const Topology& g, OptimumMethod method,
                                         const ProgressCallback& progress,
                                         const std::vector<int>& sinks) {
  CheckPreconditions(g);
  for (int v : sinks) {
    if (v < 0 || v >= g.num_nodes() || !g.IsCompute(v)) {
      throw std::logic_error("optimum: a sink representative that is not a compute node");
    }
  }
  Theorem1Oracle oracle(g, progress, sinks);
  const IntegerBandwidths& ib = oracle.scaled();
  AllgatherOptimum r;
  r.method = method;
  const int n = g.num_compute();

  // S0 = V - v with v the compute node of least ingress: ratio (N-1)/min_v B-(v).
  int v_min = -1;
  BigInt x_bound = 0;  // X = min_v B'-(v)
  for (int v : g.ComputeNodes()) {
    BigInt in = 0;
    for (int e : g.InLinks(v)) {
      if (g.link(e).from != v) in += ib.values[e];
    }
    if (v_min < 0 || in < x_bound) {
      v_min = v;
      x_bound = in;
    }
  }
  if (x_bound == 0) throw std::invalid_argument("a compute node has no incoming bandwidth");
  std::vector<char> cut(g.num_nodes(), 1);
  cut[v_min] = 0;

  Rational lambda;
  if (method == OptimumMethod::kDinkelbach) {
    lambda = Dinkelbach(g, oracle, &cut, &r.tests);
  } else {
    Rational lo(BigInt(n - 1), x_bound), hi(n - 1);
    Rational width(BigInt(1), x_bound * x_bound);
    Rational best_lb = lo;
    while (hi - lo >= width) {
      Rational mid = (lo + hi) / 2;
      ++r.tests;
      auto out = oracle.Test(Numerator(mid), Denominator(mid), true);
      if (out.feasible) {
        hi = mid;
      } else {
        lo = mid;
        Rational found = ScaledRatio(g, ib, out.cut);
        if (found > best_lb) {
          best_lb = found;
          cut = out.cut;
        }
      }
    }
    Rational guess = ClosestFraction((lo + hi) / 2, x_bound);
    // Certify: Dinkelbach from the best cut seen must end exactly at the search's value.
    lambda = Dinkelbach(g, oracle, &cut, &r.tests);
    if (lambda != guess) {
      throw std::logic_error("binary search and certificate disagree: " + ToString(guess) + " vs " +
                             ToString(lambda));
    }
  }
  r.ratio = lambda * ib.scale;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (cut[v]) r.bottleneck_cut.push_back(v);
  }
  r.cut_compute = ComputeCount(g, cut);
  r.cut_bandwidth = OutBandwidthOfSet(g, cut);
  if (Rational(r.cut_compute) / r.cut_bandwidth != r.ratio) {
    throw std::logic_error("bottleneck cut does not attain the ratio");
  }
  MinimalUk(g, r.ratio, &r.U, &r.k);
  r.max_flow_calls = oracle.calls();
  r.rooted_min_cuts = oracle.rooted_cuts();
  return r;
}

}  // namespace collsynth
