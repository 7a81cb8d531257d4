// MSCCL++ execution plans from the shared transfer form (mscclpp_plan.h has the design).
#include "export/mscclpp_plan.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "core/input_error.h"
#include "export/msccl_lowering.h"
#include "export/msccl_program.h"

namespace collsynth {

using export_internal::BufRef;
using export_internal::Layout;
using export_internal::LocalCopy;
using export_internal::LoweredSchedule;
using export_internal::Lowering;
using export_internal::Transfer;
using ojson = nlohmann::ordered_json;

std::string MscclppCollName(Collective coll) {
  switch (coll) {
    case Collective::kAllgather:
      return "allgather";
    case Collective::kReduceScatter:
      return "reducescatter";
    case Collective::kAllreduce:
      return "allreduce";
    case Collective::kAlltoall:  // the DSL's AllToAll (python/mscclpp/language/collectives.py)
      return "alltoall";
    default:
      break;
  }
  throw std::logic_error("MSCCL++: no plan collective for " + std::string(CollectiveName(coll)));
}

namespace {

// The CLI allows --max-tbs up to this; a GPU that must receive more transfers than
// 64 operations times this many blocks can hold is refused before anything is built.
constexpr std::int64_t kMaxBlocksEver = 1024;
constexpr int kMaxPieces = 64;
// The start-of-launch handshake of a segment (mscclpp_plan.h): `rlxwait` and the `nop` after
// it at the sender, one `rlxsignal` at the receiver.
constexpr int kHandshakeSendCost = 2;
constexpr int kHandshakeRecvCost = 1;

void CheckMscclppOptions(const MscclppExportOptions& o) {
  if (o.proto == "LL") {
    throw std::invalid_argument(
        "--proto LL is not supported for MSCCL++ plans yet (packet mode needs flag-carrying "
        "scratch slots); use Simple");
  }
  if (o.proto != "Simple") throw std::invalid_argument("--proto '" + o.proto + "' is not Simple");
  if (o.instances < 1) throw std::invalid_argument("--instances must be at least 1");
  if (o.max_tbs < 1) throw std::invalid_argument("--max-tbs must be at least 1");
  if (o.max_chunks < 1) throw std::invalid_argument("--max-chunks must be at least 1");
  if (o.pieces < 1 || o.pieces > kMaxPieces)
    throw std::invalid_argument("--pieces must be in 1.." + std::to_string(kMaxPieces));
  if (o.min_bytes < 0 || o.max_bytes < 0) throw std::invalid_argument("byte bounds must be >= 0");
  if (o.max_bytes != 0 && o.max_bytes < o.min_bytes) {
    throw std::invalid_argument("--max-bytes is below --min-bytes");
  }
}

void CheckCollective(Collective coll, const std::string& file) {
  if (coll != Collective::kAllgather && coll != Collective::kReduceScatter &&
      coll != Collective::kAllreduce) {
    throw InputError(file, "collective",
                     "'" + std::string(CollectiveName(coll)) +
                         "' cannot be exported to MSCCL++ (its executor and DSL have allgather, "
                         "reducescatter and allreduce; there is no broadcast plan)");
  }
}

export_internal::LowerOptions LowerOptionsOf(const MscclppExportOptions& o) {
  export_internal::LowerOptions lo;
  lo.inplace = o.inplace;
  lo.instances = o.instances;
  lo.max_chunks = o.max_chunks;
  const std::int64_t pieces = o.pieces;
  // Every received transfer is at least one operation (its wait) in some block of the GPU.
  lo.precheck = [pieces](std::int64_t rank_transfers, int rank, std::int64_t) {
    if (rank_transfers * pieces > kMscclppMaxOperations * kMaxBlocksEver) {
      throw ExportLimitError(
          "operations per GPU", 0,
          (rank >= 0 ? "rank " + std::to_string(rank) : std::string("some rank")) +
              " receives at least " + std::to_string(rank_transfers * pieces) +
              " transfers, more than " + std::to_string(kMaxBlocksEver) + " thread blocks of " +
              std::to_string(kMscclppMaxOperations) +
              " operations can hold; fewer chunk pieces (a smaller --max-chunks or --pieces) or "
              "fewer GPUs per plan");
    }
  };
  return lo;
}

// Every transfer cut into P parts of cnt chunks each in a P times smaller chunk unit; part j
// depends on part j of the original dependency.
// Piece j of a transfer waits for piece j of its dependency, which is right only when both
// cut the same run of chunks: the forward reads exactly what the dependency wrote, or the
// two are in different buffers (the run is renamed, not re-cut). A step schedule can forward
// part of what it received (K_{2,2}, seed 000 Figure 1: a send of half a receive's chunks);
// its pieces would then read slices another piece writes, possibly later (the replay of
// such plans found reads of unwritten data), so such a schedule is refused above one piece.
void RequirePieceAlignedDependencies(int P, const Lowering& L) {
  auto aligned = [&](const BufRef& read, int cnt, int dep) {
    if (dep < 0) return true;
    const Transfer& d = L.transfers[dep];
    return read.buf != d.recv_dst.buf || (read.off == d.recv_dst.off && cnt == d.cnt);
  };
  for (std::size_t id = 0; id < L.transfers.size(); ++id) {
    const Transfer& t = L.transfers[id];
    if (aligned(t.send, t.cnt, t.send_dep) && aligned(t.recv_src, t.cnt, t.recv_dep)) continue;
    throw ExportLimitError(
        "--pieces", 1,
        "rank " + std::to_string(t.src) + " sends to rank " + std::to_string(t.dst) +
            " part of a run of chunks it received whole (or more than it), so " +
            std::to_string(P) +
            " pieces would cut the send and what it waits for in different places; this "
            "schedule is exported with --pieces 1 only");
  }
}

void SplitPieces(int P, LoweredSchedule* ls) {
  if (P == 1) return;
  Lowering& L = ls->L;
  RequirePieceAlignedDependencies(P, L);
  auto scale = [P](BufRef b, std::int64_t extra) {
    b.off = b.off * P + extra;
    return b;
  };
  std::vector<Transfer> out;
  out.reserve(L.transfers.size() * P);
  for (const Transfer& t : L.transfers) {
    for (int j = 0; j < P; ++j) {
      Transfer x = t;
      const std::int64_t extra = static_cast<std::int64_t>(j) * t.cnt;
      x.chunk = t.chunk * P + extra;
      x.send = scale(t.send, extra);
      x.recv_dst = scale(t.recv_dst, extra);
      x.recv_src = scale(t.recv_src, extra);
      x.send_dep = t.send_dep < 0 ? -1 : t.send_dep * P + j;
      x.recv_dep = t.recv_dep < 0 ? -1 : t.recv_dep * P + j;
      x.fuse_next = -1;
      x.send_fused = false;
      x.piece = j;
      out.push_back(x);
    }
  }
  L.transfers = std::move(out);
  for (LocalCopy& c : L.copies) {
    c.from.off *= P;
    c.to.off *= P;
    c.cnt *= P;
  }
  if (L.scratch_chunks >= 0) L.scratch_chunks *= P;
  ls->lay.K *= P;
  ls->lay.cK *= P;
}

ojson LocalRef(const BufRef& b, std::int64_t cnt) {
  ojson j;
  j["type"] = std::string(1, b.buf);
  j["index"] = b.off;
  j["size"] = cnt;
  return j;
}

ojson Nop() { return ojson{{"name", "nop"}}; }

// Appends operations to a block, inserting a nop (__syncthreads) only where the kernel needs
// one (mscclpp_plan.h): `dirty` is set by waits, acquires and data operations since the last
// nop, `data` by data operations only.
class OpEmitter {
 public:
  explicit OpEmitter(ojson* ops) : ops_(ops) {}
  void Data(ojson op) {
    if (dirty_) AddNop();
    ops_->push_back(std::move(op));
    dirty_ = true;
  }
  void SyncIn(ojson op) {  // wait, sem_acquire: only some threads wait
    ops_->push_back(std::move(op));
    dirty_ = true;
  }
  void SyncOut(ojson op) {  // signal, sem_release: the data before must be complete
    if (dirty_) AddNop();
    ops_->push_back(std::move(op));
  }

