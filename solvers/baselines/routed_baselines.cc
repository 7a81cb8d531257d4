#include "solvers/baselines/routed_baselines.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "core/input_error.h"
#include "solvers/baselines/baseline_structure.h"
#include "solvers/baselines/double_binary_tree.h"

namespace collsynth {
namespace {

// Links in the direction the data flows: allgather from the root outwards; reduce-scatter
// towards the root, so a route listed parent -> child uses the reversed links (the checker's
// reading, docs/formats.md).
struct Direction {
  const Topology& g;
  bool reversed;
  template <typename F>
  void ForNext(int x, F f) const {  // y with a link x -> y (reversed: y -> x)
    for (int e : reversed ? g.InLinks(x) : g.OutLinks(x))
      f(reversed ? g.link(e).from : g.link(e).to);
  }
  template <typename F>
  void ForPrev(int y, F f) const {  // x with a link x -> y (reversed: y -> x)
    for (int e : reversed ? g.OutLinks(y) : g.InLinks(y))
      f(reversed ? g.link(e).to : g.link(e).from);
  }
};

// Hop distances from u over paths with only switches inside (compute nodes other than u are
// reached, not passed through). -1: unreachable.
std::vector<int> SwitchOnlyDistances(const Direction& d, int u) {
  std::vector<int> dist(d.g.num_nodes(), -1);
  std::vector<int> queue{u};
  dist[u] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int x = queue[head];
    if (x != u && d.g.IsCompute(x)) continue;
    d.ForNext(x, [&](int y) {
      if (dist[y] < 0) {
        dist[y] = dist[x] + 1;
        queue.push_back(y);
      }
    });
  }
  return dist;
}

// Up to `cap` shortest switch-only routes u -> v (dist from SwitchOnlyDistances(d, u)), each
// listed from u to v, in a fixed order (by link order, backwards from v).
std::vector<std::vector<int>> ShortestRoutes(const Direction& d, const std::vector<int>& dist,
                                             int u, int v, int cap) {
  std::vector<std::vector<int>> out;
  std::vector<int> suffix{v};  // v back to the current node
  auto walk = [&](auto& self, int y) -> void {
    if (static_cast<int>(out.size()) >= cap) return;
    if (y == u) {
      out.emplace_back(suffix.rbegin(), suffix.rend());
      return;
    }
    d.ForPrev(y, [&](int x) {
      if (dist[x] != dist[y] - 1 || (x != u && d.g.IsCompute(x))) return;
      suffix.push_back(x);
      self(self, x);
      suffix.pop_back();
    });
  };
  walk(walk, v);
  return out;
}

struct RootedTree {
  int root;
  std::vector<std::pair<int, int>> edges;  // (parent, child), parents before children
};

class Builder {
 public:
  Builder(const Topology& g, const RoutedBaselineOptions& o, const std::string& file,
          Collective phase)
      : g_(g), o_(o), file_(file), dir_{g, phase == Collective::kReduceScatter}, phase_(phase) {}

  PipelineSchedule Build();

 private:
  using Edge = std::pair<int, int>;  // parent, child (compute nodes)
  using Tree = RootedTree;
  std::vector<int> Order() const;
  std::vector<Tree> Trees() const;
  std::vector<Tree> DirectTrees(const std::vector<int>& order) const;
  std::vector<Tree> DoubleBinaryTrees(const std::vector<int>& order) const;
  std::vector<Tree> HierarchicalTrees() const;
  std::vector<std::vector<int>> RoutesFor(int u, int v);
  [[noreturn]] void Fail(const std::string& item, const std::string& what) const {
    throw InputError(file_, item, what);
  }
  std::string Name(int v) const { return g_.node(v).name; }

