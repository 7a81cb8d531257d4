#include "simulate/msccl_simulation.h"

#include <deque>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/checked_math.h"
#include "core/input_error.h"
#include "graphs/rank_map.h"
#include "proofs_check/msccl_schema.h"
#include "proofs_check/msccl_xml_lexer.h"
#include "proofs_check/replay_report.h"

namespace collsynth {
namespace {

using msccl::Algo;
using msccl::Block;
using msccl::InfoOf;
using msccl::Step;
using msccl::StepType;

using ConnectorKey = std::tuple<int, int, int>;

int Units(const Step& st) { return st.type == StepType::kNop ? 0 : st.cnt; }

// The route (index into routing->routes) of each sending unit, per connector, in document
// order; connectors without an entry in the side file get the shortest path of their pair.
std::map<ConnectorKey, std::vector<int>> ConnectorRoutes(const Algo& algo, const Topology& g,
                                                         MscclRouting* routing) {
  std::map<ConnectorKey, std::vector<int>> out;
  std::map<std::pair<int, int>, int> shortest;
  for (int gpu = 0; gpu < algo.ngpus; ++gpu) {
    for (const Block& b : algo.gpus[gpu].tbs) {
      if (b.send < 0) continue;
      const ConnectorKey key{gpu, b.send, b.chan};
      auto given = routing->connector_routes.find(key);
      std::vector<int>& list = out[key];
      for (const Step& st : b.steps) {
        if (!InfoOf(st.type).send) continue;
        for (int u = 0; u < Units(st); ++u) {
          const std::size_t k = list.size();
          if (given != routing->connector_routes.end() && k < given->second.size()) {
            list.push_back(given->second[k]);
            continue;
          }
          auto [it, fresh] = shortest.try_emplace({gpu, b.send}, -1);
          if (fresh) {
            const int a = routing->node_of_rank[gpu], z = routing->node_of_rank[b.send];
            std::optional<std::vector<int>> path = ShortestLinkPath(g, a, z);
            if (!path || path->empty()) {
              throw InputError("<args>", "--ranks",
                               "rank " + std::to_string(gpu) + " (" + g.node(a).name +
                                   ") cannot reach rank " + std::to_string(b.send) + " (" +
                                   g.node(z).name + ") in the topology");
            }
            it->second = static_cast<int>(routing->routes.size());
            routing->routes.push_back({MscclRoutePart{std::move(*path), Rational(1)}});
          }
          list.push_back(it->second);
        }
      }
    }
  }
  return out;
}

}  // namespace

msccl::Algo ReadMscclProgram(const std::string& text, const std::string& file,
                             const ReplayOptions& options) {
  ReplayResult result;
  msccl::Reporter rep(&result, 1);
  const MscclXmlDocument doc = LexMscclXml(text);
  if (!doc.ok) throw InputError(file, "xml", doc.error);
  Algo algo;
  msccl::ReadMscclSchema(doc, options, &rep, &algo, &result);
  if (!result.violations.empty()) throw InputError(file, "xml", result.violations[0].message);
  return algo;
}

Collective MscclCollective(const msccl::Algo& algo) {
  switch (algo.coll) {
    case msccl::Coll::kAllgather:
      return Collective::kAllgather;
    case msccl::Coll::kReduceScatter:
      return Collective::kReduceScatter;
    case msccl::Coll::kAllreduce:
      return Collective::kAllreduce;
    case msccl::Coll::kBroadcast:
      return Collective::kBroadcast;
    case msccl::Coll::kAlltoall:
      return Collective::kAlltoall;
  }
  throw std::logic_error("MscclCollective: unknown collective");
}

std::optional<std::vector<int>> ShortestLinkPath(const Topology& g, int a, int b) {
  if (a == b) return std::vector<int>{};
  std::vector<int> via(g.num_nodes(), -1);  // the link that first reached the node
  std::vector<bool> seen(g.num_nodes(), false);
  std::deque<int> queue{a};
  seen[a] = true;
  while (!queue.empty() && !seen[b]) {
    const int v = queue.front();
    queue.pop_front();
    for (int e : g.OutLinks(v)) {
      const int w = g.link(e).to;
      if (seen[w]) continue;
      seen[w] = true;
      via[w] = e;
      queue.push_back(w);
    }
  }
  if (!seen[b]) return std::nullopt;
  std::vector<int> path;
  for (int v = b; v != a; v = g.link(via[v]).from) path.push_back(via[v]);
  return std::vector<int>(path.rbegin(), path.rend());
}

void ReadMscclRoutes(const Topology& g, const msccl::Algo& algo, const nlohmann::json& j,
                     const std::string& file, bool keep_ranks, MscclRouting* routing) {
  if (!j.is_object() || j.value("format", "") != "msccl-routes") {
    throw InputError(file, "format", "not an msccl-routes side file (docs/export.md)");
  }
  if (j.value("ngpus", -1) != algo.ngpus) {
    throw InputError(file, "ngpus",
                     "the side file is for " + j.value("ngpus", nlohmann::json()).dump() +
                         " GPUs, the XML for " + std::to_string(algo.ngpus));
  }
  if (!keep_ranks && j.contains("ranks"))
    routing->node_of_rank = RankMapFromJson(g, j["ranks"], file, "ranks").node_of_rank;
  const nlohmann::json& routes = j.at("routes");
  routing->routes.clear();
  for (std::size_t r = 0; r < routes.size(); ++r) {
    std::vector<MscclRoutePart> parts;
    for (const nlohmann::json& part : routes[r]) {
      const std::string item = "routes[" + std::to_string(r) + "]";
      MscclRoutePart p;
      const nlohmann::json& path = part.at("path");
      for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const std::optional<int> a = g.FindNode(path[i].get<std::string>());
        const std::optional<int> b = g.FindNode(path[i + 1].get<std::string>());
        std::optional<int> e;
        if (a && b) e = g.FindLink(*a, *b);
        if (!e) {
          throw InputError(
              file, item,
              "no link " + path[i].dump() + " -> " + path[i + 1].dump() + " in the topology");
        }
        p.links.push_back(*e);
      }
      try {
        p.share = ParseRational(part.at("share").get<std::string>());
      } catch (const std::exception& ex) {
        throw InputError(file, item, std::string("bad share: ") + ex.what());
      }
      parts.push_back(std::move(p));
    }
    routing->routes.push_back(std::move(parts));
  }
  // The side file lists transfers in lowering order, not in the blocks' order, so each
  // receiving step is matched to its row by what it receives: (phase, first global chunk,
  // cnt) on its connector.
  using RowKey = std::tuple<int, std::int64_t, int>;
  std::map<ConnectorKey, std::map<RowKey, std::deque<int>>> rows;
  for (const nlohmann::json& row : j.at("transfers")) {
    // [src, dst, chan, chunk, cnt, phase, route]
    const int src = row.at(0).get<int>(), dst = row.at(1).get<int>(), chan = row.at(2).get<int>();
    const std::int64_t chunk = row.at(3).get<std::int64_t>();
    const int cnt = row.at(4).get<int>(), phase = row.at(5).get<int>();
    const int route = row.at(6).get<int>();
    if (route < 0 || route >= static_cast<int>(routing->routes.size())) {
      throw InputError(file, "transfers", "route " + std::to_string(route) + " does not exist");
    }
    rows[{src, dst, chan}][{phase, chunk, cnt}].push_back(route);
  }
  const int k = algo.ngpus > 0 ? algo.nchunks / algo.ngpus : 0;
  // The global chunk (index in the nchunksperloop space) of buffer offset `off` on rank r:
  // scratch is indexed like the full buffer; an allgather input and a reduce-scatter output
  // are the rank's slice; every other buffer is the full buffer.
  auto global_chunk = [&](char buf, int off, int r) -> std::int64_t {
    if (buf == 'i' && algo.coll == msccl::Coll::kAllgather) return std::int64_t{r} * k + off;
    if (buf == 'o' && algo.coll == msccl::Coll::kReduceScatter) return std::int64_t{r} * k + off;
    return off;
  };
  routing->connector_routes.clear();
  for (int gpu = 0; gpu < algo.ngpus; ++gpu) {
    for (const Block& b : algo.gpus[gpu].tbs) {
      if (b.recv < 0) continue;
      const ConnectorKey key{b.recv, gpu, b.chan};
      std::vector<int>& list = routing->connector_routes[key];
      for (std::size_t si = 0; si < b.steps.size(); ++si) {
        const Step& st = b.steps[si];
        if (!InfoOf(st.type).recv || Units(st) == 0) continue;
        const bool reduces =
            st.type == StepType::kRrc || st.type == StepType::kRrs || st.type == StepType::kRrcs;
        const int phase = algo.coll == msccl::Coll::kAllreduce && !reduces ? 1 : 0;
        const std::int64_t chunk = st.type == StepType::kRrs
                                       ? global_chunk(st.srcbuf, st.srcoff, gpu)
                                       : global_chunk(st.dstbuf, st.dstoff, gpu);
        auto& by_key = rows[key];
        auto it = by_key.find({phase, chunk, st.cnt});
        if (it == by_key.end() || it->second.empty()) {
          throw InputError(file, "transfers",
                           "no transfer gpu " + std::to_string(b.recv) + " -> gpu " +
                               std::to_string(gpu) + " channel " + std::to_string(b.chan) +
                               " of chunk " + std::to_string(chunk) + ", cnt " +
                               std::to_string(st.cnt) + " for the XML's gpu " +
                               std::to_string(gpu) + " tb " + std::to_string(b.id) + " step " +
                               std::to_string(si) + " (not the side file of this XML?)");
        }
        list.insert(list.end(), st.cnt, it->second.front());
        it->second.pop_front();
      }
    }
  }
  for (const auto& [key, by_key] : rows) {
    for (const auto& [rk, left] : by_key) {
      if (!left.empty()) {
        throw InputError(file, "transfers",
                         "transfer gpu " + std::to_string(std::get<0>(key)) + " -> gpu " +
                             std::to_string(std::get<1>(key)) + " channel " +
                             std::to_string(std::get<2>(key)) + " of chunk " +
                             std::to_string(std::get<1>(rk)) +
                             " has no receiving step in the XML (not the side file of this XML?)");
      }
    }
  }
}

