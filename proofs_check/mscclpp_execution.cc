#include "proofs_check/mscclpp_execution.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "proofs_check/wait_for_chains.h"

namespace collsynth::mscclpp_check {
namespace {

// A clock over the actors' data operations, in two halves: [0, n) the happens-before order
// (release / acquire), [n, 2n) the completion order of reads, which also follows relaxed
// signals after a nop (a read has returned its value before the thread goes on, so a peer
// that saw a later signal, even a relaxed one, writes after it); the second half is always
// >= the first.
using Clock = std::vector<std::uint32_t>;
using ClockPtr = std::shared_ptr<const Clock>;
// A contribution set: sorted element ids q * input_chunks + c (rank q's input chunk c);
// nullptr when nothing has written the cell.
using Value = std::shared_ptr<const std::vector<std::uint32_t>>;

// One data access: data operation `epoch` of block `block` (its op index `step`).
struct Access {
  int block = -1;
  std::uint32_t epoch = 0;
  int step = -1;
};

struct Cell {
  int owner = 0;
  Value value;
  Access write;
  std::vector<Access> reads;  // since the last write, at most one per block
};

enum class WaitKind { kNone, kSignal, kSemaphore, kBarrier, kKernelEnd };

struct SimBlock {
  int gpu = 0, tb = 0;
  const Block* def = nullptr;
  int pc = 0;
  int round = 0;  // the launch of the plan it runs (0-based)
  bool finished = false, queued = false;
  std::uint32_t counter = 0;  // data operations issued so far (the epoch of the last)
  Clock all;                  // what every thread of the block is known to have seen
  Clock launch_start;         // `all` when the current launch started
  std::vector<Clock> extra;   // sync thread t's knowledge beyond `all` (empty: none)
  WaitKind wait = WaitKind::kNone;
  int wait_on = -1;   // channel entry, semaphore or barrier id
  int wait_type = 0;  // kSignal: 0 memory, 1 port entry
  // The proxy of port channel entry `entry` of gpu `gpu` (an actor that runs no operations:
  // it performs the puts handed to it, in order, and forwards signals after them); tb and pc
  // name the block and operation that handed it the current work. entry == kCaller: the
  // caller of gpu `gpu` between launches (reads the output, writes the next input).
  int entry = -1;
};

struct Inbound {
  // Per signal: what it releases (nullptr for a relaxed signal) and what its gpu had
  // completed before the current launch (a kernel boundary is a device-wide fence, so even a
  // relaxed signal publishes that; the DSL's start-of-launch handshakes rely on it).
  std::deque<std::pair<ClockPtr, ClockPtr>> signals;
  int waiter = -1;
};

struct Semaphore {
  long long value = 0;
  long long initial_tokens = 0;  // taken before the released ones
  std::deque<ClockPtr> tokens;
  std::vector<int> waiters;
};

constexpr int kCaller = -2;
constexpr int kLaunches = 2;  // launches of the plan replayed, on the same buffers

class Simulator {
 public:
  Simulator(const Plan& plan, const ChannelPairing& pairing, std::int64_t max_elements,
            Reporter* rep)
      : plan_(plan), pairing_(pairing), max_elements_(max_elements), rep_(rep) {
    mode_ = plan.inplace ? "[inplace] " : "[outofplace] ";
    const int n = plan.ngpus;
    parts_ = plan.slices;
    ki_ = plan.gpus[0].in_chunks * parts_;
    ko_ = plan.gpus[0].out_chunks * parts_;
    first_.assign(n + 1, 0);
    base_.assign(n + 1, 0);
    for (int g = 0; g < n; ++g) {
      const Gpu& gpu = plan.gpus[g];
      first_[g + 1] = first_[g] + static_cast<int>(gpu.tbs.size());
      base_[g + 1] =
          base_[g] +
          static_cast<std::size_t>(gpu.in_chunks + gpu.out_chunks + gpu.s_chunks) * parts_;
    }
    const int real = first_[n];
    proxy_first_.assign(n + 1, real);
    for (int g = 0; g < n; ++g) {
      proxy_first_[g + 1] = proxy_first_[g] + static_cast<int>(plan.gpus[g].port_peer.size());
    }
    // Blocks, then one proxy per port channel entry, then one caller per gpu.
    caller_first_ = proxy_first_[n];
    const int nb = caller_first_ + n;
    actors_ = nb;
    real_blocks_ = real;
    blocks_.resize(nb);
    for (int type = 0; type < 2; ++type) inbound_[type].resize(n);
    ended_.assign(n, 0);
    sems_.resize(n);
    barriers_.resize(n);
    cells_.resize(base_[n]);
    for (int g = 0; g < n; ++g) {
      const Gpu& gpu = plan.gpus[g];
      for (int b = 0; b < static_cast<int>(gpu.tbs.size()); ++b) {
        SimBlock& s = blocks_[first_[g] + b];
        s.gpu = g;
        s.tb = b;
        s.def = &gpu.tbs[b];
        s.all.assign(2 * nb, 0);
        s.launch_start = s.all;
      }
      inbound_[0][g].resize(gpu.memory_peer.size());
      inbound_[1][g].resize(gpu.port_peer.size());
      for (int e = 0; e < static_cast<int>(gpu.port_peer.size()); ++e) {
        SimBlock& s = blocks_[proxy_first_[g] + e];
        s.gpu = g;
        s.entry = e;
        s.finished = true;  // never scheduled
        s.all.assign(2 * nb, 0);
      }
      for (int v : gpu.sem_init) {
        Semaphore sem;
        sem.value = v;
        sem.initial_tokens = std::max(v, 0);
        sems_[g].push_back(std::move(sem));
      }
      SimBlock& caller = blocks_[caller_first_ + g];
      caller.gpu = g;
      caller.tb = -1;
      caller.entry = kCaller;
      caller.finished = true;  // never scheduled
      caller.all.assign(2 * nb, 0);
      for (std::size_t c = base_[g]; c < base_[g + 1]; ++c) cells_[c].owner = g;
      for (int c = 0; c < ki_; ++c) cells_[Resolve(g, 'i', c)].value = Fresh(0, g, c);
    }
  }