  const Topology& g_;
  const RoutedBaselineOptions& o_;
  const std::string& file_;
  const Direction dir_;
  const Collective phase_;
  std::map<int, std::vector<int>> distances_;  // switch-only distances by source
};

std::vector<int> Builder::Order() const {
  const std::vector<int> compute = g_.ComputeNodes();
  if (o_.order.empty()) {
    if (o_.name == "routed-ring") {  // on GPU boxes, a ring that crosses boxes on the rails
      const Boxes boxes = InferBoxes(g_);
      if (boxes.why.empty()) return RailAwareRingOrder(boxes);
    }
    return compute;  // id order: the order a topology file lists its nodes
  }
  std::vector<int> order;
  std::vector<char> seen(g_.num_nodes(), 0);
  for (const std::string& name : o_.order) {
    const std::optional<int> v = g_.FindNode(name);
    if (!v || !g_.IsCompute(*v)) Fail("--order", "'" + name + "' is not a compute node");
    if (seen[*v]) Fail("--order", "'" + name + "' is listed twice");
    seen[*v] = 1;
    order.push_back(*v);
  }
  if (order.size() != compute.size()) {
    Fail("--order", "lists " + std::to_string(order.size()) + " of the " +
                        std::to_string(compute.size()) + " compute nodes");
  }
  return order;
}

// A BFS tree from each root over all nodes; a compute node's parent in the schedule's tree is
// the first compute node above it (the root on a switched fabric).
std::vector<Builder::Tree> Builder::DirectTrees(const std::vector<int>& order) const {
  const int n = static_cast<int>(order.size());
  std::vector<Tree> trees;
  for (int r : order) {
    std::vector<int> parent(g_.num_nodes(), -2), queue{r};
    parent[r] = -1;
    std::vector<Edge> edges;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int x = queue[head];
      if (x != r && g_.IsCompute(x)) {
        int u = parent[x];
        while (!g_.IsCompute(u)) u = parent[u];
        edges.push_back({u, x});
      }
      dir_.ForNext(x, [&](int y) {
        if (parent[y] == -2) {
          parent[y] = x;
          queue.push_back(y);
        }
      });
    }
    if (static_cast<int>(edges.size()) != n - 1) {
      Fail("topology", "not every compute node can be reached from " + Name(r) +
                           (dir_.reversed ? " (reduce-scatter: along reversed links)" : ""));
    }
    trees.push_back({r, std::move(edges)});
  }
  return trees;
}

// A spanning tree of the compute nodes given by its undirected adjacency, re-rooted at every
// node of `roots`: root r's edges point away from r.
std::vector<RootedTree> Rerooted(const std::vector<std::vector<int>>& next,
                                 const std::vector<int>& roots) {
  std::vector<RootedTree> trees;
  for (int r : roots) {
    std::vector<char> seen(next.size(), 0);
    std::vector<int> queue{r};
    seen[r] = 1;
    std::vector<std::pair<int, int>> edges;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      for (int y : next[queue[head]]) {
        if (seen[y]) continue;
        seen[y] = 1;
        edges.push_back({queue[head], y});
        queue.push_back(y);
      }
    }
    trees.push_back({r, std::move(edges)});
  }
  return trees;
}

// NCCL's two trees, each re-rooted at every root: root r's data climbs to the tree's root and
// comes down the other branches, i.e. follows the tree's edges away from r. On GPU boxes without
// an explicit order, NCCL's multi-node form: per channel c, the two trees over the boxes joined
// by GPU c of each box (one rail), and in every box the chain c, c+1, ..., c-1.
std::vector<Builder::Tree> Builder::DoubleBinaryTrees(const std::vector<int>& order) const {
  std::vector<Tree> trees;
  auto add = [&](int a, int b, std::vector<std::vector<int>>& next) {
    next[a].push_back(b);
    next[b].push_back(a);
  };
  const Boxes boxes = o_.order.empty() ? InferBoxes(g_) : Boxes{{}, "an explicit order"};
  if (boxes.why.empty()) {
    const std::vector<std::vector<int>>& gpu = boxes.gpu;
    const int num_boxes = static_cast<int>(gpu.size()), per_box = static_cast<int>(gpu[0].size());
    std::vector<int> box_ids(num_boxes);
    std::iota(box_ids.begin(), box_ids.end(), 0);
    const std::vector<BinaryTree> over_boxes = NcclDoubleBinaryTrees(box_ids);
    for (int c = 0; c < per_box; ++c) {
      for (const BinaryTree& t : over_boxes) {
        std::vector<std::vector<int>> next(g_.num_nodes());
        for (int b = 0; b < num_boxes; ++b) {
          for (int i = 0; i + 1 < per_box; ++i)
            add(gpu[b][(c + i) % per_box], gpu[b][(c + i + 1) % per_box], next);
          if (t.parent[b] >= 0) add(gpu[b][c], gpu[t.parent[b]][c], next);
        }
        for (Tree& tree : Rerooted(next, order)) trees.push_back(std::move(tree));
      }
    }
    return trees;
  }
  for (const BinaryTree& t : NcclDoubleBinaryTrees(order)) {
    std::vector<std::vector<int>> next(g_.num_nodes());
    for (int v : order) {
      if (t.parent[v] >= 0) add(v, t.parent[v], next);
    }
    for (Tree& tree : Rerooted(next, order)) trees.push_back(std::move(tree));
  }
  return trees;
}

