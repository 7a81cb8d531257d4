#include "simulate/flow_simulation.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <unordered_map>

namespace collsynth {

FlowSimulation::FlowSimulation(const Topology& g, std::vector<Rational> link_rate,
                               std::vector<Rational> link_latency, Rational gamma)
    : g_(g),
      link_rate_(std::move(link_rate)),
      link_latency_(std::move(link_latency)),
      gamma_(std::move(gamma)) {
  if (static_cast<int>(link_rate_.size()) != g.num_links() ||
      static_cast<int>(link_latency_.size()) != g.num_links()) {
    throw std::logic_error("FlowSimulation: one rate and one latency per link");
  }
  for (int e = 0; e < g.num_links(); ++e) {
    if (link_rate_[e] <= 0 || link_latency_[e] < 0) {
      throw std::logic_error("FlowSimulation: rates must be positive, latencies non-negative");
    }
  }
  if (gamma_ < 0) throw std::logic_error("FlowSimulation: gamma must be non-negative");
}

int FlowSimulation::AddTransfer(const std::vector<int>& links, const Rational& bytes, bool reduce,
                                const TransferLabel& label) {
  for (int e : links) {
    if (e < 0 || e >= g_.num_links()) throw std::logic_error("FlowSimulation: bad link id");
  }
  if (!links.empty() && bytes <= 0) {
    throw std::logic_error("FlowSimulation: a transfer moves a positive number of bytes");
  }
  link_ids_.insert(link_ids_.end(), links.begin(), links.end());
  link_begin_.push_back(static_cast<std::int64_t>(link_ids_.size()));
  const Rational& amount = links.empty() ? Rational(0) : bytes;
  auto [it, fresh] = amount_index_.try_emplace(amount, static_cast<int>(amounts_.size()));
  if (fresh) amounts_.push_back(amount);
  amount_.push_back(it->second);
  reduce_.push_back(reduce && !links.empty());
  labels_.push_back(label);
  return static_cast<int>(amount_.size()) - 1;
}

std::vector<int> FlowSimulation::Links(int t) const {
  return std::vector<int>(link_ids_.begin() + link_begin_[t],
                          link_ids_.begin() + link_begin_[t + 1]);
}

Rational FlowSimulation::Latency(int t) const {
  Rational sum = 0;
  for (std::int64_t i = link_begin_[t]; i < link_begin_[t + 1]; ++i)
    sum += link_latency_[link_ids_[i]];
  return sum;
}

Rational FlowSimulation::DoneTime(const FlowSimulationResult& r, int t) const {
  if (reduce_[t]) return r.Arrived(t) + gamma_ * Bytes(t);
  return r.Arrived(t);
}

namespace {

enum class EventKind { kEnqueue, kLinkFree, kArrive, kDone };

template <typename T>
struct Event {
  T time;
  std::uint64_t seq;  // ties: first pushed, first served (deterministic)
  EventKind kind;
  int id;
  int stage;  // kEnqueue: the index of the link on the transfer's path
};

template <typename T>
struct Later {
  bool operator()(const Event<T>& a, const Event<T>& b) const {
    if (a.time != b.time) return a.time > b.time;
    return a.seq > b.seq;
  }
};

struct Waiting {
  int transfer;
  int stage;
  bool waited;  // the link was busy when it came: the transfer served before it delayed it
};

struct LinkState {
  std::deque<Waiting> queue;  // in arrival order
  bool serving = false;
  int last_served = -1;
};

struct TickOverflow {};

std::int64_t Add(std::int64_t a, std::int64_t b) {
  std::int64_t c;
  if (__builtin_add_overflow(a, b, &c)) throw TickOverflow{};
  return c;
}
Rational Add(const Rational& a, const Rational& b) { return a + b; }

}  // namespace

// The event loop, for T = int64 ticks or Rational seconds. `duration(slot)` is the time the
// transfer of link_ids_[slot] takes on that link, `latency(e)` link e's α, `reduction(t)` γ·bytes.
struct FlowSimulationCore {
  template <typename T, typename Duration, typename Latency, typename Reduction>
  static void Run(const FlowSimulation& sim, const Duration& duration, const Latency& latency,
                  const Reduction& reduction, std::vector<T>* issued, std::vector<T>* arrived,
                  std::vector<T>* slot_start, std::vector<T>* slot_end, std::vector<T>* busy,
                  T* completion, FlowSimulationResult* r) {
    const int n = sim.num_transfers();
    const auto& link_begin = sim.link_begin_;
    const auto& link_ids = sim.link_ids_;
    issued->assign(n, T(0));
    arrived->assign(n, T(0));
    busy->assign(sim.g_.num_links(), T(0));
    slot_start->assign(link_ids.size(), T(0));
    slot_end->assign(link_ids.size(), T(0));
    r->gate.assign(n, -1);
    r->events = 0;
    std::vector<int> cause(n, -1);  // what delayed the transfer last: its gate or a link's queue

    // Successors in CSR form.
    std::vector<std::int64_t> succ_begin(n + 1, 0);
    std::vector<int> pending(n, 0);
    for (const auto& [a, b] : sim.deps_) {
      if (a < 0 || a >= n || b < 0 || b >= n) {
        throw std::logic_error("FlowSimulation: bad dependency");
      }
      ++succ_begin[a + 1];
      ++pending[b];
    }
    for (int t = 0; t < n; ++t) succ_begin[t + 1] += succ_begin[t];
    std::vector<int> succ(sim.deps_.size());
    {
      std::vector<std::int64_t> fill(succ_begin.begin(), succ_begin.end() - 1);
      for (const auto& [a, b] : sim.deps_) succ[fill[a]++] = b;
    }

    std::vector<Event<T>> heap;
    std::uint64_t seq = 0;
    auto push = [&](T time, EventKind kind, int id, int stage) {
      heap.push_back(Event<T>{std::move(time), seq++, kind, id, stage});
      std::push_heap(heap.begin(), heap.end(), Later<T>());
    };
    std::vector<LinkState> links(sim.g_.num_links());
    std::unordered_map<int, T> stage_end;  // multi-link transfers in flight: last byte's exit
    T now(0);
    int done_count = 0;
    int last_done = -1;

    auto issue = [&](int t, int gate) {
      (*issued)[t] = now;
      r->gate[t] = gate;
      cause[t] = gate;
      if (sim.IsBarrier(t)) {
        (*arrived)[t] = now;
        push(now, EventKind::kDone, t, 0);
      } else {
        push(Add(now, latency(link_ids[link_begin[t]])), EventKind::kEnqueue, t, 0);
      }
    };
    // Link e is free: serve the transfer at the head of its queue, if any.
    auto serve = [&](int e) {
      LinkState& l = links[e];
      if (l.serving || l.queue.empty()) return;
      const Waiting w = l.queue.front();
      l.queue.pop_front();
      const int t = w.transfer, stage = w.stage;
      if (w.waited) cause[t] = l.last_served;
      l.last_served = t;
      l.serving = true;
      const std::int64_t first = link_begin[t];
      const int stages_total = static_cast<int>(link_begin[t + 1] - first);
      T end = Add(now, duration(first + stage));
      if (stage > 0) {  // the last byte cannot leave before it came through the previous link
        auto it = stage_end.find(t);
        T upstream = Add(it->second, latency(e));
        if (upstream > end) end = std::move(upstream);
      }
      (*busy)[e] = Add((*busy)[e], end - now);
      (*slot_start)[first + stage] = now;
      (*slot_end)[first + stage] = end;
      push(end, EventKind::kLinkFree, e, 0);
      if (stage + 1 < stages_total) {
        stage_end[t] = end;
        push(Add(now, latency(link_ids[first + stage + 1])), EventKind::kEnqueue, t, stage + 1);
      } else {
        stage_end.erase(t);
        push(std::move(end), EventKind::kArrive, t, 0);
      }
    };
    auto done = [&](int t) {
      ++done_count;
      last_done = t;
      for (std::int64_t i = succ_begin[t]; i < succ_begin[t + 1]; ++i) {
        if (--pending[succ[i]] == 0) issue(succ[i], t);
      }
    };

    for (int t = 0; t < n; ++t) {
      if (pending[t] == 0) issue(t, -1);
    }
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), Later<T>());
      Event<T> ev = std::move(heap.back());
      heap.pop_back();
      now = std::move(ev.time);
      switch (ev.kind) {
        case EventKind::kEnqueue: {
          const int e = link_ids[link_begin[ev.id] + ev.stage];
          LinkState& l = links[e];
          l.queue.push_back({ev.id, ev.stage, l.serving || !l.queue.empty()});
          serve(e);
          break;
        }
        case EventKind::kLinkFree:
          links[ev.id].serving = false;
          serve(ev.id);
          break;
        case EventKind::kArrive:
          (*arrived)[ev.id] = now;
          if (sim.reduce_[ev.id]) {
            T delay = reduction(ev.id);
            if (delay > 0) {
              push(Add(now, delay), EventKind::kDone, ev.id, 0);
              break;
            }
          }
          done(ev.id);
          break;
        case EventKind::kDone:
          done(ev.id);
          break;
      }
      ++r->events;
    }
    if (done_count != n) {
      throw std::logic_error("FlowSimulation: " + std::to_string(n - done_count) +
                             " transfers were never issued (a dependency cycle)");
    }
    *completion = T(0);
    if (last_done >= 0) {
      *completion = (*arrived)[last_done];
      if (sim.reduce_[last_done]) *completion = Add(*completion, reduction(last_done));
    }
    // A cut-through transfer can wait for one that later waits for it: stop at a repeat.
    r->critical_path.clear();
    std::vector<bool> on_path(n, false);
    for (int t = last_done; t >= 0 && !on_path[t]; t = cause[t]) {
      on_path[t] = true;
      if (!sim.IsBarrier(t)) r->critical_path.push_back(t);
    }
    std::reverse(r->critical_path.begin(), r->critical_path.end());
  }
};