  void Run() {
    // A gpu without thread blocks: its kernels end at once.
    for (int g = 0; g < plan_.ngpus; ++g) {
      if (first_[g + 1] > first_[g]) continue;
      for (int round = 0; round < kLaunches; ++round) KernelEnd(g, round);
    }
    for (int b = 0; b < static_cast<int>(blocks_.size()); ++b) Enqueue(b);
    while (!ready_.empty() && !over_budget_) {
      const int b = ready_.front();
      ready_.pop_front();
      blocks_[b].queued = false;
      Advance(b);
    }
    if (over_budget_) {
      rep_->Add(ReplayStage::kExecute, Kind::kLimit,
                mode_ + "the contribution sets grew beyond " + std::to_string(max_elements_) +
                    " elements in all (limit of this checker)");
      return;
    }
    ReportDeadlock();
  }

 private:
  // The cell of chunk `off` of buffer `type` of gpu g, after the in-place aliases of the
  // runtime's callers (allreduce, alltoall: input = output; allgather: input = output chunk
  // g * input_chunks on; reducescatter: output = input chunk g * output_chunks on).
  std::size_t Resolve(int g, char type, int off) const {
    if (plan_.inplace) {
      switch (plan_.coll) {
        case Coll::kAllreduce:
        case Coll::kAlltoall:  // sendbuff == recvbuff
          if (type == 'i') type = 'o';
          break;
        case Coll::kAllgather:
          if (type == 'i') type = 'o', off += g * ki_;
          break;
        case Coll::kReduceScatter:
          if (type == 'o') type = 'i', off += g * ko_;
          break;
      }
    }
    const std::size_t region = type == 'i' ? 0 : type == 'o' ? ki_ : ki_ + ko_;
    return base_[g] + region + off;
  }
  bool IsInput(std::size_t cell) const {
    return cell - base_[cells_[cell].owner] < static_cast<std::size_t>(ki_);
  }
  std::string CellName(std::size_t cell) const {
    const int g = cells_[cell].owner;
    std::size_t off = cell - base_[g];
    char type = 'i';
    if (off >= static_cast<std::size_t>(ki_)) {
      off -= ki_;
      type = 'o';
      if (off >= static_cast<std::size_t>(ko_)) {
        off -= ko_;
        type = 's';
      }
    }
    return "gpu " + std::to_string(g) + " " + type + "[" + Chunk(off) + "]";
  }
  // Chunk `off` (in parts), with its part when chunks are cut into parts.
  std::string Chunk(std::size_t off) const {
    if (parts_ == 1) return std::to_string(off);
    return std::to_string(off / parts_) + " part " + std::to_string(off % parts_) + "/" +
           std::to_string(parts_);
  }
  // Element ids: launch r's input chunk (part) c of rank q is r * ngpus * ki_ + q * ki_ + c.
  std::uint32_t ElementId(int launch, int q, int c) const {
    return static_cast<std::uint32_t>((launch * plan_.ngpus + q) * ki_ + c);
  }
  Value Fresh(int launch, int q, int c) const {
    return std::make_shared<const std::vector<std::uint32_t>>(
        std::vector<std::uint32_t>{ElementId(launch, q, c)});
  }
  std::string Element(std::uint32_t e) const {
    const std::uint32_t per_launch = static_cast<std::uint32_t>(plan_.ngpus * ki_);
    const std::uint32_t launch = e / per_launch;
    e %= per_launch;
    return "(rank " + std::to_string(e / ki_) + ", chunk " + Chunk(e % ki_) +
           (launch > 0 ? ", launch " + std::to_string(launch + 1) : std::string()) + ")";
  }
  std::string At(const SimBlock& b, int step) const {
    if (b.entry == kCaller) {
      return "the caller of gpu " + std::to_string(b.gpu) + " after launch " +
             std::to_string(b.round + 1);
    }
    std::string w = Where(b.gpu, b.tb, step);
    if (b.def != nullptr && step >= 0 && step < static_cast<int>(b.def->ops.size())) {
      w += std::string(" (") + OpName(b.def->ops[step].type) + ")";
    }
    if (b.entry >= 0) w += " through the proxy of port channel entry " + std::to_string(b.entry);
    return w;
  }

