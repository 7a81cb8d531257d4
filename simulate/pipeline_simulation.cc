#include "simulate/pipeline_simulation.h"

#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "core/checked_math.h"
#include "simulate/route_transfers.h"

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

}  // namespace

std::uint64_t PipelineTransferCount(const PipelineSchedule& s, const SimulationModel& m) {
  std::uint64_t count = 0;
  for (const PipelineSchedule* phase : Phases(s)) {
    for (const PipelineTree& tree : phase->trees) {
      for (const PipelineTreeEdge& edge : tree.edges) {
        for (const PipelineRoute& route : edge.routes) {
          const std::uint64_t hops =
              RouteHops(route.path.size() > 0 ? route.path.size() - 1 : 0, m.switch_model);
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
      // Per edge and route: its transfers.
      std::vector<std::vector<ChunkedRoute>> ids(num_edges);
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
          TransferLabel label;
          label.phase = allreduce_ag ? 1 : 0;
          label.group = static_cast<int>(ti);
          label.item = ei;
          label.route = static_cast<int>(ri);
          ids[ei].push_back(AddChunkedRoute(&sim, links, bytes, P, m.switch_model, upward, label));
        }
      }
      auto transfer = [&](int ei, std::size_t ri, std::int64_t j, int h) {
        return ids[ei][ri].Transfer(j, h);
      };
      auto last_hop = [&](int ei, std::size_t ri, std::int64_t j) { return ids[ei][ri].Last(j); };
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
