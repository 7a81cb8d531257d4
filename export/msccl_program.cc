#include "export/msccl_program.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>

#include "export/chunking.h"
#include "graphs/input_error.h"

namespace collsynth {

int MscclMaxSteps(MscclExportProfile profile) { return profile == MscclExportProfile::kLegacy ? 256 : 64; }

std::string MscclExportProfileName(MscclExportProfile profile) {
  switch (profile) {
    case MscclExportProfile::kExecutor: return "executor";
    case MscclExportProfile::kRccl: return "rccl";
    case MscclExportProfile::kLegacy: return "legacy";
  }
  return "executor";
}

MscclExportProfile ParseMscclExportProfile(const std::string& text) {
  if (text == "executor") return MscclExportProfile::kExecutor;
  if (text == "rccl") return MscclExportProfile::kRccl;
  if (text == "legacy") return MscclExportProfile::kLegacy;
  throw std::invalid_argument("'" + text + "' is not executor, rccl or legacy");
}

std::vector<int> DefaultRanks(const Topology& g) {
  std::vector<int> rank(g.num_nodes(), -1);
  int r = 0;
  for (int v : g.ComputeNodes()) rank[v] = r++;
  return rank;
}

namespace {

constexpr int kMaxCnt = kMscclMaxCount - 1;  // 71 chunks per step

struct BufRef {
  char buf = 'o';
  std::int64_t off = 0;
};

// One contiguous run of chunks moved from src to dst: an `s` step at src and an `r`/`rrc`
// step at dst. Dependencies name transfers whose *receive* step (at this transfer's src for
// send_dep, at its dst for recv_dep) must finish first.
struct Transfer {
  int instance = 0;
  int phase = 0;
  std::int64_t level = 0;
  int tree = 0;
  std::int64_t chunk = 0;
  int src = -1;
  int dst = -1;
  int cnt = 0;
  BufRef send;
  int send_dep = -1;
  bool reduce = false;
  BufRef recv_dst;
  BufRef recv_src;  // rrc: the local operand; r: equal to recv_dst
  int recv_dep = -1;
  int route = -1;  // index into Lowering::routes
  // Fused lowering (--fuse): the send of transfer fuse_next is carried by this transfer's
  // receive step (rcs for gathers, rrs for reductions); that transfer has send_fused set.
  int fuse_next = -1;
  bool send_fused = false;
  // Assigned by Assemble.
  int chan = 0;
  std::tuple<int, int, int> send_block{-1, -1, -1}, recv_block{-1, -1, -1};  // (send, recv, chan)
  int send_tb = -1, send_step = -1, recv_tb = -1, recv_step = -1;
};

struct LocalCopy {
  int gpu = -1;
  BufRef from, to;
  int cnt = 0;
};

struct RouteShare {
  std::vector<int> path;  // node ids in the direction the data flows
  Rational share;         // fraction of the transfer's data on this route
};

struct Lowering {
  int ngpus = 0;
  std::vector<Transfer> transfers;
  std::vector<LocalCopy> copies;
  std::vector<std::vector<RouteShare>> routes;
};

auto KeyOf(const Transfer& t) {
  return std::make_tuple(t.instance, t.phase, t.level, t.tree, t.chunk, t.src, t.dst);
}

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
  int blocks = 0;       // max over GPUs
  int steps = 0;        // max over blocks
  int per_channel = 0;  // max over (GPU, channel, direction) of blocks
  std::int64_t elements = 0;  // <algo>, <gpu>, <tb> and <step> elements of the file
};

// Channel of the ordinal-th transfer of the pair (src, dst) when an instance has c channels:
// the pair's offset (src + dst) mod c spreads pairs with few transfers over the channels on
// both ends, so no GPU crowds more than 32 blocks of one direction onto a channel.
int ChannelOf(int instance, int src, int dst, int ordinal, int c) {
  return instance * c + (ordinal + src + dst) % c;
}

// fixed_elements: the steps of the file (2 per transfer plus the copies), whatever C is.
ChannelPlan EvaluateChannels(const std::map<std::tuple<int, int, int>, int>& pair_count,
                             const std::vector<int>& copies_per_gpu, int ngpus, int instances, int c,
                             std::int64_t fixed_elements) {
  std::vector<int> blocks(ngpus, 0);
  std::vector<int> per(static_cast<std::size_t>(ngpus) * instances * c * 2, 0);
  int steps = 0, per_channel = 0;
  for (const auto& [key, m] : pair_count) {
    const auto [inst, src, dst] = key;
    const int used = std::min(c, m);
    blocks[src] += used;
    blocks[dst] += used;
    steps = std::max(steps, (m + c - 1) / c);
    for (int q = 0; q < used; ++q) {
      const std::size_t ch = static_cast<std::size_t>(ChannelOf(inst, src, dst, q, c));
      per_channel = std::max(per_channel, ++per[(static_cast<std::size_t>(src) * instances * c + ch) * 2]);
      per_channel = std::max(per_channel, ++per[(static_cast<std::size_t>(dst) * instances * c + ch) * 2 + 1]);
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
  plan.blocks = ngpus > 0 ? *std::max_element(blocks.begin(), blocks.end()) : 0;
  plan.steps = steps;
  plan.per_channel = per_channel;
  plan.elements = 1 + ngpus + fixed_elements;
  for (int b : blocks) plan.elements += b;
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
      auto [it, added] = chain_of_head.insert({{t.instance, t.phase, t.tree, t.src, t.dst},
                                               static_cast<int>(links.size())});
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
    throw ExportLimitError("--max-channels", nchannels,
                           "the fused lowering gives every chain its own channel on each link it uses: needs "
                           "--max-channels >= " + std::to_string(nchannels) + " (or export without --fuse)");
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
    throw ExportLimitError("--max-tbs", r.blocks_per_gpu,
                           "the fused lowering needs " + std::to_string(r.blocks_per_gpu) +
                               " thread blocks on one GPU; needs --max-tbs >= " + std::to_string(r.blocks_per_gpu));
  }
  std::int64_t elements = 1 + static_cast<std::int64_t>(p.gpus.size());
  for (const MscclGpu& g : p.gpus) {
    std::map<std::pair<int, int>, int> per;  // (chan, direction) -> blocks
    for (const MscclBlock& b : g.blocks) {
      elements += 1 + static_cast<std::int64_t>(b.steps.size());
      if (b.send >= 0 && ++per[{b.chan, 0}] > kMscclMaxBlocksPerChannel) {
        throw ExportLimitError("blocks per channel", 0, "a GPU has more than 32 sending blocks on one channel");
      }
      if (b.recv >= 0 && ++per[{b.chan, 1}] > kMscclMaxBlocksPerChannel) {
        throw ExportLimitError("blocks per channel", 0, "a GPU has more than 32 receiving blocks on one channel");
      }
    }
  }
  if (elements > kMscclMaxElements) {
    throw ExportLimitError("elements per file", 0,
                           "the file needs " + std::to_string(elements) + " XML elements, above the runtime lexer's " +
                               std::to_string(kMscclMaxElements) + " (MAX_NODES)");
  }
}

// Channels, blocks and steps from the transfers (see the header comment).
void AssignSplitChannels(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o, int max_steps,
                         MscclExportResult* result);
MscclProgram BuildProgram(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o, int max_steps,
                          MscclExportResult* result);

MscclProgram Assemble(Lowering& L, const MscclExportOptions& o, MscclExportResult* result) {
  std::vector<int> order(L.transfers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return KeyOf(L.transfers[a]) < KeyOf(L.transfers[b]);
  });
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
void AssignSplitChannels(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o, int max_steps,
                         MscclExportResult* result) {
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
                           "--instances " + std::to_string(instances) + " needs --max-channels >= " +
                               std::to_string(instances));
  }
  int max_m = 1;
  for (const auto& [key, m] : pair_count) max_m = std::max(max_m, m);
  const std::int64_t fixed_elements = 2 * static_cast<std::int64_t>(L.transfers.size()) +
                                      static_cast<std::int64_t>(L.copies.size());
  auto fits = [&](const ChannelPlan& p) {
    return p.steps <= max_steps && p.per_channel <= kMscclMaxBlocksPerChannel && p.elements <= kMscclMaxElements;
  };
  // Preferred: the most channels up to one per transfer of the busiest pair; then more
  // channels only to spread blocks (same block count, more connectors).
  std::vector<int> candidates;
  for (int c = std::min(c_opt, max_m); c >= 1; --c) candidates.push_back(c);
  for (int c = max_m + 1; c <= c_opt; ++c) candidates.push_back(c);
  ChannelPlan chosen;
  bool found = false;
  for (int c : candidates) {
    ChannelPlan p = EvaluateChannels(pair_count, copies_per_gpu, n, instances, c, fixed_elements);
    if (fits(p) && p.blocks <= o.max_tbs) {
      chosen = p;
      found = true;
      break;
    }
  }
  if (!found) {
    // The fewest channels meeting the step and per-channel limits (MAXCHANNELS at most).
    int c_fit = -1;
    ChannelPlan at;
    for (int c = 1; c * instances <= kMscclMaxChannels; ++c) {
      at = EvaluateChannels(pair_count, copies_per_gpu, n, instances, c, fixed_elements);
      if (fits(at)) {
        c_fit = c;
        break;
      }
    }
    if (c_fit < 0) {
      ChannelPlan one = EvaluateChannels(pair_count, copies_per_gpu, n, instances, 1, fixed_elements);
      if (one.elements > kMscclMaxElements) {
        throw ExportLimitError(
            "elements per file", 0,
            "the file needs at least " + std::to_string(one.elements) + " XML elements (" +
                std::to_string(fixed_elements) + " steps), above the runtime lexer's " +
                std::to_string(kMscclMaxElements) +
                " (MAX_NODES); fewer chunk pieces (a smaller --max-chunks, fewer --instances) or fewer GPUs "
                "per file");
      }
      if (at.steps > max_steps) {
        throw ExportLimitError("steps per block", 0,
                               "a block needs " + std::to_string(at.steps) + " steps even on " +
                                   std::to_string(kMscclMaxChannels) + " channels, above the profile's " +
                                   std::to_string(max_steps) + " (MSCCL_MAX_NUM_STEPS)");
      }
      if (at.per_channel > kMscclMaxBlocksPerChannel) {
        throw ExportLimitError("blocks per channel", 0,
                               "a GPU needs " + std::to_string(at.per_channel) +
                                   " blocks of one direction on one channel even on " +
                                   std::to_string(kMscclMaxChannels) + " channels, above the executor's " +
                                   std::to_string(kMscclMaxBlocksPerChannel));
      }
      throw ExportLimitError("elements per file", 0,
                             "no channel count keeps every block within " + std::to_string(max_steps) +
                                 " steps and the file within the runtime lexer's " +
                                 std::to_string(kMscclMaxElements) + " elements (MAX_NODES)");
    }
    if (c_fit > c_opt) {
      const std::int64_t need = static_cast<std::int64_t>(c_fit) * instances;
      throw ExportLimitError("--max-channels", need,
                             "with --max-channels " + std::to_string(o.max_channels) +
                                 " a block carries more than " + std::to_string(max_steps) +
                                 " steps (MSCCL_MAX_NUM_STEPS) or a channel more than " +
                                 std::to_string(kMscclMaxBlocksPerChannel) +
                                 " blocks of one direction; needs --max-channels >= " + std::to_string(need));
    }
    throw ExportLimitError("--max-tbs", at.blocks,
                           "needs " + std::to_string(at.blocks) + " thread blocks on one GPU (at " +
                               std::to_string(c_fit * instances) +
                               " channels, the fewest that keep every block within " +
                               std::to_string(max_steps) + " steps); needs --max-tbs >= " +
                               std::to_string(at.blocks));
  }
  const int C = chosen.channels;
  result->channels_per_instance = C;
  for (int id : order) {
    Transfer& t = L.transfers[id];
    t.chan = ChannelOf(t.instance, t.src, t.dst, ordinal[id], C);
  }
}

