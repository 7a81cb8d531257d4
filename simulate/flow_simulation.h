// FlowSimulation: a discrete-event simulation of data transfers over a topology's links, exact
// in rational seconds (the model is docs/simulate.md).
//
// A transfer moves `bytes` over one link, or (cut-through) over a path of links. It is issued
// when its last predecessor is done; it has arrived when its last byte is through, and it is
// done after a reduction delay γ·bytes at the receiver when it is marked `reduce`. A transfer
// without links is a barrier: done the moment it is issued.
// Links: first come, first served at full rate. A transfer enters link e's queue α_e after it
// was issued (after its head started on the previous link of its path, cut-through); when the
// link is free it takes it for bytes/b_e, and, cut-through, not less than until its last byte
// has come through the previous link (+ α_e). So a lone transfer takes Σα + bytes/min b, and
// k transfers that reach a link together leave it after Σ bytes/b_e. Times are sums and maxima
// of α and bytes/b, so their denominators stay those of the inputs (proportional sharing made
// them grow without bound: docs/simulate.md "Why first come, first served").
// Cost: O(log events) heap work per event, ~3 events per (transfer, link), in int64 ticks when
// the inputs' least common denominator allows (else O(1) rational operations per event).
// Memory O(transfers + dependencies). Never prints.
#ifndef COLLSYNTH_SIMULATE_FLOW_SIMULATION_H_
#define COLLSYNTH_SIMULATE_FLOW_SIMULATION_H_

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// What a transfer stands for, for reports (the builders fill it; -1 = not applicable).
struct TransferLabel {
  int phase = 0;   // allreduce: 0 reduce-scatter, 1 allgather
  int group = -1;  // step schedules: the comm step; pipelines: the tree index in its phase
  int item = -1;   // step schedules: the send index; pipelines: the edge index in its tree
  int route = -1;  // pipelines: the route index in its edge
  int chunk = -1;  // pipelines: the chunk, 0..P-1
  int hop = -1;    // pipelines, store-and-forward: the link's index on the route
  int unit = -1;   // MSCCL XML: the one-chunk unit within its step
};

struct FlowSimulationResult {
  Rational completion;    // the last done time (0 without transfers)
  std::vector<int> gate;  // per transfer: the predecessor whose end issued it, -1 for none
  std::vector<Rational> link_bytes;  // per topology link
  std::vector<Rational> link_busy;   // seconds the link was taken by a transfer
  std::int64_t events = 0;
  // Transfers (barriers left out) ending with the one done last, each the cause of the next:
  // the predecessor that issued it, or, when it had to wait for a link, the transfer served
  // before it there. What decided the completion time.
  std::vector<int> critical_path;
  // How the times were computed: in integer ticks of `tick` seconds (every input duration was
  // a multiple of one tick that keeps all times within int64), or in Rationals.
  bool integer_ticks = false;
  Rational tick;

  Rational Issued(int t) const { return Time(issued_ticks, issued, t); }
  Rational Arrived(int t) const { return Time(arrived_ticks, arrived, t); }
  // When the transfer using link slot `slot` (FlowSimulation::FirstSlot) took that link, and
  // when it released it.
  Rational SlotStart(std::int64_t slot) const { return Time(start_ticks, start, slot); }
  Rational SlotEnd(std::int64_t slot) const { return Time(end_ticks, end, slot); }

  // Per transfer (issued, arrived) and per link slot (start, end), in one of the two
  // representations (the other is empty).
  std::vector<std::int64_t> issued_ticks, arrived_ticks, start_ticks, end_ticks;
  std::vector<Rational> issued, arrived, start, end;

 private:
  Rational Time(const std::vector<std::int64_t>& ticks, const std::vector<Rational>& exact,
                std::int64_t t) const {
    return integer_ticks ? Rational(ticks[t]) * tick : exact[t];
  }
};

// Bits of exact time arithmetic the simulator accepts (lcm of the input durations'
// denominators, plus the bits of the largest numerator): 2048 bits are about 617 decimal
// digits, far beyond any physical latency or bandwidth, and keep one Rational operation in
// microseconds.
inline constexpr std::size_t kMaxTimeBits = 2048;

class SimulationTimeResolutionError : public std::length_error {
 public:
  explicit SimulationTimeResolutionError(std::size_t bits);
  std::size_t bits() const { return bits_; }

 private:
  std::size_t bits_;
};

class FlowSimulation {
 public:
  // link_rate[e] > 0 bytes/s and link_latency[e] >= 0 seconds for every link of g (the caller
  // has applied units and defaults); gamma >= 0 seconds per byte. g must outlive this object.
  FlowSimulation(const Topology& g, std::vector<Rational> link_rate,
                 std::vector<Rational> link_latency, Rational gamma);

  // Adds a transfer of `bytes` (> 0; ignored for a barrier, links empty) over `links` (link ids;
  // several = cut-through along them). Returns its id (dense, from 0).
  int AddTransfer(const std::vector<int>& links, const Rational& bytes, bool reduce,
                  const TransferLabel& label);
  int AddBarrier(const TransferLabel& label = {}) {
    return AddTransfer({}, Rational(0), false, label);
  }
  // `after` is issued only once `before` is done.
  void AddDependency(int before, int after) { deps_.emplace_back(before, after); }

  int num_transfers() const { return static_cast<int>(amount_.size()); }
  std::size_t num_dependencies() const { return deps_.size(); }
  bool IsBarrier(int t) const { return link_begin_[t] == link_begin_[t + 1]; }
  std::vector<int> Links(int t) const;
  // Transfer t's links are slots FirstSlot(t) .. FirstSlot(t) + Links(t).size() - 1, in order.
  std::int64_t FirstSlot(int t) const { return link_begin_[t]; }
  const Rational& Bytes(int t) const { return amounts_[amount_[t]]; }
  const TransferLabel& Label(int t) const { return labels_[t]; }
  // The sum of the α of t's links.
  Rational Latency(int t) const;
  // Arrival plus the reduction delay (γ·bytes when t is marked reduce).
  Rational DoneTime(const FlowSimulationResult& r, int t) const;
  const Rational& link_rate(int e) const { return link_rate_[e]; }
  const Topology& topology() const { return g_; }

  // Runs the simulation. Throws std::logic_error when some transfer is never issued (a
  // dependency cycle: a builder's bug). Times are computed in integer ticks when the least
  // common denominator of every latency, bytes/rate and γ·bytes fits (and no time overflows
  // int64), else in Rationals; both are exact and give the same result. Before anything runs,
  // throws SimulationTimeResolutionError when that denominator and the largest of those
  // inputs counted in ticks need more than kMaxTimeBits bits together: every time is a sum of
  // those inputs, and the Rational arithmetic on numbers that size is what made 50,000-digit
  // latencies take minutes (docs/simulate.md, "Limits").
  FlowSimulationResult Run() const;
  // The same, always in Rationals (tests compare the two).
  FlowSimulationResult RunRational() const;

 private:
  friend struct FlowSimulationCore;
  const Topology& g_;
  std::vector<Rational> link_rate_, link_latency_;
  Rational gamma_;
  std::vector<std::int64_t> link_begin_{0};
  std::vector<int> link_ids_;
  std::vector<int> amount_;        // per transfer: index into amounts_ (bytes)
  std::vector<Rational> amounts_;  // distinct byte counts
  std::map<Rational, int> amount_index_;
  std::vector<bool> reduce_;
  std::vector<TransferLabel> labels_;
  std::vector<std::pair<int, int>> deps_;
};

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_FLOW_SIMULATION_H_