  void Report(Kind kind, const SimBlock& b, const std::string& what, int step = -2) {
    const int s = step == -2 ? b.pc : step;
    if (!reported_.insert({static_cast<int>(kind), b.gpu, b.tb, s}).second) return;
    rep_->Add(ReplayStage::kExecute, kind, mode_ + At(b, s) + ": " + what, b.gpu, b.tb, s);
  }

  void Enqueue(int b) {
    if (blocks_[b].queued || blocks_[b].finished) return;
    blocks_[b].queued = true;
    ready_.push_back(b);
  }

  static void Join(Clock* into, const Clock& other) {
    for (std::size_t i = 0; i < other.size(); ++i) (*into)[i] = std::max((*into)[i], other[i]);
  }

  // __syncthreads: every thread learns what any thread of the block knew, and that all of
  // the block's data operations so far are complete.
  void Nop(int self) {
    SimBlock& b = blocks_[self];
    for (const Clock& e : b.extra) {
      if (!e.empty()) Join(&b.all, e);
    }
    b.extra.clear();
    Own(&b.all, self, b.counter);
  }
  Clock& Extra(SimBlock& b, std::size_t t) {
    if (b.extra.size() <= t) b.extra.resize(t + 1);
    if (b.extra[t].empty()) b.extra[t].assign(b.all.size(), 0);
    return b.extra[t];
  }
  // What sync thread t releases: the block-wide knowledge and its own acquisitions.
  ClockPtr SyncClock(int self, std::size_t t) {
    SimBlock& b = blocks_[self];
    auto c = std::make_shared<Clock>(b.all);
    if (t < b.extra.size() && !b.extra[t].empty()) Join(c.get(), b.extra[t]);
    return c;
  }

  // Actor `self` knows its own data operations up to `epoch` are complete.
  void Own(Clock* c, int self, std::uint32_t epoch) const {
    (*c)[self] = epoch;
    (*c)[actors_ + self] = epoch;
  }
  // True if access `a` is ordered before the current point of actor `self`: in happens-before
  // order, or, when `a` is a read and self writes (`after_read`), in read-completion order.
  bool Ordered(int self, const Access& a, bool after_read = false) const {
    const SimBlock& b = blocks_[self];
    if (a.block == self) return a.epoch == b.counter || a.epoch <= b.all[self];
    return b.all[a.block + (after_read ? actors_ : 0)] >= a.epoch;
  }
  // What a relaxed signal of thread t publishes: the happens-before order of the gpu's
  // previous launches (a kernel boundary is a device-wide fence) and the thread's
  // read-completion order.
  ClockPtr RelaxedClock(int self, std::size_t t) {
    SimBlock& b = blocks_[self];
    auto c = std::make_shared<Clock>(*SyncClock(self, t));
    std::copy(b.launch_start.begin(), b.launch_start.begin() + actors_, c->begin());
    return c;
  }
  void Race(int self, const Access& other, const char* what, std::size_t cell) {
    const SimBlock& ob = blocks_[other.block];
    Report(Kind::kRace, blocks_[self],
           std::string(what) + " of " + CellName(cell) + " is not ordered with the access by " +
               At(ob, other.step) +
               (other.block == self
                    ? " (same thread block: only a nop orders its data operations)"
                    : " (no nop / signal-wait / semaphore / barrier chain orders them)"));
  }

  Value Read(int self, int rank, char type, int off) {
    SimBlock& b = blocks_[self];
    const std::size_t index = Resolve(rank, type, off);
    Cell& cell = cells_[index];
    if (cell.write.block >= 0 && !Ordered(self, cell.write)) Race(self, cell.write, "read", index);
    bool found = false;
    for (Access& a : cell.reads) {
      if (a.block == self) {
        a.epoch = b.counter;
        a.step = b.pc;
        found = true;
      }
    }
    if (!found) cell.reads.push_back({self, b.counter, b.pc});
    if (!cell.value) {
      Report(Kind::kUninitializedRead, b,
             "reads " + CellName(index) + ", which nothing has written (missing data)");
    }
    return cell.value;
  }