// Blocks and steps from transfers with channels; checks the limits the channel choice does
// not guarantee (the fused lowering's).
MscclProgram BuildProgram(Lowering& L, const std::vector<int>& order, const MscclExportOptions& o, int max_steps,
                          MscclExportResult* result) {
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
      if (b.chan != t.chan || b.src != t.dst || b.cnt != t.cnt) throw std::logic_error("export: bad fusion");
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
  std::map<std::pair<int, std::int64_t>, std::map<std::pair<int, int>, Rational>> loads;
  for (const Transfer& t : L.transfers) {
    Rational fraction(t.cnt, chunks_per_shard_all);
    auto& group = loads[{t.phase, per_level ? t.level : 0}];
    for (const RouteShare& r : L.routes.at(t.route)) {
      for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
        group[{r.path[i], r.path[i + 1]}] += fraction * r.share;
      }
    }
  }
  Rational total = 0;
  *link_loads = nlohmann::json::array();
  for (const auto& [gkey, group] : loads) {
    Rational worst = 0;
    for (const auto& [link, load] : group) {
      auto e = g.FindLink(link.first, link.second);
      if (!e) throw std::logic_error("export: a route uses a missing link");
      const Rational& b = g.link(*e).bandwidth;
      worst = std::max(worst, Rational(load / b));
      link_loads->push_back({{"phase", gkey.first},
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

nlohmann::json RoutesJson(const Topology& g, const Lowering& L, const MscclProgram& p,
                          const std::vector<int>& rank_of_node, const MscclExportResult& r,
                          nlohmann::json link_loads) {
  nlohmann::json j;
  j["format"] = "msccl-routes";
  j["collective"] = p.collective;
  j["ngpus"] = p.ngpus;
  j["nchunksperloop"] = p.nchunksperloop;
  j["chunks_per_shard"] = r.chunks_per_shard;
  j["unit"] = "shard";
  std::vector<std::string> ranks(p.ngpus);
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (rank_of_node[v] >= 0) ranks[rank_of_node[v]] = g.node(v).name;
  }
  j["ranks"] = ranks;
  nlohmann::json routes = nlohmann::json::array();
  for (const auto& list : L.routes) {
    nlohmann::json rl = nlohmann::json::array();
    for (const RouteShare& rs : list) {
      std::vector<std::string> names;
      for (int v : rs.path) names.push_back(g.node(v).name);
      rl.push_back({{"path", names}, {"share", ToString(rs.share)}});
    }
    routes.push_back(rl);
  }
  j["routes"] = routes;
  // [src rank, dst rank, chan, first global chunk, cnt, phase, route index]
  nlohmann::json transfers = nlohmann::json::array();
  for (const Transfer& t : L.transfers) {
    transfers.push_back({t.src, t.dst, t.chan, t.chunk, t.cnt, t.phase, t.route});
  }
  j["transfer_fields"] = {"src", "dst", "chan", "chunk", "cnt", "phase", "route"};
  j["transfers"] = transfers;
  j["link_loads"] = std::move(link_loads);
  j["optimal_ratio"] = ToString(r.optimal_ratio);
  j["achieved_ratio"] = ToString(r.achieved_ratio);
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
    throw std::invalid_argument("--max-tbs above 64 with --profile rccl (RCCL's MSCCL_MAX_NUM_THREAD_BLOCKS is 64)");
  }
  if (o.max_chunks < 1) throw std::invalid_argument("--max-chunks must be at least 1");
  if (o.min_bytes < 0 || o.max_bytes < 0) throw std::invalid_argument("byte bounds must be >= 0");
  if (o.max_bytes != 0 && o.max_bytes < o.min_bytes) {
    throw std::invalid_argument("--max-bytes is below --min-bytes");
  }
}

// Buffer roles per collective (executors.md §8.3); g = global chunk index.
struct Layout {
  std::string coll;
  bool inplace = false;
  bool fuse = false;
  int n = 0;
  std::int64_t K = 0;   // chunks per shard per instance
  std::int64_t cK = 0;  // chunks per shard (all instances)
  std::int64_t Global(int shard, int instance, std::int64_t local) const {
    return shard * cK + instance * K + local;
  }
  // Own contribution of a reduction.
  BufRef Contrib(std::int64_t g) const { return {coll == "allreduce" && inplace ? 'o' : 'i', g}; }
  // Where the owner's reduced result goes.
  BufRef Final(int shard, std::int64_t g) const {
    if (coll == "reduce-scatter") return inplace ? BufRef{'i', g} : BufRef{'o', g - shard * cK};
    return {'o', g};
  }
  // Where a root reads its own data (allgather, broadcast, allreduce's second phase).
  BufRef RootSource(int shard, std::int64_t g) const {
    if (coll == "allgather") return inplace ? BufRef{'o', g} : BufRef{'i', g - shard * cK};
    if (coll == "broadcast") return {inplace ? 'o' : 'i', g};
    return {'o', g};
  }
};

void SetBuffers(const Layout& lay, const Lowering& L, MscclProgram* p) {
  const std::int64_t n = lay.n, cK = lay.cK;
  std::int64_t i = 0, o = 0;
  if (lay.coll == "allgather") {
    i = lay.inplace ? 0 : cK;
    o = n * cK;
  } else if (lay.coll == "reduce-scatter") {
    i = n * cK;
    o = lay.inplace ? 0 : cK;
  } else if (lay.coll == "allreduce") {
    i = lay.inplace ? 0 : n * cK;
    o = n * cK;
  } else {  // broadcast
    i = lay.inplace ? 0 : cK;
    o = cK;
  }
  bool scratch = false;
  for (const Transfer& t : L.transfers) {
    scratch = scratch || t.send.buf == 's' || t.recv_dst.buf == 's';
  }
  p->nchunksperloop = (lay.coll == "broadcast" ? 1 : n) * cK;
  for (MscclGpu& gpu : p->gpus) {
    gpu.i_chunks = i;
    gpu.o_chunks = o;
    gpu.s_chunks = scratch ? n * cK : 0;
  }
}

void AddCopies(const Layout& lay, int instances, const std::vector<int>& roots, Lowering* L) {
  if (lay.inplace || (lay.coll != "allgather" && lay.coll != "broadcast")) return;
  for (int j = 0; j < instances; ++j) {
    for (int r : roots) {
      int shard = lay.coll == "broadcast" ? 0 : r;
      for (std::int64_t a = 0; a < lay.K; a += kMaxCnt) {
        int cnt = static_cast<int>(std::min<std::int64_t>(kMaxCnt, lay.K - a));
        std::int64_t g = lay.Global(shard, j, a);
        L->copies.push_back({r, lay.RootSource(shard, g), BufRef{'o', g}, cnt});
      }
    }
  }
}

// ----- pipeline schedules -------------------------------------------------------------

struct TreeView {
  int root = -1;                          // rank
  std::vector<int> parent;                // by rank
  std::vector<std::vector<int>> children;  // by rank, sorted
  std::vector<int> depth, height;
  std::vector<int> bfs;                   // ranks in BFS order
  std::vector<int> route_of_child;        // by child rank: index into Lowering::routes
  std::int64_t lo = 0, hi = 0;            // local chunk range of the tree
};

TreeView MakeTree(const PipelineTree& t, const std::vector<int>& rank, int n, bool reverse_routes,
                  Lowering* L) {
  TreeView v;
  v.root = rank[t.root];
  v.parent.assign(n, -1);
  v.children.assign(n, {});
  v.depth.assign(n, 0);
  v.height.assign(n, 0);
  v.route_of_child.assign(n, -1);
  for (const PipelineTreeEdge& e : t.edges) {
    int a = rank[e.from], b = rank[e.to];
    v.parent[b] = a;
    v.children[a].push_back(b);
    std::vector<RouteShare> list;
    for (const PipelineRoute& r : e.routes) {
      RouteShare rs;
      rs.path = r.path;
      if (reverse_routes) std::reverse(rs.path.begin(), rs.path.end());
      rs.share = Rational(r.multiplicity) / Rational(t.multiplicity);
      list.push_back(std::move(rs));
    }
    v.route_of_child[b] = static_cast<int>(L->routes.size());
    L->routes.push_back(std::move(list));
  }
  for (auto& c : v.children) std::sort(c.begin(), c.end());
  v.bfs.push_back(v.root);
  for (std::size_t i = 0; i < v.bfs.size(); ++i) {
    for (int c : v.children[v.bfs[i]]) {
      v.depth[c] = v.depth[v.bfs[i]] + 1;
      v.bfs.push_back(c);
    }
  }
  if (static_cast<int>(v.bfs.size()) != n) throw std::logic_error("export: tree does not span the ranks");
  for (auto it = v.bfs.rbegin(); it != v.bfs.rend(); ++it) {
    for (int c : v.children[*it]) v.height[*it] = std::max(v.height[*it], v.height[c] + 1);
  }
  return v;
}

void LowerGatherTree(const Layout& lay, const TreeView& t, int phase, int tree_index, int instance,
                     std::int64_t a, std::int64_t b, int shard, int root_dep, Lowering* L) {
  const std::int64_t g = lay.Global(shard, instance, a);
  std::vector<int> recv_of(lay.n, -1);
  for (int u : t.bfs) {
    // Fused: the receive at u carries the send to u's main child (the deepest subtree).
    int main_child = -1;
    for (int c : t.children[u]) {
      if (main_child < 0 || std::make_pair(t.height[c], c) > std::make_pair(t.height[main_child], main_child)) {
        main_child = c;
      }
    }
    for (int c : t.children[u]) {
      Transfer x;
      x.instance = instance;
      x.phase = phase;
      x.level = t.depth[c];
      x.tree = tree_index;
      x.chunk = g;
      x.src = u;
      x.dst = c;
      x.cnt = static_cast<int>(b - a);
      if (u == t.root) {
        x.send = lay.RootSource(shard, g);
        x.send_dep = root_dep;
      } else {
        x.send = {'o', g};
        x.send_dep = recv_of[u];
      }
      x.recv_dst = x.recv_src = {'o', g};
      x.route = t.route_of_child[c];
      const int id = static_cast<int>(L->transfers.size());
      if (lay.fuse && u != t.root && c == main_child) {
        x.send_fused = true;
        L->transfers[recv_of[u]].fuse_next = id;
      }
      recv_of[c] = id;
      L->transfers.push_back(x);
    }
  }
}

// Returns the transfer of the root's last reduction (the final value of [a, b)).
int LowerReduceTree(const Layout& lay, const TreeView& t, int phase, int tree_index, int instance,
                    std::int64_t a, std::int64_t b, int shard, Lowering* L) {
  const std::int64_t g = lay.Global(shard, instance, a);
  std::vector<int> order = t.bfs;
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return t.height[x] < t.height[y]; });
  std::vector<int> last_rrc(lay.n, -1);
  std::vector<int> from_main(lay.n, -1);  // fused: the receive from v's main child (the last)
  for (int v : order) {
    if (t.children[v].empty()) continue;
    std::vector<int> kids = t.children[v];
    std::stable_sort(kids.begin(), kids.end(), [&](int x, int y) {
      return std::make_pair(t.height[x], x) < std::make_pair(t.height[y], y);
    });
    BufRef acc = v == t.root ? lay.Final(shard, g) : BufRef{'s', g};
    int prev = -1;
    for (int c : kids) {
      Transfer x;
      x.instance = instance;
      x.phase = phase;
      x.level = t.height[c];
      x.tree = tree_index;
      x.chunk = g;
      x.src = c;
      x.dst = v;
      x.cnt = static_cast<int>(b - a);
      if (t.children[c].empty()) {
        x.send = lay.Contrib(g);
      } else {
        x.send = {'s', g};
        x.send_dep = last_rrc[c];
      }
      if (lay.fuse && from_main[c] >= 0) {
        x.send_fused = true;  // c's last receive reduces and sends on (rrs)
        L->transfers[from_main[c]].fuse_next = static_cast<int>(L->transfers.size());
      }
      x.reduce = true;
      x.recv_dst = acc;
      x.recv_src = prev < 0 ? lay.Contrib(g) : acc;
      x.recv_dep = prev;
      x.route = t.route_of_child[c];
      prev = static_cast<int>(L->transfers.size());
      L->transfers.push_back(x);
    }
    last_rrc[v] = prev;
    if (v != t.root) from_main[v] = prev;
  }
  return last_rrc[t.root];
}

}  // namespace

