#include "solvers/baselines/double_binary_tree.h"

#include <algorithm>

#include "core/input_error.h"
#include "graphs/generators/double_binary_tree_topology.h"

namespace collsynth {

std::vector<BinaryTree> DoubleBinaryTrees(const std::vector<int>& order) {
  const int n = static_cast<int>(order.size());
  // Tree A over positions (graphs/generators: the same trees as the dbtree(n) topology);
  // tree B is tree A with every position shifted by one.
  const std::vector<std::int64_t> up = InOrderTreeParents(n);
  std::vector<int> pos_depth(n, -1);
  for (int p = 0; p < n; ++p) {
    std::vector<int> chain;  // walk up to a position of known depth
    int q = p;
    while (q >= 0 && pos_depth[q] < 0) {
      chain.push_back(q);
      q = static_cast<int>(up[q]);
    }
    int d = q < 0 ? -1 : pos_depth[q];
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) pos_depth[*it] = ++d;
  }
  std::vector<BinaryTree> trees(2);
  for (int shift = 0; shift < 2; ++shift) {
    BinaryTree& t = trees[shift];
    t.parent.assign(n, -1);
    t.depth.assign(n, 0);
    auto node = [&](std::int64_t pos) { return order[(pos + shift) % n]; };
    for (int p = 0; p < n; ++p) {
      const int v = node(p);
      t.depth[v] = pos_depth[p];
      if (up[p] < 0) {
        t.root = v;
      } else {
        t.parent[v] = node(up[p]);
      }
    }
  }
  return trees;
}

StepSchedule DoubleBinaryTreeAllgather(const Topology& g, const std::vector<int>& order, int chunks,
                                       const std::string& file) {
  int n = static_cast<int>(order.size());
  if (chunks < 1) throw InputError(file, "--chunks", "must be >= 1");
  if (static_cast<long long>(chunks) * n * n > 50'000'000LL) {
    throw InputError(file, "--chunks", "too many pipeline chunks for this topology size");
  }
  std::vector<BinaryTree> trees = DoubleBinaryTrees(order);
  for (const BinaryTree& t : trees) {
    for (int v = 0; v < n; ++v) {
      int p = t.parent[v];
      if (p < 0) continue;
      for (auto [a, b] : {std::pair{p, v}, std::pair{v, p}}) {
        if (!g.FindLink(a, b)) {
          throw InputError(file, "link " + g.node(a).name + " -> " + g.node(b).name,
                           "missing: the double binary tree needs every tree edge as a link "
                           "both ways (route-free step model)");
        }
      }
    }
  }
  StepSchedule s;
  s.extra["baseline"] = "dbtree";
  s.extra["chunks"] = chunks;
  for (int k = 0; k < 2; ++k) {
    const BinaryTree& t = trees[k];
    int h = *std::max_element(t.depth.begin(), t.depth.end());
    int up_steps = h + chunks - 1;
    // subtree membership: in_sub[v][x] = x is in v's subtree.
    std::vector<std::vector<char>> in_sub(n, std::vector<char>(n, 0));
    for (int x = 0; x < n; ++x) {
      for (int v = x; v != -1; v = t.parent[v]) in_sub[v][x] = 1;
    }
    Rational base(k, 2), width(1, 2 * chunks);
    for (int v = 0; v < n; ++v) {
      int p = t.parent[v];
      if (p < 0) continue;
      int d = t.depth[v];
      for (int c = 0; c < chunks; ++c) {
        Interval piece{base + width * c, base + width * (c + 1)};
        for (int x = 0; x < n; ++x) {
          if (in_sub[v][x]) {
            s.sends.push_back(StepSend{x, {piece}, v, p, h - d + 1 + c});
          } else {
            s.sends.push_back(StepSend{x, {piece}, p, v, up_steps + d + c});
          }
        }
      }
    }
  }
  return s;
}

}  // namespace collsynth
