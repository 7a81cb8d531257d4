#include "simulate/alltoall_simulation.h"

#include <map>
#include <stdexcept>
#include <utility>

#include "core/checked_math.h"
#include "simulate/route_transfers.h"

namespace collsynth {

std::uint64_t AlltoallTransferCount(const FlowSchedule& s, const SimulationModel& m) {
  std::uint64_t count = 0;
  for (const PairFlows& pair : s.flows) {
    for (const FlowPath& path : pair.paths) {
      const std::uint64_t links = path.nodes.size() > 0 ? path.nodes.size() - 1 : 0;
      count = SatAdd(
          count, SatMul(RouteHops(links, m.switch_model), static_cast<std::uint64_t>(m.chunks)));
    }
  }
  return count;
}

FlowSimulation BuildAlltoallSimulation(const FlowSchedule& s, const Topology& g,
                                       const SimulationModel& m) {
  if (m.chunks < 1) throw std::logic_error("BuildAlltoallSimulation: P must be positive");
  FlowSimulation sim(g, LinkRates(g, m), LinkLatencies(g, m), m.gamma);
  const Rational shard = ShardBytes(m, Collective::kAlltoall, g.num_compute());
  std::map<std::pair<int, int>, Rational> amount;
  for (const DemandEntry& d : s.demand.entries) amount[{d.from, d.to}] += d.amount;
  for (std::size_t pi = 0; pi < s.flows.size(); ++pi) {
    const PairFlows& pair = s.flows[pi];
    auto it = amount.find({pair.from, pair.to});
    if (it == amount.end())
      throw std::logic_error("BuildAlltoallSimulation: a pair without demand");
    for (std::size_t ri = 0; ri < pair.paths.size(); ++ri) {
      const FlowPath& path = pair.paths[ri];
      const Rational bytes = it->second * path.share * shard / m.chunks;
      TransferLabel label;
      label.group = static_cast<int>(pi);
      label.route = static_cast<int>(ri);
      AddChunkedRoute(&sim, RouteLinks(g, path.nodes, false), bytes, m.chunks, m.switch_model,
                      false, label);
    }
  }
  return sim;
}

}  // namespace collsynth
