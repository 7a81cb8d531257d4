// Experiment kind "seed000-table7": seed 000 Table 7 (distance-regular graphs at d = 4).
//   params {"rows": [{"label", "topology" (a `topo gen` expression; "" = not built),
//                     "paper": {"n", "tl", "tl_star", "tl_2star"}}]}
// One row per graph: N, T_L = D(G) (BFB's T_L), BFB's allgather T_B (M/B, the certified LP
// plan of solvers/bfb) against (N-1)/N, T_L* = the directed Moore optimum (theory/moore_bound.h),
// T_L** = the bidirectional one: the least k with 1 + d·Σ_{i<k} (d-1)^i >= N (the undirected
// Moore bound), both differences, and whether every column equals the paper's. A row whose
// topology is "" (no construction here) carries the formula columns from the paper's N only.
#include <chrono>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "experiments/seed000_base_search.h"
#include "graphs/expression.h"
#include "graphs/metrics.h"
#include "theory/moore_bound.h"

namespace collsynth::experiments {
namespace {

// Least k with the undirected Moore bound 1 + d·Σ_{i<k} (d-1)^i >= n (d >= 3).
int BidirectionalMooreSteps(std::int64_t n, std::int64_t d) {
  std::int64_t reach = 1, layer = d;
  int k = 0;
  while (reach < n) {
    reach += layer;
    layer *= d - 1;
    ++k;
  }
  return k;
}

// The paper's printed values of one row.
struct PaperRow {
  int n = 0, tl = 0, tl_star = 0, tl_2star = 0;
};

std::vector<ExperimentRow> RunRow(const std::string& label, const std::string& expr,
                                  const PaperRow& paper) {
  const auto t0 = std::chrono::steady_clock::now();
  const int d = 4;
  const int paper_n = paper.n, paper_tl = paper.tl;
  const int paper_tl_star = paper.tl_star, paper_tl_2 = paper.tl_2star;
  ExperimentRow row;
  row.instance = expr.empty() ? label : expr;
  row.algorithm = expr.empty() ? "not built" : "bfb";
  row.collective = Collective::kAllgather;
  int n = paper_n;
  std::string built_degree;
  if (!expr.empty()) {
    const Topology g = EvaluateTopologyExpression(expr);
    n = g.num_nodes();
    built_degree = std::to_string(g.OutDegree(0));
    const BfbValue v = BfbAllgather(g);
    row.tl = Rational(v.tl);
    row.tb = v.tb * Rational(d) / Rational(n);
    row.lower_bound = BandwidthLowerBound(n);
    row.tb_unit = "M/B";
  }
  row.nodes = n;
  const int tl_star = static_cast<int>(MooreOptimalSteps(n, d));
  const int tl_2 = BidirectionalMooreSteps(n, d);
  const bool match = n == paper_n && tl_star == paper_tl_star && tl_2 == paper_tl_2 &&
                     (!row.tl || *row.tl == Rational(paper_tl));
  row.extra = {{"label", label},
               {"degree", built_degree},
               {"tl_star", std::to_string(tl_star)},
               {"tl_minus_tl_star", row.tl ? ToString(*row.tl - tl_star) : ""},
               {"tl_2star", std::to_string(tl_2)},
               {"tl_minus_tl_2star", row.tl ? ToString(*row.tl - tl_2) : ""},
               {"bandwidth_optimal", row.tb ? (*row.tb == *row.lower_bound ? "yes" : "no") : ""},
               {"paper", std::to_string(paper_n) + " " + std::to_string(paper_tl) + " " +
                             std::to_string(paper_tl_star) + " " + std::to_string(paper_tl_2)},
               {"matches_paper", match ? "yes" : "no"}};
  row.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {row};
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& input) {
  const Params p(input);
  if (!p.Has("rows")) throw p.Error("rows", "missing (an array of {label, topology, paper})");
  std::vector<ExperimentTask> tasks;
  for (const Params& r : p.Objects("rows")) {
    const std::string label = r.String("label");
    const std::string expr = r.String("topology");
    if (!expr.empty()) r.CheckTopology("topology", expr);
    const Params paper_params = r.Object("paper");
    PaperRow paper;
    paper.n = static_cast<int>(paper_params.IntIn("n", 1, INT32_MAX));
    paper.tl = static_cast<int>(paper_params.IntIn("tl", INT32_MIN, INT32_MAX));
    paper.tl_star = static_cast<int>(paper_params.IntIn("tl_star", INT32_MIN, INT32_MAX));
    paper.tl_2star = static_cast<int>(paper_params.IntIn("tl_2star", INT32_MIN, INT32_MAX));
    tasks.push_back({label, [label, expr, paper] { return RunRow(label, expr, paper); }});
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("seed000-table7", &MakeTasks,
                                         {"label", "degree", "tl_star", "tl_minus_tl_star",
                                          "tl_2star", "tl_minus_tl_2star", "bandwidth_optimal",
                                          "paper", "matches_paper"});

}  // namespace
}  // namespace collsynth::experiments