 private:
  void AddNop() {
    ops_->push_back(Nop());
    dirty_ = false;
  }
  ojson* ops_;
  bool dirty_ = false;
};

// A segment end or a GPU's local copies: the unit that is placed in one thread block.
struct Item {
  int gpu = -1;
  std::vector<int> sends, recvs;  // transfer ids, key order
  bool copies = false;
  int cost = 0;               // operations, an upper bound (nops and synchronisation counted)
  std::vector<int> channels;  // GPU-level memory channel entries: data, handshake (none: copies)
  std::set<int> rbufs;        // GPU-level remote buffers
  std::tuple<int, int, int, int> order;  // (peer, direction, instance, segment) for numbering
};

struct Block {
  std::vector<int> items;
  int cost = 0;
  std::set<int> channels, rbufs;
};

// Packs a GPU's items (first-fit decreasing by cost) into blocks within the per-block limits.
std::vector<Block> PackItems(const std::vector<Item>& items, const std::vector<int>& mine,
                             int max_tbs) {
  std::vector<Block> blocks;
  if (static_cast<int>(mine.size()) <= max_tbs) {
    for (int i : mine) {
      Block b;
      b.items = {i};
      b.cost = items[i].cost;
      b.channels.insert(items[i].channels.begin(), items[i].channels.end());
      b.rbufs = items[i].rbufs;
      blocks.push_back(std::move(b));
    }
    return blocks;
  }
  std::vector<int> order = mine;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return items[a].cost > items[b].cost; });
  for (int i : order) {
    const Item& it = items[i];
    bool placed = false;
    for (Block& b : blocks) {
      if (b.cost + it.cost > kMscclppMaxOperations) continue;
      std::set<int> ch = b.channels, rb = b.rbufs;
      ch.insert(it.channels.begin(), it.channels.end());
      rb.insert(it.rbufs.begin(), it.rbufs.end());
      if (static_cast<int>(ch.size()) > kMscclppMaxChannelsPerBlock ||
          static_cast<int>(rb.size()) > kMscclppMaxRemoteBuffersPerBlock) {
        continue;
      }
      b.items.push_back(i);
      b.cost += it.cost;
      b.channels = std::move(ch);
      b.rbufs = std::move(rb);
      placed = true;
      break;
    }
    if (!placed) {
      Block b;
      b.items = {i};
      b.cost = it.cost;
      b.channels.insert(it.channels.begin(), it.channels.end());
      b.rbufs = it.rbufs;
      blocks.push_back(std::move(b));
    }
  }
  // Blocks in the order of their first item (copies, then by peer).
  for (Block& b : blocks) {
    std::sort(b.items.begin(), b.items.end(),
              [&](int x, int y) { return items[x].order < items[y].order; });
  }
  std::sort(blocks.begin(), blocks.end(), [&](const Block& x, const Block& y) {
    return items[x.items[0]].order < items[y.items[0]].order;
  });
  return blocks;
}

