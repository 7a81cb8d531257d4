#include "solvers/pipeline/height_column_generation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graphs/metrics.h"
#include "solvers/backends/exact_basis.h"
#include "solvers/backends/lp_backend.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"
#include "solvers/pipeline/height_bound.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline/rs_ag_allreduce.h"

namespace collsynth {
namespace {

constexpr double kTolerance = 1e-9;
constexpr double kNoRoute = std::numeric_limits<double>::infinity();

// One way to route a tree edge u -> t: the cheapest switch-only path of at most `len` links
// (path[0] = u, path.back() = t, switches inside), kept only when cheaper than every shorter one.
struct RouteOption {
  int len = 0;
  double cost = 0;
  std::vector<int> path;
};

// The phase's instance: the topology (G, or G^T for reduce-scatter), its compute nodes, the height.
struct Instance {
  const Topology* g = nullptr;
  std::vector<int> compute;            // compute node ids
  std::vector<std::vector<int>> dist;  // dist[r][j]: hop distance from compute[r] to compute[j]
  int h = 0;
  int n() const { return static_cast<int>(compute.size()); }
};

// options[u][t]: the route options of u -> t, by increasing length (strictly decreasing cost),
// for the link prices `price`: a layered shortest path per source, O(h·E) each.
using RouteTable = std::vector<std::vector<std::vector<RouteOption>>>;

RouteTable ComputeRoutes(const Instance& in, const std::vector<double>& price) {
  const Topology& g = *in.g;
  const int n = in.n(), nodes = g.num_nodes();
  RouteTable table(n, std::vector<std::vector<RouteOption>>(n));
  // A cheapest route is a simple path: at most nodes - 1 links.
  const int longest = std::min(in.h, nodes - 1);
  std::vector<std::vector<double>> cost(longest + 1, std::vector<double>(nodes));
  std::vector<std::vector<int>> pred(longest + 1, std::vector<int>(nodes));
  for (int u = 0; u < n; ++u) {
    const int src = in.compute[u];
    for (auto& layer : cost) std::fill(layer.begin(), layer.end(), kNoRoute);
    cost[0][src] = 0;
    for (int len = 1; len <= longest; ++len) {
      for (int e = 0; e < g.num_links(); ++e) {
        const int a = g.link(e).from, b = g.link(e).to;
        if (a == b || b == src || cost[len - 1][a] == kNoRoute) continue;
        if (a != src && !g.IsSwitch(a)) continue;  // routes pass through switches only
        const double c = cost[len - 1][a] + price[e];
        if (c < cost[len][b]) {
          cost[len][b] = c;
          pred[len][b] = e;
        }
      }
    }
    for (int t = 0; t < n; ++t) {
      if (t == u) continue;
      const int dst = in.compute[t];
      double best = kNoRoute;
      for (int len = 1; len <= longest; ++len) {
        if (cost[len][dst] == kNoRoute) continue;
        if (best != kNoRoute && !(cost[len][dst] < best - kTolerance * (1 + std::fabs(best))))
          continue;
        best = cost[len][dst];
        RouteOption o;
        o.cost = best;
        std::vector<int> rev = {dst};
        for (int layer = len, v = dst; layer > 0; --layer) {
          v = g.link(pred[layer][v]).from;
          rev.push_back(v);
        }
        // A zero-price cycle through a switch may make the walk repeat a node: cut it out
        // (prices are >= 0, so the cost does not grow).
        for (auto it = rev.rbegin(); it != rev.rend(); ++it) {
          auto seen = std::find(o.path.begin(), o.path.end(), *it);
          if (seen != o.path.end())
            o.path.erase(seen + 1, o.path.end());
          else
            o.path.push_back(*it);
        }
        o.len = static_cast<int>(o.path.size()) - 1;
        if (!table[u][t].empty() && o.len <= table[u][t].back().len) continue;
        table[u][t].push_back(std::move(o));
      }
    }
  }
  return table;
}

// A tree of one root, on the compute nodes: parent (position in `compute`, -1 at the root) and
// the route of the edge into each node.
struct TreeColumn {
  int root = -1;
  std::vector<int> parent;
  std::vector<std::vector<int>> path;
  std::vector<int> links;  // link ids of all routes, with repetition (uses_T(e) counts)
};

// Depths of the nodes along `parent` with edge lengths `len`; false when it is not a tree of
// `root` or some node is deeper than h.
bool Depths(const std::vector<int>& parent, const std::vector<int>& len, int root, int h,
            std::vector<int>* depth) {
  const int n = static_cast<int>(parent.size());
  depth->assign(n, -1);
  (*depth)[root] = 0;
  for (int v = 0; v < n; ++v) {
    std::vector<int> chain;
    int u = v;
    while ((*depth)[u] < 0) {
      chain.push_back(u);
      u = parent[u];
      if (u < 0 || static_cast<int>(chain.size()) > n) return false;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      (*depth)[*it] = (*depth)[parent[*it]] + len[*it];
      if ((*depth)[*it] > h) return false;
    }
  }
  return true;
}

// The tree's links and its key (its routes, for telling columns apart).
TreeColumn MakeColumn(const Instance& in, int root, std::vector<int> parent,
                      std::vector<std::vector<int>> path) {
  TreeColumn c;
  c.root = root;
  c.parent = std::move(parent);
  c.path = std::move(path);
  for (const std::vector<int>& p : c.path) {
    for (std::size_t i = 0; i + 1 < p.size(); ++i)
      c.links.push_back(*in.g->FindLink(p[i], p[i + 1]));
  }
  return c;
}

std::vector<int> ColumnKey(const TreeColumn& c) {
  std::vector<int> key = {c.root};
  for (const std::vector<int>& p : c.path) {
    key.push_back(-1);
    key.insert(key.end(), p.begin(), p.end());
  }
  return key;
}

double ColumnCost(const TreeColumn& c, const std::vector<double>& price) {
  double s = 0;
  for (int e : c.links) s += price[e];
  return s;
}

// Local search for a cheap tree of `root` of height <= h: the cheapest shortest-path tree
// (every node at its hop distance), or `start` when it is cheaper, then one node re-parented
// at a time (keeping its subtree and the height limit) while that lowers the cost.
TreeColumn LocalSearchTree(const Instance& in, const RouteTable& routes, int root,
                           const TreeColumn* start, const std::vector<double>& price) {
  const int n = in.n();
  const std::vector<int>& dist = in.dist[root];
  std::vector<int> parent(n, -1), option(n, -1), len(n, 0);
  std::vector<double> cost(n, 0);
  std::vector<int> order;
  for (int t = 0; t < n; ++t)
    if (t != root) order.push_back(t);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return dist[a] < dist[b]; });
  for (int t : order) {
    double best = kNoRoute;
    for (int u = 0; u < n; ++u) {
      if (u == t || dist[u] >= dist[t]) continue;
      const std::vector<RouteOption>& opts = routes[u][t];
      for (int i = static_cast<int>(opts.size()) - 1; i >= 0; --i) {
        if (opts[i].len > dist[t] - dist[u]) continue;
        if (opts[i].cost < best) {
          best = opts[i].cost;
          parent[t] = u;
          option[t] = i;
        }
        break;
      }
    }
    if (parent[t] < 0) throw std::logic_error("no shortest-path parent within the height");
    len[t] = routes[parent[t]][t][option[t]].len;
    cost[t] = best;
  }
  auto total = [&] {
    double s = 0;
    for (int t : order) s += cost[t];
    return s;
  };
  std::vector<std::vector<int>> paths(n);
  if (start != nullptr && ColumnCost(*start, price) < total() - kTolerance) {
    parent = start->parent;
    paths = start->path;
    for (int t : order) {
      len[t] = static_cast<int>(paths[t].size()) - 1;
      double c = 0;
      for (std::size_t i = 0; i + 1 < paths[t].size(); ++i)
        c += price[*in.g->FindLink(paths[t][i], paths[t][i + 1])];
      cost[t] = c;
    }
  } else {
    for (int t : order) paths[t] = routes[parent[t]][t][option[t]].path;
  }
  std::vector<int> depth;
  if (!Depths(parent, len, root, in.h, &depth)) throw std::logic_error("start is not a tree");
  for (int pass = 0; pass < 4 * n; ++pass) {
    bool improved = false;
    for (int t : order) {
      // t's subtree (t and its descendants) and how far below t it reaches.
      std::vector<char> inside(n, 0);
      int below = 0;
      for (int v = 0; v < n; ++v) {
        for (int u = v; u >= 0; u = parent[u]) {
          if (u == t) {
            inside[v] = 1;
            below = std::max(below, depth[v] - depth[t]);
            break;
          }
        }
      }
      double best = cost[t] - kTolerance * (1 + std::fabs(cost[t]));
      int best_u = -1, best_i = -1;
      for (int u = 0; u < n; ++u) {
        if (inside[u]) continue;
        const std::vector<RouteOption>& opts = routes[u][t];
        for (int i = 0; i < static_cast<int>(opts.size()); ++i) {
          if (depth[u] + opts[i].len + below > in.h) break;
          if (opts[i].cost < best) {
            best = opts[i].cost;
            best_u = u;
            best_i = i;
          }
        }
      }
      if (best_u < 0) continue;
      const RouteOption& o = routes[best_u][t][best_i];
      parent[t] = best_u;
      len[t] = o.len;
      cost[t] = o.cost;
      paths[t] = o.path;
      if (!Depths(parent, len, root, in.h, &depth)) throw std::logic_error("re-parenting broke");
      improved = true;
    }
    if (!improved) break;
  }
  return MakeColumn(in, root, std::move(parent), std::move(paths));
}

