#include "proofs_check/msccl_execution.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "proofs_check/wait_for_chains.h"

namespace collsynth::msccl {
namespace {

std::string ConnectorName(const Connector& c) {
  return "connector gpu " + std::to_string(c.src) + " -> gpu " + std::to_string(c.dst) +
         " channel " + std::to_string(c.chan);
}

// A contribution set: sorted element ids q * in_size + c (rank q's input chunk c), or bottom
// (never written).
struct Value {
  bool bottom = true;
  std::vector<std::uint32_t> elems;
};

// A block's clock over the blocks of its own GPU (index = tb id): entry t is the last event
// of tb t known to happen before the block's current point. Built from program order, the
// GPU's own flag edges and facts established by the global search (see Ordered).
using Clock = std::vector<std::uint32_t>;
using ClockPtr = std::shared_ptr<const Clock>;

struct Message {
  Value value;
  std::uint32_t epoch = 0;  // the sender's event that pushed it
};

struct Publication {
  int iteration, step;
  std::uint32_t epoch;  // the publisher's own event at publication
  ClockPtr clock;       // its local clock then (own entry possibly older than `epoch`)
};

// A cross-block happens-before edge into event `epoch` of a block: from event `from_epoch`
// of global block `from` (a message's push, or the publication a dependency waited for).
struct InEdge {
  std::uint32_t epoch;
  int from;
  std::uint32_t from_epoch;
};

enum class WaitKind { kNone, kFlag, kData, kSpace };

struct SimBlock {
  int gpu = 0, tb = 0;
  const Block* def = nullptr;
  int in_fifo = -1, out_fifo = -1;
  int iter = 0, step = 0, sub = 0;
  bool dep_done = false, finished = false, queued = false;
  WaitKind wait = WaitKind::kNone;
  int wait_target = -1;  // block (kFlag) or fifo index
  std::vector<Publication> pubs;
  std::vector<int> flag_waiters;
  Clock clock;  // local (own GPU's blocks); clock[tb] is the block's own event count
  std::shared_ptr<Clock> snapshot;
  bool snapshot_stale = true;
  // The event graph, for the exact global query: seq[e - 1] is the global creation number of
  // event e (increasing along the block: a topological order of all events), `in` the
  // cross-block edges into its events in event order.
  std::vector<std::uint32_t> seq;
  std::vector<InEdge> in;
};

struct Fifo {
  int sender = -1, receiver = -1;  // global block indices
  int src = 0, dst = 0, chan = 0;
  std::deque<Message> queue;
  bool receiver_waiting = false, sender_waiting = false;
};

struct Access {
  int block;  // global block index
  std::uint32_t epoch;
  int step;
};

struct Cell {
  Value value;
  Access write{-1, 0, -1};
  std::vector<Access> reads;  // since the last write, at most one per block
};

class Simulator {
 public:
  Simulator(const Algo& algo, const std::vector<Connector>& conns, const ReplayOptions& o,
            bool inplace, int depth, Reporter* rep, OrderingMethod method)
      : algo_(algo), o_(o), inplace_(inplace), depth_(depth), rep_(rep), method_(method) {
    mode_ = inplace ? "inplace" : "outofplace";
    std::vector<int> first(algo.ngpus + 1, 0);
    for (int g = 0; g < algo.ngpus; ++g) {
      first[g + 1] = first[g] + static_cast<int>(algo.gpus[g].tbs.size());
    }
    first_block_ = first;
    const int nb = first[algo.ngpus];
    blocks_.resize(nb);
    visit_.assign(nb, 0);
    for (int g = 0; g < algo.ngpus; ++g) {
      for (const Block& b : algo.gpus[g].tbs) {
        SimBlock& s = blocks_[first[g] + b.id];
        s.gpu = g;
        s.tb = b.id;
        s.def = &b;
        s.clock.assign(algo.gpus[g].tbs.size(), 0);
      }
    }
    for (const Connector& c : conns) {
      if (c.sender_tb < 0 || c.receiver_tb < 0) continue;  // unused (stage 2)
      Fifo f;
      f.sender = first[c.src] + c.sender_tb;
      f.receiver = first[c.dst] + c.receiver_tb;
      f.src = c.src, f.dst = c.dst, f.chan = c.chan;
      blocks_[f.sender].out_fifo = static_cast<int>(fifos_.size());
      blocks_[f.receiver].in_fifo = static_cast<int>(fifos_.size());
      fifos_.push_back(std::move(f));
    }
    // Cells: per round, per gpu: input, output, scratch.
    scratch_base_.assign(algo.ngpus + 1, 0);
    for (int g = 0; g < algo.ngpus; ++g) {
      scratch_base_[g + 1] = scratch_base_[g] + algo.gpus[g].s_chunks;
    }
    per_round_ = static_cast<std::size_t>(algo.ngpus) * (algo.in_size + algo.out_size) +
                 scratch_base_[algo.ngpus];
    cells_.resize(per_round_ * o.iterations);
    for (int it = 0; it < o.iterations; ++it) {
      for (int g = 0; g < algo.ngpus; ++g) {
        for (int c = 0; c < algo.in_size; ++c) {
          Cell& cell = cells_[Resolve(it, g, 'i', c)];
          cell.value.bottom = false;
          cell.value.elems.assign(1, static_cast<std::uint32_t>(g * algo.in_size + c));
        }
      }
    }
  }

