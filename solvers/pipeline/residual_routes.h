// Routes through switches in residual capacity (docs/repair.md step 3, docs/symmetry.md
// "Failed links: a symmetric part plus overrides"): the link lookup, the breadth-first search
// over links with residual room and the rerouting of a tree edge's demand that both the repair
// of plain schedules (repair.h) and the overrides of symmetric ones (symmetric_overrides.h) use.
// Exact (BigInt residuals). Arguments must outlive the objects that keep them.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_RESIDUAL_ROUTES_H_
#define COLLSYNTH_SOLVERS_PIPELINE_RESIDUAL_ROUTES_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

// The link u -> v of g by a scan of u's out-links sorted by head (degrees are small; a hash
// lookup per step of every route of OLD cost more).
class LinkFinder {
 public:
  explicit LinkFinder(const Topology& g) : out_(g.num_nodes()) {
    for (int e = 0; e < g.num_links(); ++e) out_[g.link(e).from].push_back({g.link(e).to, e});
    for (auto& links : out_) std::sort(links.begin(), links.end());
  }
  std::optional<int> Find(int u, int v) const {
    const auto& links = out_[u];
    auto it = std::lower_bound(links.begin(), links.end(), std::make_pair(v, -1));
    if (it == links.end() || it->first != v) return std::nullopt;
    return it->second;
  }
  // The link ids of a walk, or std::nullopt when one of its steps is not a link of g.
  std::optional<std::vector<int>> RouteLinks(const std::vector<int>& path) const {
    std::vector<int> links;
    links.reserve(path.size());
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      std::optional<int> e = Find(path[i], path[i + 1]);
      if (!e) return std::nullopt;
      links.push_back(*e);
    }
    return links;
  }

 private:
  std::vector<std::vector<std::pair<int, int>>> out_;  // per node: (head, link id), sorted
};

// Breadth-first search over links with residual >= need, from the nodes marked in `reached`
// (compute nodes), through switches only, stopping at the compute nodes it finds (not marked):
// the walks a route may take (inner nodes switches). Epoch stamps: no clearing between runs.
class SwitchSearch {
 public:
  explicit SwitchSearch(const Topology& g)
      : g_(g), via_(g.num_nodes(), -1), seen_(g.num_nodes(), 0) {}

  // The compute nodes found, in the order found; stops at `target` when it is >= 0.
  std::vector<int> Run(const std::vector<int>& sources, const std::vector<char>& reached,
                       const std::vector<BigInt>& res, const BigInt& need, int target) {
    ++epoch_;
    std::vector<int> queue = sources, found;
    for (int s : sources) seen_[s] = epoch_;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      for (int e : g_.OutLinks(queue[head])) {
        const int w = g_.link(e).to;
        if (seen_[w] == epoch_ || reached[w] || res[e] < need) continue;
        seen_[w] = epoch_;
        via_[w] = e;
        if (g_.IsSwitch(w)) {
          queue.push_back(w);
          continue;
        }
        found.push_back(w);
        if (w == target) return found;
      }
    }
    return found;
  }

  // The links from a source to a node the last Run found, in order.
  std::vector<int> PathLinks(int v, const std::vector<char>& reached) const {
    std::vector<int> links;
    for (int w = v; links.empty() || !reached[w]; w = g_.link(links.back()).from) {
      links.push_back(via_[w]);
    }
    return {links.rbegin(), links.rend()};
  }

 private:
  const Topology& g_;
  std::vector<int> via_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t epoch_ = 0;
};

// The nodes of a walk given by its links (at least one).
std::vector<int> PathNodes(const Topology& g, const std::vector<int>& links);

// Paths u -> v through switches carrying `amount` in total: one path with room for all of it
// (links with res >= amount), else the amount in halves, quarters, ... (each piece on the first
// path with room for it). Each piece found is passed to `charge` (which must lower res on its
// links) and appended to `routes`. False when a piece of 1 finds no path (then some pieces may
// have been charged already: the caller undoes them). One BFS O(V + E) per piece.
bool RouteThroughSwitches(const Topology& g, SwitchSearch& search, int u, int v, BigInt amount,
                          const std::vector<BigInt>& res,
                          const std::function<void(const std::vector<int>&, const BigInt&)>& charge,
                          std::vector<PipelineRoute>* routes);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_RESIDUAL_ROUTES_H_
