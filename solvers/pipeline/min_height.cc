#include "solvers/pipeline/min_height.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

#include "solvers/backends/lp_backend.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

// The shortest-path DAG of one root: its arcs (link ids) and the hop distances.
struct RootDag {
  int root = -1;
  std::vector<int> dist;  // -1 = unreachable
  std::vector<int> arcs;  // links a -> b with dist[b] = dist[a] + 1
};

RootDag BuildDag(const Topology& g, int root) {
  RootDag d;
  d.root = root;
  d.dist.assign(g.num_nodes(), -1);
  d.dist[root] = 0;
  std::queue<int> q;
  q.push(root);
  while (!q.empty()) {
    const int u = q.front();
    q.pop();
    for (int e : g.OutLinks(u)) {
      const int v = g.link(e).to;
      if (d.dist[v] < 0) {
        d.dist[v] = d.dist[u] + 1;
        q.push(v);
      }
    }
  }
  for (int e = 0; e < g.num_links(); ++e) {
    const int a = g.link(e).from, b = g.link(e).to;
    if (d.dist[a] >= 0 && d.dist[b] == d.dist[a] + 1) d.arcs.push_back(e);
  }
  return d;
}

// The program: columns F_r(arc) for every root and DAG arc, then z; rows: switch conservation
// and compute demands per root, then one capacity row per link (Σ_r F_r(e) - k·b_e·z <= 0).
LpProblem BuildProgram(const Topology& g, const std::vector<RootDag>& dags, std::int64_t k) {
  LpProblem p;
  std::vector<int> first_col;
  for (const RootDag& d : dags) {
    first_col.push_back(p.num_cols());
    for (std::size_t i = 0; i < d.arcs.size(); ++i) {
      p.objective.push_back(0);
      p.col_lower.push_back(0);
      p.col_upper.push_back(static_cast<double>(k) * g.num_compute());
    }
  }
  const int z = p.num_cols();
  p.objective.push_back(1);
  p.col_lower.push_back(0);
  p.col_upper.push_back(kLpInfinity);
  p.integer.assign(p.num_cols(), true);
  p.integer[z] = false;
  for (std::size_t r = 0; r < dags.size(); ++r) {
    const RootDag& d = dags[r];
    std::vector<int> row(g.num_nodes(), -1);
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (v == d.root || d.dist[v] < 0) continue;
      row[v] = p.num_rows();
      const double demand = g.IsCompute(v) ? static_cast<double>(k) : 0.0;
      p.row_lower.push_back(demand);
      p.row_upper.push_back(demand);
    }
    for (std::size_t i = 0; i < d.arcs.size(); ++i) {
      const int col = first_col[r] + static_cast<int>(i);
      const int a = g.link(d.arcs[i]).from, b = g.link(d.arcs[i]).to;
      p.entries.push_back({row[b], col, 1.0});                        // into b (never the root)
      if (!g.IsCompute(a)) p.entries.push_back({row[a], col, -1.0});  // out of a switch
    }
  }
  std::vector<int> cap_row(g.num_links());
  for (int e = 0; e < g.num_links(); ++e) {
    cap_row[e] = p.num_rows();
    p.row_lower.push_back(-kLpInfinity);
    p.row_upper.push_back(0);
    p.entries.push_back(
        {cap_row[e], z, -static_cast<double>(k) * g.link(e).bandwidth.convert_to<double>()});
  }
  for (std::size_t r = 0; r < dags.size(); ++r) {
    for (std::size_t i = 0; i < dags[r].arcs.size(); ++i)
      p.entries.push_back({cap_row[dags[r].arcs[i]], first_col[r] + static_cast<int>(i), 1.0});
  }
  return p;
}

struct PathPiece {
  std::vector<int> path;  // from the parent (compute) to the node, switches inside
  std::int64_t amount = 0;
};