// A run of one stream (instance, src, dst) in key order that fits in one sending and one
// receiving thread block (kMscclppMaxOperations each, the handshake included).
struct Segment {
  int instance, src, dst;
  std::vector<int> ids;
  int send_cost = 0, recv_cost = 0;
  int slot = 0;  // channel slot on the pair
};

// A block's channels and remote buffers: block-local lists of GPU-level ids, in first use
// order.
struct BlockIds {
  std::vector<int> chans, rbufs;
  // The index of `id` in *list, appended on first use.
  static int Local(std::vector<int>* list, int id) {
    auto it = std::find(list->begin(), list->end(), id);
    if (it != list->end()) return static_cast<int>(it - list->begin());
    list->push_back(id);
    return static_cast<int>(list->size()) - 1;
  }
};

// The plan of a lowered schedule, built in named phases (mscclpp_plan.h has the design); each
// phase reads what the ones before it computed. `ls` must outlive the builder; its transfers
// are already cut into pieces (SplitPieces).
class PlanBuilder {
 public:
  PlanBuilder(const Topology& g, Collective coll, const std::vector<int>& rank_of_node,
              const MscclppExportOptions& o, LoweredSchedule* ls)
      : g_(g),
        coll_(coll),
        rank_of_node_(rank_of_node),
        o_(o),
        ls_(ls),
        L_(ls->L),
        lay_(ls->lay),
        tr_(ls->L.transfers),
        n_(ls->L.ngpus),
        T_(static_cast<int>(ls->L.transfers.size())) {}

  MscclppExportResult Build() {
    OrderTransfers();
    CutSegments();
    AssignChannelEntries();
    AssignRemoteBuffers();
    LayoutScratch();
    MakeItems();
    PackBlocks();
    AssignSemaphores();
    return EmitOperations();
  }

 private:
  // Key order (mscclpp_plan.h): order_[i] is the i-th transfer, pos_[t] is t's position;
  // consumers_[t] are the transfers whose send or reduction needs receive t (at its dst).
  void OrderTransfers();
  // Streams (instance, src, dst) in key order, cut into segments.
  void CutSegments();
  // Channel entries to a peer (the same count on both sides): c = the larger number of
  // segments of the two directions for data, then one handshake entry per segment of the
  // lower rank to the higher, then one per segment the other way.
  void AssignChannelEntries();
  // Remote buffers per GPU: (peer, type) in sorted order.
  void AssignRemoteBuffers();
  // Scratch: partial sums (global layout, as the XML) then one slot per reduction received.
  void LayoutScratch();
  // The units placed in thread blocks: each GPU's local copies, and both ends of each segment.
  void MakeItems();
  // Each GPU's items packed into at most --max-tbs blocks.
  void PackBlocks();
  // Semaphores: one per (receive, consumer block other than the receiver's).
  void AssignSemaphores();
  // The plan's JSON and the figures of the result.
  MscclppExportResult EmitOperations();
  ojson EmitGpu(int v, MscclppExportResult* r) const;
  ojson EmitBlock(int v, int b, MscclppExportResult* r) const;
  void EmitSend(int v, int id, BlockIds* ids, OpEmitter* em) const;
  void EmitReceive(int v, int id, BlockIds* ids, OpEmitter* em) const;
  void DescribePlan(ojson gpus, MscclppExportResult* r) const;

  int SendCost(int id) const { return tr_[id].send_dep >= 0 ? 5 : 3; }
  int RecvCost(int id) const {
    const Transfer& t = tr_[id];
    const int releases =
        (static_cast<int>(consumers_[id].size()) + kMscclppMaxSemaphoresPerOp - 1) /
        kMscclppMaxSemaphoresPerOp;
    return (t.reduce ? 4 : 2) + (t.recv_dep >= 0 ? 1 : 0) + releases;
  }
  int SegmentsOf(int a, int b) const {
    const auto it = slots_of_.find({a, b});
    return it == slots_of_.end() ? 0 : it->second;
  }
  int DataEntries(int a, int b) const { return std::max(SegmentsOf(a, b), SegmentsOf(b, a)); }
  // The handshake entry index (relative to the peer's first entry) of segment `slot` of
  // src -> dst, identical at both ends.
  int HandshakeEntry(int src, int dst, int slot) const {
    const int lo = std::min(src, dst), hi = std::max(src, dst);
    return DataEntries(src, dst) + (src == lo ? 0 : SegmentsOf(lo, hi)) + slot;
  }
  int SendBlock(int id) const { return block_of_item_[send_item_[id]]; }
  int RecvBlock(int id) const { return block_of_item_[recv_item_[id]]; }