  void Run() {
    for (int b = 0; b < static_cast<int>(blocks_.size()); ++b) Enqueue(b);
    while (!ready_.empty() && !over_budget_) {
      const int b = ready_.front();
      ready_.pop_front();
      blocks_[b].queued = false;
      Advance(b);
    }
    if (too_many_events_) {
      rep_->Add(ReplayStage::kExecute, Kind::kLimit,
                "[" + mode_ +
                    "] more than 2^32 - 1 events (one-chunk transfers and satisfied "
                    "dependencies; limit of this checker)");
      return;
    }
    if (over_budget_) {
      rep_->Add(ReplayStage::kExecute, Kind::kLimit,
                "[" + mode_ + "] the contribution sets grew beyond " +
                    std::to_string(o_.max_set_elements) +
                    " elements in all (limit of this checker; reductions of many different "
                    "chunks into one cell)");
      return;
    }
    if (!ReportDeadlock()) CheckPostcondition();
  }

 private:
  // Index of the cell holding buffer `buf`[off] of gpu g in round it, after the in-place
  // aliases of docs/export.md "Buffer layout per collective".
  std::size_t Resolve(int it, int g, char buf, int off) const {
    const std::size_t round = per_round_ * it;
    const std::size_t in_base = static_cast<std::size_t>(g) * algo_.in_size;
    const std::size_t out_base = static_cast<std::size_t>(algo_.ngpus) * algo_.in_size +
                                 static_cast<std::size_t>(g) * algo_.out_size;
    const std::size_t s_base =
        static_cast<std::size_t>(algo_.ngpus) * (algo_.in_size + algo_.out_size) + scratch_base_[g];
    if (buf == 's') return round + s_base + off;
    if (inplace_) {
      const int k = algo_.coll == Coll::kAllgather ? algo_.in_size : algo_.out_size;
      if (algo_.coll == Coll::kReduceScatter) {
        if (buf == 'o') return round + in_base + static_cast<std::size_t>(g) * k + off;
        return round + in_base + off;
      }
      if (buf == 'i') {
        if (algo_.coll == Coll::kAllgather)
          return round + out_base + static_cast<std::size_t>(g) * k + off;
        return round + out_base + off;
      }
      return round + out_base + off;
    }
    return round + (buf == 'i' ? in_base : out_base) + off;
  }
  bool IsInputCell(std::size_t index) const {
    const std::size_t r = index % per_round_;
    return r < static_cast<std::size_t>(algo_.ngpus) * algo_.in_size;
  }

  std::string At(const SimBlock& b, int step = -1) const {
    const int s = step >= 0 ? step : b.step;
    std::string w = Where(b.gpu, b.tb, s);
    if (s < static_cast<int>(b.def->steps.size())) {
      w += std::string(" (") + InfoOf(b.def->steps[s].type).name + ", round " +
           std::to_string(b.iter) + ")";
    }
    return w;
  }

