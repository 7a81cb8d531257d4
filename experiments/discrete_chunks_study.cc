// Experiment kind "discrete-chunks": seed 000 App. D.2 — BFB with exactly P chunks per
// shard. For every (topology, P): the LP relaxation (= the exact fractional BFB schedule),
// the per-(u, t) ILP (12) optimum (CBC, certified exactly) and the App. D.2 rounding of the
// LP, with Theorem 20's additive bound T_B(round) <= T_B(ILP) + Σ_{i<D} d^i / (P·b) (or N/(P·b)
// when Moore optimal). Uses solvers/bfb/discrete_chunks.h.
//   params: {"topologies": [EXPR...], "chunks": [P...]}
// Rows: "bfb-lp", "ilp", "rounded" per (topology, P); each schedule is run through the step
// checker (Verified::kYes/kNo) and the row's T_L/T_B are the checker's. lower_bound = the LP
// relaxation's T_B; thm20_bound = T_B(ILP) + gap, thm20_holds = the rounded T_B is within it.
#include <chrono>
#include <stdexcept>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/bfb/discrete_chunks.h"

namespace collsynth::experiments {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<ExperimentRow> RunCase(const std::string& expr, std::int64_t chunks) {
  const auto t0 = Clock::now();
  const Topology g = EvaluateTopologyExpression(expr);
  DiscreteChunkOptions opt;
  opt.threads = 1;
  opt.file = expr;
  const DiscreteChunkResult d = SolveDiscreteChunks(g, chunks, opt);
  BfbOptions bo;
  bo.certificates = false;
  bo.threads = 1;
  bo.file = expr;
  const BfbResult lp = GenerateBfbSchedule(g, bo);

  std::vector<ExperimentRow> rows;
  auto add = [&](const std::string& algorithm, const StepCheckReport& rep) {
    ExperimentRow row;
    row.instance = expr;
    row.algorithm = algorithm;
    row.collective = Collective::kAllgather;
    row.nodes = g.num_compute();
    row.tl = Rational(rep.tl);
    row.tb = rep.tb;
    row.tb_unit = "(M/N)/b";
    row.lower_bound = d.tb_lp;
    row.verified = rep.ok ? Verified::kYes : Verified::kNo;
    row.extra.emplace_back("bound_by",
                           "exact BFB LP optimum (seed 000 App. D): no BFB schedule, with any "
                           "chunking, has a smaller T_B");
    row.extra.emplace_back("chunks", std::to_string(chunks));
    row.extra.emplace_back("degree", std::to_string(d.degree));
    row.extra.emplace_back("moore_optimal", d.moore_optimal ? "yes" : "no");
    row.extra.emplace_back("thm20_gap", ToString(d.thm20_gap));
    row.extra.emplace_back("thm20_bound", ToString(d.tb_ilp + d.thm20_gap));
    row.extra.emplace_back("thm20_holds", d.thm20_holds ? "yes" : "no");
    row.extra.emplace_back("cbc_solves", std::to_string(d.cbc_solves));
    row.extra.emplace_back("cbc_repaired", std::to_string(d.cbc_repaired));
    row.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    rows.push_back(std::move(row));
  };
  add("bfb-lp", lp.compact ? CheckStepSchedule(g, *lp.compact) : CheckStepSchedule(g, lp.schedule));
  add("ilp", CheckStepSchedule(g, d.ilp_schedule));
  add("rounded", CheckStepSchedule(g, d.rounded_schedule));
  // The library's T_B values must be the checker's (a mismatch is a bug, not a data point).
  if (rows[1].tb != d.tb_ilp || rows[2].tb != d.tb_rounded || rows[0].tb != d.tb_lp)
    throw std::logic_error(expr + ": discrete-chunk T_B differs from the checker's");
  return rows;
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Params p(in);
  const std::vector<std::string> topologies = p.Topologies("topologies");
  if (topologies.empty())
    throw p.Error("topologies", "must be a non-empty array of topo gen expressions");
  const std::vector<std::int64_t> chunks = p.Ints("chunks");
  if (chunks.empty()) throw p.Error("chunks", "must be a non-empty array of chunk counts P");
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (chunks[i] < 1 || chunks[i] > kMaxChunks)
      throw p.Error("chunks[" + std::to_string(i) + "]", "must be an integer in 1..1000000");
  }
  std::vector<ExperimentTask> tasks;
  for (const std::string& expr : topologies) {
    for (std::int64_t c : chunks)
      tasks.push_back({expr + " P=" + std::to_string(c), [expr, c] { return RunCase(expr, c); }});
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("discrete-chunks", &MakeTasks,
                                         {"bound_by", "chunks", "degree", "moore_optimal",
                                          "thm20_gap", "thm20_bound", "thm20_holds", "cbc_solves",
                                          "cbc_repaired"});

}  // namespace
}  // namespace collsynth::experiments
