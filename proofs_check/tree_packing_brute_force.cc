#include "proofs_check/tree_packing_brute_force.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

namespace collsynth {
namespace {

// Steiner model: for each switch subset W, a parent link per non-root node of V_c ∪ W, every
// node reaching the root (no cycle), no switch leaf.
std::vector<std::vector<int>> SteinerTrees(const Topology& g, int root) {
  std::vector<int> switches;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (g.IsSwitch(v)) switches.push_back(v);
  }
  std::vector<std::vector<int>> trees;
  for (std::uint32_t mask = 0; mask < (1u << switches.size()); ++mask) {
    std::vector<char> in(g.num_nodes(), 0);
    for (int v : g.ComputeNodes()) in[v] = 1;
    for (std::size_t i = 0; i < switches.size(); ++i) {
      if (mask >> i & 1) in[switches[i]] = 1;
    }
    std::vector<int> members;                    // non-root nodes of the tree
    std::vector<std::vector<int>> parent_links;  // their candidate parent links
    bool possible = true;
    for (int v = 0; v < g.num_nodes() && possible; ++v) {
      if (!in[v] || v == root) continue;
      std::vector<int> cands;
      for (int e : g.InLinks(v)) {
        int u = g.link(e).from;
        if (u != v && in[u]) cands.push_back(e);
      }
      possible = !cands.empty();
      members.push_back(v);
      parent_links.push_back(cands);
    }
    if (!possible) continue;
    std::vector<std::size_t> choice(members.size(), 0);
    while (true) {
      std::vector<int> parent(g.num_nodes(), -1);
      for (std::size_t i = 0; i < members.size(); ++i) {
        parent[members[i]] = g.link(parent_links[i][choice[i]]).from;
      }
      bool ok = true;
      for (int v : members) {
        int x = v, steps = 0;
        while (x != root && steps <= g.num_nodes()) x = parent[x], ++steps;
        ok &= x == root;
      }
      std::vector<char> has_child(g.num_nodes(), 0);
      for (int v : members) has_child[parent[v]] = 1;
      for (int v : members) ok &= !g.IsSwitch(v) || has_child[v];
      if (ok) {
        std::vector<int> links;
        for (std::size_t i = 0; i < members.size(); ++i)
          links.push_back(parent_links[i][choice[i]]);
        std::sort(links.begin(), links.end());
        trees.push_back(links);
      }
      std::size_t i = 0;
      while (i < members.size() && ++choice[i] == parent_links[i].size()) choice[i++] = 0;
      if (i == members.size()) break;
    }
  }
  return trees;
}

// Routed model: a parent per non-root compute node (acyclic), each arc routed along a simple
// path whose inner nodes are switches; identical link multisets kept once.
std::vector<std::vector<int>> RoutedTrees(const Topology& g, int root) {
  const int n = g.num_nodes();
  // paths[a][b]: link-id lists of the simple switch-interior paths a -> b.
  std::vector<std::vector<std::vector<std::vector<int>>>> paths(
      n, std::vector<std::vector<std::vector<int>>>(n));
  for (int a : g.ComputeNodes()) {
    std::vector<char> seen(n, 0);
    std::vector<int> links;
    std::function<void(int)> walk = [&](int x) {
      for (int e : g.OutLinks(x)) {
        int y = g.link(e).to;
        if (y == x || seen[y]) continue;
        links.push_back(e);
        if (g.IsCompute(y)) {
          paths[a][y].push_back(links);
        } else {
          seen[y] = 1;
          walk(y);
          seen[y] = 0;
        }
        links.pop_back();
      }
    };
    seen[a] = 1;
    walk(a);
  }
  const std::vector<int> compute = g.ComputeNodes();
  std::vector<int> others;
  for (int v : compute) {
    if (v != root) others.push_back(v);
  }
  std::set<std::vector<int>> trees;
  std::vector<std::size_t> parent_choice(others.size(), 0);
  while (true) {
    std::vector<int> parent(n, -1);
    bool ok = true;
    for (std::size_t i = 0; i < others.size(); ++i) {
      std::vector<int> c;  // candidate parents: the other compute nodes
      for (int u : compute) {
        if (u != others[i]) c.push_back(u);
      }
      parent[others[i]] = c[parent_choice[i]];
      ok &= !paths[parent[others[i]]][others[i]].empty();
    }
    for (int v : others) {
      int x = v, steps = 0;
      while (ok && x != root && steps <= n) x = parent[x], ++steps;
      ok &= x == root;
    }
    if (ok) {  // every combination of routes for the arcs
      std::vector<std::size_t> route(others.size(), 0);
      while (true) {
        std::vector<int> links;
        for (std::size_t i = 0; i < others.size(); ++i) {
          const auto& p = paths[parent[others[i]]][others[i]][route[i]];
          links.insert(links.end(), p.begin(), p.end());
        }
        std::sort(links.begin(), links.end());
        trees.insert(links);
        std::size_t i = 0;
        while (i < others.size() && ++route[i] == paths[parent[others[i]]][others[i]].size()) {
          route[i++] = 0;
        }
        if (i == others.size()) break;
      }
    }
    std::size_t i = 0;
    while (i < others.size() && ++parent_choice[i] == compute.size() - 1) parent_choice[i++] = 0;
    if (i == others.size()) break;
  }
  return {trees.begin(), trees.end()};
}

}  // namespace