  void Write(int self, int rank, char type, int off, Value v) {
    SimBlock& b = blocks_[self];
    const std::size_t index = Resolve(rank, type, off);
    Cell& cell = cells_[index];
    if (!plan_.inplace && IsInput(index)) {
      Report(Kind::kInputWritten, b,
             "writes " + CellName(index) + ", the input buffer of an out-of-place plan");
    }
    if (cell.write.block >= 0 && !Ordered(self, cell.write)) {
      Race(self, cell.write, "write", index);
    }
    for (const Access& a : cell.reads) {
      if (!Ordered(self, a, true)) {
        Race(self, a, "write", index);
        break;
      }
    }
    cell.reads.clear();
    cell.write = {self, b.counter, b.pc};
    cell.value = std::move(v);
  }

  // a ⊎ c; an element in both is double counting.
  Value Sum(int self, const Value& a, const Value& c) {
    if (!a || !c) return nullptr;
    elements_ += a->size() + c->size();
    if (elements_ > static_cast<std::uint64_t>(max_elements_)) {
      over_budget_ = true;
      return nullptr;
    }
    std::vector<std::uint32_t> r;
    r.reserve(a->size() + c->size());
    std::vector<std::uint32_t> dup;
    std::set_intersection(a->begin(), a->end(), c->begin(), c->end(), std::back_inserter(dup));
    std::set_union(a->begin(), a->end(), c->begin(), c->end(), std::back_inserter(r));
    if (!dup.empty()) {
      Report(Kind::kDoubleCount, blocks_[self],
             "reduces two values that both contain " + Element(dup[0]) + " (double counting)");
    }
    return std::make_shared<const std::vector<std::uint32_t>>(std::move(r));
  }

  void DataOp(int self, const Op& op) {
    SimBlock& b = blocks_[self];
    ++b.counter;  // this operation's epoch; ordered after the block's earlier ones only by nop
    const int g = b.gpu;
    // The operation's share of every operand's range, in chunk parts: part `part` of `parts`
    // equal pieces (tbg_info), all of it without a group.
    const int len = (op.src.empty() ? 0 : op.src[0].size) * parts_ / op.parts;
    const int lo = op.part * len;
    auto at = [&](const BufRef& r, int k) { return r.index * parts_ + lo + k; };
    for (int k = 0; k < len && !over_budget_; ++k) {
      switch (op.type) {
        case OpType::kCopy:
          Write(self, g, op.dst[0].type, at(op.dst[0], k),
                Read(self, g, op.src[0].type, at(op.src[0], k)));
          break;
        case OpType::kPut:
          // handlePut: every source is read from src_buff[0]'s buffer at src_buff[i]'s index.
          for (std::size_t i = 0; i < op.dst.size(); ++i) {
            Write(self, op.dst[i].rank, op.dst[i].type, at(op.dst[i], k),
                  Read(self, g, op.src[0].type, at(op.src[i], k)));
          }
          break;
        case OpType::kGet:
          // handleGet swaps the offsets: the local buffer is written at the remote index and
          // the remote buffer read at the local index (equal in every plan the DSL writes).
          for (std::size_t i = 0; i < op.src.size(); ++i) {
            Write(self, g, op.dst[i].type, at(op.src[i], k),
                  Read(self, op.src[i].rank, op.src[i].type, at(op.dst[i], k)));
          }
          break;
        case OpType::kReduce:
        case OpType::kReduceSend:
        case OpType::kReadReduce:
        case OpType::kReadReduceSend: {
          Value acc = Read(self, g, op.src[0].type, at(op.src[0], k));
          for (std::size_t i = 1; i < op.src.size(); ++i) {
            acc = Sum(self, acc, Read(self, op.src[i].rank, op.src[i].type, at(op.src[i], k)));
          }
          for (std::size_t i = 0; i < op.dst.size(); ++i) {
            Write(self, op.dst[i].rank, op.dst[i].type, at(op.dst[i], k), acc);
          }
          break;
        }
        default:
          break;
      }
    }
  }

