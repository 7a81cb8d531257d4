#include "solvers/baselines/double_binary_tree.h"

#include <algorithm>

#include "core/input_error.h"
#include "graphs/generators/double_binary_tree_topology.h"

namespace collsynth {

namespace {

// The tree whose position p has the parent position up[p] (-1 at the root), position p being
// node order[p]; depths by walking up to a position of known depth.
BinaryTree TreeOverPositions(const std::vector<int>& order, const std::vector<std::int64_t>& up) {
  const int n = static_cast<int>(order.size());
  std::vector<int> pos_depth(n, -1);
  for (int p = 0; p < n; ++p) {
    std::vector<int> chain;
    int q = p;
    while (q >= 0 && pos_depth[q] < 0) {
      chain.push_back(q);
      q = static_cast<int>(up[q]);
    }
    int d = q < 0 ? -1 : pos_depth[q];
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) pos_depth[*it] = ++d;
  }
  const int ids = order.empty() ? 0 : *std::max_element(order.begin(), order.end()) + 1;
  BinaryTree t;
  t.parent.assign(ids, -1);
  t.depth.assign(ids, 0);
  for (int p = 0; p < n; ++p) {
    const int v = order[p];
    t.depth[v] = pos_depth[p];
    if (up[p] < 0) {
      t.root = v;
    } else {
      t.parent[v] = order[up[p]];
    }
  }
  return t;
}

}  // namespace

std::vector<BinaryTree> DoubleBinaryTrees(const std::vector<int>& order) {
  const std::int64_t n = static_cast<std::int64_t>(order.size());
  // Tree A over positions (graphs/generators: the same trees as the dbtree(n) topology);
  // tree B is tree A with every position shifted by one.
  const std::vector<std::int64_t> a = InOrderTreeParents(n);
  std::vector<std::int64_t> b(a.size(), -1);
  for (std::int64_t p = 0; p < n; ++p) b[(p + 1) % n] = a[p] < 0 ? -1 : (a[p] + 1) % n;
  return {TreeOverPositions(order, a), TreeOverPositions(order, b)};
}

std::int64_t NcclBtreeParent(std::int64_t n, std::int64_t rank) {
  if (rank == 0) return -1;
  std::int64_t bit = 1;
  while ((rank & bit) == 0) bit <<= 1;  // the lowest set bit
  const std::int64_t up = (rank ^ bit) | (bit << 1);
  return up >= n ? rank ^ bit : up;
}

std::vector<BinaryTree> NcclDoubleBinaryTrees(const std::vector<int>& order) {
  const std::int64_t n = static_cast<std::int64_t>(order.size());
  std::vector<std::int64_t> a(order.size()), b(order.size());
  for (std::int64_t r = 0; r < n; ++r) {
    a[r] = NcclBtreeParent(n, r);
    if (n % 2 == 1) {  // shift: rank r plays tree A's rank r-1
      const std::int64_t u = NcclBtreeParent(n, (r - 1 + n) % n);
      b[r] = u < 0 ? -1 : (u + 1) % n;
    } else {  // mirror: rank r plays tree A's rank n-1-r
      const std::int64_t u = NcclBtreeParent(n, n - 1 - r);
      b[r] = u < 0 ? -1 : n - 1 - u;
    }
  }
  return {TreeOverPositions(order, a), TreeOverPositions(order, b)};
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
