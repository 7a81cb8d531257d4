#include "simulate/pipeline_simulation.h"

#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "core/checked_math.h"

namespace collsynth {
namespace {

std::vector<const PipelineSchedule*> Phases(const PipelineSchedule& s) {
  std::vector<const PipelineSchedule*> out;
  if (s.collective == Collective::kAllreduce) {
    for (const PipelineSchedule& p : s.phases) out.push_back(&p);
  } else {
    out.push_back(&s);
  }
  return out;
}

// The links a route's data crosses, in the order it crosses them.
std::vector<int> RouteLinks(const Topology& g, const std::vector<int>& path, bool upward) {
  std::vector<int> links;
  const int len = static_cast<int>(path.size());
  for (int i = 0; i + 1 < len; ++i) {
    const int a = upward ? path[len - 1 - i] : path[i];
    const int b = upward ? path[len - 2 - i] : path[i + 1];
    std::optional<int> e = g.FindLink(a, b);
    if (!e) throw std::logic_error("BuildPipelineSimulation: a route over a missing link");
    links.push_back(*e);
  }
  return links;
}

}  // namespace

std::uint64_t PipelineTransferCount(const PipelineSchedule& s, const SimulationModel& m) {
  std::uint64_t count = 0;
  for (const PipelineSchedule* phase : Phases(s)) {
    for (const PipelineTree& tree : phase->trees) {
      for (const PipelineTreeEdge& edge : tree.edges) {
        for (const PipelineRoute& route : edge.routes) {
          const std::uint64_t hops = m.switch_model == SwitchModel::kCutThrough
                                         ? 1
                                         : (route.path.size() > 0 ? route.path.size() - 1 : 0);
          count = SatAdd(count, SatMul(hops, static_cast<std::uint64_t>(m.chunks)));
        }
      }
    }
  }
  return count;
}

FlowSimulation BuildPipelineSimulation(const PipelineSchedule& s, const Topology& g,
                                       const SimulationModel& m) {
  if (m.chunks < 1) throw std::logic_error("BuildPipelineSimulation: P must be positive");
  FlowSimulation sim(g, LinkRates(g, m), LinkLatencies(g, m), m.gamma);
  const std::int64_t P = m.chunks;
  const bool cut_through = m.switch_model == SwitchModel::kCutThrough;
  const std::vector<const PipelineSchedule*> phases = Phases(s);
  // Allreduce: per root, the barrier "the reduce-scatter phase delivered r's reduced shard".
  std::unordered_map<int, int> reduced_at_root;

  for (std::size_t ph = 0; ph < phases.size(); ++ph) {
    const PipelineSchedule& phase = *phases[ph];
    const bool upward = phase.collective == Collective::kReduceScatter;
    const bool allreduce_rs = s.collective == Collective::kAllreduce && upward;
    const bool allreduce_ag = s.collective == Collective::kAllreduce && !upward;
    const Rational shard = ShardBytes(m, s.collective, g.num_compute());
    const Rational k(phase.k);
    for (std::size_t ti = 0; ti < phase.trees.size(); ++ti) {
      const PipelineTree& tree = phase.trees[ti];
      const int num_edges = static_cast<int>(tree.edges.size());
      // Per edge and route: the first transfer id and the hops (transfers per chunk).
      std::vector<std::vector<std::pair<int, int>>> ids(num_edges);
      std::unordered_map<int, int> parent_edge;            // child -> edge index
      std::unordered_map<int, std::vector<int>> children;  // parent -> edge indices
      for (int ei = 0; ei < num_edges; ++ei) {
        const PipelineTreeEdge& edge = tree.edges[ei];
        parent_edge[edge.to] = ei;
        children[edge.from].push_back(ei);
        for (std::size_t ri = 0; ri < edge.routes.size(); ++ri) {
          const PipelineRoute& route = edge.routes[ri];
          const std::vector<int> links = RouteLinks(g, route.path, upward);
          const Rational bytes = Rational(route.multiplicity) / k * shard / P;
          const int hops = cut_through ? 1 : static_cast<int>(links.size());
          int first = -1;
          for (std::int64_t j = 0; j < P; ++j) {
            for (int h = 0; h < hops; ++h) {
              TransferLabel label;
              label.phase = allreduce_ag ? 1 : 0;
              label.group = static_cast<int>(ti);
              label.item = ei;
              label.route = static_cast<int>(ri);
              label.chunk = static_cast<int>(j);
              label.hop = cut_through ? -1 : h;
              const std::vector<int> on = cut_through ? links : std::vector<int>{links[h]};
              const int id = sim.AddTransfer(on, bytes, upward && h == hops - 1, label);
              if (first < 0) first = id;
              if (h > 0) sim.AddDependency(id - 1, id);     // the previous link
              if (j > 0) sim.AddDependency(id - hops, id);  // the previous chunk
            }
          }
          ids[ei].emplace_back(first, hops);
        }
      }
      auto transfer = [&](int ei, std::size_t ri, std::int64_t j, int h) {
        return ids[ei][ri].first + static_cast<int>(j) * ids[ei][ri].second + h;
      };
      auto last_hop = [&](int ei, std::size_t ri, std::int64_t j) {
        return transfer(ei, ri, j, ids[ei][ri].second - 1);
      };
      // The transfers whose ends make chunk j available at the data's sending end of edge ei.
      for (int ei = 0; ei < num_edges; ++ei) {
        const PipelineTreeEdge& edge = tree.edges[ei];
        const int sender = upward ? edge.to : edge.from;
        std::vector<int> feeding;  // edges delivering into `sender`
        if (upward) {
          if (auto it = children.find(sender); it != children.end()) feeding = it->second;
        } else if (auto it = parent_edge.find(sender); it != parent_edge.end()) {
          feeding.push_back(it->second);
        }
        for (std::size_t ri = 0; ri < edge.routes.size(); ++ri) {
          for (std::int64_t j = 0; j < P; ++j) {
            const int id = transfer(ei, ri, j, 0);
            for (int fe : feeding) {
              for (std::size_t fr = 0; fr < tree.edges[fe].routes.size(); ++fr) {
                sim.AddDependency(last_hop(fe, fr, j), id);
              }
            }
          }
          if (allreduce_ag && sender == tree.root) {
            auto it = reduced_at_root.find(tree.root);
            if (it != reduced_at_root.end()) sim.AddDependency(it->second, transfer(ei, ri, 0, 0));
          }
        }
      }
      if (allreduce_rs) {
        auto [it, fresh] = reduced_at_root.try_emplace(tree.root, -1);
        if (fresh) {
          TransferLabel label;
          label.phase = 0;
          it->second = sim.AddBarrier(label);
        }
        if (auto c = children.find(tree.root); c != children.end()) {
          for (int ei : c->second) {
            for (std::size_t ri = 0; ri < tree.edges[ei].routes.size(); ++ri) {
              sim.AddDependency(last_hop(ei, ri, P - 1), it->second);
            }
          }
        }
      }
    }
  }
  return sim;
}

}  // namespace collsynth