  void Report(Kind kind, const SimBlock& b, const std::string& what) {
    // One report per (kind, block, step): the same fault repeats per chunk and round.
    if (!reported_.insert({static_cast<int>(kind), b.gpu, b.tb, b.step}).second) return;
    rep_->Add(ReplayStage::kExecute, kind, "[" + mode_ + "] " + At(b) + ": " + what, b.gpu, b.tb,
              b.step);
  }

  std::string Element(std::uint32_t e) const {
    return "(rank " + std::to_string(e / algo_.in_size) + ", chunk " +
           std::to_string(e % algo_.in_size) + ")";
  }
  std::string CellName(int g, char buf, int off) const {
    return "gpu " + std::to_string(g) + " " + std::string(1, buf) + "[" + std::to_string(off) + "]";
  }

  void Enqueue(int b) {
    if (blocks_[b].queued || blocks_[b].finished) return;
    blocks_[b].queued = true;
    ready_.push_back(b);
  }

  // True if `other` (an access by a block of b's GPU) happened before the current point of
  // block b = blocks_[self]. First the local clock (sufficient: it holds only true orderings);
  // then, unless a race at b's current step is already reported (a second report would be
  // dropped, so the answer cannot change the result), the exact global query.
  bool Ordered(int self, const Access& other) {
    SimBlock& b = blocks_[self];
    if (other.block == self) return true;
    if (method_ == OrderingMethod::kGpuClocksThenSearch &&
        b.clock[blocks_[other.block].tb] >= other.epoch) {
      return true;
    }
    if (reported_.count({static_cast<int>(Kind::kRace), b.gpu, b.tb, b.step}) > 0) return true;
    return GloballyOrdered(self, other);
  }

  // Exact: is event (other.block, other.epoch) an ancestor of block self's current event in
  // the graph of program order, message (push -> pop) and flag (publication -> wait) edges?
  // Backward search from the current event. An event created before `other` (smaller seq)
  // cannot descend from it, so only events created in between are visited; per block only
  // the events above the highest one already visited are expanded. Every event visited is an
  // ancestor, so the visited events of the own GPU are added to the local clock: later
  // queries of this block (and, through its flags, of other blocks) are answered locally.
  // Cost: O(E log E) for the E events and edges created between the two accesses.
  bool GloballyOrdered(int self, const Access& other) {
    SimBlock& b = blocks_[self];
    const std::uint32_t target_seq = blocks_[other.block].seq[other.epoch - 1];
    bool found = false;
    stack_.clear();
    stack_.push_back({self, b.clock[b.tb]});
    while (!stack_.empty()) {
      const auto [v, e] = stack_.back();
      stack_.pop_back();
      if (v == other.block) {
        if (e >= other.epoch) {
          found = true;
          break;
        }
        continue;
      }
      const std::uint32_t seen = visit_[v];
      if (e <= seen) continue;
      if (seen == 0) touched_.push_back(v);
      visit_[v] = e;
      const SimBlock& vb = blocks_[v];
      // Events 1..cut of v were created before `other`.
      const std::uint32_t cut = static_cast<std::uint32_t>(
          std::lower_bound(vb.seq.begin(), vb.seq.end(), target_seq) - vb.seq.begin());
      const std::uint32_t floor = std::max(seen, cut);
      auto it =
          std::upper_bound(vb.in.begin(), vb.in.end(), e,
                           [](std::uint32_t x, const InEdge& edge) { return x < edge.epoch; });
      // Pushed oldest first, so the most recent edge (usually the direct cause) is followed
      // first: on tree schedules the path to `other` is found long before the window is
      // exhausted (measured: 10x fewer visits than the reverse order).
      auto first = it;
      while (first != vb.in.begin() && std::prev(first)->epoch > floor) --first;
      for (; first != it; ++first) {
        if (blocks_[first->from].seq[first->from_epoch - 1] >= target_seq) {
          stack_.push_back({first->from, first->from_epoch});
        }
      }
    }
    for (int v : touched_) {
      const SimBlock& vb = blocks_[v];
      if (vb.gpu == b.gpu) b.clock[vb.tb] = std::max(b.clock[vb.tb], visit_[v]);
      visit_[v] = 0;
    }
    touched_.clear();
    if (found) {
      const int t = blocks_[other.block].tb;
      b.clock[t] = std::max(b.clock[t], other.epoch);
    }
    b.snapshot_stale = true;
    return found;
  }

