// Assembly of transfers into an MscclProgram (msccl_lowering.h) and the profile helpers.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "core/input_error.h"
#include "export/msccl_lowering.h"
#include "export/msccl_program.h"
#include "graphs/rank_map.h"

namespace collsynth {

int MscclMaxSteps(MscclExportProfile profile) {
  return profile == MscclExportProfile::kLegacy ? 256 : 64;
}

std::int64_t MscclProgramStepCount(const MscclProgram& p) {
  std::int64_t steps = 0;
  for (const MscclGpu& gpu : p.gpus) {
    for (const MscclBlock& b : gpu.blocks) steps += static_cast<std::int64_t>(b.steps.size());
  }
  return steps;
}

void export_internal::ValidateSharedExportOptions(std::int64_t min_bytes, std::int64_t max_bytes,
                                                  int max_tbs, std::int64_t max_chunks,
                                                  int instances) {
  if (min_bytes < 0) throw InputError("<args>", "--min-bytes", "must not be negative");
  if (max_bytes < 0) throw InputError("<args>", "--max-bytes", "must not be negative");
  if (max_bytes != 0 && max_bytes < min_bytes) {
    throw InputError("<args>", "--max-bytes", "below --min-bytes");
  }
  if (max_tbs < 1 || max_tbs > 1024) {
    throw InputError("<args>", "--max-tbs", std::to_string(max_tbs) + " is not in 1..1024");
  }
  if (max_chunks < 1 || max_chunks > (std::int64_t{1} << 40)) {
    throw InputError("<args>", "--max-chunks", std::to_string(max_chunks) + " is not in 1..2^40");
  }
  if (instances < 1 || instances > 32) {
    throw InputError("<args>", "--instances", std::to_string(instances) + " is not in 1..32");
  }
}

void ValidateMscclExportOptions(const MscclExportOptions& o, bool runtime_file) {
  if (o.proto != "Simple" && o.proto != "LL" && o.proto != "LL128") {
    throw InputError("<args>", "--proto", "'" + o.proto + "' is not Simple, LL or LL128");
  }
  export_internal::ValidateSharedExportOptions(o.min_bytes, o.max_bytes, o.max_tbs, o.max_chunks,
                                               o.instances);
  if (o.profile == MscclExportProfile::kRccl && o.max_tbs > 64) {
    throw InputError("<args>", "--max-tbs", "RCCL allows at most 64 thread blocks per GPU");
  }
  if (runtime_file && o.max_tbs > kMscclMaxDependableBlocks) {
    // A step names the block it waits for in an int8_t (dependentBid: microsoft/msccl
    // src/include/msccl.h, Azure/msccl-executor-nccl src/include/msccl/msccl_struct.h): a
    // dependency on block 128 or above would be stored truncated, without a message.
    throw InputError("<args>", "--max-tbs",
                     std::to_string(o.max_tbs) +
                         " thread blocks per GPU: the runtimes store a dependency's block id in "
                         "int8_t, so at most " +
                         std::to_string(kMscclMaxDependableBlocks) + " blocks are exported");
  }
  if (o.max_channels < 1 || o.max_channels > kMscclMaxChannels) {
    throw InputError(
        "<args>", "--max-channels",
        std::to_string(o.max_channels) + " is not in 1.." + std::to_string(kMscclMaxChannels));
  }
}

void CheckMscclProgramStepLimit(const MscclProgram& p, std::int64_t limit) {
  const std::int64_t steps = MscclProgramStepCount(p);
  if (steps <= limit) return;
  throw ExportLimitError("steps", steps,
                         std::to_string(steps) + " steps in all, above " + std::to_string(limit) +
                             " (the program's replay keeps about 2 KB per step, "
                             "docs/export.md); nothing written");
}

std::string MscclExportProfileName(MscclExportProfile profile) {
  switch (profile) {
    case MscclExportProfile::kExecutor:
      return "executor";
    case MscclExportProfile::kRccl:
      return "rccl";
    case MscclExportProfile::kLegacy:
      return "legacy";
  }
  return "executor";
}

MscclExportProfile ParseMscclExportProfile(const std::string& text) {
  if (text == "executor") return MscclExportProfile::kExecutor;
  if (text == "rccl") return MscclExportProfile::kRccl;
  if (text == "legacy") return MscclExportProfile::kLegacy;
  throw std::invalid_argument("'" + text + "' is not executor, rccl or legacy");
}

std::vector<int> DefaultRanks(const Topology& g) { return DefaultRankMap(g).rank_of_node; }

namespace export_internal {

// Splits [0, size) at the given boundaries and into runs of at most kMaxCnt chunks.
std::vector<std::int64_t> Pieces(std::set<std::int64_t> bounds, std::int64_t size) {
  bounds.insert(0);
  bounds.insert(size);
  std::vector<std::int64_t> out;
  std::int64_t prev = -1;
  for (std::int64_t b : bounds) {
    if (prev >= 0) {
      for (std::int64_t x = prev + kMaxCnt; x < b; x += kMaxCnt) out.push_back(x);
    }
    out.push_back(b);
    prev = b;
  }
  return out;
}

struct ChannelPlan {
  int channels = 1;     // per instance
  int pack = 1;         // PairChannels
  int blocks = 0;       // max over GPUs
  int steps = 0;        // max over blocks
  int per_channel = 0;  // max over (GPU, channel, direction) of blocks
  // The most parser-counted elements of one rank (<algo>, every <gpu>, its blocks and steps;
  // kMscclMaxRankElements) and that rank.
  std::int64_t elements = 0;
  int element_rank = 0;
};

// Channels a pair with m transfers uses when an instance has c channels and every block of
// the pair is to carry at least `pack` transfers where it can: min(c, ceil(m / pack)). With
// pack = 1 that is min(c, m), one transfer per block as long as channels last (the most
// parallel plan); a larger pack trades channels of busy pairs for fewer blocks per GPU
// (every pair still needs ceil(m / steps limit) blocks per side).
int PairChannels(int m, int c, int pack) { return std::min(c, (m + pack - 1) / pack); }

// Channel of the ordinal-th transfer of the pair (src, dst) when an instance has c channels
// and the pair uses `used` of them (PairChannels): round robin over the pair's channels, from
// the pair's offset (src + dst) mod c, which spreads pairs with few transfers over the
// channels on both ends, so no GPU crowds more than 32 blocks of one direction onto a
// channel. Each connector carries a subsequence of the pair's transfers in key order.
int ChannelOf(int instance, int src, int dst, int ordinal, int c, int used) {
  return instance * c + (ordinal % used + src + dst) % c;
}

// steps_per_gpu: the steps of each GPU (one per transfer it sends or receives plus its
// copies), whatever C is.
ChannelPlan EvaluateChannels(const std::map<std::tuple<int, int, int>, int>& pair_count,
                             const std::vector<int>& copies_per_gpu, int ngpus, int instances,
                             int c, int pack, const std::vector<std::int64_t>& steps_per_gpu) {
  std::vector<int> blocks(ngpus, 0);
  std::vector<int> per(static_cast<std::size_t>(ngpus) * instances * c * 2, 0);
  int steps = 0, per_channel = 0;
  for (const auto& [key, m] : pair_count) {
    const auto [inst, src, dst] = key;
    const int used = PairChannels(m, c, pack);
    blocks[src] += used;
    blocks[dst] += used;
    steps = std::max(steps, (m + used - 1) / used);
    for (int q = 0; q < used; ++q) {
      const std::size_t ch = static_cast<std::size_t>(ChannelOf(inst, src, dst, q, c, used));
      per_channel =
          std::max(per_channel, ++per[(static_cast<std::size_t>(src) * instances * c + ch) * 2]);
      per_channel = std::max(per_channel,
                             ++per[(static_cast<std::size_t>(dst) * instances * c + ch) * 2 + 1]);
    }
  }
  for (int v = 0; v < ngpus; ++v) {
    if (copies_per_gpu[v] > 0) {
      blocks[v] += 1;
      steps = std::max(steps, copies_per_gpu[v]);
    }
  }
  ChannelPlan plan;
  plan.channels = c;
  plan.pack = pack;
  plan.blocks = ngpus > 0 ? *std::max_element(blocks.begin(), blocks.end()) : 0;
  plan.steps = steps;
  plan.per_channel = per_channel;
  for (int v = 0; v < ngpus; ++v) {
    const std::int64_t e = 1 + static_cast<std::int64_t>(ngpus) + blocks[v] + steps_per_gpu[v];
    if (e > plan.elements) {
      plan.elements = e;
      plan.element_rank = v;
    }
  }
  return plan;
}

// The fused lowering (--fuse, ForestColl's chain-per-channel rule): a chain is a run of
// transfers linked by fusion (a tree path along main children); pieces of one tree edge share
// their chain. Every chain gets the lowest channel free on all of its directed links, so a
// connector carries exactly one chain and no block mixes chains: H1 and H2 by construction,
// and every block is a pipeline stage whose dependencies point upstream.
void AssignChainChannels(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o) {
  std::vector<int> fused_from(L.transfers.size(), -1);
  for (std::size_t i = 0; i < L.transfers.size(); ++i) {
    if (L.transfers[i].fuse_next >= 0) fused_from[L.transfers[i].fuse_next] = static_cast<int>(i);
  }
  std::map<std::tuple<int, int, int, int, int>, int> chain_of_head;
  std::vector<int> chain(L.transfers.size(), -1);
  std::vector<std::set<std::pair<int, int>>> links;
  for (int id : order) {
    const Transfer& t = L.transfers[id];
    if (fused_from[id] >= 0) {
      chain[id] = chain[fused_from[id]];
    } else {
      auto [it, added] = chain_of_head.insert(
          {{t.instance, t.phase, t.tree, t.src, t.dst}, static_cast<int>(links.size())});
      if (added) links.emplace_back();
      chain[id] = it->second;
    }
    links[chain[id]].insert({t.src, t.dst});
  }
  std::map<std::pair<int, int>, std::set<int>> used;
  std::vector<int> chan(links.size());
  int nchannels = 0;
  for (std::size_t c = 0; c < links.size(); ++c) {
    int x = 0;
    for (bool clash = true; clash; ++x) {
      clash = false;
      for (const auto& l : links[c]) clash = clash || used[l].count(x) > 0;
      if (!clash) break;
    }
    chan[c] = x;
    for (const auto& l : links[c]) used[l].insert(x);
    nchannels = std::max(nchannels, x + 1);
  }
  if (nchannels > o.max_channels) {
    throw ExportLimitError(
        "--max-channels", nchannels,
        "the fused lowering gives every chain its own channel on each link it uses: needs "
        "--max-channels >= " +
            std::to_string(nchannels) + " (or export without --fuse)");
  }
  for (std::size_t i = 0; i < L.transfers.size(); ++i) L.transfers[i].chan = chan[chain[i]];
}

void CheckFusedLimits(const MscclProgram& p, const MscclExportOptions& o, int max_steps,
                      const MscclExportResult& r) {
  if (r.max_steps_per_block > max_steps) {
    throw ExportLimitError("steps per block", 0,
                           "a fused chain block needs " + std::to_string(r.max_steps_per_block) +
                               " steps, above the profile's " + std::to_string(max_steps) +
                               " (fewer chunk pieces, or export without --fuse)");
  }
  if (r.blocks_per_gpu > o.max_tbs) {
    throw ExportLimitError(
        "--max-tbs", r.blocks_per_gpu,
        "the fused lowering needs " + std::to_string(r.blocks_per_gpu) +
            " thread blocks on one GPU; needs --max-tbs >= " + std::to_string(r.blocks_per_gpu));
  }
  const std::int64_t ngpus = static_cast<std::int64_t>(p.gpus.size());
  for (std::size_t rank = 0; rank < p.gpus.size(); ++rank) {
    const MscclGpu& g = p.gpus[rank];
    // Counted by the parser when rank loads the file: <algo>, every <gpu>, its own blocks/steps.
    std::int64_t elements = 1 + ngpus;
    std::map<std::pair<int, int>, int> per;  // (chan, direction) -> blocks
    for (const MscclBlock& b : g.blocks) {
      elements += 1 + static_cast<std::int64_t>(b.steps.size());
      if (b.send >= 0 && ++per[{b.chan, 0}] > kMscclMaxBlocksPerChannel) {
        throw ExportLimitError("blocks per channel", 0,
                               "a GPU has more than 32 sending blocks on one channel");
      }
      if (b.recv >= 0 && ++per[{b.chan, 1}] > kMscclMaxBlocksPerChannel) {
        throw ExportLimitError("blocks per channel", 0,
                               "a GPU has more than 32 receiving blocks on one channel");
      }
    }
    if (elements > kMscclMaxRankElements) {
      throw ExportLimitError("elements per rank", 0,
                             "rank " + std::to_string(rank) + " needs " + std::to_string(elements) +
                                 " counted XML elements, above the runtime parser's " +
                                 std::to_string(kMscclMaxRankElements) + " (MAX_NODES - 1)");
    }
  }
}

// Channels, blocks and steps from the transfers (see the header comment).
void AssignSplitChannels(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o,
                         int max_steps, MscclExportResult* result);
MscclProgram BuildProgram(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o,
                          int max_steps, MscclExportResult* result);

MscclProgram Assemble(Lowering& L, const MscclExportOptions& o, MscclExportResult* result) {
  std::vector<int> order(L.transfers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return KeyOf(L.transfers[a]) < KeyOf(L.transfers[b]); });
  for (const Transfer& t : L.transfers) {
    for (int d : {t.send_dep, t.recv_dep}) {
      if (d >= 0 && !(KeyOf(L.transfers[d]) < KeyOf(t))) {
        throw std::logic_error("export: a dependency does not point to a smaller key");
      }
    }
    if (t.send_dep >= 0 && L.transfers[t.send_dep].dst != t.src) {
      throw std::logic_error("export: send dependency on another GPU");
    }
    if (t.recv_dep >= 0 && L.transfers[t.recv_dep].dst != t.dst) {
      throw std::logic_error("export: receive dependency on another GPU");
    }
  }
  const int max_steps = MscclMaxSteps(o.profile);
  if (o.fuse) {
    AssignChainChannels(L, order, o);
  } else {
    AssignSplitChannels(L, order, o, max_steps, result);
  }
  return BuildProgram(L, order, o, max_steps, result);
}

// The split lowering's channel choice (see the header comment).
void AssignSplitChannels(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o,
                         int max_steps, MscclExportResult* result) {
  const int n = L.ngpus;
  // Ordinal of each transfer on its (instance, src, dst) pair, in key order.
  std::map<std::tuple<int, int, int>, int> pair_count;
  std::vector<int> ordinal(L.transfers.size());
  for (int id : order) {
    const Transfer& t = L.transfers[id];
    ordinal[id] = pair_count[{t.instance, t.src, t.dst}]++;
  }
  std::vector<int> copies_per_gpu(n, 0);
  for (const LocalCopy& c : L.copies) ++copies_per_gpu[c.gpu];

  const int instances = o.instances;
  const int c_opt = o.max_channels / instances;
  if (c_opt < 1) {
    throw ExportLimitError("--max-channels", instances,
                           "--instances " + std::to_string(instances) +
                               " needs --max-channels >= " + std::to_string(instances));
  }
  int max_m = 1;
  for (const auto& [key, m] : pair_count) max_m = std::max(max_m, m);
  std::vector<std::int64_t> steps_per_gpu(n, 0);
  for (const Transfer& t : L.transfers) {
    ++steps_per_gpu[t.src];
    ++steps_per_gpu[t.dst];
  }
  for (int v = 0; v < n; ++v) steps_per_gpu[v] += copies_per_gpu[v];
  auto fits = [&](const ChannelPlan& p) {
    return p.steps <= max_steps && p.per_channel <= kMscclMaxBlocksPerChannel &&
           p.elements <= kMscclMaxRankElements;
  };
  // Preferred: the most channels up to one per transfer of the busiest pair; then more
  // channels only to spread blocks (same block count, more connectors).
  std::vector<int> candidates;
  for (int c = std::min(c_opt, max_m); c >= 1; --c) candidates.push_back(c);
  for (int c = max_m + 1; c <= c_opt; ++c) candidates.push_back(c);
  ChannelPlan chosen;
  bool found = false;
  for (int c : candidates) {
    ChannelPlan p = EvaluateChannels(pair_count, copies_per_gpu, n, instances, c, 1, steps_per_gpu);
    if (fits(p) && p.blocks <= o.max_tbs) {
      chosen = p;
      found = true;
      break;
    }
  }
  // When no channel count fits --max-tbs with one transfer per block: pack the transfers of
  // busy pairs onto fewer channels, the least packing that fits (all channels allowed, so
  // pairs with few transfers keep their spread). E.g. fattree(16) allgather: 161 blocks per
  // GPU unpacked, 36 at full packing (each pair carries up to 1,023 transfers).
  for (int pack = 2; !found && pack <= max_steps; ++pack) {
    ChannelPlan p =
        EvaluateChannels(pair_count, copies_per_gpu, n, instances, c_opt, pack, steps_per_gpu);
    if (fits(p) && p.blocks <= o.max_tbs) {
      chosen = p;
      found = true;
    }
  }
  if (!found) {
    // The fewest channels meeting the step and per-channel limits (MAXCHANNELS at most), at
    // full packing (the fewest blocks).
    int c_fit = -1;
    ChannelPlan at;
    for (int c = 1; c * instances <= kMscclMaxChannels; ++c) {
      at = EvaluateChannels(pair_count, copies_per_gpu, n, instances, c, max_steps, steps_per_gpu);
      if (fits(at)) {
        c_fit = c;
        break;
      }
    }
    if (c_fit < 0) {
      ChannelPlan one =
          EvaluateChannels(pair_count, copies_per_gpu, n, instances, 1, max_steps, steps_per_gpu);
      if (one.elements > kMscclMaxRankElements) {
        throw ExportLimitError(
            "elements per rank", 0,
            "rank " + std::to_string(one.element_rank) + " needs at least " +
                std::to_string(one.elements) + " counted XML elements (" +
                std::to_string(steps_per_gpu[one.element_rank]) +
                " steps), above the runtime parser's " + std::to_string(kMscclMaxRankElements) +
                " (MAX_NODES - 1); fewer chunk pieces (a smaller --max-chunks, fewer "
                "--instances) or fewer GPUs per file");
      }
      if (at.steps > max_steps) {
        throw ExportLimitError("steps per block", 0,
                               "a block needs " + std::to_string(at.steps) + " steps even on " +
                                   std::to_string(kMscclMaxChannels) +
                                   " channels, above the profile's " + std::to_string(max_steps) +
                                   " (MSCCL_MAX_NUM_STEPS)");
      }
      if (at.per_channel > kMscclMaxBlocksPerChannel) {
        throw ExportLimitError("blocks per channel", 0,
                               "a GPU needs " + std::to_string(at.per_channel) +
                                   " blocks of one direction on one channel even on " +
                                   std::to_string(kMscclMaxChannels) +
                                   " channels, above the executor's " +
                                   std::to_string(kMscclMaxBlocksPerChannel));
      }
      throw ExportLimitError(
          "elements per rank", 0,
          "no channel count keeps every block within " + std::to_string(max_steps) +
              " steps and every rank within the runtime parser's " +
              std::to_string(kMscclMaxRankElements) + " counted elements (MAX_NODES - 1)");
    }
    if (c_fit > c_opt) {
      const std::int64_t need = static_cast<std::int64_t>(c_fit) * instances;
      throw ExportLimitError(
          "--max-channels", need,
          "with --max-channels " + std::to_string(o.max_channels) + " a block carries more than " +
              std::to_string(max_steps) + " steps (MSCCL_MAX_NUM_STEPS) or a channel more than " +
              std::to_string(kMscclMaxBlocksPerChannel) +
              " blocks of one direction; needs --max-channels >= " + std::to_string(need));
    }
    throw ExportLimitError("--max-tbs", at.blocks,
                           "needs " + std::to_string(at.blocks) + " thread blocks on one GPU (at " +
                               std::to_string(c_fit * instances) +
                               " channels, the fewest that keep every block within " +
                               std::to_string(max_steps) +
                               " steps, each pair packed onto as few channels as that allows); "
                               "needs --max-tbs >= " +
                               std::to_string(at.blocks));
  }
  const int C = chosen.channels;
  result->channels_per_instance = C;
  for (int id : order) {
    Transfer& t = L.transfers[id];
    const int used = PairChannels(pair_count.at({t.instance, t.src, t.dst}), C, chosen.pack);
    t.chan = ChannelOf(t.instance, t.src, t.dst, ordinal[id], C, used);
  }
}

// Cross-phase hazards on one GPU (in-place allreduce): a chunk's own contribution is read
// in the reduce-scatter phase (a leaf's send, or the first rrc's local operand) and
// overwritten in the allgather phase by the receive of another block. The two are ordered
// only through other GPUs (up to the root and back), which costs the replay checker a
// search of the event graph per pair (docs/performance.md). A receive without a dependency
// that writes a cell last accessed in an earlier phase by another block of its GPU is made to
// wait for that access's flag: always satisfied by then at run time (the allgather of a
// chunk starts after its reduction), so the file runs as fast, and the order is local. The
// dependency points to a smaller key, so the no-deadlock argument is unchanged. Pieces of the
// two phases are cut at the same boundaries, so cells are matched by their first chunk; a
// receive that already has a dependency keeps it. O(T log T) for T transfers.
void FenceAcrossPhases(const Lowering& L, const std::vector<int>& order, MscclProgram* p) {
  const bool phases = std::any_of(L.transfers.begin(), L.transfers.end(),
                                  [](const Transfer& t) { return t.phase > 0; });
  if (!phases) return;  // one phase: nothing to fence (allgather, reduce-scatter, broadcast)
  struct Access {
    int phase, tb, step;
  };
  std::vector<std::map<std::pair<char, std::int64_t>, Access>> last(L.ngpus);
  for (int id : order) {
    const Transfer& t = L.transfers[id];
    auto& at_dst = last[t.dst];
    auto it = at_dst.find({t.recv_dst.buf, t.recv_dst.off});
    if (it != at_dst.end() && it->second.phase < t.phase && it->second.tb != t.recv_tb) {
      MscclStep& s = p->gpus[t.dst].blocks[t.recv_tb].steps[t.recv_step];
      if (s.depid < 0) {
        s.depid = it->second.tb;
        s.deps = it->second.step;
        p->gpus[t.dst].blocks[it->second.tb].steps[it->second.step].hasdep = true;
      }
    }
    if (!t.send_fused) last[t.src][{t.send.buf, t.send.off}] = {t.phase, t.send_tb, t.send_step};
    at_dst[{t.recv_src.buf, t.recv_src.off}] = {t.phase, t.recv_tb, t.recv_step};
    at_dst[{t.recv_dst.buf, t.recv_dst.off}] = {t.phase, t.recv_tb, t.recv_step};
  }
}

// Blocks and steps from transfers with channels; checks the limits the channel choice does
// not guarantee (the fused lowering's).
MscclProgram BuildProgram(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o,
                          int max_steps, MscclExportResult* result) {
  const int n = L.ngpus;
  MscclProgram p;
  p.ngpus = n;
  p.gpus.resize(n);
  // Blocks keyed by (send, recv, chan): the final order (msccl-tools' NVLink locality rule).
  std::vector<std::map<std::tuple<int, int, int>, MscclBlock>> blocks(n);
  auto block_of = [&](int gpu, int send, int recv, int chan) -> MscclBlock& {
    MscclBlock& b = blocks[gpu][{send, recv, chan}];
    b.send = send;
    b.recv = recv;
    b.chan = chan;
    return b;
  };
  for (const LocalCopy& c : L.copies) {
    MscclStep s;
    s.type = "cpy";
    s.srcbuf = c.from.buf;
    s.srcoff = c.from.off;
    s.dstbuf = c.to.buf;
    s.dstoff = c.to.off;
    s.cnt = c.cnt;
    block_of(c.gpu, -1, -1, 0).steps.push_back(s);
  }
  int nchannels = 1;
  for (int id : order) {
    Transfer& t = L.transfers[id];
    nchannels = std::max(nchannels, t.chan + 1);
    if (!t.send_fused) {
      t.send_block = {t.dst, -1, t.chan};
      MscclBlock& sb = block_of(t.src, t.dst, -1, t.chan);
      MscclStep s;
      s.type = "s";
      s.srcbuf = s.dstbuf = t.send.buf;
      s.srcoff = s.dstoff = t.send.off;
      s.cnt = t.cnt;
      t.send_step = static_cast<int>(sb.steps.size());
      sb.steps.push_back(s);
    }
    MscclStep r;
    r.type = t.reduce ? "rrc" : "r";
    r.srcbuf = t.recv_src.buf;
    r.srcoff = t.recv_src.off;
    r.dstbuf = t.recv_dst.buf;
    r.dstoff = t.recv_dst.off;
    r.cnt = t.cnt;
    int send_peer = -1;
    if (t.fuse_next >= 0) {
      Transfer& b = L.transfers[t.fuse_next];
      if (b.chan != t.chan || b.src != t.dst || b.cnt != t.cnt)
        throw std::logic_error("export: bad fusion");
      send_peer = b.dst;
      if (t.reduce) {
        r.type = "rrs";  // receive, reduce with the local operand, send on; nothing stored
        r.dstbuf = r.srcbuf;
        r.dstoff = r.srcoff;
      } else {
        r.type = "rcs";  // receive into the output and send on
      }
    }
    t.recv_block = {send_peer, t.src, t.chan};
    MscclBlock& rb = block_of(t.dst, send_peer, t.src, t.chan);
    t.recv_step = static_cast<int>(rb.steps.size());
    rb.steps.push_back(r);
    if (t.fuse_next >= 0) {
      Transfer& b = L.transfers[t.fuse_next];
      b.send_block = t.recv_block;
      b.send_step = t.recv_step;
    }
  }
  // Dense block ids in (send, recv, chan) order.
  std::vector<std::map<std::tuple<int, int, int>, int>> block_id(n);
  for (int v = 0; v < n; ++v) {
    for (auto& [key, b] : blocks[v]) {
      block_id[v][key] = static_cast<int>(p.gpus[v].blocks.size());
      p.gpus[v].blocks.push_back(std::move(b));
    }
  }
  for (Transfer& t : L.transfers) {
    t.send_tb = block_id[t.src].at(t.send_block);
    t.recv_tb = block_id[t.dst].at(t.recv_block);
  }
  auto link_dep = [&](int gpu, int tb, int step, const Transfer& target) {
    MscclStep& s = p.gpus[gpu].blocks[tb].steps[step];
    if (target.recv_tb == tb) {
      if (target.recv_step > step) throw std::logic_error("export: dependency on a later step");
      return;  // program order, or the fused step itself
    }
    s.depid = target.recv_tb;
    s.deps = target.recv_step;
    p.gpus[gpu].blocks[target.recv_tb].steps[target.recv_step].hasdep = true;
  };
  for (const Transfer& t : L.transfers) {
    if (t.send_dep >= 0) link_dep(t.src, t.send_tb, t.send_step, L.transfers[t.send_dep]);
    if (t.recv_dep >= 0) link_dep(t.dst, t.recv_tb, t.recv_step, L.transfers[t.recv_dep]);
  }
  if (!o.fuse) FenceAcrossPhases(L, order, &p);
  p.nchannels = nchannels;
  p.proto = o.proto;
  p.inplace = o.inplace;
  p.min_bytes = o.min_bytes;
  p.max_bytes = o.max_bytes;
  result->blocks_per_gpu = 0;
  result->max_steps_per_block = 0;
  for (const MscclGpu& gpu : p.gpus) {
    result->blocks_per_gpu = std::max(result->blocks_per_gpu, static_cast<int>(gpu.blocks.size()));
    for (const MscclBlock& b : gpu.blocks) {
      result->max_steps_per_block =
          std::max(result->max_steps_per_block, static_cast<int>(b.steps.size()));
    }
  }
  if (o.fuse) {
    result->channels_per_instance = nchannels / o.instances;
    CheckFusedLimits(p, o, max_steps, *result);
  }
  return p;
}

// Loads per physical link in shard units, grouped (per phase for pipelines, per comm step
// for step schedules); the achieved ratio is the sum over groups of max_e load_e / b_e.
Rational AccountLoads(const Topology& g, const Lowering& L, std::int64_t chunks_per_shard_all,
                      bool per_level, nlohmann::json* link_loads) {
  // Per link: whole-route chunks counted as an integer (share 1, the common case: no rational
  // arithmetic per hop), other shares as a rational number of chunks. Exact.
  struct Load {
    std::int64_t chunks = 0;
    Rational partial = 0;
  };
  std::map<std::pair<int, std::int64_t>, std::map<std::pair<int, int>, Load>> loads;
  for (const Transfer& t : L.transfers) {
    auto& group = loads[{t.phase, per_level ? t.level : 0}];
    for (const RouteShare& r : L.routes.at(t.route)) {
      const bool whole = r.share == 1;
      for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
        Load& l = group[{r.path[i], r.path[i + 1]}];
        if (whole) {
          l.chunks += t.cnt;
        } else {
          l.partial += t.cnt * r.share;
        }
      }
    }
  }
  Rational total = 0;
  *link_loads = nlohmann::json::array();
  for (const auto& [gkey, group] : loads) {
    Rational worst = 0;
    for (const auto& [link, sum] : group) {
      const Rational load = (sum.chunks + sum.partial) / chunks_per_shard_all;
      auto e = g.FindLink(link.first, link.second);
      if (!e) throw std::logic_error("export: a route uses a missing link");
      const Rational& b = g.link(*e).bandwidth;
      worst = std::max(worst, Rational(load / b));
      link_loads->push_back(
          {{"phase", gkey.first},
           {"step", per_level ? nlohmann::json(gkey.second) : nlohmann::json(nullptr)},
           {"from", g.node(link.first).name},
           {"to", g.node(link.second).name},
           {"bandwidth", ToString(b)},
           {"load", ToString(load)}});
    }
    total += worst;
  }
  return total;
}

