#include "proofs_check/tree_allreduce_checker.h"

#include <optional>

namespace collsynth {
namespace {

std::string Name(const Topology& g, int v) {
  return v >= 0 && v < g.num_nodes() ? g.node(v).name : std::to_string(v);
}

// The first violation of one tree (see the header), or nullopt.
std::optional<std::string> TreeViolation(const Topology& g, const CheckedReductionTree& t) {
  const int n = g.num_nodes();
  if (static_cast<int>(t.parent.size()) != n) {
    return "parent array of " + std::to_string(t.parent.size()) + " entries for " +
           std::to_string(n) + " nodes";
  }
  if (t.root < 0 || t.root >= n || !g.IsCompute(t.root)) {
    return "root " + Name(g, t.root) + " is not a compute node";
  }
  if (t.parent[t.root] != -1) return "root " + Name(g, t.root) + " has a parent";
  for (int v = 0; v < n; ++v) {
    const int p = t.parent[v];
    if (v == t.root) continue;
    if (p == -1) {
      if (g.IsCompute(v)) return "compute node " + Name(g, v) + " is not in the tree";
      continue;
    }
    if (!g.IsCompute(v)) return "node " + Name(g, v) + " is in the tree but not a compute node";
    if (p < 0 || p >= n) return "node " + Name(g, v) + " has parent " + std::to_string(p);
    if (!g.FindLink(v, p) || !g.FindLink(p, v)) {
      return "tree edge " + Name(g, v) + " - " + Name(g, p) + " is not a link in both directions";
    }
  }
  // Every member reaches the root: walk parents, at most n hops (a longer walk is a cycle).
  std::vector<char> reaches(n, 0);
  reaches[t.root] = 1;
  for (int v = 0; v < n; ++v) {
    if (t.parent[v] == -1) continue;
    std::vector<int> path;
    int u = v;
    while (!reaches[u] && static_cast<int>(path.size()) <= n) {
      path.push_back(u);
      u = t.parent[u];
      if (u == -1) return "node " + Name(g, v) + " does not reach the root";
    }
    if (!reaches[u]) return "node " + Name(g, v) + " lies on a cycle of parents";
    for (int w : path) reaches[w] = 1;
  }
  return std::nullopt;
}

}  // namespace

TreeAllreduceCheckReport CheckTreeAllreduce(const Topology& g,
                                            const std::vector<CheckedReductionTree>& trees) {
  TreeAllreduceCheckReport rep;
  Rational total(0);
  for (std::size_t i = 0; i < trees.size(); ++i) {
    if (auto why = TreeViolation(g, trees[i])) {
      rep.errors.push_back("tree " + std::to_string(i) + ": " + *why);
    }
    if (trees[i].share <= 0) {
      rep.errors.push_back("tree " + std::to_string(i) + ": share " + ToString(trees[i].share) +
                           " is not positive");
    }
    total += trees[i].share;
  }
  if (trees.empty()) rep.errors.push_back("no trees");
  if (total != 1) rep.errors.push_back("the shares sum to " + ToString(total) + ", not 1");
  rep.ok = rep.errors.empty();
  return rep;
}

}  // namespace collsynth
