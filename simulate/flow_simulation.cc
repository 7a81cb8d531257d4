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
  bytes_.push_back(links.empty() ? Rational(0) : bytes);
  reduce_.push_back(reduce && !links.empty());
  labels_.push_back(label);
  return static_cast<int>(bytes_.size()) - 1;
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
  if (reduce_[t]) return r.arrived[t] + gamma_ * bytes_[t];
  return r.arrived[t];
}

namespace {

enum class EventKind { kEnqueue, kLinkFree, kArrive, kDone };

struct Event {
  Rational time;
  std::uint64_t seq;  // ties: first pushed, first served (deterministic)
  EventKind kind;
  int id;
  int stage;  // kEnqueue: the index of the link on the transfer's path
};

struct Later {
  bool operator()(const Event& a, const Event& b) const {
    if (a.time != b.time) return a.time > b.time;
    return a.seq > b.seq;
  }
};

struct LinkState {
  struct Waiting {
    int transfer;
    int stage;
    bool waited;  // the link was busy when it came: the transfer served before it delayed it
  };
  std::deque<Waiting> queue;  // in arrival order
  bool serving = false;
  int last_served = -1;
};

// A multi-link transfer between its stages: when its last byte left the previous link.
struct StageState {
  Rational end;
};

}  // namespace

FlowSimulationResult FlowSimulation::Run() const {
  const int n = num_transfers();
  FlowSimulationResult r;
  r.issued.assign(n, Rational(0));
  r.arrived.assign(n, Rational(0));
  r.gate.assign(n, -1);
  r.link_bytes.assign(g_.num_links(), Rational(0));
  r.link_busy.assign(g_.num_links(), Rational(0));
  std::vector<int> cause(n, -1);  // what delayed the transfer last: its gate or a link's queue

  // Successors in CSR form.
  std::vector<std::int64_t> succ_begin(n + 1, 0);
  std::vector<int> pending(n, 0);
  for (const auto& [a, b] : deps_) {
    if (a < 0 || a >= n || b < 0 || b >= n)
      throw std::logic_error("FlowSimulation: bad dependency");
    ++succ_begin[a + 1];
    ++pending[b];
  }
  for (int t = 0; t < n; ++t) succ_begin[t + 1] += succ_begin[t];
  std::vector<int> succ(deps_.size());
  {
    std::vector<std::int64_t> fill(succ_begin.begin(), succ_begin.end() - 1);
    for (const auto& [a, b] : deps_) succ[fill[a]++] = b;
  }

  std::vector<Event> heap;
  std::uint64_t seq = 0;
  auto push = [&](Rational time, EventKind kind, int id, int stage) {
    heap.push_back(Event{std::move(time), seq++, kind, id, stage});
    std::push_heap(heap.begin(), heap.end(), Later());
  };
  std::vector<LinkState> links(g_.num_links());
  std::unordered_map<int, StageState> stages;  // multi-link transfers in flight
  Rational now = 0;
  int done_count = 0;
  int last_done = -1;

  auto issue = [&](int t, int gate) {
    r.issued[t] = now;
    r.gate[t] = gate;
    cause[t] = gate;
    if (IsBarrier(t)) {
      r.arrived[t] = now;
      push(now, EventKind::kDone, t, 0);
    } else {
      push(now + link_latency_[link_ids_[link_begin_[t]]], EventKind::kEnqueue, t, 0);
    }
  };
  // Link e is free: serve the transfer at the head of its queue, if any.
  auto serve = [&](int e) {
    LinkState& l = links[e];
    if (l.serving || l.queue.empty()) return;
    const int t = l.queue.front().transfer, stage = l.queue.front().stage;
    if (l.queue.front().waited) cause[t] = l.last_served;
    l.queue.pop_front();
    l.serving = true;
    const std::int64_t first = link_begin_[t];
    const int stages_total = static_cast<int>(link_begin_[t + 1] - first);
    Rational end = now + bytes_[t] / link_rate_[e];
    if (stage > 0) {  // the last byte cannot leave before it came through the previous link
      auto it = stages.find(t);
      Rational upstream = it->second.end + link_latency_[e];
      if (upstream > end) end = std::move(upstream);
    }
    r.link_busy[e] += end - now;
    r.link_bytes[e] += bytes_[t];
    l.last_served = t;
    push(end, EventKind::kLinkFree, e, 0);
    if (stage + 1 < stages_total) {
      stages[t].end = end;
      push(now + link_latency_[link_ids_[first + stage + 1]], EventKind::kEnqueue, t, stage + 1);
    } else {
      stages.erase(t);
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
    std::pop_heap(heap.begin(), heap.end(), Later());
    Event ev = std::move(heap.back());
    heap.pop_back();
    now = std::move(ev.time);
    switch (ev.kind) {
      case EventKind::kEnqueue: {
        const int e = link_ids_[link_begin_[ev.id] + ev.stage];
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
        r.arrived[ev.id] = now;
        if (reduce_[ev.id] && gamma_ > 0) {
          push(now + gamma_ * bytes_[ev.id], EventKind::kDone, ev.id, 0);
        } else {
          done(ev.id);
        }
        break;
      case EventKind::kDone:
        done(ev.id);
        break;
    }
    ++r.events;
  }
  if (done_count != n) {
    throw std::logic_error("FlowSimulation: " + std::to_string(n - done_count) +
                           " transfers were never issued (a dependency cycle)");
  }
  if (last_done >= 0) r.completion = DoneTime(r, last_done);
  // A cut-through transfer can wait for one that later waits for it: stop at a repeat.
  std::vector<bool> on_path(n, false);
  for (int t = last_done; t >= 0 && !on_path[t]; t = cause[t]) {
    on_path[t] = true;
    if (!IsBarrier(t)) r.critical_path.push_back(t);
  }
  std::reverse(r.critical_path.begin(), r.critical_path.end());
  return r;
}

}  // namespace collsynth