nlohmann::json RoutesJson(const Topology& g, const Lowering& L, Collective coll,
                          std::int64_t nchunksperloop, std::int64_t chunks_per_shard,
                          const std::vector<int>& rank_of_node, const Rational& optimal_ratio,
                          const Rational& achieved_ratio, nlohmann::json link_loads) {
  nlohmann::json j;
  j["format"] = "msccl-routes";
  j["collective"] = CollectiveName(coll);
  j["ngpus"] = L.ngpus;
  j["nchunksperloop"] = nchunksperloop;
  j["chunks_per_shard"] = chunks_per_shard;
  j["unit"] = "shard";
  std::vector<std::string> ranks(L.ngpus);
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (rank_of_node[v] >= 0) ranks[rank_of_node[v]] = g.node(v).name;
  }
  j["ranks"] = ranks;
  // Built in place and moved (a million routes and transfers at 1,024 GPUs: copies of the
  // arrays and initializer-list temporaries were most of the lowering's time).
  std::vector<nlohmann::json> name_of(g.num_nodes());
  for (int v = 0; v < g.num_nodes(); ++v) name_of[v] = g.node(v).name;
  const nlohmann::json one = "1";
  nlohmann::json routes = nlohmann::json::array();
  auto& route_array = routes.get_ref<nlohmann::json::array_t&>();
  route_array.reserve(L.routes.size());
  for (const auto& list : L.routes) {
    nlohmann::json rl = nlohmann::json::array();
    for (const RouteShare& rs : list) {
      nlohmann::json names = nlohmann::json::array();
      auto& name_array = names.get_ref<nlohmann::json::array_t&>();
      name_array.reserve(rs.path.size());
      for (int v : rs.path) name_array.push_back(name_of[v]);
      nlohmann::json entry = nlohmann::json::object();
      entry["path"] = std::move(names);
      entry["share"] = rs.share == 1 ? one : nlohmann::json(ToString(rs.share));
      rl.push_back(std::move(entry));
    }
    route_array.push_back(std::move(rl));
  }
  j["routes"] = std::move(routes);
  // [src rank, dst rank, chan, first global chunk, cnt, phase, route index]
  nlohmann::json transfers = nlohmann::json::array();
  auto& transfer_array = transfers.get_ref<nlohmann::json::array_t&>();
  transfer_array.reserve(L.transfers.size());
  for (const Transfer& t : L.transfers) {
    nlohmann::json row = nlohmann::json::array();
    auto& a = row.get_ref<nlohmann::json::array_t&>();
    a.reserve(7);
    a.emplace_back(t.src);
    a.emplace_back(t.dst);
    a.emplace_back(t.chan);
    a.emplace_back(t.chunk);
    a.emplace_back(t.cnt);
    a.emplace_back(t.phase);
    a.emplace_back(t.route);
    transfer_array.push_back(std::move(row));
  }
  j["transfer_fields"] = {"src", "dst", "chan", "chunk", "cnt", "phase", "route"};
  j["transfers"] = std::move(transfers);
  j["link_loads"] = std::move(link_loads);
  j["optimal_ratio"] = ToString(optimal_ratio);
  j["achieved_ratio"] = ToString(achieved_ratio);
  return j;
}

