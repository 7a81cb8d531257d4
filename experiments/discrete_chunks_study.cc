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

#include "experiments/experiment.h"
#include "graphs/expression.h"
#include "graphs/input_error.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/bfb/discrete_chunks.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;
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
  const json& p = in.params;
  if (!p.contains("topologies") || !p["topologies"].is_array() || p["topologies"].empty())
    throw InputError("", "topologies", "must be a non-empty array of topo gen expressions");
  if (!p.contains("chunks") || !p["chunks"].is_array() || p["chunks"].empty())
    throw InputError("", "chunks", "must be a non-empty array of chunk counts P");
  std::vector<std::int64_t> chunks;
  for (size_t i = 0; i < p["chunks"].size(); ++i) {
    const json& c = p["chunks"][i];
    if (!c.is_number_integer() || c.get<std::int64_t>() < 1 || c.get<std::int64_t>() > kMaxChunks)
      throw InputError("", "chunks[" + std::to_string(i) + "]", "must be an integer in 1..1000000");
    chunks.push_back(c.get<std::int64_t>());
  }
  std::vector<ExperimentTask> tasks;
  for (size_t i = 0; i < p["topologies"].size(); ++i) {
    if (!p["topologies"][i].is_string())
      throw InputError("", "topologies[" + std::to_string(i) + "]", "must be a string");
    const std::string expr = p["topologies"][i].get<std::string>();
    for (std::int64_t c : chunks)
      tasks.push_back({expr + " P=" + std::to_string(c), [expr, c] { return RunCase(expr, c); }});
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("discrete-chunks", &MakeTasks);

}  // namespace
}  // namespace collsynth::experiments