std::vector<std::vector<int>> EnumerateSpanningTrees(const Topology& g, int root, TreeModel model) {
  return model == TreeModel::kRouted ? RoutedTrees(g, root) : SteinerTrees(g, root);
}

TreePackingBruteForce::TreePackingBruteForce(const Topology& g, TreeModel model) : g_(g) {
  if (g.num_nodes() > kMaxTreePackingNodes) {
    throw std::logic_error("tree packing brute force: more than " +
                           std::to_string(kMaxTreePackingNodes) + " nodes");
  }
  if (g.num_compute() < 2) throw std::logic_error("tree packing brute force: < 2 compute nodes");
  for (int r : g.ComputeNodes()) trees_.push_back(EnumerateSpanningTrees(g, r, model));
}

std::optional<bool> TreePackingBruteForce::Fits(const BigInt& k, const Rational& u,
                                                std::int64_t budget) {
  if (k < 1 || k > kMaxTreePackingK)
    throw std::logic_error("tree packing brute force: k out of range");
  if (u < 0) throw std::logic_error("tree packing brute force: U < 0");
  k_ = static_cast<int>(k);
  const BigInt most = BigInt(k_) * g_.num_compute() * g_.num_nodes();  // routes a link can carry
  cap_.assign(g_.num_links(), 0);
  for (int e = 0; e < g_.num_links(); ++e) {
    BigInt c = Floor(u * g_.link(e).bandwidth);
    cap_[e] = static_cast<std::int64_t>(c < most ? c : most);
  }
  left_ = budget;
  bool found = Search(0, 0, 0);
  if (left_ < 0) return std::nullopt;
  return found;
}

// Places tree number `count` of root index `r`, from candidate `from` on.
bool TreePackingBruteForce::Search(std::size_t r, int count, std::size_t from) {
  if (--left_ < 0) return false;
  if (r == trees_.size()) return true;
  if (count == k_) return Search(r + 1, 0, 0);
  const auto& cands = trees_[r];
  for (std::size_t i = from; i < cands.size(); ++i) {
    bool fits = true;
    for (int e : cands[i]) fits &= --cap_[e] >= 0;  // a link may repeat in a routed tree
    bool done = fits && Search(r, count + 1, i);
    for (int e : cands[i]) ++cap_[e];
    if (done) return true;
    if (left_ < 0) return false;
  }
  return false;
}

}  // namespace collsynth