  const Topology& g_;
  const Collective coll_;
  const std::vector<int>& rank_of_node_;
  const MscclppExportOptions& o_;
  LoweredSchedule* ls_;
  Lowering& L_;
  const Layout& lay_;
  std::vector<Transfer>& tr_;
  const int n_;
  const int T_;

  std::vector<int> order_, pos_;                 // OrderTransfers
  std::vector<std::vector<int>> consumers_;      // OrderTransfers
  std::vector<Segment> segs_;                    // CutSegments
  std::map<std::pair<int, int>, int> slots_of_;  // CutSegments: directed pair -> segments
  std::vector<std::map<int, int>> entries_;      // gpu -> peer -> count
  std::vector<std::map<int, int>> base_;         // gpu -> peer -> first flattened index
  std::vector<std::map<std::pair<int, char>, int>> rbuf_of_;  // gpu -> (peer, type) -> id
  std::vector<std::int64_t> scratch_;                         // LayoutScratch: chunks per GPU
  std::vector<std::int64_t> slot_of_;                         // LayoutScratch: a reduction's slot
  std::vector<bool> has_scratch_;                             // LayoutScratch
  std::vector<Item> items_;                                   // MakeItems
  std::vector<std::vector<int>> items_of_;                    // MakeItems: per GPU, in `order`
  std::vector<int> send_item_, recv_item_, seg_of_;           // MakeItems: per transfer
  std::vector<std::vector<Block>> blocks_;                    // PackBlocks: per GPU
  std::vector<int> block_of_item_;                            // PackBlocks
  std::vector<int> nsem_;                                     // AssignSemaphores: per GPU
  std::vector<std::vector<int>> release_ids_;                 // AssignSemaphores: at the receive
  std::vector<int> acquire_send_, acquire_recv_;              // AssignSemaphores
};

void PlanBuilder::OrderTransfers() {
  auto key = [&](int id) {
    const Transfer& t = tr_[id];
    return std::make_tuple(t.instance, t.piece, t.phase, t.level, t.tree, t.chunk, t.src, t.dst,
                           id);
  };
  order_.resize(T_);
  std::iota(order_.begin(), order_.end(), 0);
  std::sort(order_.begin(), order_.end(), [&](int a, int b) { return key(a) < key(b); });
  pos_.resize(T_);
  for (int i = 0; i < T_; ++i) pos_[order_[i]] = i;
  consumers_.assign(T_, {});
  for (int id : order_) {
    const Transfer& t = tr_[id];
    for (int d : {t.send_dep, t.recv_dep}) {
      if (d < 0) continue;
      if (pos_[d] >= pos_[id]) throw std::logic_error("MSCCL++: a dependency on a later key");
      const int at = d == t.send_dep ? t.src : t.dst;
      if (tr_[d].dst != at) throw std::logic_error("MSCCL++: a dependency on another GPU");
      consumers_[d].push_back(id);
    }
  }
}

void PlanBuilder::CutSegments() {
  std::map<std::tuple<int, int, int>, std::vector<int>> streams;
  for (int id : order_) streams[{tr_[id].instance, tr_[id].src, tr_[id].dst}].push_back(id);
  for (const auto& [k, ids] : streams) {
    const auto [inst, src, dst] = k;
    Segment cur{inst, src, dst, {}, kHandshakeSendCost, kHandshakeRecvCost, 0};
    for (int id : ids) {
      const int sc = SendCost(id), rc = RecvCost(id);
      if (!cur.ids.empty() && (cur.send_cost + sc > kMscclppMaxOperations ||
                               cur.recv_cost + rc > kMscclppMaxOperations)) {
        cur.slot = slots_of_[{src, dst}]++;
        segs_.push_back(std::move(cur));
        cur = Segment{inst, src, dst, {}, kHandshakeSendCost, kHandshakeRecvCost, 0};
      }
      cur.ids.push_back(id);
      cur.send_cost += sc;
      cur.recv_cost += rc;
    }
    cur.slot = slots_of_[{src, dst}]++;
    segs_.push_back(std::move(cur));
  }
}

void PlanBuilder::AssignChannelEntries() {
  entries_.assign(n_, {});
  for (const auto& [pair, cnt] : slots_of_) {
    const auto [a, b] = pair;
    const int c = DataEntries(a, b) + SegmentsOf(a, b) + SegmentsOf(b, a);
    entries_[a][b] = c;
    entries_[b][a] = c;
  }
  base_.assign(n_, {});
  for (int v = 0; v < n_; ++v) {
    int at = 0;
    for (const auto& [p, c] : entries_[v]) {
      base_[v][p] = at;
      at += c;
    }
  }
}