namespace {

// Bytes per link: per (link, amount) counts, then one multiplication each.
std::vector<Rational> LinkBytes(const Topology& g, const std::vector<std::int64_t>& link_begin,
                                const std::vector<int>& link_ids, const std::vector<int>& amount,
                                const std::vector<Rational>& amounts) {
  std::unordered_map<std::uint64_t, std::int64_t> count;
  for (std::size_t t = 0; t + 1 < link_begin.size(); ++t) {
    for (std::int64_t i = link_begin[t]; i < link_begin[t + 1]; ++i) {
      ++count[(static_cast<std::uint64_t>(link_ids[i]) << 32) |
              static_cast<std::uint32_t>(amount[t])];
    }
  }
  std::vector<Rational> bytes(g.num_links(), Rational(0));
  for (const auto& [key, c] : count) bytes[key >> 32] += amounts[key & 0xffffffffu] * c;
  return bytes;
}

}  // namespace

SimulationTimeResolutionError::SimulationTimeResolutionError(std::size_t bits)
    : std::length_error(
          "the exact times need " + std::to_string(bits) +
          " bits (the least common denominator of every latency, transfer duration and "
          "reduction time, times their largest numerator), above the simulator's limit of " +
          std::to_string(kMaxTimeBits) +
          " bits: give latencies, bandwidths, --size, --alpha and --gamma with fewer digits"),
      bits_(bits) {}