// Flow decomposition of one root's integer flow into k trees (see the header). Returns false
// when the flow does not conserve at a switch or miss a demand (a rounding artefact).
bool TreesOfRoot(const Topology& g, const RootDag& d, std::vector<std::int64_t> flow,
                 std::int64_t k, std::vector<PipelineTree>* out) {
  std::vector<std::vector<int>> in_arcs(g.num_nodes());
  for (std::size_t i = 0; i < d.arcs.size(); ++i) in_arcs[g.link(d.arcs[i]).to].push_back(i);
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (v == d.root || d.dist[v] < 0) continue;
    std::int64_t in = 0, outf = 0;
    for (int i : in_arcs[v]) in += flow[i];
    if (g.IsCompute(v)) {
      if (in != k) return false;
      continue;
    }
    for (std::size_t i = 0; i < d.arcs.size(); ++i)
      if (g.link(d.arcs[i]).from == v) outf += flow[i];
    if (in != outf) return false;
  }
  std::vector<int> compute;
  for (int v : g.ComputeNodes())
    if (v != d.root) compute.push_back(v);
  std::stable_sort(compute.begin(), compute.end(),
                   [&](int a, int b) { return d.dist[a] < d.dist[b]; });
  std::vector<std::vector<PathPiece>> pieces(g.num_nodes());
  for (int t : compute) {
    std::int64_t need = k;
    while (need > 0) {
      std::vector<int> arcs;
      int v = t;
      do {
        int pick = -1;
        for (int i : in_arcs[v])
          if (flow[i] > 0) {
            pick = i;
            break;
          }
        if (pick < 0) return false;
        arcs.push_back(pick);
        v = g.link(d.arcs[pick]).from;
      } while (!g.IsCompute(v));
      std::int64_t amount = need;
      for (int i : arcs) amount = std::min(amount, flow[i]);
      for (int i : arcs) flow[i] -= amount;
      need -= amount;
      PathPiece piece;
      piece.amount = amount;
      piece.path.push_back(v);
      for (auto it = arcs.rbegin(); it != arcs.rend(); ++it)
        piece.path.push_back(g.link(d.arcs[*it]).to);
      pieces[t].push_back(std::move(piece));
    }
  }
  // Tree i (0 <= i < k) takes, at every node, the piece covering index i; trees between two
  // consecutive breakpoints are identical and become one tree with that multiplicity.
  std::vector<std::int64_t> cuts = {0, k};
  for (int t : compute) {
    std::int64_t at = 0;
    for (const PathPiece& piece : pieces[t]) cuts.push_back(at += piece.amount);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
    const std::int64_t lo = cuts[c], mult = cuts[c + 1] - cuts[c];
    PipelineTree tree;
    tree.root = d.root;
    tree.multiplicity = mult;
    for (int t : compute) {
      std::int64_t at = 0;
      for (const PathPiece& piece : pieces[t]) {
        if (lo < at + piece.amount) {
          PipelineTreeEdge edge;
          edge.from = piece.path.front();
          edge.to = t;
          edge.routes.push_back({piece.path, BigInt(mult)});
          tree.edges.push_back(std::move(edge));
          break;
        }
        at += piece.amount;
      }
    }
    out->push_back(std::move(tree));
  }
  return true;
}

struct PhaseResult {
  std::optional<PipelineSchedule> schedule;
  std::string why;
  Rational optimal_ratio;
  double lp_ratio = 0;
  std::int64_t columns = 0;
  int solves = 0;
};

// The allgather of `h` in the family (for reduce-scatter h = G^T).
PhaseResult AllgatherPhase(const Topology& h, const MinHeightOptions& options) {
  PhaseResult out;
  // Every root's DAG has an arc into each other compute node, so the program has at least
  // N·(N - 1) columns: decide the limit before the optimum's N max-flows.
  const std::int64_t n = h.num_compute();
  if (n * (n - 1) > options.max_columns) {
    out.why = "at least " + std::to_string(n * (n - 1)) + " integer columns, more than the limit " +
              std::to_string(options.max_columns);
    return out;
  }
  AllgatherOptimum opt = ComputeAllgatherOptimum(h);
  out.optimal_ratio = opt.ratio;
  Rational U0;
  BigInt k0;
  MinimalUk(h, opt.ratio, &U0, &k0);
  std::vector<RootDag> dags;
  for (int r : h.ComputeNodes()) {
    dags.push_back(BuildDag(h, r));
    out.columns += static_cast<std::int64_t>(dags.back().arcs.size());
  }
  if (out.columns > options.max_columns) {
    out.why = std::to_string(out.columns) + " integer columns, more than the limit " +
              std::to_string(options.max_columns);
    return out;
  }
  if (k0 > 1000000) {
    out.why = "k = " + ToString(k0) + " for ratio* is too large for the program";
    return out;
  }
  const std::int64_t k_base = k0.convert_to<std::int64_t>();
  LpSolution lp = SolveLpWithClp(BuildProgram(h, dags, 1));
  if (lp.outcome != LpOutcome::kOptimal) {
    out.why = "the LP relaxation ended " + ToString(lp.outcome);
    return out;
  }
  out.lp_ratio = lp.objective;
  const double target = opt.ratio.convert_to<double>();
  const bool reachable = lp.objective <= target * (1 + 1e-9);
  for (int m = 1; m <= std::max(1, options.max_k_multiple); ++m) {
    const std::int64_t k = k_base * m;
    CbcOptions cbc;
    cbc.max_nodes = options.max_nodes;
    cbc.keep_incumbent = true;
    LpSolution ilp = SolveIlpWithCbc(BuildProgram(h, dags, k), cbc);
    ++out.solves;
    if (ilp.primal.empty()) continue;
    PipelineSchedule s;
    s.collective = Collective::kAllgather;
    s.k = k;
    bool ok = true;
    std::size_t col = 0;
    for (const RootDag& d : dags) {
      std::vector<std::int64_t> flow;
      for (std::size_t i = 0; i < d.arcs.size(); ++i, ++col) {
        const double x = ilp.primal[col];
        if (!(x >= -0.5) || std::fabs(x - std::round(x)) > 1e-6) ok = false;
        flow.push_back(ok ? static_cast<std::int64_t>(std::llround(x)) : 0);
      }
      if (!ok || !TreesOfRoot(h, d, std::move(flow), k, &s.trees)) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    s.ratio = PipelineScheduleRatio(h, s);
    s.U = s.ratio * Rational(k);
    if (!out.schedule || s.ratio < out.schedule->ratio) out.schedule = std::move(s);
    if (out.schedule->ratio == opt.ratio || !reachable) break;
  }
  if (!out.schedule) {
    out.why =
        "no integer flows within " + std::to_string(options.max_nodes) + " branch-and-bound nodes";
    return out;
  }
  PipelineSchedule& s = *out.schedule;
  if (s.ratio == opt.ratio) s.bottleneck_cut = opt.bottleneck_cut;
  s.extra["algorithm"] = "shortest-path-dag";
  s.extra["optimal_ratio"] = ToString(opt.ratio);
  s.extra["lp_ratio"] = out.lp_ratio;
  s.height_hops = PipelineScheduleHeightHops(s);
  return out;
}

}  // namespace