void PlanBuilder::AssignRemoteBuffers() {
  rbuf_of_.assign(n_, {});
  for (const Transfer& t : tr_) rbuf_of_[t.src][{t.dst, t.reduce ? 's' : t.recv_dst.buf}] = 0;
  for (int v = 0; v < n_; ++v) {
    int k = 0;
    for (auto& [key2, id] : rbuf_of_[v]) id = k++;
  }
}

void PlanBuilder::LayoutScratch() {
  bool partials = false;
  for (const Transfer& t : tr_) {
    partials = partials || t.send.buf == 's' || t.recv_dst.buf == 's' || t.recv_src.buf == 's';
  }
  const std::int64_t slot_base = !partials                ? 0
                                 : L_.scratch_chunks >= 0 ? L_.scratch_chunks
                                                          : n_ * lay_.cK;
  scratch_.assign(n_, slot_base);
  slot_of_.assign(T_, -1);
  for (int id : order_) {
    if (!tr_[id].reduce) continue;
    slot_of_[id] = scratch_[tr_[id].dst];
    scratch_[tr_[id].dst] += tr_[id].cnt;
  }
  has_scratch_.assign(n_, partials);
  for (const Transfer& t : tr_) {
    if (t.reduce) has_scratch_[t.dst] = true;
  }
}

void PlanBuilder::MakeItems() {
  items_of_.assign(n_, {});
  send_item_.assign(T_, -1);
  recv_item_.assign(T_, -1);
  seg_of_.assign(T_, -1);
  for (int v = 0; v < n_; ++v) {
    int copies = 0;
    for (const LocalCopy& c : L_.copies) copies += c.gpu == v ? 1 : 0;
    if (copies == 0) continue;
    Item it;
    it.gpu = v;
    it.copies = true;
    // Each copy is a data operation, and the emitter puts a nop between two of them and before
    // the next signal: 2 operations per copy (one per instance; --instances 3 with --max-tbs 4
    // packed three copies as if they were one and made a block of 66 operations).
    it.cost = 2 * copies;
    it.order = {-1, 0, 0, 0};
    items_of_[v].push_back(static_cast<int>(items_.size()));
    items_.push_back(std::move(it));
  }
  for (std::size_t s = 0; s < segs_.size(); ++s) {
    const Segment& sg = segs_[s];
    Item snd;
    snd.gpu = sg.src;
    snd.sends = sg.ids;
    snd.cost = sg.send_cost;
    snd.channels = {base_[sg.src][sg.dst] + sg.slot,
                    base_[sg.src][sg.dst] + HandshakeEntry(sg.src, sg.dst, sg.slot)};
    for (int id : sg.ids) {
      snd.rbufs.insert(rbuf_of_[sg.src].at({sg.dst, tr_[id].reduce ? 's' : tr_[id].recv_dst.buf}));
      seg_of_[id] = static_cast<int>(s);
    }
    snd.order = {sg.dst, 0, sg.instance, sg.slot};
    Item rcv;
    rcv.gpu = sg.dst;
    rcv.recvs = sg.ids;
    rcv.cost = sg.recv_cost;
    rcv.channels = {base_[sg.dst][sg.src] + sg.slot,
                    base_[sg.dst][sg.src] + HandshakeEntry(sg.src, sg.dst, sg.slot)};
    rcv.order = {sg.src, 1, sg.instance, sg.slot};
    for (int id : sg.ids) {
      send_item_[id] = static_cast<int>(items_.size());
      recv_item_[id] = static_cast<int>(items_.size()) + 1;
    }
    items_of_[sg.src].push_back(static_cast<int>(items_.size()));
    items_.push_back(std::move(snd));
    items_of_[sg.dst].push_back(static_cast<int>(items_.size()));
    items_.push_back(std::move(rcv));
  }
  for (int v = 0; v < n_; ++v) {
    std::stable_sort(items_of_[v].begin(), items_of_[v].end(),
                     [&](int a, int b) { return items_[a].order < items_[b].order; });
  }
}

void PlanBuilder::PackBlocks() {
  blocks_.assign(n_, {});
  int worst = 0, worst_rank = 0;
  for (int v = 0; v < n_; ++v) {
    blocks_[v] = PackItems(items_, items_of_[v], o_.max_tbs);
    if (static_cast<int>(blocks_[v].size()) > worst) {
      worst = static_cast<int>(blocks_[v].size());
      worst_rank = v;
    }
  }
  if (worst > o_.max_tbs) {
    throw ExportLimitError(
        "--max-tbs", worst,
        "rank " + std::to_string(worst_rank) + " needs " + std::to_string(worst) +
            " thread blocks of at most " + std::to_string(kMscclppMaxOperations) + " operations, " +
            std::to_string(kMscclppMaxChannelsPerBlock) + " memory channels and " +
            std::to_string(kMscclppMaxRemoteBuffersPerBlock) +
            " remote buffers; needs --max-tbs >= " + std::to_string(worst) +
            " (keep it at most the GPU's SM count: all blocks must be resident)");
  }
  block_of_item_.assign(items_.size(), -1);
  for (int v = 0; v < n_; ++v) {
    for (std::size_t b = 0; b < blocks_[v].size(); ++b) {
      for (int i : blocks_[v][b].items) block_of_item_[i] = static_cast<int>(b);
    }
  }
}