int MscclFifoDepth(const msccl::Algo& algo, int fifo_depth) {
  if (fifo_depth > 0) return fifo_depth;
  return algo.proto == "Simple" ? 2 : 8;
}

std::uint64_t MscclTransferCount(const msccl::Algo& algo, const MscclRouting& routing,
                                 const Topology& g, const SimulationModel& m) {
  MscclRouting copy = routing;
  const std::map<ConnectorKey, std::vector<int>> per = ConnectorRoutes(algo, g, &copy);
  std::uint64_t count = 0;
  for (const auto& [key, list] : per) {
    for (int r : list) {
      for (const MscclRoutePart& p : copy.routes[r]) {
        count = SatAdd(count, m.switch_model == SwitchModel::kCutThrough ? 1 : p.links.size());
      }
    }
  }
  return SatMul(count, static_cast<std::uint64_t>(m.chunks));
}

namespace {

// BuildMscclSimulation in named phases: NumberUnits (blocks, steps, units and connectors in
// (gpu, id) order), AddNodes (per iteration: barriers, transfers along the routes) and
// AddDependencies (program order, depid flags, data and FIFO slots). The arguments must
// outlive it.
class MscclSimulationBuilder {
 public:
  MscclSimulationBuilder(const msccl::Algo& algo, const Topology& g, MscclRouting routing,
                         const SimulationModel& m, int fifo_depth)
      : algo_(algo),
        routing_(std::move(routing)),
        conn_routes_(ConnectorRoutes(algo, g, &routing_)),
        sim_(g, LinkRates(g, m), LinkLatencies(g, m), m.gamma),
        P_(m.chunks),
        depth_(MscclFifoDepth(algo, fifo_depth)),
        unit_bytes_(m.size / algo.nchunks / P_),
        cut_through_(m.switch_model == SwitchModel::kCutThrough) {}