  // Delivers a signal (clock c; nullptr: relaxed) on gpu g's entry e of the type to the
  // paired entry and wakes its waiter.
  void Signal(int g, bool port, int e, ClockPtr c, ClockPtr fenced) {
    const int type = port ? 1 : 0;
    const auto [h, f] = pairing_.partner[type][g][e];
    if (h < 0) return;  // stage 2 rejects a used unpaired entry
    Inbound& in = inbound_[type][h][f];
    in.signals.push_back({std::move(c), std::move(fenced)});
    if (in.waiter >= 0) {
      const int w = in.waiter;
      in.waiter = -1;
      Enqueue(w);
    }
  }

  // Sync thread t of block `self` hands work to the proxy of its gpu's port entry e: the
  // proxy then knows what the thread knows. Returns the proxy's actor index.
  int ToProxy(int self, int e, std::size_t t) {
    SimBlock& b = blocks_[self];
    const int p = proxy_first_[b.gpu] + e;
    SimBlock& px = blocks_[p];
    Join(&px.all, *SyncClock(self, t));
    px.tb = b.tb;
    px.pc = b.pc;
    px.def = b.def;
    return p;
  }
  // A signal through the proxy: sent after every put handed to it before.
  ClockPtr ProxySignal(int self, int e, std::size_t t) {
    const int p = ToProxy(self, e, t);
    return std::make_shared<Clock>(blocks_[p].all);
  }

  // Port channel put / pws / pwsf / flush (handlePut, handleFlush): thread i hands dst_buff[i]
  // (read from src_buff[i]) to the proxy of channel_ids[i], which copies it in its own time
  // (accesses by the proxy actor, ordered after the earlier work of that proxy); pws also
  // signals after it, pwsf also waits for it (flush); flush makes thread i wait until the
  // proxy of channel_ids[i] is done, for i < the number of dst_buff entries.
  void PortOp(int self, const Op& op) {
    SimBlock& b = blocks_[self];
    for (std::size_t i = 0; i < op.dst.size() && !over_budget_; ++i) {
      const int p = ToProxy(self, op.channels[i], i);
      SimBlock& px = blocks_[p];
      if (op.type != OpType::kFlush) {
        ++px.counter;
        const int len = op.src[i].size * parts_ / op.parts;
        const int lo = op.part * len;
        for (int k = 0; k < len && !over_budget_; ++k) {
          Write(p, op.dst[i].rank, op.dst[i].type, op.dst[i].index * parts_ + lo + k,
                Read(p, b.gpu, op.src[i].type, op.src[i].index * parts_ + lo + k));
        }
        Own(&px.all, p, px.counter);  // the proxy's copies complete in order
      }
      if (op.type == OpType::kPutWithSignal || op.type == OpType::kPutWithSignalAndFlush) {
        Signal(b.gpu, true, op.channels[i], std::make_shared<Clock>(px.all), nullptr);
      }
      if (op.type == OpType::kPutWithSignalAndFlush || op.type == OpType::kFlush) {
        Join(&Extra(b, i), px.all);
      }
    }
  }