FlowSimulationResult FlowSimulation::RunRational() const {
  FlowSimulationResult r;
  auto duration = [&](std::int64_t slot) {
    return Bytes(static_cast<int>(std::upper_bound(link_begin_.begin(), link_begin_.end(), slot) -
                                  link_begin_.begin() - 1)) /
           link_rate_[link_ids_[slot]];
  };
  auto latency = [&](int e) { return link_latency_[e]; };
  auto reduction = [&](int t) { return gamma_ * Bytes(t); };
  FlowSimulationCore::Run<Rational>(*this, duration, latency, reduction, &r.issued, &r.arrived,
                                    &r.start, &r.end, &r.link_busy, &r.completion, &r);
  r.link_bytes = LinkBytes(g_, link_begin_, link_ids_, amount_, amounts_);
  r.integer_ticks = false;
  return r;
}

FlowSimulationResult FlowSimulation::Run() const {
  // The tick: 1 / lcm of the denominators of every latency, bytes/rate and γ·bytes used.
  const BigInt kLimit = BigInt(1) << 62;
  std::unordered_map<std::uint64_t, Rational> durations;  // (link, amount) -> seconds
  BigInt lcm = 1;
  bool ticks_ok = true;
  // Every time is a sum of these inputs, so the inputs' size in bits (the lcm, and the
  // largest input counted in ticks) bounds the size of every number the run computes.
  std::size_t largest_numerator_bits = 0;
  auto include = [&](const Rational& q) {
    const BigInt d = Denominator(q);
    lcm = lcm / boost::multiprecision::gcd(lcm, d) * d;
    if (lcm > kLimit) ticks_ok = false;
    if (Numerator(q) != 0) {
      largest_numerator_bits = std::max<std::size_t>(
          largest_numerator_bits, boost::multiprecision::msb(abs(Numerator(q))) + 1);
    }
    const std::size_t bits = boost::multiprecision::msb(lcm) + 1 + largest_numerator_bits;
    if (bits > kMaxTimeBits) throw SimulationTimeResolutionError(bits);
  };
  for (int e = 0; e < g_.num_links(); ++e) include(link_latency_[e]);
  const int n = num_transfers();
  for (int t = 0; t < n; ++t) {
    for (std::int64_t i = link_begin_[t]; i < link_begin_[t + 1]; ++i) {
      const std::uint64_t key =
          (static_cast<std::uint64_t>(link_ids_[i]) << 32) | static_cast<std::uint32_t>(amount_[t]);
      auto [it, fresh] = durations.try_emplace(key);
      if (fresh) {
        it->second = Bytes(t) / link_rate_[link_ids_[i]];
        include(it->second);
      }
    }
  }
  std::vector<std::int64_t> reduction_ticks(amounts_.size(), 0);
  if (gamma_ > 0) {
    for (std::size_t a = 0; a < amounts_.size(); ++a) include(gamma_ * amounts_[a]);
  }
  auto to_ticks = [&](const Rational& q, std::int64_t* out) {
    const Rational x = q * Rational(lcm);
    if (Denominator(x) != 1 || x > Rational(kLimit)) return false;
    *out = Numerator(x).convert_to<std::int64_t>();
    return true;
  };
  std::vector<std::int64_t> latency_ticks(g_.num_links()), duration_ticks(link_ids_.size());
  for (int e = 0; e < g_.num_links() && ticks_ok; ++e) {
    ticks_ok = to_ticks(link_latency_[e], &latency_ticks[e]);
  }
  if (ticks_ok) {
    std::unordered_map<std::uint64_t, std::int64_t> cache;
    for (auto& [key, q] : durations) {
      std::int64_t v = 0;
      if (!to_ticks(q, &v)) {
        ticks_ok = false;
        break;
      }
      cache[key] = v;
    }
    for (int t = 0; t < n && ticks_ok; ++t) {
      for (std::int64_t i = link_begin_[t]; i < link_begin_[t + 1]; ++i) {
        duration_ticks[i] = cache[(static_cast<std::uint64_t>(link_ids_[i]) << 32) |
                                  static_cast<std::uint32_t>(amount_[t])];
      }
    }
  }
  if (ticks_ok && gamma_ > 0) {
    for (std::size_t a = 0; a < amounts_.size() && ticks_ok; ++a) {
      ticks_ok = to_ticks(gamma_ * amounts_[a], &reduction_ticks[a]);
    }
  }
  if (!ticks_ok) return RunRational();
  durations.clear();

  FlowSimulationResult r;
  std::vector<std::int64_t> busy;
  std::int64_t completion = 0;
  try {
    FlowSimulationCore::Run<std::int64_t>(
        *this, [&](std::int64_t slot) { return duration_ticks[slot]; },
        [&](int e) { return latency_ticks[e]; }, [&](int t) { return reduction_ticks[amount_[t]]; },
        &r.issued_ticks, &r.arrived_ticks, &r.start_ticks, &r.end_ticks, &busy, &completion, &r);
  } catch (const TickOverflow&) {
    return RunRational();
  }
  r.integer_ticks = true;
  r.tick = Rational(1) / Rational(lcm);
  r.completion = Rational(completion) * r.tick;
  r.link_busy.resize(busy.size());
  for (std::size_t e = 0; e < busy.size(); ++e) r.link_busy[e] = Rational(busy[e]) * r.tick;
  r.link_bytes = LinkBytes(g_, link_begin_, link_ids_, amount_, amounts_);
  return r;
}

}  // namespace collsynth