void CheckOptions(const MscclExportOptions& o) {
  if (o.proto != "Simple" && o.proto != "LL" && o.proto != "LL128") {
    throw std::invalid_argument("--proto '" + o.proto + "' is not Simple, LL or LL128");
  }
  if (o.instances < 1) throw std::invalid_argument("--instances must be at least 1");
  if (o.max_tbs < 1) throw std::invalid_argument("--max-tbs must be at least 1");
  if (o.max_channels < 1 || o.max_channels > kMscclMaxChannels) {
    throw std::invalid_argument("--max-channels must be in 1..32 (the executor's MAXCHANNELS)");
  }
  if (o.profile == MscclExportProfile::kRccl && o.max_tbs > 64) {
    throw std::invalid_argument(
        "--max-tbs above 64 with --profile rccl (RCCL's MSCCL_MAX_NUM_THREAD_BLOCKS is 64)");
  }
  if (o.max_chunks < 1) throw std::invalid_argument("--max-chunks must be at least 1");
  if (o.min_bytes < 0 || o.max_bytes < 0) throw std::invalid_argument("byte bounds must be >= 0");
  if (o.max_bytes != 0 && o.max_bytes < o.min_bytes) {
    throw std::invalid_argument("--max-bytes is below --min-bytes");
  }
}