  // Runs block `self` until it blocks or finishes.
  void Advance(int self) {
    SimBlock& b = blocks_[self];
    // Released by the last arrival / by the end of its gpu's kernel.
    if (b.wait == WaitKind::kBarrier || b.wait == WaitKind::kKernelEnd) return;
    b.wait = WaitKind::kNone;
    const int nops = static_cast<int>(b.def->ops.size());
    while (!over_budget_) {
      if (b.pc >= nops) {
        EndLaunch(self);
        return;
      }
      const Op& op = b.def->ops[b.pc];
      const int g = b.gpu;
      switch (op.type) {
        case OpType::kNop:
          Nop(self);
          break;
        case OpType::kBarrier: {
          Nop(self);
          if (op.barrier_blocks == 1) break;
          std::vector<int>& arrived = barriers_[g][op.barrier_id];
          arrived.push_back(self);
          b.wait = WaitKind::kBarrier;
          b.wait_on = op.barrier_id;
          if (static_cast<int>(arrived.size()) < op.barrier_blocks) return;
          Clock j = b.all;
          for (int a : arrived) Join(&j, blocks_[a].all);
          std::vector<int> release;
          release.swap(arrived);
          for (int a : release) {
            SimBlock& ab = blocks_[a];
            ab.all = j;
            ab.extra.clear();
            ab.wait = WaitKind::kNone;
            ++ab.pc;
            if (a != self) Enqueue(a);
          }
          continue;  // pc already advanced
        }
        case OpType::kSignal:
        case OpType::kRelaxedSignal:
          for (std::size_t t = 0; t < op.channels.size(); ++t) {
            ClockPtr c = nullptr;
            // handleSignal<Relaxed> ignores `relaxed` on port channels.
            if (op.type == OpType::kSignal || op.port) {
              // A port signal is forwarded by the channel's proxy after the puts handed to it.
              c = op.port ? ProxySignal(self, op.channels[t], t) : SyncClock(self, t);
            }
            Signal(g, op.port, op.channels[t], std::move(c), RelaxedClock(self, t));
          }
          break;
        case OpType::kPutWithSignal:
        case OpType::kPutWithSignalAndFlush:
        case OpType::kFlush:
          PortOp(self, op);
          break;
        case OpType::kWait:
        case OpType::kRelaxedWait: {
          std::vector<std::vector<Inbound>>& inbound = inbound_[op.port ? 1 : 0];
          for (int e : op.channels) {
            if (std::count(op.channels.begin(), op.channels.end(), e) >
                static_cast<long>(inbound[g][e].signals.size())) {
              inbound[g][e].waiter = self;
              b.wait = WaitKind::kSignal;
              b.wait_on = e;
              b.wait_type = op.port ? 1 : 0;
              return;
            }
          }
          for (std::size_t t = 0; t < op.channels.size(); ++t) {
            Inbound& in = inbound[g][op.channels[t]];
            auto [c, fenced] = std::move(in.signals.front());
            in.signals.pop_front();
            // A wait acquires what the signal released; a relaxed wait (or signal) only what
            // the signalling gpu completed before its launch.
            if (c && (op.type == OpType::kWait || op.port)) {  // relaxed only on memory
              Join(&Extra(b, t), *c);
            } else if (fenced) {
              Join(&Extra(b, t), *fenced);
            }
          }
          break;
        }
        case OpType::kSemRelease:
          for (std::size_t t = 0; t < op.sems.size(); ++t) {
            Semaphore& s = sems_[g][op.sems[t]];
            ++s.value;
            s.tokens.push_back(SyncClock(self, t));
            for (int w : s.waiters) Enqueue(w);
            s.waiters.clear();
          }
          break;
        case OpType::kSemAcquire: {
          for (int id : op.sems) {
            if (std::count(op.sems.begin(), op.sems.end(), id) > sems_[g][id].value) {
              sems_[g][id].waiters.push_back(self);
              b.wait = WaitKind::kSemaphore;
              b.wait_on = id;
              return;
            }
          }
          for (std::size_t t = 0; t < op.sems.size(); ++t) {
            Semaphore& s = sems_[g][op.sems[t]];
            --s.value;
            if (s.initial_tokens > 0) {
              --s.initial_tokens;
            } else if (!s.tokens.empty()) {
              Join(&Extra(b, t), *s.tokens.front());
              s.tokens.pop_front();
            }
          }
          break;
        }
        default:
          if (op.port && op.type == OpType::kPut) {
            PortOp(self, op);
          } else {
            DataOp(self, op);
          }
          break;
      }
      ++b.pc;
    }
  }

  // What an unfinished block waits for, as text, and the block it waits on (-1: none).
  std::pair<std::string, int> WaitsFor(int self) const {
    const SimBlock& b = blocks_[self];
    const int g = b.gpu;
    switch (b.wait) {
      case WaitKind::kSignal: {
        const auto [h, f] = pairing_.partner[b.wait_type][g][b.wait_on];
        const int s = h < 0 ? -1 : pairing_.signaler[b.wait_type][h][f];
        std::string t = std::string("waits on ") + (b.wait_type == 1 ? "port" : "memory") +
                        " channel entry " + std::to_string(b.wait_on) + " for a signal of gpu " +
                        std::to_string(h);
        if (s < 0) return {t + ", which no block of gpu " + std::to_string(h) + " sends", -1};
        return {t + " tb " + std::to_string(s), first_[h] + s};
      }
      case WaitKind::kSemaphore: {
        std::string t = "waits to acquire semaphore " + std::to_string(b.wait_on) + " of gpu " +
                        std::to_string(g);
        for (int x = first_[g]; x < first_[g + 1]; ++x) {
          const SimBlock& o = blocks_[x];
          if (o.finished || x == self) continue;
          for (int p = o.pc; p < static_cast<int>(o.def->ops.size()); ++p) {
            const Op& op = o.def->ops[p];
            if (op.type == OpType::kSemRelease &&
                std::count(op.sems.begin(), op.sems.end(), b.wait_on) > 0) {
              return {t + " (released later by tb " + std::to_string(o.tb) + ")", x};
            }
          }
        }
        return {t + ", which no unfinished block releases", -1};
      }
      case WaitKind::kBarrier: {
        const auto it = barriers_[g].find(b.wait_on);
        const std::vector<int> none;
        const std::vector<int>& arrived = it == barriers_[g].end() ? none : it->second;
        const int need = b.def->ops[b.pc].barrier_blocks;
        std::string t = "waits at barrier " + std::to_string(b.wait_on) + " (" +
                        std::to_string(arrived.size()) + " of " + std::to_string(need) +
                        " blocks arrived)";
        for (int x = first_[g]; x < first_[g + 1]; ++x) {
          if (!blocks_[x].finished &&
              std::find(arrived.begin(), arrived.end(), x) == arrived.end()) {
            return {t + ", for tb " + std::to_string(blocks_[x].tb), x};
          }
        }
        return {t + "; no other block of gpu " + std::to_string(g) + " will arrive", -1};
      }
      case WaitKind::kKernelEnd: {
        std::string t = "has ended launch " + std::to_string(b.round + 1) +
                        " and waits for the other blocks of gpu " + std::to_string(g);
        for (int x = first_[g]; x < first_[g + 1]; ++x) {
          if (!blocks_[x].finished && blocks_[x].wait != WaitKind::kKernelEnd) {
            return {t + ", for tb " + std::to_string(blocks_[x].tb), x};
          }
        }
        return {t, -1};
      }
      case WaitKind::kNone:
        break;
    }
    return {"is stuck", -1};
  }