// The exact pricing of one root: a hop-indexed ILP (node t at depth d; an arc (u at du) -> t
// with route option o puts t at du + len(o) <= h and needs u at du). nullopt when it has more
// than `max_arcs` columns; `proved` says CBC closed the search (the tree is a cheapest one).
struct ExactPricing {
  std::optional<TreeColumn> tree;
  double cost = 0;
  bool proved = false;
};

std::optional<ExactPricing> ExactPricingTree(const Instance& in, const RouteTable& routes, int root,
                                             std::int64_t max_arcs, int max_nodes) {
  const int n = in.n(), h = in.h;
  const std::vector<int>& dist = in.dist[root];
  struct Arc {
    int u, du, t, opt;
  };
  std::vector<Arc> arcs;
  for (int u = 0; u < n; ++u) {
    const int lo = u == root ? 0 : std::max(1, dist[u]);
    const int hi = u == root ? 0 : h - 1;
    for (int du = lo; du <= hi; ++du) {
      for (int t = 0; t < n; ++t) {
        if (t == root || t == u) continue;
        for (int i = 0; i < static_cast<int>(routes[u][t].size()); ++i) {
          if (du + routes[u][t][i].len > h) break;
          arcs.push_back({u, du, t, i});
          if (static_cast<std::int64_t>(arcs.size()) > max_arcs) return std::nullopt;
        }
      }
    }
  }
  LpProblem p;
  // y(t, d) = [t at depth d], continuous (integral once the arcs are).
  std::vector<std::vector<int>> y(n, std::vector<int>(h + 1, -1)), y_row = y;
  for (int t = 0; t < n; ++t) {
    if (t == root) continue;
    const int once = p.AddRow(1, 1);
    for (int d = std::max(1, dist[t]); d <= h; ++d) {
      y[t][d] = p.AddColumn(0, 0, 1);
      p.AddEntry(once, y[t][d], 1);
      y_row[t][d] = p.AddRow(0, 0);  // Σ arcs into (t, d) - y(t, d) = 0
      p.AddEntry(y_row[t][d], y[t][d], -1);
    }
  }
  std::vector<int> arc_col;
  for (const Arc& a : arcs) {
    const RouteOption& o = routes[a.u][a.t][a.opt];
    const int col = p.AddColumn(o.cost, 0, 1);
    arc_col.push_back(col);
    p.AddEntry(y_row[a.t][a.du + o.len], col, 1);
    if (a.u != root) {
      const int need = p.AddRow(-kLpInfinity, 0);  // x - y(u, du) <= 0
      p.AddEntry(need, col, 1);
      p.AddEntry(need, y[a.u][a.du], -1);
    }
  }
  p.integer.assign(p.num_cols(), false);
  for (int col : arc_col) p.integer[col] = true;
  CbcOptions cbc;
  cbc.max_nodes = max_nodes;
  cbc.keep_incumbent = true;
  const LpSolution s = SolveIlpWithCbc(p, cbc);
  ExactPricing out;
  if (s.primal.empty()) return out;
  out.proved = s.outcome == LpOutcome::kOptimal;
  std::vector<int> parent(n, -1), len(n, 0);
  std::vector<std::vector<int>> paths(n);
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    if (s.primal[arc_col[i]] < 0.5) continue;
    const RouteOption& o = routes[arcs[i].u][arcs[i].t][arcs[i].opt];
    if (parent[arcs[i].t] >= 0) return ExactPricing{};  // two parents: not integral
    parent[arcs[i].t] = arcs[i].u;
    len[arcs[i].t] = o.len;
    paths[arcs[i].t] = o.path;
  }
  std::vector<int> depth;
  if (!Depths(parent, len, root, h, &depth)) return ExactPricing{};
  out.tree = MakeColumn(in, root, std::move(parent), std::move(paths));
  out.cost = s.objective;
  return out;
}