MscclExportResult ExportPipelineToMscclProgram(const Topology& g, const PipelineSchedule& s,
                                               const std::vector<int>& rank_of_node,
                                               const MscclExportOptions& o,
                                               const std::string& file) {
  CheckOptions(o);
  const int n = g.num_compute();
  const std::string coll = s.collective;
  if (coll == "broadcast" && !o.root_specific) {
    throw InputError(file, "collective",
                     "broadcast is exported only with --root-specific: the runtimes select a file by "
                     "size and rank count, never by root, so it would run for every root");
  }
  if (coll != "allgather" && coll != "reduce-scatter" && coll != "allreduce" && coll != "broadcast") {
    throw InputError(file, "collective", "'" + coll + "' cannot be exported");
  }
  std::vector<const PipelineSchedule*> phases;
  if (coll == "allreduce") {
    if (s.phases.size() != 2) throw InputError(file, "phases", "allreduce needs 2 phases");
    phases = {&s.phases[0], &s.phases[1]};
  } else {
    phases = {&s};
  }
  const bool bcast = coll == "broadcast";
  const int shards = bcast ? 1 : n;
  const std::int64_t budget = o.max_chunks / (static_cast<std::int64_t>(shards) * o.instances);
  if (budget < 1) {
    throw ExportLimitError("--max-chunks", static_cast<std::int64_t>(shards) * o.instances,
                           "one chunk per shard and instance needs --max-chunks >= " +
                               std::to_string(static_cast<std::int64_t>(shards) * o.instances));
  }
  // Weight groups: per phase, per root (rank order), the trees of that root.
  std::vector<std::vector<Rational>> groups;
  std::vector<std::vector<std::vector<int>>> trees_of(phases.size(), std::vector<std::vector<int>>(n));
  for (std::size_t p = 0; p < phases.size(); ++p) {
    for (std::size_t i = 0; i < phases[p]->trees.size(); ++i) {
      trees_of[p][rank_of_node[phases[p]->trees[i].root]].push_back(static_cast<int>(i));
    }
    for (int r = 0; r < n; ++r) {
      if (trees_of[p][r].empty()) continue;
      std::vector<Rational> w;
      for (int i : trees_of[p][r]) {
        w.push_back(Rational(phases[p]->trees[i].multiplicity) / Rational(phases[p]->k));
      }
      groups.push_back(std::move(w));
    }
  }
  WeightChunking ch = ChunkWeightGroups(groups, budget);
  Layout lay;
  lay.coll = coll;
  lay.inplace = o.inplace;
  lay.fuse = o.fuse;
  lay.n = n;
  lay.K = ch.chunks_per_shard;
  lay.cK = lay.K * o.instances;

  Lowering L;
  L.ngpus = n;
  std::vector<std::vector<TreeView>> views(phases.size());
  std::size_t group = 0;
  for (std::size_t p = 0; p < phases.size(); ++p) {
    const bool reduce = phases[p]->collective == "reduce-scatter";
    for (const PipelineTree& t : phases[p]->trees) {
      views[p].push_back(MakeTree(t, rank_of_node, n, reduce, &L));
    }
    for (int r = 0; r < n; ++r) {
      if (trees_of[p][r].empty()) continue;
      std::int64_t at = 0;
      for (std::size_t k = 0; k < trees_of[p][r].size(); ++k) {
        TreeView& v = views[p][trees_of[p][r][k]];
        v.lo = at;
        at += ch.counts[group][k];
        v.hi = at;
      }
      ++group;
    }
  }
  std::vector<int> roots;
  for (int r = 0; r < n; ++r) {
    bool any = false;
    for (std::size_t p = 0; p < phases.size(); ++p) any = any || !trees_of[p][r].empty();
    if (any) roots.push_back(r);
  }
  for (int j = 0; j < o.instances; ++j) {
    for (int r : roots) {
      const int shard = bcast ? 0 : r;
      std::set<std::int64_t> bounds;
      for (std::size_t p = 0; p < phases.size(); ++p) {
        for (int i : trees_of[p][r]) bounds.insert(views[p][i].lo);
      }
      std::vector<std::int64_t> cuts = Pieces(bounds, lay.K);
      for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
        const std::int64_t a = cuts[c], b = cuts[c + 1];
        int final_rrc = -1;
        for (std::size_t p = 0; p < phases.size(); ++p) {
          int tree = -1;
          for (int i : trees_of[p][r]) {
            if (views[p][i].lo <= a && b <= views[p][i].hi) tree = i;
          }
          if (tree < 0) throw std::logic_error("export: piece outside every tree");
          if (phases[p]->collective == "reduce-scatter") {
            final_rrc = LowerReduceTree(lay, views[p][tree], static_cast<int>(p), tree, j, a, b, shard, &L);
          } else {
            LowerGatherTree(lay, views[p][tree], static_cast<int>(p), tree, j, a, b, shard,
                            coll == "allreduce" ? final_rrc : -1, &L);
          }
        }
      }
    }
  }
  AddCopies(lay, o.instances, roots, &L);

  MscclExportResult result;
  result.chunks_per_shard = lay.K;
  result.exact_chunks = ch.exact;
  result.exact_chunks_per_shard = ch.exact_chunks_per_shard;
  result.program = Assemble(L, o, &result);
  result.program.collective = coll;
  result.program.name = o.name.empty() ? "collsynth-" + coll : o.name;
  SetBuffers(lay, L, &result.program);
  result.optimal_ratio = s.ratio;
  if (bcast) result.root_rank = rank_of_node[s.root ? *s.root : s.trees.at(0).root];
  nlohmann::json link_loads;
  result.achieved_ratio = AccountLoads(g, L, lay.cK, false, &link_loads);
  result.routes = RoutesJson(g, L, result.program, rank_of_node, result, std::move(link_loads));
  return result;
}

