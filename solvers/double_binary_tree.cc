#include "solvers/double_binary_tree.h"

#include <algorithm>
#include <functional>

#include "graphs/input_error.h"

namespace collsynth {

std::vector<BinaryTree> DoubleBinaryTrees(const std::vector<int>& order) {
  int n = static_cast<int>(order.size());
  std::vector<BinaryTree> trees(2);
  for (int shift = 0; shift < 2; ++shift) {
    BinaryTree& t = trees[shift];
    t.parent.assign(n, -1);
    t.depth.assign(n, 0);
    auto node = [&](int pos) { return order[(pos + shift) % n]; };
    std::function<void(int, int, int, int)> build = [&](int lo, int hi, int parent, int depth) {
      if (lo >= hi) return;
      int m = (lo + hi) / 2;
      int v = node(m);
      t.parent[v] = parent;
      t.depth[v] = depth;
      if (parent == -1) t.root = v;
      build(lo, m, v, depth + 1);
      build(m + 1, hi, v, depth + 1);
    };
    build(0, n, -1, 0);
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
