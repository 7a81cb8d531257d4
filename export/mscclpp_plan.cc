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

MscclppExportResult BuildPlan(const Topology& g, Collective coll,
                              const std::vector<int>& rank_of_node, const MscclppExportOptions& o,
                              LoweredSchedule* ls) {
  SplitPieces(o.pieces, ls);
  Lowering& L = ls->L;
  const Layout& lay = ls->lay;
  const int n = L.ngpus;
  const int T = static_cast<int>(L.transfers.size());
  auto& tr = L.transfers;

  // Key order (mscclpp_plan.h); rank_of[t] is t's position.
  auto key = [&](int id) {
    const Transfer& t = tr[id];
    return std::make_tuple(t.instance, t.piece, t.phase, t.level, t.tree, t.chunk, t.src, t.dst,
                           id);
  };
  std::vector<int> order(T);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  std::vector<int> pos(T);
  for (int i = 0; i < T; ++i) pos[order[i]] = i;
  // Consumers of each receive (at its dst): the transfers whose send or reduction needs it.
  std::vector<std::vector<int>> consumers(T);
  for (int id : order) {
    const Transfer& t = tr[id];
    for (int d : {t.send_dep, t.recv_dep}) {
      if (d < 0) continue;
      if (pos[d] >= pos[id]) throw std::logic_error("MSCCL++: a dependency on a later key");
      const int at = d == t.send_dep ? t.src : t.dst;
      if (tr[d].dst != at) throw std::logic_error("MSCCL++: a dependency on another GPU");
      consumers[d].push_back(id);
    }
  }
  auto send_cost = [&](int id) { return tr[id].send_dep >= 0 ? 5 : 3; };
  auto recv_cost = [&](int id) {
    const Transfer& t = tr[id];
    const int releases = (static_cast<int>(consumers[id].size()) + kMscclppMaxSemaphoresPerOp - 1) /
                         kMscclppMaxSemaphoresPerOp;
    return (t.reduce ? 4 : 2) + (t.recv_dep >= 0 ? 1 : 0) + releases;
  };

  // Streams (instance, src, dst) in key order, cut into segments.
  std::map<std::tuple<int, int, int>, std::vector<int>> streams;
  for (int id : order) streams[{tr[id].instance, tr[id].src, tr[id].dst}].push_back(id);
  struct Segment {
    int instance, src, dst;
    std::vector<int> ids;
    int send_cost = 0, recv_cost = 0;
    int slot = 0;  // channel slot on the pair
  };
  std::vector<Segment> segs;
  std::map<std::pair<int, int>, int> slots_of;  // directed pair -> segments so far
  for (const auto& [k, ids] : streams) {
    const auto [inst, src, dst] = k;
    Segment cur{inst, src, dst, {}, kHandshakeSendCost, kHandshakeRecvCost, 0};
    for (int id : ids) {
      const int sc = send_cost(id), rc = recv_cost(id);
      if (!cur.ids.empty() && (cur.send_cost + sc > kMscclppMaxOperations ||
                               cur.recv_cost + rc > kMscclppMaxOperations)) {
        cur.slot = slots_of[{src, dst}]++;
        segs.push_back(std::move(cur));
        cur = Segment{inst, src, dst, {}, kHandshakeSendCost, kHandshakeRecvCost, 0};
      }
      cur.ids.push_back(id);
      cur.send_cost += sc;
      cur.recv_cost += rc;
    }
    cur.slot = slots_of[{src, dst}]++;
    segs.push_back(std::move(cur));
  }
  // Channel entries to a peer (the same count on both sides): c = the larger number of
  // segments of the two directions for data, then one handshake entry per segment of the
  // lower rank to the higher, then one per segment the other way.
  auto segs_of = [&](int a, int b) {
    const auto it = slots_of.find({a, b});
    return it == slots_of.end() ? 0 : it->second;
  };
  auto data_entries = [&](int a, int b) { return std::max(segs_of(a, b), segs_of(b, a)); };
  // The handshake entry index (relative to the peer's first entry) of segment `slot` of
  // src -> dst, identical at both ends.
  auto handshake_entry = [&](int src, int dst, int slot) {
    const int lo = std::min(src, dst), hi = std::max(src, dst);
    return data_entries(src, dst) + (src == lo ? 0 : segs_of(lo, hi)) + slot;
  };
  std::vector<std::map<int, int>> entries(n);  // gpu -> peer -> count
  for (const auto& [pair, cnt] : slots_of) {
    const auto [a, b] = pair;
    const int c = data_entries(a, b) + segs_of(a, b) + segs_of(b, a);
    entries[a][b] = c;
    entries[b][a] = c;
  }
  std::vector<std::map<int, int>> base(n);  // gpu -> peer -> first flattened index
  for (int v = 0; v < n; ++v) {
    int at = 0;
    for (const auto& [p, c] : entries[v]) {
      base[v][p] = at;
      at += c;
    }
  }
  // Remote buffers per GPU: (peer, type) in sorted order.
  std::vector<std::map<std::pair<int, char>, int>> rbuf_of(n);
  for (const Transfer& t : tr) rbuf_of[t.src][{t.dst, t.reduce ? 's' : t.recv_dst.buf}] = 0;
  for (int v = 0; v < n; ++v) {
    int k = 0;
    for (auto& [key2, id] : rbuf_of[v]) id = k++;
  }
  // Scratch: partial sums (global layout, as the XML) then one slot per reduction received.
  bool partials = false;
  for (const Transfer& t : tr) {
    partials = partials || t.send.buf == 's' || t.recv_dst.buf == 's' || t.recv_src.buf == 's';
  }
  const std::int64_t slot_base = partials ? n * lay.cK : 0;
  std::vector<std::int64_t> scratch(n, slot_base);
  std::vector<std::int64_t> slot_of(T, -1);
  for (int id : order) {
    if (!tr[id].reduce) continue;
    slot_of[id] = scratch[tr[id].dst];
    scratch[tr[id].dst] += tr[id].cnt;
  }
  std::vector<bool> has_scratch(n, partials);
  for (const Transfer& t : tr) {
    if (t.reduce) has_scratch[t.dst] = true;
  }

  // Items.
  std::vector<Item> items;
  std::vector<std::vector<int>> items_of(n);
  std::vector<int> send_item(T, -1), recv_item(T, -1);
  std::vector<int> seg_of(T, -1);
  for (int v = 0; v < n; ++v) {
    int copies = 0;
    for (const LocalCopy& c : L.copies) copies += c.gpu == v ? 1 : 0;
    if (copies == 0) continue;
    Item it;
    it.gpu = v;
    it.copies = true;
    // Each copy is a data operation, and the emitter puts a nop between two of them and before
    // the next signal: 2 operations per copy (one per instance; --instances 3 with --max-tbs 4
    // packed three copies as if they were one and made a block of 66 operations).
    it.cost = 2 * copies;
    it.order = {-1, 0, 0, 0};
    items_of[v].push_back(static_cast<int>(items.size()));
    items.push_back(std::move(it));
  }
  for (std::size_t s = 0; s < segs.size(); ++s) {
    const Segment& sg = segs[s];
    Item snd;
    snd.gpu = sg.src;
    snd.sends = sg.ids;
    snd.cost = sg.send_cost;
    snd.channels = {base[sg.src][sg.dst] + sg.slot,
                    base[sg.src][sg.dst] + handshake_entry(sg.src, sg.dst, sg.slot)};
    for (int id : sg.ids) {
      snd.rbufs.insert(rbuf_of[sg.src].at({sg.dst, tr[id].reduce ? 's' : tr[id].recv_dst.buf}));
      seg_of[id] = static_cast<int>(s);
    }
    snd.order = {sg.dst, 0, sg.instance, sg.slot};
    Item rcv;
    rcv.gpu = sg.dst;
    rcv.recvs = sg.ids;
    rcv.cost = sg.recv_cost;
    rcv.channels = {base[sg.dst][sg.src] + sg.slot,
                    base[sg.dst][sg.src] + handshake_entry(sg.src, sg.dst, sg.slot)};
    rcv.order = {sg.src, 1, sg.instance, sg.slot};
    for (int id : sg.ids) {
      send_item[id] = static_cast<int>(items.size());
      recv_item[id] = static_cast<int>(items.size()) + 1;
    }
    items_of[sg.src].push_back(static_cast<int>(items.size()));
    items.push_back(std::move(snd));
    items_of[sg.dst].push_back(static_cast<int>(items.size()));
    items.push_back(std::move(rcv));
  }
  for (int v = 0; v < n; ++v) {
    std::stable_sort(items_of[v].begin(), items_of[v].end(),
                     [&](int a, int b) { return items[a].order < items[b].order; });
  }

  // Blocks.
  std::vector<std::vector<Block>> blocks(n);
  int worst = 0, worst_rank = 0;
  for (int v = 0; v < n; ++v) {
    blocks[v] = PackItems(items, items_of[v], o.max_tbs);
    if (static_cast<int>(blocks[v].size()) > worst) {
      worst = static_cast<int>(blocks[v].size());
      worst_rank = v;
    }
  }
  if (worst > o.max_tbs) {
    throw ExportLimitError(
        "--max-tbs", worst,
        "rank " + std::to_string(worst_rank) + " needs " + std::to_string(worst) +
            " thread blocks of at most " + std::to_string(kMscclppMaxOperations) + " operations, " +
            std::to_string(kMscclppMaxChannelsPerBlock) + " memory channels and " +
            std::to_string(kMscclppMaxRemoteBuffersPerBlock) +
            " remote buffers; needs --max-tbs >= " + std::to_string(worst) +
            " (keep it at most the GPU's SM count: all blocks must be resident)");
  }
  std::vector<int> block_of_item(items.size(), -1);
  for (int v = 0; v < n; ++v) {
    for (std::size_t b = 0; b < blocks[v].size(); ++b) {
      for (int i : blocks[v][b].items) block_of_item[i] = static_cast<int>(b);
    }
  }
  auto send_block = [&](int id) { return block_of_item[send_item[id]]; };
  auto recv_block = [&](int id) { return block_of_item[recv_item[id]]; };

  // Semaphores: one per (receive, consumer block other than the receiver's).
  std::vector<int> nsem(n, 0);
  std::vector<std::vector<int>> release_ids(T);  // at the receive
  std::vector<int> acquire_send(T, -1), acquire_recv(T, -1);
  for (int d : order) {
    if (consumers[d].empty()) continue;
    const int v = tr[d].dst;
    std::map<int, int> sem_of_block;
    for (int c : consumers[d]) {  // key order
      const bool as_send = tr[c].send_dep == d;
      const int cb = as_send ? send_block(c) : recv_block(c);
      if (cb == recv_block(d)) continue;
      auto it = sem_of_block.find(cb);
      if (it != sem_of_block.end()) continue;  // an earlier consumer in cb acquired it
      const int id = nsem[v]++;
      sem_of_block[cb] = id;
      release_ids[d].push_back(id);
      (as_send ? acquire_send : acquire_recv)[c] = id;
    }
  }

  // Operations.
  MscclppExportResult r;
  r.collective = coll;
  r.ngpus = n;
  if (coll == Collective::kAllgather) {
    r.input_chunks = lay.cK;
    r.output_chunks = n * lay.cK;
  } else if (coll == Collective::kReduceScatter) {
    r.input_chunks = n * lay.cK;
    r.output_chunks = lay.cK;
  } else {
    r.input_chunks = n * lay.cK;
    r.output_chunks = n * lay.cK;
  }
  r.transfers = T;
  ojson gpus = ojson::array();
  r.ops_per_block.assign(n, {});
  for (int v = 0; v < n; ++v) {
    ojson gpu;
    gpu["id"] = v;
    gpu["input_chunks"] = r.input_chunks;
    gpu["output_chunks"] = r.output_chunks;
    gpu["scratch_chunks"] = has_scratch[v] ? scratch[v] : 0;
    r.max_scratch_chunks = std::max(r.max_scratch_chunks, has_scratch[v] ? scratch[v] : 0);
    ojson tbs = ojson::array();
    for (std::size_t b = 0; b < blocks[v].size(); ++b) {
      const Block& blk = blocks[v][b];
      // Events in key order: copies first, then each transfer end of the block's items.
      std::vector<std::pair<int, int>> events;  // (position, +1 send / -1 receive ... )
      bool copies = false;
      for (int i : blk.items) {
        const Item& it = items[i];
        copies = copies || it.copies;
        for (int id : it.sends) events.push_back({pos[id], 0});
        for (int id : it.recvs) events.push_back({pos[id], 1});
      }
      std::sort(events.begin(), events.end());
      std::vector<int> chans, rbufs;  // block-local lists of GPU-level ids, first use order
      auto local = [](std::vector<int>* list, int id) {
        auto it = std::find(list->begin(), list->end(), id);
        if (it != list->end()) return static_cast<int>(it - list->begin());
        list->push_back(id);
        return static_cast<int>(list->size()) - 1;
      };
      ojson ops = ojson::array();
      OpEmitter em(&ops);
      // Start-of-launch handshake, receiver side: tell each sender that this GPU's previous
      // launch (and its caller's accesses) are over before anything else (never blocks).
      for (int i : blk.items) {
        const Item& it = items[i];
        if (it.recvs.empty()) continue;
        const int ch = local(&chans, it.channels[1]);
        em.SyncOut(ojson{{"name", "rlxsignal"},
                         {"channel_ids", ojson::array({ch})},
                         {"channel_type", "memory"}});
      }
      if (copies) {
        for (const LocalCopy& c : L.copies) {
          if (c.gpu != v) continue;
          em.Data(ojson{{"name", "copy"},
                        {"src_buff", ojson::array({LocalRef(c.from, c.cnt)})},
                        {"dst_buff", ojson::array({LocalRef(c.to, c.cnt)})}});
        }
      }
      for (const auto& [p, side] : events) {
        const int id = order[p];
        const Transfer& t = tr[id];
        const Segment& sg = segs[seg_of[id]];
        if (side == 0) {  // send at t.src
          if (id == sg.ids.front()) {
            // Start-of-launch handshake, sender side: the segment's first put waits until dst's
            // launch has started, i.e. its previous launch is done with the target buffers.
            const int hs = local(&chans, items[send_item[id]].channels[1]);
            em.SyncIn(ojson{{"name", "rlxwait"},
                            {"channel_ids", ojson::array({hs})},
                            {"channel_type", "memory"}});
          }
          if (acquire_send[id] >= 0) {
            em.SyncIn(ojson{{"name", "sem_acquire"},
                            {"semaphore_ids", ojson::array({acquire_send[id]})}});
          }
          const char type = t.reduce ? 's' : t.recv_dst.buf;
          const std::int64_t index = t.reduce ? slot_of[id] : t.recv_dst.off;
          const int rb = local(&rbufs, rbuf_of[v].at({t.dst, type}));
          em.Data(ojson{{"name", "put"},
                        {"src_buff", ojson::array({LocalRef(t.send, t.cnt)})},
                        {"dst_buff", ojson::array({ojson{
                                         {"buffer_id", rb}, {"index", index}, {"size", t.cnt}}})},
                        {"channel_type", "memory"}});
          const int ch = local(&chans, base[v].at(t.dst) + sg.slot);
          em.SyncOut(ojson{
              {"name", "signal"}, {"channel_ids", ojson::array({ch})}, {"channel_type", "memory"}});
        } else {  // receive at t.dst
          if (acquire_recv[id] >= 0) {
            em.SyncIn(ojson{{"name", "sem_acquire"},
                            {"semaphore_ids", ojson::array({acquire_recv[id]})}});
          }
          const int ch = local(&chans, base[v].at(t.src) + sg.slot);
          em.SyncIn(ojson{
              {"name", "wait"}, {"channel_ids", ojson::array({ch})}, {"channel_type", "memory"}});
          if (t.reduce) {
            em.Data(ojson{{"name", "re"},
                          {"src_buff", ojson::array({LocalRef(t.recv_src, t.cnt),
                                                     LocalRef(BufRef{'s', slot_of[id]}, t.cnt)})},
                          {"dst_buff", ojson::array({LocalRef(t.recv_dst, t.cnt)})}});
          }
          const std::vector<int>& rel = release_ids[id];
          for (std::size_t k = 0; k < rel.size(); k += kMscclppMaxSemaphoresPerOp) {
            ojson ids = ojson::array();
            for (std::size_t q = k; q < rel.size() && q < k + kMscclppMaxSemaphoresPerOp; ++q)
              ids.push_back(rel[q]);
            em.SyncOut(ojson{{"name", "sem_release"}, {"semaphore_ids", ids}});
          }
        }
      }
      if (static_cast<int>(ops.size()) > kMscclppMaxOperations ||
          static_cast<int>(chans.size()) > kMscclppMaxChannelsPerBlock ||
          static_cast<int>(rbufs.size()) > kMscclppMaxRemoteBuffersPerBlock) {
        throw std::logic_error("MSCCL++: a block exceeds the executor's limits");
      }
      r.ops_per_block[v].push_back(static_cast<int>(ops.size()));
      r.max_ops_per_block = std::max(r.max_ops_per_block, static_cast<int>(ops.size()));
      r.max_channels_per_block = std::max(r.max_channels_per_block, static_cast<int>(chans.size()));
      r.max_remote_buffers_per_block =
          std::max(r.max_remote_buffers_per_block, static_cast<int>(rbufs.size()));
      ojson tb;
      tb["id"] = static_cast<int>(b);
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
      tbs.push_back(std::move(tb));
    }
    gpu["threadblocks"] = std::move(tbs);
    ojson connected = ojson::array();
    int nchan = 0;
    for (const auto& [p, c] : entries[v]) {
      for (int k = 0; k < c; ++k) connected.push_back(p);
      nchan += c;
    }
    gpu["channels"] = ojson::array();
    if (nchan > 0) {
      gpu["channels"].push_back(ojson{{"channel_type", "memory"}, {"connected_to", connected}});
    }
    r.channels_per_gpu = std::max(r.channels_per_gpu, nchan);
    ojson remote = ojson::array();
    for (const auto& [pt, id] : rbuf_of[v]) {
      remote.push_back(ojson{{"rank", pt.first},
                             {"type", std::string(1, pt.second)},
                             {"access_channel_types", ojson::array({"memory"})}});
    }
    gpu["remote_buffers"] = std::move(remote);
    ojson sems = ojson::array();
    for (int k = 0; k < nsem[v]; ++k) sems.push_back(ojson{{"init_value", 0}});
    gpu["semaphores"] = std::move(sems);
    r.semaphores_per_gpu = std::max(r.semaphores_per_gpu, nsem[v]);
    r.blocks_per_gpu = std::max(r.blocks_per_gpu, static_cast<int>(blocks[v].size()));
    gpus.push_back(std::move(gpu));
  }

  ojson& plan = r.plan;
  plan["name"] = o.name.empty() ? "collsynth-" + MscclppCollName(coll) : o.name;
  plan["collective"] = MscclppCollName(coll);
  plan["protocol"] = o.proto;
  plan["inplace"] = o.inplace;
  plan["reuse_resources"] = false;
  plan["gpus"] = std::move(gpus);
  plan["num_threads_per_block"] = 1024;
  plan["use_double_scratch_buffer"] = false;
  plan["buffer_alignment"] = kMscclppBufferAlignment;
  plan["min_message_size"] = static_cast<std::uint64_t>(o.min_bytes);
  plan["max_message_size"] = o.max_bytes == 0 ? std::numeric_limits<std::uint64_t>::max()
                                              : static_cast<std::uint64_t>(o.max_bytes);

  r.chunks_per_shard = lay.K;
  r.exact_chunks = ls->exact_chunks;
  r.exact_chunks_per_shard = ls->exact_chunks_per_shard;
  r.optimal_ratio = ls->optimal_ratio;
  nlohmann::json link_loads;
  r.achieved_ratio = export_internal::AccountLoads(g, L, lay.cK, ls->per_level, &link_loads);
  for (int id = 0; id < T; ++id) tr[id].chan = segs[seg_of[id]].slot;  // the side file's chan
  r.routes = export_internal::RoutesJson(g, L, coll, std::max(r.input_chunks, r.output_chunks),
                                         lay.K, rank_of_node, r.optimal_ratio, r.achieved_ratio,
                                         std::move(link_loads));
  return r;
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