// ----- step schedules ------------------------------------------------------------------

MscclExportResult ExportStepsToMscclProgram(const Topology& g, const StepSchedule& s,
                                            const std::vector<int>& rank_of_node,
                                            const MscclExportOptions& o, const std::string& file) {
  CheckOptions(o);
  const int n = g.num_compute();
  const std::string coll = s.collective;
  if (coll != "allgather" && coll != "reduce-scatter" && coll != "allreduce") {
    throw InputError(file, "collective",
                     "'" + coll + "' step schedules cannot be exported (allgather, reduce-scatter, allreduce)");
  }
  if (coll == "allreduce" && !s.rs_steps) throw InputError(file, "rs_steps", "missing for allreduce");
  std::vector<Rational> ends;
  for (std::size_t i = 0; i < s.sends.size(); ++i) {
    const StepSend& x = s.sends[i];
    if (!g.IsCompute(x.from) || !g.IsCompute(x.to)) {
      throw InputError(file, "sends[" + std::to_string(i) + "]",
                       "sends through switches cannot be exported to MSCCL yet (a step schedule's "
                       "switch hops are not collapsed into GPU-to-GPU transfers)");
    }
    for (const Interval& iv : x.chunk) {
      ends.push_back(iv.lo);
      ends.push_back(iv.hi);
    }
  }
  const std::int64_t budget = o.max_chunks / (static_cast<std::int64_t>(n) * o.instances);
  BigInt lcm = LcmOfDenominators(ends);
  if (budget < 1 || lcm > budget) {
    BigInt need = lcm * n * o.instances;
    throw ExportLimitError("--max-chunks", need > 1000000000000LL ? 0 : ToInt64(need),
                           "the step schedule's intervals need " + ToString(lcm) +
                               " chunks per shard (step schedules are not rounded): --max-chunks >= " +
                               ToString(need));
  }
  Layout lay;
  lay.coll = coll;
  lay.inplace = o.inplace;
  lay.n = n;
  lay.K = ToInt64(lcm);
  lay.cK = lay.K * o.instances;
  auto to_chunk = [&](const Rational& x) { return ToInt64(Numerator(x * lay.K)); };

  // Elementary segments per shard (rank): every interval end, then runs of <= 71 chunks.
  std::vector<std::set<std::int64_t>> bound_sets(n);
  for (const StepSend& x : s.sends) {
    for (const Interval& iv : x.chunk) {
      bound_sets[rank_of_node[x.source]].insert(to_chunk(iv.lo));
      bound_sets[rank_of_node[x.source]].insert(to_chunk(iv.hi));
    }
  }
  std::vector<std::vector<std::int64_t>> segs(n);
  for (int r = 0; r < n; ++r) segs[r] = Pieces(bound_sets[r], lay.K);
  auto seg_index = [&](int shard, std::int64_t chunk) {
    const auto& v = segs[shard];
    return static_cast<int>(std::lower_bound(v.begin(), v.end(), chunk) - v.begin());
  };

  std::vector<int> order(s.sends.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const StepSend &x = s.sends[a], &y = s.sends[b];
    return std::make_tuple(x.step, rank_of_node[x.from], rank_of_node[x.to]) <
           std::make_tuple(y.step, rank_of_node[y.from], rank_of_node[y.to]);
  });

  Lowering L;
  L.ngpus = n;
  // Physical route of a send: its link (one route list per directed pair).
  std::map<std::pair<int, int>, int> route_of_pair;
  auto route_of = [&](int from, int to) {
    auto it = route_of_pair.find({from, to});
    if (it != route_of_pair.end()) return it->second;
    int id = static_cast<int>(L.routes.size());
    L.routes.push_back({RouteShare{{from, to}, Rational(1)}});
    route_of_pair[{from, to}] = id;
    return id;
  };

  for (int j = 0; j < o.instances; ++j) {
    // State per (shard, segment, rank).
    std::vector<std::vector<int>> held(n), held_step(n), last_rrc(n), final_rrc(n);
    for (int r = 0; r < n; ++r) {
      std::size_t cells = segs[r].size() * n;
      held[r].assign(cells, -1);
      held_step[r].assign(cells, 0);
      last_rrc[r].assign(cells, -1);
    }
    auto cell = [&](int seg, int rank) { return static_cast<std::size_t>(seg) * n + rank; };
    bool in_ag_phase_of_ar = false;
    std::size_t i = 0;
    while (i < order.size()) {
      const int step = s.sends[order[i]].step;
      std::size_t end = i;
      while (end < order.size() && s.sends[order[end]].step == step) ++end;
      const bool rs_kind = coll == "reduce-scatter" || (coll == "allreduce" && step <= *s.rs_steps);
      const int phase = coll == "allreduce" && step > *s.rs_steps ? 1 : 0;
      if (coll == "allreduce" && phase == 1 && !in_ag_phase_of_ar) {
        in_ag_phase_of_ar = true;
        for (int r = 0; r < n; ++r) {
          final_rrc[r].assign(segs[r].size(), -1);
          for (std::size_t sg = 0; sg + 1 < segs[r].size(); ++sg) final_rrc[r][sg] = last_rrc[r][cell(static_cast<int>(sg), r)];
        }
      }
      // Sender-side facts from the state before this step.
      struct Piece {
        int send_index;
        int shard, seg;
        bool keep;
        int send_dep;
        bool from_acc;
      };
      std::vector<Piece> pieces;
      for (std::size_t k = i; k < end; ++k) {
        const StepSend& x = s.sends[order[k]];
        const int u = rank_of_node[x.from], w = rank_of_node[x.to], sh = rank_of_node[x.source];
        const std::string item = "sends[" + std::to_string(order[k]) + "]";
        for (const Interval& iv : x.chunk) {
          for (int sg = seg_index(sh, to_chunk(iv.lo)); segs[sh][sg] < to_chunk(iv.hi); ++sg) {
            Piece pc{order[k], sh, sg, true, -1, false};
            if (rs_kind) {
              pc.send_dep = last_rrc[sh][cell(sg, u)];
              pc.from_acc = pc.send_dep >= 0;
            } else {
              if (w == sh) pc.keep = false;  // the owner already holds its shard
              if (u == sh) {
                if (phase == 1) {
                  pc.send_dep = final_rrc[sh][sg];
                  if (pc.send_dep < 0) throw InputError(file, item, "the owner has no reduced value to send");
                }
              } else {
                pc.send_dep = held[sh][cell(sg, u)];
                if (pc.send_dep < 0 || held_step[sh][cell(sg, u)] >= step) {
                  throw InputError(file, item, "the sender does not hold the data before this step");
                }
              }
            }
            pieces.push_back(pc);
          }
        }
      }
      // Receivers, in order; merge runs of segments with equal dependencies.
      std::vector<std::pair<std::size_t, int>> pending;  // (cell in held[shard], transfer)
      std::vector<int> pending_shard;
      std::set<std::pair<int, std::size_t>> pending_cells;  // (shard, cell) received this step
      std::size_t a = 0;
      while (a < pieces.size()) {
        const Piece& first = pieces[a];
        const StepSend& x = s.sends[first.send_index];
        const int u = rank_of_node[x.from], w = rank_of_node[x.to], sh = first.shard;
        // Receiver facts for a piece.
        auto skip = [&](const Piece& pc) {
          if (rs_kind) return false;
          if (!pc.keep || held[sh][cell(pc.seg, w)] >= 0) return true;
          return pending_cells.count({sh, cell(pc.seg, w)}) > 0;
        };
        if (skip(first)) {
          ++a;
          continue;
        }
        const int recv_dep = rs_kind ? last_rrc[sh][cell(first.seg, w)] : -1;
        std::size_t b = a + 1;
        while (b < pieces.size() && pieces[b].send_index == first.send_index && pieces[b].shard == sh &&
               pieces[b].seg == pieces[b - 1].seg + 1 && pieces[b].send_dep == first.send_dep &&
               pieces[b].from_acc == first.from_acc && !skip(pieces[b]) &&
               (!rs_kind || last_rrc[sh][cell(pieces[b].seg, w)] == recv_dep) &&
               segs[sh][pieces[b].seg + 1] - segs[sh][first.seg] <= kMaxCnt) {
          ++b;
        }
        const std::int64_t lo = segs[sh][first.seg], hi = segs[sh][pieces[b - 1].seg + 1];
        Transfer t;
        t.instance = j;
        t.phase = phase;
        t.level = step;
        t.chunk = lay.Global(sh, j, lo);
        t.src = u;
        t.dst = w;
        t.cnt = static_cast<int>(hi - lo);
        t.route = route_of(x.from, x.to);
        t.send_dep = first.send_dep;
        const std::int64_t gch = t.chunk;
        if (rs_kind) {
          t.send = first.from_acc ? (u == sh ? lay.Final(sh, gch) : BufRef{'s', gch}) : lay.Contrib(gch);
          t.reduce = true;
          t.recv_dst = w == sh ? lay.Final(sh, gch) : BufRef{'s', gch};
          t.recv_src = recv_dep >= 0 ? t.recv_dst : lay.Contrib(gch);
          t.recv_dep = recv_dep;
        } else {
          t.send = u == sh ? lay.RootSource(sh, gch) : BufRef{'o', gch};
          t.recv_dst = t.recv_src = {'o', gch};
        }
        const int id = static_cast<int>(L.transfers.size());
        L.transfers.push_back(t);
        for (std::size_t q = a; q < b; ++q) {
          if (rs_kind) {
            last_rrc[sh][cell(pieces[q].seg, w)] = id;
          } else {
            pending.push_back({cell(pieces[q].seg, w), id});
            pending_shard.push_back(sh);
            pending_cells.insert({sh, cell(pieces[q].seg, w)});
          }
        }
        a = b;
      }
      for (std::size_t q = 0; q < pending.size(); ++q) {
        held[pending_shard[q]][pending[q].first] = pending[q].second;
        held_step[pending_shard[q]][pending[q].first] = step;
      }
      i = end;
    }
  }
  std::vector<int> roots(n);
  std::iota(roots.begin(), roots.end(), 0);
  AddCopies(lay, o.instances, roots, &L);

  MscclExportResult result;
  result.chunks_per_shard = lay.K;
  result.exact_chunks = true;
  result.exact_chunks_per_shard = lcm;
  result.program = Assemble(L, o, &result);
  result.program.collective = coll;
  result.program.name = o.name.empty() ? "collsynth-" + coll : o.name;
  SetBuffers(lay, L, &result.program);
  // T_B of the schedule as given: sum over steps of max over links of measure / bandwidth.
  std::map<int, std::map<std::pair<int, int>, Rational>> per_step;
  for (const StepSend& x : s.sends) {
    Rational m = 0;
    for (const Interval& iv : x.chunk) m += iv.hi - iv.lo;
    per_step[x.step][{x.from, x.to}] += m;
  }
  result.optimal_ratio = 0;
  for (const auto& [step, links] : per_step) {
    Rational worst = 0;
    for (const auto& [link, m] : links) {
      auto e = g.FindLink(link.first, link.second);
      if (!e) throw InputError(file, "sends", "a send uses a missing link");
      worst = std::max(worst, Rational(m / g.link(*e).bandwidth));
    }
    result.optimal_ratio += worst;
  }
  nlohmann::json link_loads;
  result.achieved_ratio = AccountLoads(g, L, lay.cK, true, &link_loads);
  result.routes = RoutesJson(g, L, result.program, rank_of_node, result, std::move(link_loads));
  return result;
}