void PlanBuilder::AssignSemaphores() {
  nsem_.assign(n_, 0);
  release_ids_.assign(T_, {});
  acquire_send_.assign(T_, -1);
  acquire_recv_.assign(T_, -1);
  for (int d : order_) {
    if (consumers_[d].empty()) continue;
    const int v = tr_[d].dst;
    std::map<int, int> sem_of_block;
    for (int c : consumers_[d]) {  // key order
      const bool as_send = tr_[c].send_dep == d;
      const int cb = as_send ? SendBlock(c) : RecvBlock(c);
      if (cb == RecvBlock(d)) continue;
      auto it = sem_of_block.find(cb);
      if (it != sem_of_block.end()) continue;  // an earlier consumer in cb acquired it
      const int id = nsem_[v]++;
      sem_of_block[cb] = id;
      release_ids_[d].push_back(id);
      (as_send ? acquire_send_ : acquire_recv_)[c] = id;
    }
  }
}

MscclppExportResult PlanBuilder::EmitOperations() {
  MscclppExportResult r;
  r.collective = coll_;
  r.ngpus = n_;
  if (coll_ == Collective::kAllgather) {
    r.input_chunks = lay_.cK;
    r.output_chunks = n_ * lay_.cK;
  } else if (coll_ == Collective::kReduceScatter) {
    r.input_chunks = n_ * lay_.cK;
    r.output_chunks = lay_.cK;
  } else {
    r.input_chunks = n_ * lay_.cK;
    r.output_chunks = n_ * lay_.cK;
  }
  r.transfers = T_;
  ojson gpus = ojson::array();
  r.ops_per_block.assign(n_, {});
  for (int v = 0; v < n_; ++v) gpus.push_back(EmitGpu(v, &r));
  DescribePlan(std::move(gpus), &r);
  return r;
}

ojson PlanBuilder::EmitGpu(int v, MscclppExportResult* r) const {
  ojson gpu;
  gpu["id"] = v;
  gpu["input_chunks"] = r->input_chunks;
  gpu["output_chunks"] = r->output_chunks;
  gpu["scratch_chunks"] = has_scratch_[v] ? scratch_[v] : 0;
  r->max_scratch_chunks = std::max(r->max_scratch_chunks, has_scratch_[v] ? scratch_[v] : 0);
  ojson tbs = ojson::array();
  for (std::size_t b = 0; b < blocks_[v].size(); ++b) {
    tbs.push_back(EmitBlock(v, static_cast<int>(b), r));
  }
  gpu["threadblocks"] = std::move(tbs);
  ojson connected = ojson::array();
  int nchan = 0;
  for (const auto& [p, c] : entries_[v]) {
    for (int k = 0; k < c; ++k) connected.push_back(p);
    nchan += c;
  }
  gpu["channels"] = ojson::array();
  if (nchan > 0) {
    gpu["channels"].push_back(ojson{{"channel_type", "memory"}, {"connected_to", connected}});
  }
  r->channels_per_gpu = std::max(r->channels_per_gpu, nchan);
  ojson remote = ojson::array();
  for (const auto& [pt, id] : rbuf_of_[v]) {
    remote.push_back(ojson{{"rank", pt.first},
                           {"type", std::string(1, pt.second)},
                           {"access_channel_types", ojson::array({"memory"})}});
  }
  gpu["remote_buffers"] = std::move(remote);
  ojson sems = ojson::array();
  for (int k = 0; k < nsem_[v]; ++k) sems.push_back(ojson{{"init_value", 0}});
  gpu["semaphores"] = std::move(sems);
  r->semaphores_per_gpu = std::max(r->semaphores_per_gpu, nsem_[v]);
  r->blocks_per_gpu = std::max(r->blocks_per_gpu, static_cast<int>(blocks_[v].size()));
  return gpu;
}