MinHeightResult BuildShortestPathDagSchedule(const Topology& g, const MinHeightOptions& options) {
  MinHeightResult out;
  auto take = [&](const PhaseResult& p) {
    out.optimal_ratio += p.optimal_ratio;
    out.lp_ratio += p.lp_ratio;
    out.columns = std::max(out.columns, p.columns);
    out.solves += p.solves;
    if (out.why.empty()) out.why = p.why;
  };
  switch (options.collective) {
    case Collective::kAllgather: {
      PhaseResult p = AllgatherPhase(g, options);
      take(p);
      out.schedule = std::move(p.schedule);
      break;
    }
    case Collective::kReduceScatter: {
      PhaseResult p = AllgatherPhase(g.Transpose(), options);
      take(p);
      if (p.schedule) {
        p.schedule->collective = Collective::kReduceScatter;
        p.schedule->ratio = PipelineScheduleRatio(g, *p.schedule);
        p.schedule->U = p.schedule->ratio * Rational(p.schedule->k);
        out.schedule = std::move(p.schedule);
      }
      break;
    }
    case Collective::kAllreduce: {
      PhaseResult rs = AllgatherPhase(g.Transpose(), options);
      take(rs);
      if (!rs.schedule) break;
      PhaseResult ag = AllgatherPhase(g, options);
      take(ag);
      if (!ag.schedule) break;
      rs.schedule->collective = Collective::kReduceScatter;
      rs.schedule->ratio = PipelineScheduleRatio(g, *rs.schedule);
      rs.schedule->U = rs.schedule->ratio * Rational(rs.schedule->k);
      PipelineSchedule s;
      s.collective = Collective::kAllreduce;
      s.ratio = rs.schedule->ratio + ag.schedule->ratio;
      s.U = ag.schedule->U;
      s.k = ag.schedule->k;
      // The allreduce bounds the sum may meet (as pipeline_schedule_builder.cc attaches them).
      AllreduceBounds b = ComputeAllreduceBounds(g, ComputeAllgatherOptimum(g));
      if (s.ratio == b.bound6) s.bottleneck_cut = b.min_cut_set;
      if (s.ratio == b.bound7) s.single_node_cuts = b.single_cuts;
      s.extra["algorithm"] = "shortest-path-dag";
      s.phases = {std::move(*rs.schedule), std::move(*ag.schedule)};
      s.height_hops = PipelineScheduleHeightHops(s);
      out.schedule = std::move(s);
      break;
    }
    case Collective::kBroadcast:
    case Collective::kAlltoall:
      throw std::invalid_argument(
          "the shortest-path-DAG family takes allgather, reduce-scatter "
          "or allreduce");
  }
  if (out.schedule) out.why.clear();
  return out;
}

}  // namespace collsynth
