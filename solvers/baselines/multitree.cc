#include "solvers/baselines/multitree.h"

#include <algorithm>

#include "core/input_error.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

// Out-links of every node in the order Algorithm 1 tries them.
std::vector<std::vector<int>> NeighbourOrder(const Topology& g, const std::optional<Grid>& grid) {
  std::vector<std::vector<int>> order(g.num_nodes());
  for (int v = 0; v < g.num_nodes(); ++v) {
    for (int e : g.OutLinks(v)) {
      if (g.link(e).to != v) order[v].push_back(e);
    }
    if (!grid) continue;
    const std::vector<int>& x = grid->coord[v];
    int k = static_cast<int>(grid->dims.size());
    auto key = [&](int e) {
      const std::vector<int>& y = grid->coord[g.link(e).to];
      int differing = -1, count = 0;
      for (int q = 0; q < k; ++q) {
        if (x[q] != y[q]) {
          differing = q;
          ++count;
        }
      }
      if (count != 1) return 2 * k + 2;  // not a grid link: last
      int dir = (x[differing] + 1) % grid->dims[differing] == y[differing] ? 0 : 1;
      return 2 * (k - 1 - differing) + dir;  // last coordinate (Y) first, +1 before -1
    };
    std::stable_sort(order[v].begin(), order[v].end(),
                     [&](int a, int b) { return key(a) < key(b); });
  }
  return order;
}

}  // namespace

MultiTreeResult BuildMultiTree(const Topology& g, const MultiTreeOptions& options,
                               const std::string& file) {
  if (g.num_switches() > 0) {
    throw InputError(file, "topology",
                     "MultiTree in the step format needs a direct-connect topology (no switches)");
  }
  RequireStronglyConnected(g, file);
  if (options.fan_out < 0) throw InputError(file, "--fan-out", "must be >= 0");
  const int n = g.num_nodes();
  std::vector<std::vector<int>> nbr = NeighbourOrder(g, options.grid);
  std::vector<std::vector<char>> in_tree(n, std::vector<char>(n, 0));
  std::vector<std::vector<int>> children(n, std::vector<int>(n, 0));
  std::vector<std::vector<std::pair<int, int>>> added(n);  // (node, step added)
  std::vector<int> size(n, 1);
  MultiTreeResult r;
  r.trees.assign(n, {});
  for (int root = 0; root < n; ++root) {
    in_tree[root][root] = 1;
    added[root].push_back({root, 0});
  }
  int complete = n == 1 ? n : 0;
  int t = 0;
  std::vector<std::int64_t> free_links(g.num_links());
  while (complete < n) {
    ++t;
    for (int e = 0; e < g.num_links(); ++e) free_links[e] = g.link(e).multiplicity;
    bool progress_this_step = false;
    bool progress = true;
    while (progress) {
      progress = false;
      for (int root = 0; root < n; ++root) {
        if (size[root] == n) continue;
        bool grown = false;
        for (std::size_t i = 0; i < added[root].size() && !grown; ++i) {
          auto [p, step_added] = added[root][i];
          if (step_added >= t) break;  // nodes are in order of addition
          if (options.fan_out > 0 && children[root][p] >= options.fan_out) continue;
          for (int e : nbr[p]) {
            int c = g.link(e).to;
            if (free_links[e] == 0 || in_tree[root][c]) continue;
            --free_links[e];
            in_tree[root][c] = 1;
            ++children[root][p];
            added[root].push_back({c, t});
            r.trees[root].push_back(MultiTreeEdge{p, c, t});
            if (++size[root] == n) ++complete;
            grown = true;
            break;
          }
        }
        progress = progress || grown;
      }
      progress_this_step = progress_this_step || progress;
    }
    if (!progress_this_step) {
      throw InputError(
          file, "--fan-out",
          "the trees cannot grow further with a fan-out cap of " + std::to_string(options.fan_out));
    }
  }
  r.total_steps = t;
  const std::vector<Interval> whole{Interval{0, 1}};
  r.allgather.extra["baseline"] = "multitree";
  r.reduce_scatter.collective = Collective::kReduceScatter;
  r.reduce_scatter.extra["baseline"] = "multitree";
  for (int root = 0; root < n; ++root) {
    for (const MultiTreeEdge& e : r.trees[root]) {
      r.allgather.sends.push_back(StepSend{root, whole, e.parent, e.child, e.step});
      r.reduce_scatter.sends.push_back(
          StepSend{root, whole, e.child, e.parent, r.total_steps - e.step + 1});
    }
  }
  r.allreduce = r.reduce_scatter;
  r.allreduce.collective = Collective::kAllreduce;
  r.allreduce.rs_steps = r.total_steps;
  for (StepSend s : r.allgather.sends) {
    s.step += r.total_steps;
    r.allreduce.sends.push_back(std::move(s));
  }
  return r;
}

}  // namespace collsynth