  // A new event of block b (a one-chunk transfer or a dependency satisfied); its number.
  std::uint32_t NewEvent(SimBlock& b) {
    if (next_seq_ == std::numeric_limits<std::uint32_t>::max()) {
      too_many_events_ = true;
      over_budget_ = true;
    }
    b.seq.push_back(next_seq_++);
    return ++b.clock[b.tb];
  }
  void RaceReport(int self, const Access& other, const char* what, int g, char buf, int off) {
    const SimBlock& b = blocks_[self];
    const SimBlock& ob = blocks_[other.block];
    Report(Kind::kRace, b,
           std::string(what) + " of " + CellName(g, buf, off) + " is not ordered with the " +
               (other.step >= 0 ? "access by " : "") + Where(ob.gpu, ob.tb, other.step) +
               " (no dependency, flag or send/receive chain orders them)");
  }

  Value Read(int self, char buf, int off) {
    SimBlock& b = blocks_[self];
    const std::size_t index = Resolve(b.iter, b.gpu, buf, off);
    Cell& cell = cells_[index];
    const std::uint32_t epoch = b.clock[b.tb];
    if (cell.write.block >= 0 && !Ordered(self, cell.write)) {
      RaceReport(self, cell.write, "read", b.gpu, buf, off);
    }
    bool found = false;
    for (Access& a : cell.reads) {
      if (a.block == self) {
        a.epoch = epoch;
        a.step = b.step;
        found = true;
      }
    }
    if (!found) cell.reads.push_back({self, epoch, b.step});
    if (cell.value.bottom) {
      Report(Kind::kUninitializedRead, b,
             "reads " + CellName(b.gpu, buf, off) + ", which nothing has written (missing data)");
    }
    return cell.value;
  }

  void Write(int self, char buf, int off, Value v) {
    SimBlock& b = blocks_[self];
    const std::size_t index = Resolve(b.iter, b.gpu, buf, off);
    Cell& cell = cells_[index];
    if (!inplace_ && IsInputCell(index)) {
      Report(Kind::kInputWritten, b,
             "writes " + CellName(b.gpu, buf, off) + ", the input buffer of an out-of-place call");
    }
    if (cell.write.block >= 0 && !Ordered(self, cell.write)) {
      RaceReport(self, cell.write, "write", b.gpu, buf, off);
    }
    for (const Access& a : cell.reads) {
      if (!Ordered(self, a)) {
        RaceReport(self, a, "write", b.gpu, buf, off);
        break;
      }
    }
    cell.reads.clear();
    cell.write = {self, b.clock[b.tb], b.step};
    cell.value = std::move(v);
  }

  // a ⊎ b; an element in both is double counting.
  Value Sum(int self, const Value& a, const Value& c) {
    Value r;
    if (a.bottom || c.bottom) return r;
    r.bottom = false;
    elements_ += a.elems.size() + c.elems.size();
    if (elements_ > static_cast<std::uint64_t>(o_.max_set_elements)) {
      over_budget_ = true;
      return r;
    }
    r.elems.reserve(a.elems.size() + c.elems.size());
    std::size_t i = 0, j = 0;
    bool dup = false;
    std::uint32_t first_dup = 0;
    while (i < a.elems.size() || j < c.elems.size()) {
      if (j == c.elems.size() || (i < a.elems.size() && a.elems[i] < c.elems[j])) {
        r.elems.push_back(a.elems[i++]);
      } else if (i == a.elems.size() || c.elems[j] < a.elems[i]) {
        r.elems.push_back(c.elems[j++]);
      } else {
        if (!dup) first_dup = a.elems[i];
        dup = true;
        r.elems.push_back(a.elems[i]);
        ++i, ++j;
      }
    }
    if (dup) {
      Report(Kind::kDoubleCount, blocks_[self],
             "reduces two values that both contain " + Element(first_dup) + " (double counting)");
    }
    return r;
  }

