#include "simulate/tree_allreduce_simulation.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace collsynth {

std::uint64_t TreeAllreduceTransferCount(const std::vector<ReductionTree>& trees,
                                         const SimulationModel& m) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t count = 0;
  for (const ReductionTree& t : trees) {
    std::uint64_t edges = 0;
    for (int p : t.parent) edges += p >= 0;
    const std::uint64_t per = 2 * edges;
    const auto chunks = static_cast<std::uint64_t>(m.chunks);
    if (per != 0 && chunks > max / per) return max;
    if (count > max - per * chunks) return max;
    count += per * chunks;
  }
  return count;
}

FlowSimulation BuildTreeAllreduceSimulation(const std::vector<ReductionTree>& trees,
                                            const Topology& g, const SimulationModel& m) {
  if (m.chunks < 1) throw std::invalid_argument("BuildTreeAllreduceSimulation: P must be >= 1");
  FlowSimulation sim(g, LinkRates(g, m), LinkLatencies(g, m), m.gamma);
  const std::int64_t P = m.chunks;
  const int n = g.num_nodes();
  for (std::size_t ti = 0; ti < trees.size(); ++ti) {
    const ReductionTree& t = trees[ti];
    if (static_cast<int>(t.parent.size()) != n || t.root < 0 || t.root >= n) {
      throw std::invalid_argument("BuildTreeAllreduceSimulation: tree " + std::to_string(ti) +
                                  ": parent array or root out of range");
    }
    const Rational bytes = t.share * m.size / P;
    std::vector<std::vector<int>> children(n);
    std::vector<int> up_link(n, -1), down_link(n, -1);
    for (int v = 0; v < n; ++v) {
      const int p = t.parent[v];
      if (p < 0) continue;
      const std::optional<int> up = g.FindLink(v, p), down = g.FindLink(p, v);
      if (!up || !down) {
        throw std::invalid_argument("BuildTreeAllreduceSimulation: tree " + std::to_string(ti) +
                                    ": edge " + g.node(p).name + " - " + g.node(v).name +
                                    " is not a link both ways");
      }
      up_link[v] = *up;
      down_link[v] = *down;
      children[p].push_back(v);
    }
    // Transfer ids: up(v, j) and down(v, j) for every member v but the root, chunk-major.
    std::vector<int> up_first(n, -1), down_first(n, -1);
    for (int v = 0; v < n; ++v) {
      if (t.parent[v] < 0) continue;
      for (std::int64_t j = 0; j < P; ++j) {
        TransferLabel label;
        label.phase = 0;
        label.group = static_cast<int>(ti);
        label.item = v;
        label.chunk = static_cast<int>(j);
        const int id = sim.AddTransfer({up_link[v]}, bytes, true, label);
        if (j == 0) up_first[v] = id;
        if (j > 0) sim.AddDependency(id - 1, id);  // the previous chunk on this link
      }
    }
    for (int v = 0; v < n; ++v) {
      if (t.parent[v] < 0) continue;
      for (std::int64_t j = 0; j < P; ++j) {
        TransferLabel label;
        label.phase = 1;
        label.group = static_cast<int>(ti);
        label.item = v;
        label.chunk = static_cast<int>(j);
        const int id = sim.AddTransfer({down_link[v]}, bytes, false, label);
        if (j == 0) down_first[v] = id;
        if (j > 0) sim.AddDependency(id - 1, id);
      }
    }
    for (int v = 0; v < n; ++v) {
      if (t.parent[v] < 0) continue;
      const int p = t.parent[v];
      for (std::int64_t j = 0; j < P; ++j) {
        const int jj = static_cast<int>(j);
        // Reduce: v's chunk j goes up once every child's chunk j arrived at v.
        for (int c : children[v]) sim.AddDependency(up_first[c] + jj, up_first[v] + jj);
        // Broadcast: p forwards chunk j once it has it (the root: once it is fully reduced).
        if (p == t.root) {
          for (int c : children[p]) sim.AddDependency(up_first[c] + jj, down_first[v] + jj);
        } else {
          sim.AddDependency(down_first[p] + jj, down_first[v] + jj);
        }
      }
    }
  }
  return sim;
}

}  // namespace collsynth
