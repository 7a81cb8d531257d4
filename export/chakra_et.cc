// MSCCL program -> Chakra execution traces for ASTRA-sim (chakra_et.h).
#include "export/chakra_et.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "core/input_error.h"
#include "export/protobuf_wire.h"

namespace collsynth {

namespace {

using Connector = std::tuple<int, int, int>;  // (src, dst, channel)

// The nodes a step of this type becomes, in order (each depends on the one before).
const std::vector<ChakraNodeType>* PartsOf(const std::string& type) {
  using T = ChakraNodeType;
  static const std::map<std::string, std::vector<ChakraNodeType>> kTable = {
      {"s", {T::kSend}},
      {"r", {T::kRecv}},
      {"rcs", {T::kRecv, T::kSend}},
      {"rrc", {T::kRecv, T::kComp}},
      {"rrs", {T::kRecv, T::kComp, T::kSend}},
      {"rrcs", {T::kRecv, T::kComp, T::kSend}},
      {"cpy", {T::kComp}},
      {"re", {T::kComp}},
      {"nop", {T::kComp}},
  };
  auto it = kTable.find(type);
  return it == kTable.end() ? nullptr : &it->second;
}

bool Sends(const std::string& type) {
  return type == "s" || type == "rcs" || type == "rrs" || type == "rrcs";
}
bool Receives(const std::string& type) {
  return type == "r" || type == "rcs" || type == "rrc" || type == "rrs" || type == "rrcs";
}

std::string ConnectorName(const Connector& c) {
  return std::to_string(std::get<0>(c)) + "->" + std::to_string(std::get<1>(c)) + " channel " +
         std::to_string(std::get<2>(c));
}

ChakraCommType CommTypeOf(Collective c) {
  switch (c) {
    case Collective::kAllgather:
      return ChakraCommType::kAllGather;
    case Collective::kReduceScatter:
      return ChakraCommType::kReduceScatter;
    case Collective::kAllreduce:
      return ChakraCommType::kAllReduce;
    case Collective::kBroadcast:
      break;
    case Collective::kAlltoall:
      return ChakraCommType::kAllToAll;
  }
  throw std::invalid_argument("broadcast: ASTRA-sim has no custom broadcast");
}

// AttributeProto fields (et_def.proto).
constexpr int kAttrName = 1;
constexpr int kAttrInt32 = 7;
constexpr int kAttrInt64 = 9;
constexpr int kAttrString = 29;
// Node and GlobalMetadata fields.
constexpr int kNodeId = 1;
constexpr int kNodeName = 2;
constexpr int kNodeType = 3;
constexpr int kNodeDataDeps = 5;
constexpr int kNodeAttr = 10;
constexpr int kMetadataAttr = 2;

std::string StringAttr(const std::string& name, const std::string& value) {
  ProtobufWriter a;
  a.BytesField(kAttrName, name);
  a.BytesField(kAttrString, value);
  return a.Take();
}

std::string IntAttr(const std::string& name, int field, std::int64_t value) {
  ProtobufWriter a;
  a.BytesField(kAttrName, name);
  a.SignedField(field, value);
  return a.Take();
}

}  // namespace

std::int64_t ChakraTraceNodeCount(const MscclProgram& p, int slices) {
  std::int64_t per_slice = 0;
  for (const MscclGpu& gpu : p.gpus) {
    for (const MscclBlock& b : gpu.blocks) {
      for (const MscclStep& s : b.steps) {
        const std::vector<ChakraNodeType>* parts = PartsOf(s.type);
        if (parts != nullptr) per_slice += static_cast<std::int64_t>(parts->size());
      }
    }
  }
  std::int64_t total = 0;
  if (__builtin_mul_overflow(per_slice, static_cast<std::int64_t>(slices), &total)) {
    return std::numeric_limits<std::int64_t>::max();
  }
  return total;
}

namespace {

// The input checks; returns nchunksperloop * slices, the pieces the size is cut into.
std::int64_t CheckLoweringInput(const MscclProgram& p, const ChakraOptions& options) {
  if (p.collective == Collective::kBroadcast) {
    throw std::invalid_argument(
        "broadcast: ASTRA-sim has custom all-gather, reduce-scatter and all-reduce only");
  }
  if (options.slices < 1) throw std::invalid_argument("slices must be at least 1");
  if (options.size_bytes <= 0) throw std::invalid_argument("the size must be positive");
  if (p.nchunksperloop <= 0) throw std::invalid_argument("nchunksperloop must be positive");
  std::int64_t pieces = 0;
  if (__builtin_mul_overflow(p.nchunksperloop, static_cast<std::int64_t>(options.slices),
                             &pieces) ||
      options.size_bytes % pieces != 0) {
    throw std::invalid_argument("the size is not a multiple of nchunksperloop * slices");
  }
  if (static_cast<int>(p.gpus.size()) != p.ngpus) {
    throw std::invalid_argument("the program lists " + std::to_string(p.gpus.size()) +
                                " GPUs for ngpus " + std::to_string(p.ngpus));
  }
  return pieces;
}

// The transfers (counts) of every connector as its sender lists them; both sides must list
// the same in the same FIFO order (H2).
std::map<Connector, std::vector<int>> MatchedConnectors(const MscclProgram& p) {
  const int n = p.ngpus;
  std::map<Connector, std::vector<int>> sent, received;
  for (int v = 0; v < n; ++v) {
    for (const MscclBlock& b : p.gpus[v].blocks) {
      for (const MscclStep& s : b.steps) {
        if (PartsOf(s.type) == nullptr) {
          throw std::invalid_argument("rank " + std::to_string(v) + ": step type '" + s.type +
                                      "' has no Chakra lowering");
        }
        if (Sends(s.type)) {
          if (b.send < 0 || b.send >= n || b.send == v)
            throw std::invalid_argument("rank " + std::to_string(v) + ": a send without a peer");
          sent[{v, b.send, b.chan}].push_back(s.cnt);
        }
        if (Receives(s.type)) {
          if (b.recv < 0 || b.recv >= n || b.recv == v)
            throw std::invalid_argument("rank " + std::to_string(v) + ": a receive without a peer");
          received[{b.recv, v, b.chan}].push_back(s.cnt);
        }
      }
    }
  }
  if (sent != received) {
    for (const auto& [c, cnts] : sent) {
      auto it = received.find(c);
      if (it == received.end() || it->second != cnts)
        throw std::invalid_argument("connector " + ConnectorName(c) +
                                    ": the sender's and the receiver's transfers differ");
    }
    for (const auto& [c, cnts] : received) {
      if (sent.find(c) == sent.end())
        throw std::invalid_argument("connector " + ConnectorName(c) + ": receives without sends");
    }
  }
  return sent;
}

// Tags: per (src, dst), slice-major, then channel, then FIFO position. A connector's first
// tag in a slice is slice * per_pair[(src, dst)] + base[connector] + its FIFO position.
struct TagPlan {
  std::map<Connector, std::int64_t> base;
  std::map<std::pair<int, int>, std::int64_t> per_pair;
};

TagPlan PlanTags(const std::map<Connector, std::vector<int>>& sent, int slices) {
  TagPlan tags;
  for (const auto& [c, cnts] : sent) {
    std::int64_t& count = tags.per_pair[{std::get<0>(c), std::get<1>(c)}];
    tags.base[c] = count;
    count += static_cast<std::int64_t>(cnts.size());
  }
  for (const auto& [pair, count] : tags.per_pair) {
    if (count * slices - 1 > std::numeric_limits<std::int32_t>::max()) {
      const std::int64_t fit = std::numeric_limits<std::int32_t>::max() / count;
      throw ExportLimitError("comm_tag", fit,
                             "ranks " + std::to_string(pair.first) + " -> " +
                                 std::to_string(pair.second) + " need " + std::to_string(count) +
                                 " tags per slice; int32 tags allow at most " +
                                 std::to_string(fit) + " slices");
    }
  }
  return tags;
}

// Rank v's nodes in emission order (slice, block, step, part), each depending on the node
// before it in its block (across slices too) and on the last node of the step it names
// (depid, deps); sends and receives carry their peer, size and tag.
std::vector<ChakraNode> EmitRankNodes(const MscclProgram& p, int v, const TagPlan& tags,
                                      const ChakraTraces& t) {
  const MscclGpu& G = p.gpus[v];
  const int nb = static_cast<int>(G.blocks.size());
  // Flattened step index g(b, i) and node positions in emission order (slice, block, step).
  std::vector<std::int64_t> block_first(nb + 1, 0);
  for (int b = 0; b < nb; ++b) {
    block_first[b + 1] = block_first[b] + static_cast<std::int64_t>(G.blocks[b].steps.size());
  }
  const std::int64_t nsteps = block_first[nb];
  std::vector<std::int64_t> part_first(nsteps + 1, 0);
  for (int b = 0; b < nb; ++b) {
    const MscclBlock& B = G.blocks[b];
    for (std::size_t i = 0; i < B.steps.size(); ++i) {
      const MscclStep& s = B.steps[i];
      if (s.depid >= 0 && (s.depid >= nb || s.deps < 0 ||
                           s.deps >= static_cast<int>(G.blocks[s.depid].steps.size()))) {
        throw std::invalid_argument("rank " + std::to_string(v) + " block " + std::to_string(b) +
                                    " step " + std::to_string(i) +
                                    ": the dependency names no step");
      }
      const std::int64_t g = block_first[b] + static_cast<std::int64_t>(i);
      part_first[g + 1] = part_first[g] + static_cast<std::int64_t>(PartsOf(s.type)->size());
    }
  }
  const std::int64_t per_slice = part_first[nsteps];
  const std::int64_t total = per_slice * t.slices;
  auto first_node = [&](int slice, int b, int i) {
    return slice * per_slice + part_first[block_first[b] + i];
  };
  auto last_node = [&](int slice, int b, int i) {
    return slice * per_slice + part_first[block_first[b] + i + 1] - 1;
  };

  std::vector<ChakraNode> raw(static_cast<std::size_t>(total));
  for (int slice = 0; slice < t.slices; ++slice) {
    std::map<Connector, std::int64_t> position;  // FIFO position in this slice
    for (int b = 0; b < nb; ++b) {
      const MscclBlock& B = G.blocks[b];
      const int ns = static_cast<int>(B.steps.size());
      for (int i = 0; i < ns; ++i) {
        const MscclStep& s = B.steps[i];
        const std::vector<ChakraNodeType>& parts = *PartsOf(s.type);
        std::int64_t at = first_node(slice, b, i);
        for (std::size_t k = 0; k < parts.size(); ++k, ++at) {
          ChakraNode& node = raw[at];
          node.type = parts[k];
          node.block = b;
          node.step = i;
          node.slice = slice;
          if (k > 0) {
            node.data_deps.push_back(static_cast<std::uint64_t>(at - 1));
          } else {
            if (i > 0) {
              node.data_deps.push_back(static_cast<std::uint64_t>(last_node(slice, b, i - 1)));
            } else if (slice > 0) {
              node.data_deps.push_back(static_cast<std::uint64_t>(last_node(slice - 1, b, ns - 1)));
            }
            if (s.depid >= 0) {
              node.data_deps.push_back(
                  static_cast<std::uint64_t>(last_node(slice, s.depid, s.deps)));
            }
          }
          if (node.type == ChakraNodeType::kComp) continue;
          const bool send = node.type == ChakraNodeType::kSend;
          const Connector c = send ? Connector{v, B.send, B.chan} : Connector{B.recv, v, B.chan};
          const std::int64_t j = position[c]++;
          const std::int64_t pair_count = tags.per_pair.at({std::get<0>(c), std::get<1>(c)});
          node.comm_src = std::get<0>(c);
          node.comm_dst = std::get<1>(c);
          node.comm_size = static_cast<std::int64_t>(s.cnt) * t.chunk_slice_bytes;
          node.comm_tag = static_cast<std::int32_t>(slice * pair_count + tags.base.at(c) + j);
        }
      }
    }
  }
  return raw;
}

// Rank v's nodes renumbered topologically, smallest emission index first (deterministic),
// with their dependencies renumbered, sorted and without repeats.
std::vector<ChakraNode> TopologicalOrder(std::vector<ChakraNode> raw, int v) {
  const std::int64_t total = static_cast<std::int64_t>(raw.size());
  std::vector<int> indegree(total, 0);
  std::vector<std::int64_t> succ_first(total + 1, 0);
  for (std::int64_t x = 0; x < total; ++x) {
    indegree[x] = static_cast<int>(raw[x].data_deps.size());
    for (std::uint64_t d : raw[x].data_deps) ++succ_first[d + 1];
  }
  for (std::int64_t x = 0; x < total; ++x) succ_first[x + 1] += succ_first[x];
  std::vector<std::int64_t> succ(succ_first[total]);
  {
    std::vector<std::int64_t> fill(succ_first.begin(), succ_first.end() - 1);
    for (std::int64_t x = 0; x < total; ++x) {
      for (std::uint64_t d : raw[x].data_deps) succ[fill[d]++] = x;
    }
  }
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> ready;
  for (std::int64_t x = 0; x < total; ++x) {
    if (indegree[x] == 0) ready.push(x);
  }
  std::vector<std::int64_t> new_id(total, -1);
  std::vector<std::int64_t> order;
  order.reserve(total);
  while (!ready.empty()) {
    const std::int64_t x = ready.top();
    ready.pop();
    new_id[x] = static_cast<std::int64_t>(order.size());
    order.push_back(x);
    for (std::int64_t k = succ_first[x]; k < succ_first[x + 1]; ++k) {
      if (--indegree[succ[k]] == 0) ready.push(succ[k]);
    }
  }
  if (static_cast<std::int64_t>(order.size()) != total) {
    throw std::invalid_argument("rank " + std::to_string(v) +
                                ": the program's dependencies form a cycle");
  }
  std::vector<ChakraNode> out;
  out.reserve(total);
  for (std::int64_t x : order) {
    ChakraNode node = std::move(raw[x]);
    for (std::uint64_t& d : node.data_deps) d = static_cast<std::uint64_t>(new_id[d]);
    std::sort(node.data_deps.begin(), node.data_deps.end());
    node.data_deps.erase(std::unique(node.data_deps.begin(), node.data_deps.end()),
                         node.data_deps.end());
    out.push_back(std::move(node));
  }
  return out;
}

}  // namespace

ChakraTraces LowerMscclProgramToChakra(const MscclProgram& p, const ChakraOptions& options) {
  const std::int64_t pieces = CheckLoweringInput(p, options);
  const int n = p.ngpus;
  ChakraTraces t;
  t.collective = p.collective;
  t.ngpus = n;
  t.slices = options.slices;
  t.size_bytes = options.size_bytes;
  t.chunk_slice_bytes = options.size_bytes / pieces;
  const TagPlan tags = PlanTags(MatchedConnectors(p), options.slices);
  t.ranks.resize(n);
  t.step_types.resize(n);
  for (int v = 0; v < n; ++v) {
    for (const MscclBlock& b : p.gpus[v].blocks) {
      t.step_types[v].emplace_back();
      for (const MscclStep& s : b.steps) t.step_types[v].back().push_back(s.type);
    }
    t.ranks[v] = TopologicalOrder(EmitRankNodes(p, v, tags, t), v);
  }
  return t;
}

std::vector<std::string> CheckChakraTraces(const ChakraTraces& t) {
  constexpr std::size_t kMaxListed = 20;
  std::vector<std::string> v;
  auto bad = [&](const std::string& what) {
    if (v.size() < kMaxListed) v.push_back(what);
  };
  const int n = t.ngpus;
  if (static_cast<int>(t.ranks.size()) != n) {
    bad("traces for " + std::to_string(t.ranks.size()) + " ranks, ngpus " + std::to_string(n));
    return v;
  }
  std::vector<std::int64_t> offset(n + 1, 0);
  for (int r = 0; r < n; ++r) offset[r + 1] = offset[r] + t.ranks[r].size();
  // (src, dst, tag) -> global index of the send.
  std::map<std::tuple<int, int, std::int32_t>, std::int64_t> sends;
  for (int r = 0; r < n; ++r) {
    const std::vector<ChakraNode>& nodes = t.ranks[r];
    if (nodes.empty()) bad("rank " + std::to_string(r) + " has no nodes");
    for (std::size_t id = 0; id < nodes.size(); ++id) {
      const ChakraNode& x = nodes[id];
      const std::string where = "rank " + std::to_string(r) + " node " + std::to_string(id);
      for (std::uint64_t d : x.data_deps) {
        if (d >= id)
          bad(where + ": data dependency on node " + std::to_string(d) + ", not earlier");
      }
      if (x.type == ChakraNodeType::kComp) continue;
      if (x.type != ChakraNodeType::kSend && x.type != ChakraNodeType::kRecv) {
        bad(where + ": unknown node type");
        continue;
      }
      const bool send = x.type == ChakraNodeType::kSend;
      const int own = send ? x.comm_src : x.comm_dst;
      const int peer = send ? x.comm_dst : x.comm_src;
      if (own != r) bad(where + ": the own side names rank " + std::to_string(own));
      if (peer < 0 || peer >= n || peer == r) bad(where + ": bad peer " + std::to_string(peer));
      if (x.comm_size <= 0) bad(where + ": comm_size " + std::to_string(x.comm_size));
      if (x.comm_tag < 0) bad(where + ": negative tag");
      if (send && !sends
                       .emplace(std::make_tuple(x.comm_src, x.comm_dst, x.comm_tag),
                                offset[r] + static_cast<std::int64_t>(id))
                       .second) {
        bad(where + ": a second send with tag " + std::to_string(x.comm_tag) + " to rank " +
            std::to_string(x.comm_dst));
      }
    }
  }
  if (!v.empty()) return v;
  // Match receives; the global graph: data_deps plus send -> receive.
  const std::int64_t total = offset[n];
  std::vector<std::int64_t> matched_send(total, -1);
  std::vector<char> used(total, 0);
  for (int r = 0; r < n; ++r) {
    const std::vector<ChakraNode>& nodes = t.ranks[r];
    for (std::size_t id = 0; id < nodes.size(); ++id) {
      const ChakraNode& x = nodes[id];
      if (x.type != ChakraNodeType::kRecv) continue;
      const std::string where = "rank " + std::to_string(r) + " node " + std::to_string(id);
      auto it = sends.find({x.comm_src, x.comm_dst, x.comm_tag});
      if (it == sends.end()) {
        bad(where + ": no send from rank " + std::to_string(x.comm_src) + " with tag " +
            std::to_string(x.comm_tag));
        continue;
      }
      const int sr = x.comm_src;
      const ChakraNode& s = t.ranks[sr][it->second - offset[sr]];
      if (s.comm_size != x.comm_size) {
        bad(where + ": receives " + std::to_string(x.comm_size) + " bytes, the send has " +
            std::to_string(s.comm_size));
      }
      if (used[it->second]++) bad(where + ": its send is matched twice");
      matched_send[offset[r] + static_cast<std::int64_t>(id)] = it->second;
    }
  }
  for (const auto& [key, g] : sends) {
    if (!used[g]) {
      bad("rank " + std::to_string(std::get<0>(key)) + ": the send with tag " +
          std::to_string(std::get<2>(key)) + " to rank " + std::to_string(std::get<1>(key)) +
          " has no receive");
    }
  }
  if (!v.empty()) return v;
  std::vector<int> indegree(total, 0);
  std::vector<std::int64_t> succ_first(total + 1, 0);
  auto for_each_pred = [&](std::int64_t g, const auto& f) {
    int r =
        static_cast<int>(std::upper_bound(offset.begin(), offset.end(), g) - offset.begin()) - 1;
    for (std::uint64_t d : t.ranks[r][g - offset[r]].data_deps)
      f(offset[r] + static_cast<std::int64_t>(d));
    if (matched_send[g] >= 0) f(matched_send[g]);
  };
  for (std::int64_t g = 0; g < total; ++g) {
    for_each_pred(g, [&](std::int64_t pred) {
      ++indegree[g];
      ++succ_first[pred + 1];
    });
  }
  for (std::int64_t g = 0; g < total; ++g) succ_first[g + 1] += succ_first[g];
  std::vector<std::int64_t> succ(succ_first[total]);
  {
    std::vector<std::int64_t> fill(succ_first.begin(), succ_first.end() - 1);
    for (std::int64_t g = 0; g < total; ++g) {
      for_each_pred(g, [&](std::int64_t pred) { succ[fill[pred]++] = g; });
    }
  }
  std::vector<std::int64_t> stack;
  for (std::int64_t g = 0; g < total; ++g) {
    if (indegree[g] == 0) stack.push_back(g);
  }
  std::int64_t done = 0;
  while (!stack.empty()) {
    const std::int64_t g = stack.back();
    stack.pop_back();
    ++done;
    for (std::int64_t k = succ_first[g]; k < succ_first[g + 1]; ++k) {
      if (--indegree[succ[k]] == 0) stack.push_back(succ[k]);
    }
  }
  if (done != total) {
    bad("the dependencies and send -> receive edges form a cycle (" + std::to_string(total - done) +
        " nodes never become ready)");
  }
  return v;
}

std::string ChakraNodeName(const ChakraTraces& t, int rank, const ChakraNode& node) {
  const char* part = node.type == ChakraNodeType::kSend   ? "send"
                     : node.type == ChakraNodeType::kRecv ? "recv"
                                                          : "comp";
  return t.step_types[rank][node.block][node.step] + ".tb" + std::to_string(node.block) + ".s" +
         std::to_string(node.step) + ".slice" + std::to_string(node.slice) + "." + part;
}

std::string ChakraEtFileBytes(const ChakraTraces& t, int rank) {
  std::string out;
  ProtobufWriter meta;
  meta.BytesField(kMetadataAttr, StringAttr("schema", "1.0.2-chakra.0.0.4"));
  meta.BytesField(kMetadataAttr, StringAttr("collective", CollectiveName(t.collective)));
  meta.BytesField(kMetadataAttr, StringAttr("generator", "collsynth export chakra"));
  AppendLengthDelimited(&out, meta.bytes());
  const std::int64_t comm_type = static_cast<std::int64_t>(CommTypeOf(t.collective));
  const std::vector<ChakraNode>& nodes = t.ranks.at(rank);
  for (std::size_t id = 0; id < nodes.size(); ++id) {
    const ChakraNode& x = nodes[id];
    ProtobufWriter w;
    if (id != 0) w.VarintField(kNodeId, id);
    w.BytesField(kNodeName, ChakraNodeName(t, rank, x));
    w.VarintField(kNodeType, static_cast<std::uint64_t>(x.type));
    w.PackedVarintField(kNodeDataDeps, x.data_deps);
    if (x.type != ChakraNodeType::kComp) {
      w.BytesField(kNodeAttr, IntAttr("comm_type", kAttrInt64, comm_type));
      w.BytesField(kNodeAttr, IntAttr("comm_size", kAttrInt64, x.comm_size));
      w.BytesField(kNodeAttr, IntAttr("comm_src", kAttrInt32, x.comm_src));
      w.BytesField(kNodeAttr, IntAttr("comm_dst", kAttrInt32, x.comm_dst));
      w.BytesField(kNodeAttr, IntAttr("comm_tag", kAttrInt32, x.comm_tag));
    }
    AppendLengthDelimited(&out, w.bytes());
  }
  return out;
}

void CheckChakraSize(std::int64_t size_bytes) {
  if (size_bytes <= 0) {
    throw InputError("<args>", "--size",
                     "must be a positive number of bytes (got " + std::to_string(size_bytes) + ")");
  }
}

void CheckChakraOptions(const MscclProgram& p, const ChakraOptions& o) {
  CheckChakraSize(o.size_bytes);
  if (o.slices < 1 || o.slices > 65536) {
    throw InputError("<args>", "--slices", std::to_string(o.slices) + " is not in 1..65536");
  }
  if (const std::int64_t nodes = ChakraTraceNodeCount(p, o.slices); nodes > kMaxChakraTraceNodes) {
    throw InputError("<args>", "--slices",
                     std::to_string(o.slices) + " slices give " + std::to_string(nodes) +
                         " trace nodes, more than " + std::to_string(kMaxChakraTraceNodes) +
                         " (about 150 bytes each in memory, 100 on disk): use fewer slices");
  }
  const std::int64_t pieces = p.nchunksperloop * o.slices;
  if (o.size_bytes % pieces != 0) {
    const std::int64_t below = o.size_bytes / pieces * pieces;
    throw InputError(
        "<args>", "--size",
        std::to_string(o.size_bytes) + " bytes is not a multiple of nchunksperloop x slices = " +
            std::to_string(p.nchunksperloop) + " x " + std::to_string(o.slices) + " = " +
            std::to_string(pieces) + " (every slice of a chunk is a whole number of bytes); " +
            (below > 0 ? "use " + std::to_string(below) + " or " : "use ") +
            std::to_string(below + pieces));
  }
}

}  // namespace collsynth