  void Merge(SimBlock& b, const Clock& other) {
    for (std::size_t i = 0; i < other.size(); ++i) b.clock[i] = std::max(b.clock[i], other[i]);
    b.snapshot_stale = true;
  }

  ClockPtr Snapshot(SimBlock& b) {
    if (b.snapshot_stale || !b.snapshot) {
      b.snapshot = std::make_shared<Clock>(b.clock);
      b.snapshot_stale = false;
    }
    return b.snapshot;
  }

  static bool FlagReaches(const Publication& p, int iter, int step) {
    return p.iteration > iter || (p.iteration == iter && p.step >= step);
  }

  void Advance(int self) {
    SimBlock& b = blocks_[self];
    b.wait = WaitKind::kNone;
    const int nsteps = static_cast<int>(b.def->steps.size());
    if (nsteps == 0) {
      b.finished = true;
      return;
    }
    while (!b.finished && !over_budget_) {
      const Step& st = b.def->steps[b.step];
      const TypeInfo& info = InfoOf(st.type);
      if (!b.dep_done) {
        if (st.depid >= 0) {
          const int d = first_block_[b.gpu] + st.depid;
          SimBlock& db = blocks_[d];
          auto it = std::lower_bound(
              db.pubs.begin(), db.pubs.end(), 0,
              [&](const Publication& p, int) { return !FlagReaches(p, b.iter, st.deps); });
          if (it == db.pubs.end()) {
            b.wait = WaitKind::kFlag;
            b.wait_target = d;
            db.flag_waiters.push_back(self);
            return;
          }
          // The dependency is an event with an edge from the publication.
          const std::uint32_t e = NewEvent(b);
          if (it->epoch > 0) b.in.push_back({e, d, it->epoch});
          Merge(b, *it->clock);
          b.clock[db.tb] = std::max(b.clock[db.tb], it->epoch);
        }
        b.dep_done = true;
      }
      if (st.type != StepType::kNop && b.sub < st.cnt) {
        Fifo* in = info.recv ? &fifos_[b.in_fifo] : nullptr;
        Fifo* out = info.send ? &fifos_[b.out_fifo] : nullptr;
        if (in != nullptr && in->queue.empty()) {
          b.wait = WaitKind::kData;
          b.wait_target = b.in_fifo;
          in->receiver_waiting = true;
          return;
        }
        if (out != nullptr && static_cast<int>(out->queue.size()) >= depth_) {
          b.wait = WaitKind::kSpace;
          b.wait_target = b.out_fifo;
          out->sender_waiting = true;
          return;
        }
        const std::uint32_t event = NewEvent(b);
        Value incoming;
        if (in != nullptr) {
          Message m = std::move(in->queue.front());
          in->queue.pop_front();
          b.in.push_back({event, in->sender, m.epoch});
          incoming = std::move(m.value);
          if (in->sender_waiting) {
            in->sender_waiting = false;
            Enqueue(in->sender);
          }
        }
        const int k = b.sub;
        Value outgoing;
        switch (st.type) {
          case StepType::kS:
            outgoing = Read(self, st.srcbuf, st.srcoff + k);
            break;
          case StepType::kR:
            Write(self, st.dstbuf, st.dstoff + k, std::move(incoming));
            break;
          case StepType::kRcs:
            outgoing = incoming;
            Write(self, st.dstbuf, st.dstoff + k, std::move(incoming));
            break;
          case StepType::kRrs:
            outgoing = Sum(self, incoming, Read(self, st.srcbuf, st.srcoff + k));
            break;
          case StepType::kRrc:
            Write(self, st.dstbuf, st.dstoff + k,
                  Sum(self, incoming, Read(self, st.srcbuf, st.srcoff + k)));
            break;
          case StepType::kRrcs:
            outgoing = Sum(self, incoming, Read(self, st.srcbuf, st.srcoff + k));
            Write(self, st.dstbuf, st.dstoff + k, outgoing);
            break;
          case StepType::kCpy:
            Write(self, st.dstbuf, st.dstoff + k, Read(self, st.srcbuf, st.srcoff + k));
            break;
          case StepType::kRe: {
            Value d = Read(self, st.dstbuf, st.dstoff + k);
            Write(self, st.dstbuf, st.dstoff + k,
                  Sum(self, d, Read(self, st.srcbuf, st.srcoff + k)));
            break;
          }
          case StepType::kNop:
            break;
        }
        if (out != nullptr) {
          Message m;
          m.value = std::move(outgoing);
          m.epoch = event;
          out->queue.push_back(std::move(m));
          if (out->receiver_waiting) {
            out->receiver_waiting = false;
            Enqueue(out->receiver);
          }
        }
        ++b.sub;
        continue;
      }
      // The step is complete.
      if (st.group_end == b.step && st.group_publish) {
        b.pubs.push_back({b.iter, b.step, b.clock[b.tb], Snapshot(b)});
        for (int w : b.flag_waiters) Enqueue(w);
        b.flag_waiters.clear();
      }
      b.sub = 0;
      b.dep_done = false;
      if (++b.step == nsteps) {
        b.step = 0;
        if (++b.iter == o_.iterations) b.finished = true;
      }
    }
  }