// Root (b, i): along rail i to GPU i of every other box, then in every box from GPU i to the
// box's other GPUs.
std::vector<Builder::Tree> Builder::HierarchicalTrees() const {
  const Boxes boxes = InferBoxes(g_);
  if (!boxes.why.empty()) Fail("topology", "hierarchical needs GPU boxes: " + boxes.why);
  const std::vector<std::vector<int>>& gpu = boxes.gpu;
  std::vector<Tree> trees;
  for (std::size_t b = 0; b < gpu.size(); ++b) {
    for (std::size_t i = 0; i < gpu[b].size(); ++i) {
      Tree t{gpu[b][i], {}};
      for (std::size_t c = 0; c < gpu.size(); ++c) {
        if (c != b) t.edges.push_back({gpu[b][i], gpu[c][i]});
      }
      for (std::size_t c = 0; c < gpu.size(); ++c) {
        for (std::size_t j = 0; j < gpu[c].size(); ++j) {
          if (j != i) t.edges.push_back({gpu[c][i], gpu[c][j]});
        }
      }
      trees.push_back(std::move(t));
    }
  }
  return trees;
}

// The trees, each with its root; a root with several trees splits its shard evenly over them.
std::vector<Builder::Tree> Builder::Trees() const {
  // Every tree has N - 1 edges of at least one route each: refuse what would pass the cap
  // before building it (the double binary tree has 2 trees per root, 2G on GPU boxes).
  const std::int64_t num = g_.num_compute();
  std::int64_t per_root = 1;
  if (o_.name == "routed-double-binary-tree") {
    const Boxes boxes = o_.order.empty() ? InferBoxes(g_) : Boxes{{}, "an explicit order"};
    per_root = 2 * (boxes.why.empty() ? static_cast<std::int64_t>(boxes.gpu[0].size()) : 1);
  }
  if (num * per_root * (num - 1) > kMaxRoutedBaselineRoutes) {
    Fail("topology", "the schedule would hold " + std::to_string(num * per_root) + " trees of " +
                         std::to_string(num - 1) + " edges, more than 2^22 routes in all");
  }
  if (o_.name == "hierarchical") {
    if (!o_.order.empty()) Fail("--order", "hierarchical takes its order from the boxes");
    return HierarchicalTrees();
  }
  const std::vector<int> order = Order();
  const int n = static_cast<int>(order.size());
  if (o_.name == "direct") return DirectTrees(order);
  if (o_.name == "routed-double-binary-tree") return DoubleBinaryTrees(order);
  std::vector<Tree> trees;
  if (o_.name == "routed-ring") {
    if (n < 2) Fail("topology", "a ring needs at least two compute nodes");
    for (int j = 0; j < n; ++j) {
      std::vector<Edge> edges;
      for (int i = 0; i + 1 < n; ++i) edges.push_back({order[(j + i) % n], order[(j + i + 1) % n]});
      trees.push_back({order[j], std::move(edges)});
    }
  } else {  // routed-recursive-doubling
    if (n < 2 || (n & (n - 1)) != 0) {
      Fail("topology",
           "recursive doubling needs a power of two of compute nodes, got " + std::to_string(n));
    }
    for (int i = 0; i < n; ++i) {
      std::vector<Edge> edges;
      std::vector<int> have{i};
      for (int bit = 1; bit < n; bit <<= 1) {
        const std::size_t held = have.size();
        for (std::size_t h = 0; h < held; ++h) {
          edges.push_back({order[have[h]], order[have[h] ^ bit]});
          have.push_back(have[h] ^ bit);
        }
      }
      trees.push_back({order[i], std::move(edges)});
    }
  }
  return trees;
}

std::vector<std::vector<int>> Builder::RoutesFor(int u, int v) {
  auto it = distances_.find(u);
  if (it == distances_.end()) it = distances_.emplace(u, SwitchOnlyDistances(dir_, u)).first;
  if (it->second[v] < 0) {
    Fail("topology", "no route from " + Name(u) + " to " + Name(v) + " with only switches inside" +
                         (dir_.reversed ? " (reduce-scatter: along reversed links)" : "") +
                         ", which " + o_.name + " needs");
  }
  return ShortestRoutes(dir_, it->second, u, v, std::max(1, o_.max_routes_per_edge));
}