// The restricted master: columns z then the trees; rows: one per root (Σ x = 1), then one per
// link (Σ uses·x - b_e·z <= 0).
LpProblem Master(const Instance& in, const std::vector<TreeColumn>& cols) {
  LpProblem p;
  const Topology& g = *in.g;
  p.AddColumn(1);
  for (int r = 0; r < in.n(); ++r) p.AddRow(1, 1);
  for (int e = 0; e < g.num_links(); ++e) {
    const int row = p.AddRow(-kLpInfinity, 0);
    p.AddEntry(row, 0, -g.link(e).bandwidth.convert_to<double>());
  }
  for (const TreeColumn& c : cols) {
    const int col = p.AddColumn(0);
    p.AddEntry(c.root, col, 1);
    for (int e : c.links) p.AddEntry(in.n() + e, col, 1);  // entries of one cell add up
  }
  return p;
}

ExactLp ExactMaster(const Instance& in, const std::vector<TreeColumn>& cols) {
  ExactLp lp;
  const Topology& g = *in.g;
  lp.objective.push_back(1);
  lp.col_lower.push_back(Rational(0));
  lp.col_upper.push_back(std::nullopt);
  for (int r = 0; r < in.n(); ++r) {
    lp.row_lower.push_back(Rational(1));
    lp.row_upper.push_back(Rational(1));
  }
  for (int e = 0; e < g.num_links(); ++e) {
    lp.row_lower.push_back(std::nullopt);
    lp.row_upper.push_back(Rational(0));
    lp.entries.push_back({in.n() + e, 0, -g.link(e).bandwidth});
  }
  for (std::size_t j = 0; j < cols.size(); ++j) {
    const int col = static_cast<int>(j) + 1;
    lp.objective.push_back(0);
    lp.col_lower.push_back(Rational(0));
    lp.col_upper.push_back(std::nullopt);
    lp.entries.push_back({cols[j].root, col, Rational(1)});
    std::map<int, int> uses;
    for (int e : cols[j].links) ++uses[e];
    for (const auto& [e, count] : uses) lp.entries.push_back({in.n() + e, col, Rational(count)});
  }
  return lp;
}