  FlowSimulation Build() {
    NumberUnits();
    AddNodes();
    AddDependencies();
    return std::move(sim_);
  }

 private:
  struct BlockRef {
    int gpu;
    const Block* b;
    int step_base;          // global index of its step 0
    int out = -1, in = -1;  // connector ids
  };
  struct Connector {
    int per_iteration = 0;                     // units per iteration
    std::vector<int> send_unit, recv_unit;     // position -> global unit
    std::vector<bool> recv_reduces;            // position -> received by rrc/rrs/rrcs
    const std::vector<int>* routes = nullptr;  // position -> route
  };

  // Blocks in (gpu, id) order; steps and units numbered globally.
  void NumberUnits();
  // Nodes: per (step, iteration) the start barrier S; per (unit, iteration) the ready barrier
  // R (all its waits met), the done node D (R itself for a pure receive; for a send: its
  // bytes have left the first link of every route part, so the block moves on) and, for a
  // send, the arrival node A (the last link's transfer of every part, reductions included).
  void AddNodes();
  // The transfers of send unit `unit` of block br in iteration i, after its ready barrier r;
  // sets its A and D nodes.
  void AddSendTransfers(const BlockRef& br, int unit, std::int64_t i, int r, TransferLabel label);
  void AddDependencies();

  int ConnectorId(const ConnectorKey& key) {
    auto [it, fresh] = connector_id_.try_emplace(key, static_cast<int>(connectors_.size()));
    if (fresh) connectors_.emplace_back();
    return it->second;
  }
  std::size_t Sidx(int s, std::int64_t i) const { return static_cast<std::size_t>(s) * P_ + i; }
  std::size_t Uidx(int u, std::int64_t i) const { return static_cast<std::size_t>(u) * P_ + i; }
  // The end of step s in iteration i: its last unit's D, or S for a step without units.
  int StepEnd(int s, std::int64_t i) const {
    return unit_base_[s + 1] > unit_base_[s] ? D_[Uidx(unit_base_[s + 1] - 1, i)] : S_[Sidx(s, i)];
  }
  // The first flag publication of block `b` at or after (i, deps).
  int Flag(const BlockRef& br, std::int64_t i, int deps) const {
    const std::vector<Step>& steps = br.b->steps;
    for (std::int64_t it = i; it < P_; ++it) {
      for (int j = it == i ? deps : 0; j < static_cast<int>(steps.size()); ++j) {
        if (steps[j].group_publish && steps[j].group_end == j) return StepEnd(br.step_base + j, it);
      }
    }
    return -1;
  }