  // What an unfinished block waits for, as text, and the block it waits on (-1: none).
  std::pair<std::string, int> WaitsFor(const SimBlock& b) const {
    const Step& st = b.def->steps[b.step];
    switch (b.wait) {
      case WaitKind::kFlag: {
        return {"waits for the flag of tb " + std::to_string(st.depid) + " step " +
                    std::to_string(st.deps) + " (round " + std::to_string(b.iter) + ")",
                b.wait_target};
      }
      case WaitKind::kData: {
        const Fifo& f = fifos_[b.wait_target];
        return {"waits for data from gpu " + std::to_string(f.src) + " tb " +
                    std::to_string(blocks_[f.sender].tb) + " on channel " + std::to_string(f.chan),
                f.sender};
      }
      case WaitKind::kSpace: {
        const Fifo& f = fifos_[b.wait_target];
        return {"waits for a free slot (" + std::to_string(depth_) +
                    " transfers in flight) towards gpu " + std::to_string(f.dst) + " tb " +
                    std::to_string(blocks_[f.receiver].tb) + " on channel " +
                    std::to_string(f.chan),
                f.receiver};
      }
      case WaitKind::kNone:
        break;
    }
    return {"is stuck", -1};
  }

  ReplayStepRef Ref(const SimBlock& b) const { return {b.gpu, b.tb, b.step, b.iter}; }

  // Reports each wait-for cycle (or chain ending at a finished block); true if any block is
  // unfinished.
  bool ReportDeadlock() {
    int unfinished = 0;
    for (const SimBlock& b : blocks_) unfinished += b.finished ? 0 : 1;
    const std::vector<WaitForChain> chains = FindWaitForChains(
        static_cast<int>(blocks_.size()), [&](int x) { return blocks_[x].finished; },
        [&](int x) { return WaitsFor(blocks_[x]).second; });
    for (const WaitForChain& c : chains) {
      const int cur = c.end;
      std::string text = c.cycle ? "deadlock: wait-for cycle: " : "deadlock: wait-for chain: ";
      std::vector<ReplayStepRef> refs;
      for (int x : c.blocks) {
        const SimBlock& b = blocks_[x];
        text += At(b) + " " + WaitsFor(b).first + " -> ";
        refs.push_back(Ref(b));
      }
      if (c.cycle) {
        text += "back to " + Where(blocks_[cur].gpu, blocks_[cur].tb);
      } else if (cur >= 0) {
        text += Where(blocks_[cur].gpu, blocks_[cur].tb) +
                " has finished and will never publish or send it";
      } else {
        text += "nothing can release it";
      }
      text += " (" + std::to_string(unfinished) + " blocks unfinished)";
      const SimBlock& head = blocks_[c.blocks.front()];
      rep_->Add(ReplayStage::kExecute, Kind::kDeadlock, "[" + mode_ + "] " + text, head.gpu,
                head.tb, head.step, std::move(refs));
    }
    return !chains.empty();
  }