// Exact weights of the columns (per root summing to 1): the exact solution at CLP's basis, or
// the float weights rounded to multiples of 1/10^6 with the largest of each root taking the rest.
std::vector<Rational> ExactWeights(const Instance& in, const std::vector<TreeColumn>& cols,
                                   const LpSolution& sol, std::string* how) {
  const ExactBasisSolution ex = SolveAtBasis(ExactMaster(in, cols), sol.basis);
  if (ex.outcome == ExactBasisOutcome::kOptimal ||
      ex.outcome == ExactBasisOutcome::kDualInfeasible) {
    *how = "exact re-solve of the restricted master at CLP's basis";
    return std::vector<Rational>(ex.primal.begin() + 1, ex.primal.end());
  }
  *how = "weights rounded to 1/10^6 (the exact re-solve: " + ToString(ex.outcome) + ")";
  const std::int64_t den = 1000000;
  std::vector<Rational> w(cols.size());
  std::vector<std::int64_t> sum(in.n(), 0);
  std::vector<int> largest(in.n(), -1);
  for (std::size_t j = 0; j < cols.size(); ++j) {
    const double x = std::max(0.0, sol.primal[j + 1]);
    const std::int64_t m = std::llround(x * static_cast<double>(den));
    w[j] = Rational(m, den);
    sum[cols[j].root] += m;
    const int r = cols[j].root;
    if (largest[r] < 0 || sol.primal[j + 1] > sol.primal[largest[r] + 1])
      largest[r] = static_cast<int>(j);
  }
  for (int r = 0; r < in.n(); ++r) w[largest[r]] += Rational(den - sum[r], den);
  return w;
}