// ----- self-check ----------------------------------------------------------------------

std::vector<std::string> CheckMscclProgramInvariants(const MscclProgram& p,
                                                     const MscclExportOptions& o) {
  std::vector<std::string> v;
  const int max_steps = MscclMaxSteps(o.profile);
  if (p.nchannels < 1 || p.nchannels > o.max_channels) {
    v.push_back("H5: nchannels " + std::to_string(p.nchannels) + " outside 1.." + std::to_string(o.max_channels));
  }
  // Connector sequences: (src, dst, chan) -> cnts in document order, per side.
  std::map<std::tuple<int, int, int>, std::vector<int>> sent, received;
  // Steps as graph nodes: (gpu, tb, step) -> id.
  std::vector<std::vector<int>> base(p.gpus.size());
  int nodes = 0;
  for (std::size_t gi = 0; gi < p.gpus.size(); ++gi) {
    for (const MscclBlock& b : p.gpus[gi].blocks) {
      base[gi].push_back(nodes);
      nodes += static_cast<int>(b.steps.size());
    }
  }
  std::vector<std::vector<int>> succ(nodes);
  std::map<std::tuple<int, int, int>, std::vector<int>> send_nodes, recv_nodes;
  for (std::size_t gi = 0; gi < p.gpus.size(); ++gi) {
    const int gpu = static_cast<int>(gi);
    const MscclGpu& G = p.gpus[gi];
    const std::string at = "GPU " + std::to_string(gpu);
    if (static_cast<int>(G.blocks.size()) > o.max_tbs) {
      v.push_back("H4: " + at + " has " + std::to_string(G.blocks.size()) + " blocks > " + std::to_string(o.max_tbs));
    }
    std::set<std::pair<int, int>> send_conn, recv_conn;
    std::map<int, int> senders_per_chan, receivers_per_chan;
    for (std::size_t bi = 0; bi < G.blocks.size(); ++bi) {
      const MscclBlock& b = G.blocks[bi];
      const std::string bt = at + " block " + std::to_string(bi);
      if (b.chan < 0 || b.chan >= p.nchannels) v.push_back("H5: " + bt + " chan " + std::to_string(b.chan) + " >= nchannels");
      for (int peer : {b.send, b.recv}) {
        if (peer < -1 || peer >= p.ngpus || peer == gpu) v.push_back(bt + ": bad peer " + std::to_string(peer));
      }
      if (b.send >= 0) {
        if (!send_conn.insert({b.chan, b.send}).second) v.push_back("H1: " + bt + " shares a send connector");
        ++senders_per_chan[b.chan];
      }
      if (b.recv >= 0) {
        if (!recv_conn.insert({b.chan, b.recv}).second) v.push_back("H1: " + bt + " shares a receive connector");
        ++receivers_per_chan[b.chan];
      }
      if (static_cast<int>(b.steps.size()) > max_steps) {
        v.push_back("H3: " + bt + " has " + std::to_string(b.steps.size()) + " steps > " + std::to_string(max_steps));
      }
      for (std::size_t si = 0; si < b.steps.size(); ++si) {
        const MscclStep& s = b.steps[si];
        const std::string st = bt + " step " + std::to_string(si);
        const int id = base[gi][bi] + static_cast<int>(si);
        if (si > 0) succ[id - 1].push_back(id);
        if (s.cnt < 1 || s.cnt >= kMscclMaxCount) v.push_back(st + ": cnt " + std::to_string(s.cnt) + " outside 1..71");
        const bool sends = s.type == "s" || s.type == "rcs" || s.type == "rrs" || s.type == "rrcs";
        const bool recvs = s.type == "r" || s.type == "rcs" || s.type == "rrs" || s.type == "rrc" || s.type == "rrcs";
        if (sends) {
          if (b.send < 0) v.push_back(st + ": sends without a send peer");
          sent[{gpu, b.send, b.chan}].push_back(s.cnt);
          send_nodes[{gpu, b.send, b.chan}].push_back(id);
        }
        if (recvs) {
          if (b.recv < 0) v.push_back(st + ": receives without a recv peer");
          received[{b.recv, gpu, b.chan}].push_back(s.cnt);
          recv_nodes[{b.recv, gpu, b.chan}].push_back(id);
        }
        for (auto [buf, off] : {std::make_pair(s.srcbuf, s.srcoff), std::make_pair(s.dstbuf, s.dstoff)}) {
          std::int64_t size = buf == 'i' ? G.i_chunks : buf == 'o' ? G.o_chunks : buf == 's' ? G.s_chunks : -1;
          if (size < 0 || off < 0 || off + s.cnt > size) {
            v.push_back(st + ": offset " + std::string(1, buf) + "[" + std::to_string(off) + "+" +
                        std::to_string(s.cnt) + "] outside the buffer");
          }
        }
        if ((s.depid < 0) != (s.deps < 0)) v.push_back(st + ": depid/deps half set");
        if (s.depid >= 0) {
          if (s.depid >= static_cast<int>(G.blocks.size()) || s.deps >= static_cast<int>(G.blocks[s.depid].steps.size())) {
            v.push_back("H6: " + st + " depends on a missing step");
          } else {
            if (!G.blocks[s.depid].steps[s.deps].hasdep) v.push_back("H6: " + st + " depends on a step without hasdep");
            succ[base[gi][s.depid] + s.deps].push_back(id);
          }
        }
      }
    }
    for (const auto& [chan, count] : senders_per_chan) {
      if (count > kMscclMaxBlocksPerChannel) v.push_back("H4: " + at + " has more than 32 senders on channel " + std::to_string(chan));
    }
    for (const auto& [chan, count] : receivers_per_chan) {
      if (count > kMscclMaxBlocksPerChannel) v.push_back("H4: " + at + " has more than 32 receivers on channel " + std::to_string(chan));
    }
  }
  std::set<std::tuple<int, int, int>> connectors;
  for (const auto& [k, x] : sent) connectors.insert(k);
  for (const auto& [k, x] : received) connectors.insert(k);
  for (const auto& k : connectors) {
    if (sent[k] != received[k]) {
      v.push_back("H2: cnt sequences differ on (src " + std::to_string(std::get<0>(k)) + ", dst " +
                  std::to_string(std::get<1>(k)) + ", chan " + std::to_string(std::get<2>(k)) + ")");
      continue;
    }
    for (std::size_t q = 0; q < send_nodes[k].size(); ++q) succ[send_nodes[k][q]].push_back(recv_nodes[k][q]);
  }
  // Acyclic (Kahn).
  std::vector<int> indeg(nodes, 0);
  for (const auto& s : succ) {
    for (int t : s) ++indeg[t];
  }
  std::vector<int> ready;
  for (int x = 0; x < nodes; ++x) {
    if (indeg[x] == 0) ready.push_back(x);
  }
  int done = 0;
  while (!ready.empty()) {
    int x = ready.back();
    ready.pop_back();
    ++done;
    for (int t : succ[x]) {
      if (--indeg[t] == 0) ready.push_back(t);
    }
  }
  if (done != nodes) v.push_back("H6: the dependency graph has a cycle");
  std::int64_t elements = 1 + static_cast<std::int64_t>(p.gpus.size()) + nodes;
  for (const MscclGpu& G : p.gpus) elements += static_cast<std::int64_t>(G.blocks.size());
  if (elements > kMscclMaxElements) {
    v.push_back("lexer: " + std::to_string(elements) + " elements > " + std::to_string(kMscclMaxElements) +
                " (MAX_NODES)");
  }
  return v;
}

}  // namespace collsynth