  // Reports each wait-for cycle (or chain ending at a finished block); true if any block is
  // unfinished.
  bool ReportDeadlock() {
    int unfinished = 0;
    for (const SimBlock& b : blocks_) unfinished += b.finished ? 0 : 1;
    const std::vector<WaitForChain> chains = FindWaitForChains(
        static_cast<int>(blocks_.size()), [&](int x) { return blocks_[x].finished; },
        [&](int x) { return WaitsFor(x).second; });
    for (const WaitForChain& c : chains) {
      const int cur = c.end;
      std::string text = c.cycle ? "deadlock: wait-for cycle: " : "deadlock: wait-for chain: ";
      std::vector<ReplayStepRef> refs;
      for (int x : c.blocks) {
        const SimBlock& b = blocks_[x];
        text += At(b, b.pc) + (b.round > 0 ? " in launch " + std::to_string(b.round + 1) : "") +
                " " + WaitsFor(x).first + " -> ";
        refs.push_back({b.gpu, b.tb, b.pc, b.round});
      }
      if (c.cycle) {
        text += "back to " + Where(blocks_[cur].gpu, blocks_[cur].tb);
      } else if (cur >= 0) {
        text += Where(blocks_[cur].gpu, blocks_[cur].tb) + " has finished";
      } else {
        text += "nothing can release it";
      }
      text += " (" + std::to_string(unfinished) + " blocks unfinished)";
      const SimBlock& head = blocks_[c.blocks.front()];
      rep_->Add(ReplayStage::kExecute, Kind::kDeadlock, mode_ + text, head.gpu, head.tb, head.pc,
                std::move(refs));
    }
    return !chains.empty();
  }

  // Block `self` has run all its operations of its launch; the kernel of its gpu ends when
  // every block of the gpu has (all are resident and the next launch on the stream starts
  // after that).
  void EndLaunch(int self) {
    SimBlock& b = blocks_[self];
    b.wait = WaitKind::kKernelEnd;
    if (++ended_[b.gpu] < first_[b.gpu + 1] - first_[b.gpu]) return;
    ended_[b.gpu] = 0;
    KernelEnd(b.gpu, b.round);
  }

  // Launch `round` of gpu g has ended (all its blocks are done, or it has none).
  void KernelEnd(int g, int round) {
    // The caller learns that the kernel ended (not what its proxies still do), reads the
    // output and writes the next launch's input.
    SimBlock& caller = blocks_[caller_first_ + g];
    for (int x = first_[g]; x < first_[g + 1]; ++x) {
      Nop(x);
      Join(&caller.all, blocks_[x].all);
    }
    caller.round = round;
    ++caller.counter;
    const int caller_id = caller_first_ + g;
    for (int x = 0; x < ko_; ++x) {
      const std::size_t index = Resolve(g, 'o', x);
      CallerAccess(caller_id, index, false);
      CheckOutput(g, x, index, round);
    }
    const bool last = round + 1 == kLaunches;
    if (!last) {
      for (int c = 0; c < ki_; ++c) {
        const std::size_t index = Resolve(g, 'i', c);
        CallerAccess(caller_id, index, true);
        cells_[index].value = Fresh(round + 1, g, c);
      }
    }
    Own(&caller.all, caller_id, caller.counter);
    for (int x = first_[g]; x < first_[g + 1]; ++x) {
      SimBlock& nb = blocks_[x];
      nb.wait = WaitKind::kNone;
      if (last) {
        nb.finished = true;
        continue;
      }
      Join(&nb.all, caller.all);  // the next launch starts after the caller's writes
      nb.launch_start = nb.all;
      nb.extra.clear();
      nb.pc = 0;
      ++nb.round;
      Enqueue(x);
    }
  }