  void CheckPostcondition() {
    const int n = algo_.ngpus;
    const int k = algo_.coll == Coll::kAllgather  ? algo_.in_size
                  : algo_.coll == Coll::kAlltoall ? algo_.nchunks / n
                                                  : algo_.out_size;
    for (int it = 0; it < o_.iterations; ++it) {
      for (int r = 0; r < n; ++r) {
        for (int x = 0; x < algo_.out_size; ++x) {
          std::vector<std::uint32_t> want;
          switch (algo_.coll) {
            case Coll::kAllgather:
              want.assign(1, static_cast<std::uint32_t>((x / k) * algo_.in_size + x % k));
              break;
            case Coll::kReduceScatter:
              for (int q = 0; q < n; ++q) want.push_back(q * algo_.in_size + r * k + x);
              break;
            case Coll::kAllreduce:
              for (int q = 0; q < n; ++q) want.push_back(q * algo_.in_size + x);
              break;
            case Coll::kBroadcast:
              want.assign(1, static_cast<std::uint32_t>(o_.root * algo_.in_size + x));
              break;
            case Coll::kAlltoall:
              // Output block s of rank r is input block r of rank s (msccl-tools
              // msccl/language/collectives.py, AllToAll.check).
              want.assign(1, static_cast<std::uint32_t>((x / k) * algo_.in_size + r * k + x % k));
              break;
          }
          const Cell& cell = cells_[Resolve(it, r, 'o', x)];
          if (cell.value.bottom) {
            Post("missing chunk: " + CellName(r, 'o', x) + " is never written (round " +
                     std::to_string(it) + ")",
                 r);
            continue;
          }
          if (cell.value.elems == want) continue;
          std::vector<std::uint32_t> missing, extra;
          std::set_difference(want.begin(), want.end(), cell.value.elems.begin(),
                              cell.value.elems.end(), std::back_inserter(missing));
          std::set_difference(cell.value.elems.begin(), cell.value.elems.end(), want.begin(),
                              want.end(), std::back_inserter(extra));
          std::string m = CellName(r, 'o', x) + " (round " + std::to_string(it) + ") ends";
          if (!missing.empty()) {
            m += " without " + Element(missing[0]) +
                 (missing.size() > 1 ? " and " + std::to_string(missing.size() - 1) + " more" : "");
          }
          if (!extra.empty()) {
            m += std::string(missing.empty() ? "" : ",") + " with " + Element(extra[0]) +
                 (extra.size() > 1 ? " and " + std::to_string(extra.size() - 1) + " more" : "") +
                 " that does not belong there";
          }
          Post(m, r);
        }
      }
    }
  }
  void Post(const std::string& m, int gpu) {
    rep_->Add(ReplayStage::kExecute, Kind::kPostcondition, "[" + mode_ + "] " + m, gpu);
  }

