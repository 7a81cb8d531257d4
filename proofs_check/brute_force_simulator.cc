#include "proofs_check/brute_force_simulator.h"

#include <algorithm>
#include <map>

namespace collsynth {
namespace {

bool Contains(const std::vector<Interval>& chunk, const Rational& x) {
  for (const Interval& in : chunk) {
    if (in.lo <= x && x < in.hi) return true;
  }
  return false;
}

// Measure of a union of intervals: cut at all endpoints, add the pieces whose midpoint is in.
Rational Measure(const std::vector<Interval>& chunk) {
  std::vector<Rational> cuts;
  for (const Interval& in : chunk) {
    cuts.push_back(in.lo);
    cuts.push_back(in.hi);
  }
  std::sort(cuts.begin(), cuts.end());
  Rational total = 0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    if (cuts[i] == cuts[i + 1]) continue;
    if (Contains(chunk, (cuts[i] + cuts[i + 1]) / 2)) total += cuts[i + 1] - cuts[i];
  }
  return total;
}

// Midpoints of the elementary intervals of `source`'s shard.
std::vector<Rational> Elements(const StepSchedule& s, int source) {
  std::vector<Rational> cuts{Rational(0), Rational(1)};
  for (const StepSend& e : s.sends) {
    if (e.source != source) continue;
    for (const Interval& in : e.chunk) {
      cuts.push_back(in.lo);
      cuts.push_back(in.hi);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Rational> mids;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) mids.push_back((cuts[i] + cuts[i + 1]) / 2);
  return mids;
}

}  // namespace

BruteForceResult SimulateStepSchedule(const Topology& g, const StepSchedule& s) {
  BruteForceResult r;
  const int n = g.num_nodes();
  std::vector<char> ok_send(s.sends.size(), 1);
  int last = 0;
  for (const StepSend& e : s.sends) last = std::max(last, e.step);
  const long long T = s.claimed_tl ? *s.claimed_tl : last;
  r.tl = last;  // T_L: the last step used
  for (std::size_t i = 0; i < s.sends.size(); ++i) {
    const StepSend& e = s.sends[i];
    if (e.step < 1 || e.step > T) {
      ok_send[i] = 0;
      r.out_of_range.insert(static_cast<int>(i));
      continue;
    }
    bool bad = !g.FindLink(e.from, e.to) || !g.IsCompute(e.source) ||
               (s.collective == Collective::kBroadcast && s.root && e.source != *s.root);
    if (bad) {
      ok_send[i] = 0;
      r.bad_sends.insert(static_cast<int>(i));
    }
  }
  // T_B: per step, per link, sum of measures; max of load / bandwidth; summed over steps.
  std::map<int, std::map<int, Rational>> load;
  for (std::size_t i = 0; i < s.sends.size(); ++i) {
    const StepSend& e = s.sends[i];
    if (r.out_of_range.count(static_cast<int>(i))) continue;
    if (auto l = g.FindLink(e.from, e.to)) load[e.step][*l] += Measure(e.chunk);
  }
  r.tb = 0;
  for (const auto& [step, per_link] : load) {
    Rational worst = 0;
    for (const auto& [l, amount] : per_link)
      worst = std::max(worst, Rational(amount / g.link(l).bandwidth));
    r.tb += worst;
  }

  std::vector<int> sources = g.ComputeNodes();
  if (s.collective == Collective::kBroadcast && s.root) sources = {*s.root};
  // Phases: [first, last] step ranges, forward (allgather) or backward (reduce-scatter).
  struct PhaseRange {
    int first, last;
    bool backward;
  };
  std::vector<PhaseRange> phases;
  if (s.collective == Collective::kReduceScatter) {
    phases.push_back({1, r.tl, true});
  } else if (s.collective == Collective::kAllreduce) {
    const long long rs_given = s.rs_steps.value_or(0);
    const int rs = static_cast<int>(std::clamp<long long>(rs_given, 0, T));
    if (rs != rs_given) r.bad_rs_steps = true;
    phases.push_back({1, rs, true});
    phases.push_back({rs + 1, std::max(r.tl, rs), false});
  } else {
    phases.push_back({1, r.tl, false});
  }
  for (const PhaseRange& ph : phases) {
    for (int v : sources) {
      for (const Rational& x : Elements(s, v)) {
        // has[u]: forward, u holds x; backward, u's contribution to x reaches v.
        std::vector<char> has(n, 0);
        has[v] = 1;
        for (int k = 0; k <= ph.last - ph.first; ++k) {
          const int t = ph.backward ? ph.last - k : ph.first + k;
          const std::vector<char> before = has;
          for (std::size_t i = 0; i < s.sends.size(); ++i) {
            const StepSend& e = s.sends[i];
            if (!ok_send[i] || e.step != t || e.source != v || !Contains(e.chunk, x)) continue;
            if (!ph.backward) {
              if (before[e.from])
                has[e.to] = 1;
              else
                r.not_held.insert(static_cast<int>(i));
            } else {
              if (before[e.to])
                has[e.from] = 1;
              else
                r.not_held.insert(static_cast<int>(i));
            }
          }
        }
        for (int u = 0; u < n; ++u) {
          if (g.IsCompute(u) && !has[u]) r.missing.insert({v, u});
        }
        if (!ph.backward) continue;
        // Forward in time with contribution counts (capped at 2): count[w][u] = how often u's
        // contribution is in w's partial of x.
        std::vector<std::vector<int>> count(n, std::vector<int>(n, 0));
        for (int u = 0; u < n; ++u) count[u][u] = 1;
        for (int t = ph.first; t <= ph.last; ++t) {
          const auto before = count;
          for (std::size_t i = 0; i < s.sends.size(); ++i) {
            const StepSend& e = s.sends[i];
            if (!ok_send[i] || e.step != t || e.source != v || !Contains(e.chunk, x)) continue;
            for (int u = 0; u < n; ++u)
              count[e.to][u] = std::min(2, count[e.to][u] + before[e.from][u]);
          }
        }
        for (int u = 0; u < n; ++u) {
          if (g.IsCompute(u) && count[v][u] > 1) r.reduced_twice.insert({v, u});
        }
      }
    }
  }
  r.valid = r.missing.empty() && r.not_held.empty() && r.bad_sends.empty() &&
            r.reduced_twice.empty() && r.out_of_range.empty() && !r.bad_rs_steps;
  return r;
}

}  // namespace collsynth
