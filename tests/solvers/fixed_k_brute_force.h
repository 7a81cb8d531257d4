// Brute-force oracle for seed 004 §2.4 (fixed k) on tiny switch topologies: do k trees per
// compute root fit in G({⌊U·b_e⌋})? Two models of a tree, searched exhaustively:
//  * kRouted (the schedule contract, docs/formats.md): an arborescence on the compute nodes
//    whose every arc is routed along one physical path with switch interiors; a link's load
//    counts every route through it (a switch forwards, it does not replicate).
//  * kSteiner (Theorem 13's statement): an out-tree of G containing every compute node, which
//    may branch at a switch (the switch replicates: its in-link is used once).
// Every minimal tree is enumerated, then a packing is searched depth first. Exponential:
// for <= 7 nodes only. Independent of the solvers (no max-flow, no splitting, no packing).
#ifndef COLLSYNTH_TESTS_SOLVERS_FIXED_K_BRUTE_FORCE_H_
#define COLLSYNTH_TESTS_SOLVERS_FIXED_K_BRUTE_FORCE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include "graphs/rational.h"
#include "graphs/topology.h"

namespace collsynth::testing {

// Every minimal out-tree rooted at `root` spanning the compute nodes, as sorted link ids.
inline std::vector<std::vector<int>> SteinerOutTrees(const Topology& g, int root) {
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
      for (int v : members) {  // every member reaches the root (no cycle)
        int x = v, steps = 0;
        while (x != root && steps <= g.num_nodes()) x = parent[x], ++steps;
        ok &= x == root;
      }
      std::vector<char> has_child(g.num_nodes(), 0);
      for (int v : members) has_child[parent[v]] = 1;
      for (int v : members) ok &= !g.IsSwitch(v) || has_child[v];
      if (ok) {
        std::vector<int> links;
        for (std::size_t i = 0; i < members.size(); ++i) links.push_back(parent_links[i][choice[i]]);
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

// Every arborescence on the compute nodes rooted at `root` with each arc routed along a
// simple path whose inner nodes are switches, as sorted link ids (with repetition).
inline std::vector<std::vector<int>> RoutedOutTrees(const Topology& g, int root) {
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
        if (y == x || seen[y] || y == a) continue;
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
  std::vector<int> others;
  for (int v : g.ComputeNodes()) {
    if (v != root) others.push_back(v);
  }
  const std::vector<int> compute = g.ComputeNodes();
  std::set<std::vector<int>> trees;
  std::vector<std::size_t> parent_choice(others.size(), 0);
  while (true) {
    std::vector<int> parent(n, -1);
    std::vector<int> candidates;  // compute nodes other than v, by index
    bool ok = true;
    for (std::size_t i = 0; i < others.size(); ++i) {
      std::vector<int> c;
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
        while (i < others.size() &&
               ++route[i] == paths[parent[others[i]]][others[i]].size()) {
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

enum class TreeModel { kRouted, kSteiner };

// Whether k trees per compute root fit in G({⌊U·b_e⌋}) under the given model; std::nullopt
// when the search exceeds `budget` nodes.
class FixedKBruteForce {
 public:
  FixedKBruteForce(const Topology& g, TreeModel model) : g_(g) {
    for (int r : g.ComputeNodes()) {
      trees_.push_back(model == TreeModel::kRouted ? RoutedOutTrees(g, r) : SteinerOutTrees(g, r));
    }
  }

  std::optional<bool> Fits(const BigInt& k, const Rational& u, std::int64_t budget) {
    cap_.assign(g_.num_links(), 0);
    for (int e = 0; e < g_.num_links(); ++e) {
      cap_[e] = static_cast<std::int64_t>(Floor(u * g_.link(e).bandwidth));
    }
    k_ = static_cast<int>(k);
    left_ = budget;
    bool found = Search(0, 0, 0);
    if (left_ < 0) return std::nullopt;
    return found;
  }

 private:
  // Places tree number `count` of root index `r`, using candidates from index `from` on
  // (trees of one root are chosen in nondecreasing order: a multiset).
  bool Search(std::size_t r, int count, std::size_t from) {
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

  const Topology& g_;
  std::vector<std::vector<std::vector<int>>> trees_;
  std::vector<std::int64_t> cap_;
  int k_ = 0;
  std::int64_t left_ = 0;
};

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_SOLVERS_FIXED_K_BRUTE_FORCE_H_