  const msccl::Algo& algo_;
  MscclRouting routing_;
  const std::map<ConnectorKey, std::vector<int>> conn_routes_;
  FlowSimulation sim_;
  const std::int64_t P_;
  const int depth_;
  const Rational unit_bytes_;
  const bool cut_through_;

  std::vector<BlockRef> blocks_;  // NumberUnits
  std::vector<int> unit_base_;    // per global step: its first unit's global index
  int units_total_ = 0;
  std::map<ConnectorKey, int> connector_id_;
  std::vector<Connector> connectors_;
  std::vector<int> block_of_step_;
  std::vector<int> gpu_block_base_;
  std::vector<int> send_pos_, recv_pos_;  // per unit: its connector positions
  int steps_total_ = 0;
  std::vector<int> S_, R_, D_, A_;  // AddNodes
};

void MscclSimulationBuilder::NumberUnits() {
  gpu_block_base_.assign(algo_.ngpus + 1, 0);
  for (int gpu = 0; gpu < algo_.ngpus; ++gpu) {
    gpu_block_base_[gpu] = static_cast<int>(blocks_.size());
    for (const Block& b : algo_.gpus[gpu].tbs) {
      BlockRef ref{gpu, &b, static_cast<int>(unit_base_.size())};
      if (b.send >= 0) ref.out = ConnectorId({gpu, b.send, b.chan});
      if (b.recv >= 0) ref.in = ConnectorId({b.recv, gpu, b.chan});
      for (const Step& st : b.steps) {
        unit_base_.push_back(units_total_);
        block_of_step_.push_back(static_cast<int>(blocks_.size()));
        const msccl::TypeInfo& info = InfoOf(st.type);
        for (int u = 0; u < Units(st); ++u) {
          if (info.send) connectors_[ref.out].send_unit.push_back(units_total_ + u);
          if (info.recv) {
            connectors_[ref.in].recv_unit.push_back(units_total_ + u);
            connectors_[ref.in].recv_reduces.push_back(st.type == StepType::kRrc ||
                                                       st.type == StepType::kRrs ||
                                                       st.type == StepType::kRrcs);
          }
        }
        units_total_ += Units(st);
      }
      blocks_.push_back(ref);
    }
  }
  gpu_block_base_[algo_.ngpus] = static_cast<int>(blocks_.size());
  unit_base_.push_back(units_total_);
  for (const auto& [key, id] : connector_id_) {
    Connector& c = connectors_[id];
    if (c.send_unit.size() != c.recv_unit.size()) {
      throw std::logic_error("BuildMscclSimulation: unmatched connector (replay not run?)");
    }
    c.per_iteration = static_cast<int>(c.send_unit.size());
    auto it = conn_routes_.find(key);
    if (c.per_iteration > 0) c.routes = &it->second;
  }
  send_pos_.assign(units_total_, -1);
  recv_pos_.assign(units_total_, -1);
  for (const Connector& c : connectors_) {
    for (int k = 0; k < c.per_iteration; ++k) {
      send_pos_[c.send_unit[k]] = k;
      recv_pos_[c.recv_unit[k]] = k;
    }
  }
  steps_total_ = static_cast<int>(block_of_step_.size());
}

void MscclSimulationBuilder::AddNodes() {
  S_.assign(static_cast<std::size_t>(steps_total_) * P_, 0);
  R_.assign(static_cast<std::size_t>(units_total_) * P_, 0);
  D_.assign(static_cast<std::size_t>(units_total_) * P_, 0);
  A_.assign(static_cast<std::size_t>(units_total_) * P_, -1);  // sends: data arrived
  for (std::int64_t i = 0; i < P_; ++i) {
    for (const BlockRef& br : blocks_) {
      for (int j = 0; j < static_cast<int>(br.b->steps.size()); ++j) {
        const Step& st = br.b->steps[j];
        const int s = br.step_base + j;
        TransferLabel label;
        label.group = br.gpu;
        label.item = br.b->id;
        label.route = j;
        label.chunk = static_cast<int>(i);
        S_[Sidx(s, i)] = sim_.AddBarrier(label);
        const msccl::TypeInfo& info = InfoOf(st.type);
        for (int u = 0; u < Units(st); ++u) {
          const int unit = unit_base_[s] + u;
          label.unit = u;
          const int r = sim_.AddBarrier(label);
          R_[Uidx(unit, i)] = r;
          D_[Uidx(unit, i)] = r;
          if (info.send) AddSendTransfers(br, unit, i, r, label);
        }
      }
    }
  }
}

void MscclSimulationBuilder::AddSendTransfers(const BlockRef& br, int unit, std::int64_t i, int r,
                                              TransferLabel label) {
  const Connector& c = connectors_[br.out];
  const int k = send_pos_[unit];
  const bool reduce = c.recv_reduces[k];
  std::vector<int> first, last;
  const std::vector<MscclRoutePart>& parts = routing_.routes[(*c.routes)[k]];
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const MscclRoutePart& part = parts[p];
    if (part.share == 0 || part.links.empty()) continue;
    label.phase = static_cast<int>(p);
    const Rational bytes = unit_bytes_ * part.share;
    const int hops = cut_through_ ? 1 : static_cast<int>(part.links.size());
    int prev = r;
    for (int h = 0; h < hops; ++h) {
      label.hop = cut_through_ ? -1 : h;
      const std::vector<int> on = cut_through_ ? part.links : std::vector<int>{part.links[h]};
      const int t = sim_.AddTransfer(on, bytes, reduce && h == hops - 1, label);
      sim_.AddDependency(prev, t);
      if (h == 0) first.push_back(t);
      prev = t;
    }
    last.push_back(prev);
    label.hop = -1;
  }
  label.phase = 0;
  auto join = [&](const std::vector<int>& ts) {
    if (ts.size() == 1) return ts[0];
    const int d = sim_.AddBarrier(label);
    for (int t : ts) sim_.AddDependency(t, d);
    return d;
  };
  A_[Uidx(unit, i)] = join(last);
  D_[Uidx(unit, i)] = first == last ? A_[Uidx(unit, i)] : join(first);
}