std::function<void(std::int64_t, int, std::int64_t)> RankElementsPrecheck(int ngpus,
                                                                          std::string advice) {
  return [ngpus, advice](std::int64_t rank_steps, int busiest, std::int64_t transfers) {
    if (rank_steps + ngpus + 1 > kMscclMaxRankElements) {
      throw ExportLimitError(
          "elements per rank", 0,
          "rank " + std::to_string(busiest) + " needs more than " +
              std::to_string(rank_steps + ngpus + 1) + " counted XML elements (" +
              std::to_string(rank_steps) + " steps of " + std::to_string(transfers) +
              " transfers), above the runtime parser's " + std::to_string(kMscclMaxRankElements) +
              " (MAX_NODES - 1); " + advice);
    }
  };
}

LowerOptions LowerOptionsOf(const MscclExportOptions& o) {
  LowerOptions lo;
  lo.inplace = o.inplace;
  lo.fuse = o.fuse;
  lo.root_specific = o.root_specific;
  lo.instances = o.instances;
  lo.max_chunks = o.max_chunks;
  return lo;
}

MscclExportResult AssembleMsccl(const Topology& g, Collective coll,
                                const std::vector<int>& rank_of_node, const MscclExportOptions& o,
                                LoweredSchedule* ls) {
  MscclExportResult result;
  result.chunks_per_shard = ls->lay.K;
  result.exact_chunks = ls->exact_chunks;
  result.exact_chunks_per_shard = ls->exact_chunks_per_shard;
  result.program = Assemble(ls->L, o, &result);
  result.program.collective = coll;
  result.program.name = o.name.empty() ? std::string("collsynth-") + CollectiveName(coll) : o.name;
  SetBuffers(ls->lay, ls->L, &result.program);
  result.optimal_ratio = ls->optimal_ratio;
  result.root_rank = ls->root_rank;
  nlohmann::json link_loads;
  result.achieved_ratio = AccountLoads(g, ls->L, ls->lay.cK, ls->per_level, &link_loads);
  result.routes =
      RoutesJson(g, ls->L, coll, result.program.nchunksperloop, result.chunks_per_shard,
                 rank_of_node, result.optimal_ratio, result.achieved_ratio, std::move(link_loads));
  return result;
}