ojson PlanBuilder::EmitBlock(int v, int b, MscclppExportResult* r) const {
  const Block& blk = blocks_[v][b];
  // Events in key order: copies first, then each transfer end of the block's items.
  std::vector<std::pair<int, int>> events;  // (position, 0 send / 1 receive)
  bool copies = false;
  for (int i : blk.items) {
    const Item& it = items_[i];
    copies = copies || it.copies;
    for (int id : it.sends) events.push_back({pos_[id], 0});
    for (int id : it.recvs) events.push_back({pos_[id], 1});
  }
  std::sort(events.begin(), events.end());
  BlockIds ids;
  const std::vector<int>& chans = ids.chans;
  const std::vector<int>& rbufs = ids.rbufs;
  ojson ops = ojson::array();
  OpEmitter em(&ops);
  // Start-of-launch handshake, receiver side: tell each sender that this GPU's previous
  // launch (and its caller's accesses) are over before anything else (never blocks).
  for (int i : blk.items) {
    const Item& it = items_[i];
    if (it.recvs.empty()) continue;
    const int ch = BlockIds::Local(&ids.chans, it.channels[1]);
    em.SyncOut(ojson{
        {"name", "rlxsignal"}, {"channel_ids", ojson::array({ch})}, {"channel_type", "memory"}});
  }
  if (copies) {
    for (const LocalCopy& c : L_.copies) {
      if (c.gpu != v) continue;
      em.Data(ojson{{"name", "copy"},
                    {"src_buff", ojson::array({LocalRef(c.from, c.cnt)})},
                    {"dst_buff", ojson::array({LocalRef(c.to, c.cnt)})}});
    }
  }
  for (const auto& [p, side] : events) {
    if (side == 0) {
      EmitSend(v, order_[p], &ids, &em);
    } else {
      EmitReceive(v, order_[p], &ids, &em);
    }
  }
  if (static_cast<int>(ops.size()) > kMscclppMaxOperations ||
      static_cast<int>(chans.size()) > kMscclppMaxChannelsPerBlock ||
      static_cast<int>(rbufs.size()) > kMscclppMaxRemoteBuffersPerBlock) {
    throw std::logic_error("MSCCL++: a block exceeds the executor's limits");
  }
  r->ops_per_block[v].push_back(static_cast<int>(ops.size()));
  r->max_ops_per_block = std::max(r->max_ops_per_block, static_cast<int>(ops.size()));
  r->max_channels_per_block = std::max(r->max_channels_per_block, static_cast<int>(chans.size()));
  r->max_remote_buffers_per_block =
      std::max(r->max_remote_buffers_per_block, static_cast<int>(rbufs.size()));
  ojson tb;
  tb["id"] = b;
  tb["ops"] = std::move(ops);
  tb["channels"] = ojson::array();
  if (!chans.empty()) {
    tb["channels"].push_back(ojson{{"channel_type", "memory"}, {"channel_ids", chans}});
  }
  tb["remote_buffer_refs"] = ojson::array();
  if (!rbufs.empty()) {
    tb["remote_buffer_refs"].push_back(
        ojson{{"access_channel_type", "memory"}, {"remote_buffer_ids", rbufs}});
  }
  return tb;
}

// The operations of the send of transfer id at GPU v (t.src).
void PlanBuilder::EmitSend(int v, int id, BlockIds* ids, OpEmitter* em) const {
  const Transfer& t = tr_[id];
  const Segment& sg = segs_[seg_of_[id]];
  if (id == sg.ids.front()) {
    // Start-of-launch handshake, sender side: the segment's first put waits until dst's
    // launch has started, i.e. its previous launch is done with the target buffers.
    const int hs = BlockIds::Local(&ids->chans, items_[send_item_[id]].channels[1]);
    em->SyncIn(ojson{
        {"name", "rlxwait"}, {"channel_ids", ojson::array({hs})}, {"channel_type", "memory"}});
  }
  if (acquire_send_[id] >= 0) {
    em->SyncIn(
        ojson{{"name", "sem_acquire"}, {"semaphore_ids", ojson::array({acquire_send_[id]})}});
  }
  const char type = t.reduce ? 's' : t.recv_dst.buf;
  const std::int64_t index = t.reduce ? slot_of_[id] : t.recv_dst.off;
  const int rb = BlockIds::Local(&ids->rbufs, rbuf_of_[v].at({t.dst, type}));
  em->Data(ojson{
      {"name", "put"},
      {"src_buff", ojson::array({LocalRef(t.send, t.cnt)})},
      {"dst_buff", ojson::array({ojson{{"buffer_id", rb}, {"index", index}, {"size", t.cnt}}})},
      {"channel_type", "memory"}});
  const int ch = BlockIds::Local(&ids->chans, base_[v].at(t.dst) + sg.slot);
  em->SyncOut(
      ojson{{"name", "signal"}, {"channel_ids", ojson::array({ch})}, {"channel_type", "memory"}});
}

// The operations of the receive of transfer id at GPU v (t.dst).
void PlanBuilder::EmitReceive(int v, int id, BlockIds* ids, OpEmitter* em) const {
  const Transfer& t = tr_[id];
  const Segment& sg = segs_[seg_of_[id]];
  if (acquire_recv_[id] >= 0) {
    em->SyncIn(
        ojson{{"name", "sem_acquire"}, {"semaphore_ids", ojson::array({acquire_recv_[id]})}});
  }
  const int ch = BlockIds::Local(&ids->chans, base_[v].at(t.src) + sg.slot);
  em->SyncIn(
      ojson{{"name", "wait"}, {"channel_ids", ojson::array({ch})}, {"channel_type", "memory"}});
  if (t.reduce) {
    em->Data(ojson{{"name", "re"},
                   {"src_buff", ojson::array({LocalRef(t.recv_src, t.cnt),
                                              LocalRef(BufRef{'s', slot_of_[id]}, t.cnt)})},
                   {"dst_buff", ojson::array({LocalRef(t.recv_dst, t.cnt)})}});
  }
  const std::vector<int>& rel = release_ids_[id];
  for (std::size_t k = 0; k < rel.size(); k += kMscclppMaxSemaphoresPerOp) {
    ojson sems = ojson::array();
    for (std::size_t q = k; q < rel.size() && q < k + kMscclppMaxSemaphoresPerOp; ++q)
      sems.push_back(rel[q]);
    em->SyncOut(ojson{{"name", "sem_release"}, {"semaphore_ids", sems}});
  }
}