void MscclSimulationBuilder::AddDependencies() {
  for (std::int64_t i = 0; i < P_; ++i) {
    for (const BlockRef& br : blocks_) {
      const int n = static_cast<int>(br.b->steps.size());
      for (int j = 0; j < n; ++j) {
        const Step& st = br.b->steps[j];
        const int s = br.step_base + j;
        const int start = S_[Sidx(s, i)];
        if (j > 0) {
          sim_.AddDependency(StepEnd(s - 1, i), start);
        } else if (i > 0 && n > 0) {
          sim_.AddDependency(StepEnd(br.step_base + n - 1, i - 1), start);
        }
        if (st.depid >= 0) {
          const BlockRef& dep = blocks_[gpu_block_base_[br.gpu] + st.depid];
          const int f = Flag(dep, i, st.deps);
          if (f < 0) {
            throw std::logic_error("BuildMscclSimulation: a dependency is never published");
          }
          sim_.AddDependency(f, start);
        }
        const msccl::TypeInfo& info = InfoOf(st.type);
        for (int u = 0; u < Units(st); ++u) {
          const int unit = unit_base_[s] + u;
          const int r = R_[Uidx(unit, i)];
          sim_.AddDependency(u == 0 ? start : D_[Uidx(unit - 1, i)], r);
          if (info.recv) {  // the data: the k-th unit sent on the connector
            const Connector& c = connectors_[br.in];
            sim_.AddDependency(A_[Uidx(c.send_unit[recv_pos_[unit]], i)], r);
          }
          if (info.send) {  // a free slot: unit k - depth taken by the receiver
            const Connector& c = connectors_[br.out];
            const std::int64_t k = i * c.per_iteration + send_pos_[unit] - depth_;
            if (k >= 0) {
              sim_.AddDependency(R_[Uidx(c.recv_unit[k % c.per_iteration], k / c.per_iteration)],
                                 r);
            }
          }
        }
      }
    }
  }
}

}  // namespace

FlowSimulation BuildMscclSimulation(const msccl::Algo& algo, const Topology& g,
                                    MscclRouting routing, const SimulationModel& m,
                                    int fifo_depth) {
  if (m.chunks < 1) throw std::logic_error("BuildMscclSimulation: P must be positive");
  if (static_cast<int>(routing.node_of_rank.size()) != algo.ngpus) {
    throw InputError("<args>", "--ranks",
                     "the XML has " + std::to_string(algo.ngpus) + " GPUs, the topology " +
                         std::to_string(routing.node_of_rank.size()) + " compute nodes");
  }
  return MscclSimulationBuilder(algo, g, std::move(routing), m, fifo_depth).Build();
}

}  // namespace collsynth