PipelineSchedule Builder::Build() {
  const std::vector<Tree> trees = Trees();
  std::map<int, std::int64_t> parts;  // trees per root
  for (const Tree& t : trees) ++parts[t.root];
  // Routes per tree edge; k = the lcm of (trees of the root) x (route count), so that each tree
  // carries k/parts and each route k/(parts·count) copies. Counts are cut to a power of two
  // when the lcm would pass 2^20 (still an even split, over fewer routes).
  std::map<Edge, std::vector<std::vector<int>>> routes;
  std::int64_t total = 0;
  for (const Tree& t : trees) {
    for (const Edge& e : t.edges) {
      auto it = routes.find(e);
      if (it == routes.end()) it = routes.emplace(e, RoutesFor(e.first, e.second)).first;
      total += static_cast<std::int64_t>(it->second.size());
      if (total > kMaxRoutedBaselineRoutes) {
        Fail("--ecmp-routes",
             "the schedule would hold more than 2^22 routes; allow fewer routes "
             "per tree edge");
      }
    }
  }
  std::int64_t most_parts = 1;
  for (const auto& [root, count] : parts) most_parts = std::max(most_parts, count);
  auto lcm_all = [&] {
    std::int64_t k = 1;
    for (const Tree& t : trees) {
      for (const Edge& e : t.edges) {
        k = std::lcm(k, parts.at(t.root) * static_cast<std::int64_t>(routes.at(e).size()));
        if (k > (std::int64_t{1} << 20)) return k;
      }
    }
    return std::lcm(k, most_parts);
  };
  std::int64_t k = lcm_all();
  if (k > (std::int64_t{1} << 20)) {
    for (auto& [edge, list] : routes) {
      std::size_t keep = 1;
      while (keep * 2 <= list.size()) keep *= 2;
      list.resize(keep);
    }
    k = lcm_all();  // powers of two times the (at most 2^22) tree counts per root
  }
  PipelineSchedule s;
  s.collective = phase_;
  s.k = k;
  std::vector<std::int64_t> load(g_.num_links(), 0);
  for (const Tree& tree : trees) {
    PipelineTree t;
    t.root = tree.root;
    const std::int64_t m = k / parts.at(tree.root);
    t.multiplicity = m;
    for (const Edge& e : tree.edges) {
      const std::vector<std::vector<int>>& list = routes.at(e);
      const std::int64_t each = m / static_cast<std::int64_t>(list.size());
      PipelineTreeEdge te{e.first, e.second, {}};
      for (const std::vector<int>& path : list) {
        te.routes.push_back({path, BigInt(each)});
        for (std::size_t q = 0; q + 1 < path.size(); ++q) {
          const int a = dir_.reversed ? path[q + 1] : path[q];
          const int b = dir_.reversed ? path[q] : path[q + 1];
          load[*g_.FindLink(a, b)] += each;
        }
      }
      t.edges.push_back(std::move(te));
    }
    s.trees.push_back(std::move(t));
  }
  Rational u = 0;
  for (int e = 0; e < g_.num_links(); ++e) {
    if (load[e] > 0) u = std::max(u, Rational(load[e]) / g_.link(e).bandwidth);
  }
  s.U = u;
  s.ratio = u / Rational(k);
  s.height_hops = PipelineScheduleHeightHops(s);
  s.extra["baseline"] = o_.name;
  return s;
}

}  // namespace

const std::vector<std::string>& RoutedBaselineNames() {
  static const std::vector<std::string> names = {"direct", "routed-ring",
                                                 "routed-recursive-doubling",
                                                 "routed-double-binary-tree", "hierarchical"};
  return names;
}

bool IsRoutedBaseline(const std::string& name) {
  const auto& names = RoutedBaselineNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

PipelineSchedule BuildRoutedBaseline(const Topology& g, const RoutedBaselineOptions& options,
                                     const std::string& file) {
  if (!IsRoutedBaseline(options.name))
    throw InputError("<args>", "baseline '" + options.name + "'", "not a routed baseline");
  if (g.num_compute() < 2) throw InputError(file, "topology", "needs at least two compute nodes");
  if (options.collective == Collective::kBroadcast) {
    throw InputError("<args>", "--collective",
                     "routed baselines build allgather, reduce-scatter and allreduce");
  }
  if (options.collective != Collective::kAllreduce) {
    return Builder(g, options, file, options.collective).Build();
  }
  PipelineSchedule s;
  s.collective = Collective::kAllreduce;
  s.phases.push_back(Builder(g, options, file, Collective::kReduceScatter).Build());
  s.phases.push_back(Builder(g, options, file, Collective::kAllgather).Build());
  s.ratio = s.phases[0].ratio + s.phases[1].ratio;
  s.height_hops = s.phases[0].height_hops.value_or(0) + s.phases[1].height_hops.value_or(0);
  s.extra["baseline"] = options.name;
  return s;
}

}  // namespace collsynth
