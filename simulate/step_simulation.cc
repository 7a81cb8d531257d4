#include "simulate/step_simulation.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace collsynth {
namespace {

// The chunk as sorted, disjoint, non-adjacent intervals.
std::vector<Interval> Merged(std::vector<Interval> chunk) {
  std::sort(chunk.begin(), chunk.end(),
            [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
  std::vector<Interval> out;
  for (Interval& in : chunk) {
    if (!out.empty() && in.lo <= out.back().hi) {
      if (in.hi > out.back().hi) out.back().hi = in.hi;
    } else {
      out.push_back(std::move(in));
    }
  }
  return out;
}

bool Overlap(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].hi <= b[j].lo) {
      ++i;
    } else if (b[j].hi <= a[i].lo) {
      ++j;
    } else {
      return true;
    }
  }
  return false;
}

}  // namespace

FlowSimulation BuildStepSimulation(const StepSchedule& s, const Topology& g,
                                   const SimulationModel& m) {
  FlowSimulation sim(g, LinkRates(g, m), LinkLatencies(g, m), m.gamma);
  const Rational shard = ShardBytes(m, s.collective, g.num_compute());
  const int n = static_cast<int>(s.sends.size());
  std::vector<std::vector<Interval>> merged(n);
  for (int i = 0; i < n; ++i) {
    const StepSend& send = s.sends[i];
    merged[i] = Merged(send.chunk);
    Rational measure = 0;
    for (const Interval& in : merged[i]) measure += in.hi - in.lo;
    const std::optional<int> e = g.FindLink(send.from, send.to);
    if (!e) throw std::logic_error("BuildStepSimulation: a send over a missing link");
    const bool rs_phase =
        s.collective == Collective::kReduceScatter ||
        (s.collective == Collective::kAllreduce && s.rs_steps && send.step <= *s.rs_steps);
    TransferLabel label;
    label.phase = s.collective == Collective::kAllreduce && !rs_phase ? 1 : 0;
    label.group = send.step;
    label.item = i;
    sim.AddTransfer({*e}, measure * shard, rs_phase && g.IsCompute(send.to), label);
  }
  if (m.step_mode == StepMode::kSync) {
    std::map<int, std::vector<int>> by_step;
    for (int i = 0; i < n; ++i) by_step[s.sends[i].step].push_back(i);
    int previous = -1;
    for (const auto& [step, sends] : by_step) {
      TransferLabel label;
      label.group = step;
      const int barrier = sim.AddBarrier(label);
      for (int i : sends) {
        if (previous >= 0) sim.AddDependency(previous, i);
        sim.AddDependency(i, barrier);
      }
      previous = barrier;
    }
  } else {
    // Sends into (node, source), in step order.
    std::unordered_map<std::uint64_t, std::vector<int>> into;
    auto key = [](int node, int source) {
      return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(node)) << 32) |
             static_cast<std::uint32_t>(source);
    };
    for (int i = 0; i < n; ++i) into[key(s.sends[i].to, s.sends[i].source)].push_back(i);
    for (auto& [k, list] : into) {
      std::stable_sort(list.begin(), list.end(),
                       [&](int a, int b) { return s.sends[a].step < s.sends[b].step; });
    }
    // In an allgather or broadcast the owner holds its shard from the start: what comes back to
    // it (a duplicate) is not waited for.
    const bool owner_holds =
        s.collective == Collective::kAllgather || s.collective == Collective::kBroadcast;
    for (int i = 0; i < n; ++i) {
      if (owner_holds && s.sends[i].from == s.sends[i].source) continue;
      auto it = into.find(key(s.sends[i].from, s.sends[i].source));
      if (it == into.end()) continue;
      for (int d : it->second) {
        if (s.sends[d].step >= s.sends[i].step) break;
        if (Overlap(merged[d], merged[i])) sim.AddDependency(d, i);
      }
    }
  }
  return sim;
}

}  // namespace collsynth