  const Algo& algo_;
  const ReplayOptions& o_;
  bool inplace_;
  int depth_;
  Reporter* rep_;
  OrderingMethod method_;
  std::string mode_;
  std::vector<int> first_block_;
  std::vector<SimBlock> blocks_;
  std::vector<Fifo> fifos_;
  std::vector<int> scratch_base_;
  std::size_t per_round_ = 0;
  std::vector<Cell> cells_;
  std::deque<int> ready_;
  std::uint32_t next_seq_ = 0;  // events created so far (NewEvent)
  bool too_many_events_ = false;
  std::vector<std::uint32_t> visit_;  // GloballyOrdered: highest event visited per block
  std::vector<int> touched_;
  std::vector<std::pair<int, std::uint32_t>> stack_;
  std::set<std::tuple<int, int, int, int>> reported_;
  std::uint64_t elements_ = 0;  // set elements built by reductions (options.max_set_elements)
  bool over_budget_ = false;
};

}  // namespace

std::vector<Connector> BuildConnectors(const Algo& algo) {
  std::map<std::tuple<int, int, int>, Connector> m;
  for (int g = 0; g < algo.ngpus; ++g) {
    for (const Block& b : algo.gpus[g].tbs) {
      if (b.send >= 0) {
        Connector& c = m[{g, b.send, b.chan}];
        c.src = g, c.dst = b.send, c.chan = b.chan, c.sender_tb = b.id;
      }
      if (b.recv >= 0) {
        Connector& c = m[{b.recv, g, b.chan}];
        c.src = b.recv, c.dst = g, c.chan = b.chan, c.receiver_tb = b.id;
      }
    }
  }
  std::vector<Connector> out;
  for (auto& [key, c] : m) out.push_back(c);
  return out;
}

void CheckFifoMatching(const Algo& algo, const std::vector<Connector>& conns, Reporter* rep) {
  auto bad = [&](std::string m, int gpu, int tb, int step) {
    rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch, std::move(m), gpu, tb, step);
  };
  for (const Connector& c : conns) {
    std::vector<std::pair<int, int>> sends, recvs;  // (step index, cnt)
    if (c.sender_tb >= 0) {
      const Block& b = algo.gpus[c.src].tbs[c.sender_tb];
      for (int i = 0; i < static_cast<int>(b.steps.size()); ++i) {
        if (InfoOf(b.steps[i].type).send) sends.push_back({i, b.steps[i].cnt});
      }
    }
    if (c.receiver_tb >= 0) {
      const Block& b = algo.gpus[c.dst].tbs[c.receiver_tb];
      for (int i = 0; i < static_cast<int>(b.steps.size()); ++i) {
        if (InfoOf(b.steps[i].type).recv) recvs.push_back({i, b.steps[i].cnt});
      }
    }
    if (c.receiver_tb < 0 && !sends.empty()) {
      bad(ConnectorName(c) + ": " + Where(c.src, c.sender_tb, sends[0].first) +
              " sends, but no block on gpu " + std::to_string(c.dst) +
              " has recv=" + std::to_string(c.src) + " chan=" + std::to_string(c.chan),
          c.src, c.sender_tb, sends[0].first);
      continue;
    }
    if (c.sender_tb < 0 && !recvs.empty()) {
      bad(ConnectorName(c) + ": " + Where(c.dst, c.receiver_tb, recvs[0].first) +
              " receives, but no block on gpu " + std::to_string(c.src) +
              " has send=" + std::to_string(c.dst) + " chan=" + std::to_string(c.chan),
          c.dst, c.receiver_tb, recvs[0].first);
      continue;
    }
    const std::size_t n = std::min(sends.size(), recvs.size());
    bool reported = false;
    for (std::size_t k = 0; k < n && !reported; ++k) {
      if (sends[k].second != recvs[k].second) {
        bad(ConnectorName(c) + ": transfer " + std::to_string(k) +
                " is sent with cnt=" + std::to_string(sends[k].second) + " by " +
                Where(c.src, c.sender_tb, sends[k].first) +
                " but received with cnt=" + std::to_string(recvs[k].second) + " by " +
                Where(c.dst, c.receiver_tb, recvs[k].first),
            c.src, c.sender_tb, sends[k].first);
        reported = true;
      }
    }
    if (!reported && sends.size() != recvs.size()) {
      bad(ConnectorName(c) + ": " + std::to_string(sends.size()) + " sends by " +
              Where(c.src, c.sender_tb) + " but " + std::to_string(recvs.size()) + " receives by " +
              Where(c.dst, c.receiver_tb),
          c.src, c.sender_tb, -1);
    }
  }
}

void ExecuteSymbolically(const Algo& algo, const std::vector<Connector>& connectors,
                         const ReplayOptions& options, bool inplace, int depth, Reporter* rep,
                         OrderingMethod method) {
  Simulator(algo, connectors, options, inplace, depth, rep, method).Run();
}

}  // namespace collsynth::msccl