  // The caller's read (or write) of a cell of its gpu, against the plan's accesses.
  void CallerAccess(int caller, std::size_t index, bool write) {
    Cell& cell = cells_[index];
    const SimBlock& c = blocks_[caller];
    if (cell.write.block >= 0 && !Ordered(caller, cell.write)) {
      Race(caller, cell.write, write ? "write" : "read", index);
    }
    if (!write) {
      cell.reads.push_back({caller, c.counter, -1});
      return;
    }
    for (const Access& a : cell.reads) {
      if (!Ordered(caller, a, true)) {
        Race(caller, a, "write", index);
        break;
      }
    }
    cell.reads.clear();
    cell.write = {caller, c.counter, -1};
  }

  // The postcondition of output chunk (part) x of gpu r after launch `launch`.
  void CheckOutput(int r, int x, std::size_t index, int launch) {
    const int n = plan_.ngpus;
    std::vector<std::uint32_t> want;
    switch (plan_.coll) {
      case Coll::kAllgather:
        want = {ElementId(launch, x / ki_, x % ki_)};
        break;
      case Coll::kReduceScatter:
        for (int q = 0; q < n; ++q) want.push_back(ElementId(launch, q, r * ko_ + x));
        break;
      case Coll::kAllreduce:
        for (int q = 0; q < n; ++q) want.push_back(ElementId(launch, q, x));
        break;
      case Coll::kAlltoall: {
        // Output block s of rank r is input block r of rank s (blocks of ki_ / n parts).
        const int k = ki_ / n;
        want = {ElementId(launch, x / k, r * k + x % k)};
        break;
      }
    }
    const Cell& cell = cells_[index];
    const std::string name = "output chunk " + Chunk(x) + " of gpu " + std::to_string(r) + " (" +
                             CellName(index) + ")" +
                             (launch > 0 ? " in launch " + std::to_string(launch + 1) : "");
    if (!cell.value) {
      Post("missing chunk: " + name + " is never written", r, index);
      return;
    }
    if (*cell.value == want) return;
    std::vector<std::uint32_t> missing, extra;
    std::set_difference(want.begin(), want.end(), cell.value->begin(), cell.value->end(),
                        std::back_inserter(missing));
    std::set_difference(cell.value->begin(), cell.value->end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    std::string m = name + " ends";
    if (!missing.empty()) {
      m += " without " + Element(missing[0]) +
           (missing.size() > 1 ? " and " + std::to_string(missing.size() - 1) + " more" : "");
    }
    if (!extra.empty()) {
      m += std::string(missing.empty() ? "" : ",") + " with " + Element(extra[0]) +
           (extra.size() > 1 ? " and " + std::to_string(extra.size() - 1) + " more" : "") +
           " that does not belong there";
    }
    Post(m, r, index);
  }
  // One report per output cell (the first launch that fails it).
  void Post(const std::string& m, int gpu, std::size_t index) {
    if (!posted_.insert(index).second) return;
    rep_->Add(ReplayStage::kExecute, Kind::kPostcondition, mode_ + m, gpu);
  }

  const Plan& plan_;
  const ChannelPairing& pairing_;
  std::int64_t max_elements_;
  Reporter* rep_;
  std::string mode_;
  int parts_ = 1;        // parts per chunk (Plan::slices); cells are chunk parts
  int ki_ = 0, ko_ = 0;  // input and output chunk parts per rank
  std::vector<int> first_;
  std::vector<std::size_t> base_;
  std::vector<SimBlock> blocks_;
  std::vector<std::vector<Inbound>> inbound_[2];  // [memory, port][gpu][entry]
  std::vector<int> proxy_first_;  // per gpu, the actor index of its port entry 0's proxy
  int actors_ = 0;                // blocks, proxies and callers (half a clock's size)
  int real_blocks_ = 0;           // actors [0, real_blocks_) are thread blocks
  int caller_first_ = 0;          // the actor index of gpu 0's caller
  std::vector<int> ended_;        // per gpu, blocks that ended the current launch
  std::set<std::size_t> posted_;  // output cells with a postcondition report
  std::vector<std::vector<Semaphore>> sems_;
  std::vector<std::map<int, std::vector<int>>> barriers_;
  std::vector<Cell> cells_;
  std::deque<int> ready_;
  std::set<std::tuple<int, int, int, int>> reported_;
  std::uint64_t elements_ = 0;
  bool over_budget_ = false;
};

}  // namespace

void ExecutePlan(const Plan& plan, const ChannelPairing& pairing, std::int64_t max_set_elements,
                 Reporter* rep) {
  Simulator(plan, pairing, max_set_elements, rep).Run();
}

}  // namespace collsynth::mscclpp_check