void SetBuffers(const Layout& lay, const Lowering& L, MscclProgram* p) {
  const std::int64_t n = lay.n, cK = lay.cK;
  std::int64_t i = 0, o = 0;
  if (lay.coll == Collective::kAllgather) {
    i = lay.inplace ? 0 : cK;
    o = n * cK;
  } else if (lay.coll == Collective::kReduceScatter) {
    i = n * cK;
    o = lay.inplace ? 0 : cK;
  } else if (lay.coll == Collective::kAllreduce) {
    i = lay.inplace ? 0 : n * cK;
    o = n * cK;
  } else if (lay.coll == Collective::kAlltoall) {  // out of place only
    i = n * cK;
    o = n * cK;
  } else {  // broadcast
    i = lay.inplace ? 0 : cK;
    o = cK;
  }
  bool scratch = false;
  for (const Transfer& t : L.transfers) {
    scratch = scratch || t.send.buf == 's' || t.recv_dst.buf == 's';
  }
  p->nchunksperloop = (lay.coll == Collective::kBroadcast ? 1 : n) * cK;
  for (MscclGpu& gpu : p->gpus) {
    gpu.i_chunks = i;
    gpu.o_chunks = o;
    gpu.s_chunks = !scratch ? 0 : L.scratch_chunks >= 0 ? L.scratch_chunks : n * cK;
  }
}

void AddCopies(const Layout& lay, int instances, const std::vector<int>& roots, Lowering* L) {
  if (lay.inplace || (lay.coll != Collective::kAllgather && lay.coll != Collective::kBroadcast))
    return;
  for (int j = 0; j < instances; ++j) {
    for (int r : roots) {
      int shard = lay.coll == Collective::kBroadcast ? 0 : r;
      for (std::int64_t a = 0; a < lay.K; a += kMaxCnt) {
        int cnt = static_cast<int>(std::min<std::int64_t>(kMaxCnt, lay.K - a));
        std::int64_t g = lay.Global(shard, j, a);
        L->copies.push_back({r, lay.RootSource(shard, g), BufRef{'o', g}, cnt});
      }
    }
  }
}

}  // namespace export_internal
}  // namespace collsynth