// The allgather at height <= h on `g` (G, or G^T for reduce-scatter).
HeightCgResult AllgatherPhase(const Topology& g, std::int64_t height,
                              const HeightCgOptions& options) {
  HeightCgResult out;
  const AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  out.optimal_ratio = opt.ratio;
  Instance in;
  in.g = &g;
  in.compute = g.ComputeNodes();
  int ecc = 0;
  for (int r : in.compute) {
    const std::vector<int> d = BfsDistances(g, r);
    std::vector<int> row;
    for (int t : in.compute) {
      row.push_back(d[t]);
      ecc = std::max(ecc, d[t] < 0 ? std::numeric_limits<int>::max() : d[t]);
    }
    in.dist.push_back(std::move(row));
  }
  if (ecc > height) {
    out.why = "no schedule is " + std::to_string(height) +
              " links tall (some compute node is farther from a root)";
    return out;
  }
  // Heights above TallestUsefulHeight (height_bound.h: N - 1 tree edges, each route a simple
  // path of at most S + 1 links) allow no other tree.
  in.h = static_cast<int>(std::min(height, TallestUsefulHeight(g)));
  std::vector<TreeColumn> cols;
  std::set<std::vector<int>> keys;
  std::vector<double> price(g.num_links(), 1.0);
  RouteTable routes = ComputeRoutes(in, price);
  for (int r = 0; r < in.n(); ++r) {
    cols.push_back(LocalSearchTree(in, routes, r, nullptr, price));
    keys.insert(ColumnKey(cols.back()));
  }
  // The last master CLP solved to optimality, over the first `solved_columns` columns. Should
  // CLP fail on a larger master (numerical trouble), the columns added since are dropped and the
  // last optimum is the answer (`stopped` says why; the pricing is then not exhausted).
  LpSolution sol;
  std::size_t solved_columns = 0;
  std::string stopped;
  auto solve = [&] {
    LpSolution next = SolveLpWithClp(Master(in, cols));
    ++out.iterations;
    if (next.outcome != LpOutcome::kOptimal) {
      stopped = "the master LP over " + std::to_string(cols.size()) + " trees ended " +
                ToString(next.outcome);
      return false;
    }
    sol = std::move(next);
    solved_columns = cols.size();
    return true;
  };
  for (;;) {
    if (!solve()) break;
    if (out.iterations >= options.max_iterations) {
      stopped = std::to_string(out.iterations) + " master solves";
      break;
    }
    if (static_cast<std::int64_t>(cols.size()) >= options.max_trees) {
      stopped = std::to_string(cols.size()) + " trees";
      break;
    }
    // Duals in CLP's convention (reduced cost c - y·A); z's reduced cost 0 gives
    // Σ_e b_e·(-y_e) = 1, which fixes the sign should the backend report the opposite one.
    double check = 0;
    for (int e = 0; e < g.num_links(); ++e)
      check -= sol.row_duals[in.n() + e] * g.link(e).bandwidth.convert_to<double>();
    const double sign = check < 0 ? -1 : 1;
    for (int e = 0; e < g.num_links(); ++e)
      price[e] = std::max(0.0, -sign * sol.row_duals[in.n() + e]);
    std::vector<double> sigma(in.n());
    for (int r = 0; r < in.n(); ++r) sigma[r] = sign * sol.row_duals[r];
    routes = ComputeRoutes(in, price);
    // Per root the best column so far (least reduced cost) starts the local search.
    std::vector<int> best_col(in.n(), -1);
    std::vector<double> best_cost(in.n(), kNoRoute);
    for (std::size_t j = 0; j < cols.size(); ++j) {
      const double c = ColumnCost(cols[j], price);
      if (c < best_cost[cols[j].root]) {
        best_cost[cols[j].root] = c;
        best_col[cols[j].root] = static_cast<int>(j);
      }
    }
    bool added = false;
    auto add = [&](TreeColumn c) {
      if (ColumnCost(c, price) >= sigma[c.root] - kTolerance) return;
      if (keys.insert(ColumnKey(c)).second) {
        cols.push_back(std::move(c));
        added = true;
      }
    };
    for (int r = 0; r < in.n(); ++r) {
      // Two starts: the root's best column and the cheapest shortest-path tree (two trees per
      // root and iteration make fewer master solves).
      add(LocalSearchTree(in, routes, r, &cols[best_col[r]], price));
      add(LocalSearchTree(in, routes, r, nullptr, price));
    }
    if (added) continue;
    bool proved = true;
    for (int r = 0; r < in.n(); ++r) {
      const std::optional<ExactPricing> ex =
          ExactPricingTree(in, routes, r, options.max_exact_pricing_arcs, options.cbc_max_nodes);
      if (!ex) {
        proved = false;
        break;
      }
      if (ex->tree) add(*ex->tree);
      if (!ex->proved || !ex->tree) proved = false;
    }
    if (!added) {
      out.pricing_exhausted = proved;
      break;
    }
  }
  if (solved_columns != cols.size() && stopped.empty()) solve();
  if (solved_columns == 0) {
    out.why = stopped;
    return out;
  }
  cols.resize(solved_columns);
  out.lp_ratio = sol.objective;
  out.trees = static_cast<int>(cols.size());
  std::string how;
  const std::vector<Rational> w = ExactWeights(in, cols, sol, &how);
  BigInt k = 1;
  for (const Rational& x : w) {
    if (x < 0) {
      out.why = "a negative tree weight after rounding";
      return out;
    }
    const BigInt d = Denominator(x);
    k = k / boost::multiprecision::gcd(k, d) * d;
  }
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  s.k = k;
  for (std::size_t j = 0; j < cols.size(); ++j) {
    if (w[j] == 0) continue;
    const TreeColumn& c = cols[j];
    const BigInt m = Numerator(w[j] * Rational(k));
    PipelineTree t;
    t.root = in.compute[c.root];
    t.multiplicity = m;
    std::vector<int> order;
    for (int v = 0; v < in.n(); ++v)
      if (v != c.root) order.push_back(v);
    std::vector<int> depth, len(in.n(), 0);
    for (int v : order) len[v] = static_cast<int>(c.path[v].size()) - 1;
    Depths(c.parent, len, c.root, in.h, &depth);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return depth[a] < depth[b]; });
    for (int v : order) {
      PipelineTreeEdge edge;
      edge.from = in.compute[c.parent[v]];
      edge.to = in.compute[v];
      edge.routes.push_back({c.path[v], m});
      t.edges.push_back(std::move(edge));
    }
    s.trees.push_back(std::move(t));
  }
  s.ratio = PipelineScheduleRatio(g, s);
  s.U = s.ratio * Rational(k);
  if (s.ratio == opt.ratio) s.bottleneck_cut = opt.bottleneck_cut;
  s.extra["algorithm"] = "height-column-generation";
  s.extra["max_height_hops"] = height;
  s.extra["optimal_ratio"] = ToString(opt.ratio);
  s.extra["lp_ratio"] = out.lp_ratio;
  s.extra["pricing_exhausted"] = out.pricing_exhausted;
  s.extra["weights"] = how;
  if (!stopped.empty()) s.extra["stopped"] = stopped;
  s.height_hops = PipelineScheduleHeightHops(s);
  out.schedule = std::move(s);
  return out;
}

}  // namespace