// The plan's top-level fields, and the side file's figures (loads, routes, chunk counts).
void PlanBuilder::DescribePlan(ojson gpus, MscclppExportResult* r) const {
  ojson& plan = r->plan;
  plan["name"] = o_.name.empty() ? "collsynth-" + MscclppCollName(coll_) : o_.name;
  plan["collective"] = MscclppCollName(coll_);
  plan["protocol"] = o_.proto;
  plan["inplace"] = o_.inplace;
  plan["reuse_resources"] = false;
  plan["gpus"] = std::move(gpus);
  plan["num_threads_per_block"] = 1024;
  plan["use_double_scratch_buffer"] = false;
  plan["buffer_alignment"] = kMscclppBufferAlignment;
  plan["min_message_size"] = static_cast<std::uint64_t>(o_.min_bytes);
  plan["max_message_size"] = o_.max_bytes == 0 ? std::numeric_limits<std::uint64_t>::max()
                                               : static_cast<std::uint64_t>(o_.max_bytes);

  r->chunks_per_shard = lay_.K;
  r->exact_chunks = ls_->exact_chunks;
  r->exact_chunks_per_shard = ls_->exact_chunks_per_shard;
  r->optimal_ratio = ls_->optimal_ratio;
  nlohmann::json link_loads;
  r->achieved_ratio = export_internal::AccountLoads(g_, L_, lay_.cK, ls_->per_level, &link_loads);
  for (int id = 0; id < T_; ++id) tr_[id].chan = segs_[seg_of_[id]].slot;  // the side file's chan
  r->routes = export_internal::RoutesJson(
      g_, L_, coll_, std::max(r->input_chunks, r->output_chunks), lay_.K, rank_of_node_,
      r->optimal_ratio, r->achieved_ratio, std::move(link_loads));
}

MscclppExportResult BuildPlan(const Topology& g, Collective coll,
                              const std::vector<int>& rank_of_node, const MscclppExportOptions& o,
                              LoweredSchedule* ls) {
  SplitPieces(o.pieces, ls);
  return PlanBuilder(g, coll, rank_of_node, o, ls).Build();
}

}  // namespace

MscclppExportResult ExportPipelineToMscclppPlan(const Topology& g, const PipelineSchedule& s,
                                                const std::vector<int>& rank_of_node,
                                                const MscclppExportOptions& o,
                                                const std::string& file) {
  CheckMscclppOptions(o);
  CheckCollective(s.collective, file);
  LoweredSchedule ls =
      export_internal::LowerPipelineSchedule(g, s, rank_of_node, LowerOptionsOf(o), file);
  return BuildPlan(g, s.collective, rank_of_node, o, &ls);
}

MscclppExportResult ExportStepsToMscclppPlan(const Topology& g, const StepSchedule& s,
                                             const std::vector<int>& rank_of_node,
                                             const MscclppExportOptions& o,
                                             const std::string& file) {
  CheckMscclppOptions(o);
  CheckCollective(s.collective, file);
  LoweredSchedule ls =
      export_internal::LowerStepSchedule(g, s, rank_of_node, LowerOptionsOf(o), file);
  return BuildPlan(g, s.collective, rank_of_node, o, &ls);
}

MscclppExportResult ExportFlowsToMscclppPlan(const Topology& g, const FlowSchedule& s,
                                             const std::vector<int>& rank_of_node,
                                             const MscclppExportOptions& o,
                                             const std::string& file) {
  CheckMscclppOptions(o);
  LoweredSchedule ls =
      export_internal::LowerFlowSchedule(g, s, rank_of_node, LowerOptionsOf(o), file);
  return BuildPlan(g, Collective::kAlltoall, rank_of_node, o, &ls);
}

std::string MscclppPlanText(const MscclppExportResult& r) { return r.plan.dump(2) + "\n"; }

std::string MscclppFileName(const MscclppExportResult& r, const MscclppExportOptions& o) {
  char range[64];
  const unsigned long long max = o.max_bytes == 0 ? std::numeric_limits<unsigned long long>::max()
                                                  : static_cast<unsigned long long>(o.max_bytes);
  std::snprintf(range, sizeof range, "%020lld-%020llu", static_cast<long long>(o.min_bytes), max);
  return MscclppCollName(r.collective) + "-n" + std::to_string(r.ngpus) + "-" + o.proto + "-" +
         (o.inplace ? "inplace" : "outofplace") + "-" + range + ".json";
}

void ValidateMscclppExportOptions(const MscclppExportOptions& o) {
  if (o.proto == "LL") {
    throw InputError("<args>", "--proto", "LL is not supported for MSCCL++ plans yet; use Simple");
  }
  if (o.proto != "Simple") throw InputError("<args>", "--proto", "'" + o.proto + "' is not Simple");
  export_internal::ValidateSharedExportOptions(o.min_bytes, o.max_bytes, o.max_tbs, o.max_chunks,
                                               o.instances);
  if (o.pieces < 1 || o.pieces > 64) {
    throw InputError("<args>", "--pieces", std::to_string(o.pieces) + " is not in 1..64");
  }
}

}  // namespace collsynth