HeightColumnGeneration::HeightColumnGeneration(const Topology& g, HeightCgOptions options)
    : g_(g), transpose_(g.Transpose()), options_(options) {
  if (options_.collective != Collective::kAllgather &&
      options_.collective != Collective::kReduceScatter &&
      options_.collective != Collective::kAllreduce) {
    throw std::invalid_argument(
        "column generation at a height takes allgather, reduce-scatter or allreduce");
  }
}

const HeightCgResult& HeightColumnGeneration::Phase(bool reduce_scatter, std::int64_t h) {
  h = std::min(h, TallestUsefulHeight(g_));  // taller heights allow no other tree: one result
  const auto key = std::make_pair(reduce_scatter, h);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  HeightCgResult r = AllgatherPhase(reduce_scatter ? transpose_ : g_, h, options_);
  if (reduce_scatter && r.schedule) {
    // The allgather of G^T, written unchanged, is the reduce-scatter of G (docs/formats.md).
    PipelineSchedule& s = *r.schedule;
    s.collective = Collective::kReduceScatter;
    s.ratio = PipelineScheduleRatio(g_, s);
    s.U = s.ratio * Rational(s.k);
  }
  return cache_.emplace(key, std::move(r)).first->second;
}

HeightCgResult HeightColumnGeneration::At(std::int64_t h) {
  if (h < 0) throw std::invalid_argument("height < 0");
  if (g_.num_compute() > options_.max_compute) {
    HeightCgResult out;
    out.too_large = true;
    out.why = std::to_string(g_.num_compute()) + " compute nodes, more than the limit " +
              std::to_string(options_.max_compute);
    return out;
  }
  if (options_.collective != Collective::kAllreduce) {
    HeightCgResult out = Phase(options_.collective == Collective::kReduceScatter, h);
    out.phase_heights[options_.collective == Collective::kReduceScatter ? 0 : 1] = h;
    return out;
  }
  // Allreduce: reduce-scatter at h1, allgather at h - h1; the split of least exact ratio.
  std::optional<HeightCgResult> best;
  std::optional<AllreduceBounds> bounds;
  std::string why = "no split of the height between the phases has a schedule";
  for (std::int64_t h1 = 0; h1 <= std::min(h, TallestUsefulHeight(g_)); ++h1) {
    const HeightCgResult& rs = Phase(true, h1);
    if (!rs.schedule) continue;
    const HeightCgResult& ag = Phase(false, h - h1);
    if (!ag.schedule) break;  // a larger h1 leaves the allgather even less height
    const Rational sum = rs.schedule->ratio + ag.schedule->ratio;
    // Once the reduce-scatter is at its ratio*, a larger h1 cannot lower it and only takes
    // height from the allgather: this split is the last one tried.
    const bool last = rs.schedule->ratio == rs.optimal_ratio;
    if (best && sum >= best->schedule->ratio) {
      if (last) break;
      continue;
    }
    HeightCgResult r;
    r.optimal_ratio = rs.optimal_ratio + ag.optimal_ratio;
    r.lp_ratio = rs.lp_ratio + ag.lp_ratio;
    r.pricing_exhausted = rs.pricing_exhausted && ag.pricing_exhausted;
    r.iterations = rs.iterations + ag.iterations;
    r.trees = rs.trees + ag.trees;
    r.phase_heights[0] = h1;
    r.phase_heights[1] = h - h1;
    PipelineSchedule s = ComposeRsAgAllreduce(*rs.schedule, *ag.schedule);
    if (!bounds) bounds = ComputeAllreduceBounds(g_, ComputeAllgatherOptimum(g_));
    CertifyRsAgAllreduce(s, bounds->bound6, bounds->min_cut_set, bounds->bound7,
                         bounds->single_cuts);
    s.extra["algorithm"] = "height-column-generation";
    s.extra["max_height_hops"] = h;
    s.height_hops = PipelineScheduleHeightHops(s);
    r.schedule = std::move(s);
    best = std::move(r);
    if (last) break;
  }
  if (!best) {
    HeightCgResult out;
    out.why = why;
    return out;
  }
  return *best;
}

}  // namespace collsynth
