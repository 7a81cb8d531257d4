// Experiment kinds of the ILP and LP baselines (docs/experiments.md "Kinds"), seed 000 §8.5.1
// (Table 6, Figure 9) and seed 004 Theorem 1:
//
//  * "ilp-vs-polynomial": on small direct-connect topologies, the time-indexed step MILP
//    (solvers/bfb/step_milp.h, SCCL/TACCL style, CBC with a time limit) against BFB
//    (polynomial, solvers/bfb/bfb_schedule.h) and the pipeline optimum (seed 004, built and
//    checked), plus the LP formulation of the pipeline optimum (solvers/pipeline/pipeline_lp.h)
//    certified exactly and compared with the combinatorial optimum on every instance.
//    params: {"cases": [{"topology": EXPR, "chunks": [P...], "extra_steps": k}],
//             "milp_time_limit": seconds per MILP solve}
//    One row per algorithm ("bfb", "pipeline", "pipeline-lp", "milp") and, for the MILP,
//    per (P, S) with S = D(G) .. D(G)+extra_steps.
//  * "table6-generation-time": the shape of seed 000 Table 6: BFB generation time for
//    hypercubes and n×n tori, next to the MILP's time (P = 1..4 chunks, S = D(G)) on the
//    sizes up to milp_max_nodes.
//    params: {"hypercube_dims": [..], "torus_sides": [..], "milp_max_nodes": N,
//             "milp_chunks": [..], "milp_time_limit": seconds,
//             "sccl_chunks": [..], "sccl_max_nodes": N, "sccl_time_limit": seconds}
//    With sccl_chunks, one "sccl-milp" row per (instance with N <= sccl_max_nodes, c): SCCL's
//    least-steps setup of Table 6 on the step MILP (ScclRow). Every MILP time limit is a
//    wall-clock budget of the whole MILP stage of a row (step_milp.h).
//
// Every row carries certified_optimal and certificate: "yes" exactly when the checker's bound
// (the pipeline schedule's own cut, else ratio*'s bottleneck cut re-evaluated by
// proofs_check CheckCutBound) equals the row's tb; certificate names it or says why not.
// Every schedule behind a row is checked by proofs_check (Verified::kYes/kNo); MILP solves
// that end without a schedule (time limit, infeasible) are rows without tl/tb
// (kNotApplicable) whose milp_outcome says why. A pipeline LP that fails certification or
// disagrees with the combinatorial optimum throws (the run fails): it is an invariant.
#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/bfb/step_milp.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/pipeline_lp.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth::experiments {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kTbUnit = "(M/N)/b";

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6f", s);
  return buf;
}

// The pipeline optimum ratio* (the lower bound of every allgather row, seed 004 (1)) with
// its bottleneck cut re-evaluated by the proofs_check checker.
struct InstanceBound {
  Rational ratio;
  CutBound checked;
};

InstanceBound ComputeInstanceBound(const Topology& g) {
  const AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  return {opt.ratio, CheckCutBound(g, Collective::kAllgather, opt.bottleneck_cut)};
}

// Columns certified_optimal / certificate (unless the row has them): "yes" exactly when the
// checked cut bound equals the row's tb; otherwise the certificate says why not.
void AddCertificateColumns(ExperimentRow& row, const InstanceBound& b) {
  bool certified = false;
  std::string why;
  if (!row.tb) {
    why = "none: no T_B";
  } else if (row.verified == Verified::kNo) {
    why = "none: schedule rejected by the checker";
  } else if (!b.checked.ok) {
    why = "none: the checker rejected the bottleneck cut (" + b.checked.error + ")";
  } else if (b.checked.bound == *row.tb) {
    certified = true;
    why = "checked cut: " + b.checked.name;
  } else {
    why = "none: " + b.checked.name + " not attained";
  }
  bool has = false;
  for (const auto& [name, value] : row.extra) has = has || name == "certified_optimal";
  if (!has) row.extra.emplace_back("certified_optimal", certified ? "yes" : "no");
  row.extra.emplace_back("certificate", why);
}

ExperimentRow BaseRow(const std::string& instance, const Topology& g,
                      const std::string& algorithm) {
  ExperimentRow row;
  row.instance = instance;
  row.algorithm = algorithm;
  row.collective = Collective::kAllgather;
  row.nodes = g.num_compute();
  row.tb_unit = kTbUnit;
  return row;
}

// BFB allgather (flat fast path when it applies), checked; generation time apart from the check.
ExperimentRow BfbRow(const std::string& instance, const Topology& g, const InstanceBound& bound) {
  const auto t0 = Clock::now();
  ExperimentRow row = BaseRow(instance, g, "bfb");
  BfbOptions opt;
  opt.certificates = false;
  opt.materialize_sends = false;
  opt.threads = 1;  // the runner parallelizes over tasks
  opt.file = instance;
  const BfbResult r = GenerateBfbSchedule(g, opt);
  const double gen = SecondsSince(t0);
  const StepCheckReport rep =
      r.compact ? CheckStepSchedule(g, *r.compact) : CheckStepSchedule(g, r.schedule);
  row.verified = rep.ok ? Verified::kYes : Verified::kNo;
  row.tl = Rational(rep.tl);
  row.tb = rep.tb;
  row.lower_bound = bound.ratio;
  row.extra.emplace_back("generation_seconds", Seconds(gen));
  AddCertificateColumns(row, bound);
  row.wall_seconds = SecondsSince(t0);
  return row;
}

// Columns of Table 6's SCCL column (docs/experiments.md "`table6-generation-time` and
// `ilp-vs-polynomial`: MILP time limits"): the objective, time_to_optimal (the budgeted
// MILP stage's seconds when optimality was proven, else empty), the gap at the time limit
// (bandwidth: (T_B - ratio*) / T_B exact, against the exact cut bound, an upper bound on
// the true gap), the least-steps lower bound, and whether the budget stopped it.
void AddMilpBudgetColumns(ExperimentRow& row, StepMilpObjective objective, bool proven,
                          double seconds, bool time_limit_reached,
                          const std::optional<Rational>& gap, const std::string& steps_lower) {
  row.extra.emplace_back("milp_objective", ToString(objective));
  row.extra.emplace_back("time_to_optimal", proven ? Seconds(seconds) : "");
  row.extra.emplace_back("milp_time_limit_reached", time_limit_reached ? "yes" : "no");
  row.extra.emplace_back("milp_gap", gap ? ToString(*gap) : "");
  row.extra.emplace_back("milp_gap_decimal", gap ? Seconds(gap->convert_to<double>()) : "");
  row.extra.emplace_back("steps_lower_bound", steps_lower);
}

// One MILP solve as a row (algorithm "milp").
ExperimentRow MilpRow(const std::string& instance, const Topology& g, const StepMilpSolve& s,
                      int chunks, const InstanceBound& bound) {
  ExperimentRow row = BaseRow(instance, g, "milp");
  if (s.has_schedule || !s.check_errors.empty()) {
    row.verified = s.verified ? Verified::kYes : Verified::kNo;
    row.tl = Rational(s.tl);
    row.tb = s.tb;
  }
  row.lower_bound = bound.ratio;
  row.wall_seconds = s.seconds;
  row.extra.emplace_back("chunks", std::to_string(chunks));
  row.extra.emplace_back("milp_steps", std::to_string(s.steps));
  row.extra.emplace_back("milp_outcome", ToString(s.outcome));
  row.extra.emplace_back("milp_binaries", std::to_string(s.binaries));
  row.extra.emplace_back("milp_rows", std::to_string(s.rows));
  row.extra.emplace_back("cbc_bound", s.cbc_bound_valid ? Seconds(s.cbc_bound) : "");
  row.extra.emplace_back("milp_seconds", Seconds(s.seconds));
  AddMilpBudgetColumns(row, StepMilpObjective::kBandwidth, s.outcome == StepMilpOutcome::kOptimal,
                       s.seconds, s.time_limit_reached,
                       s.has_schedule && s.outcome != StepMilpOutcome::kOptimal
                           ? std::optional<Rational>(RelativeGap(s.tb, bound.ratio))
                           : std::nullopt,
                       "");
  AddCertificateColumns(row, bound);
  return row;
}

// SCCL's Table 6 setup (seed 000 §8.5.1): least comm steps for allgather with c chunks per
// shard and one chunk per unit link per step (SCCL's one round per step), searched S = D(G),
// D(G)+1, ... by the step MILP on CBC within one wall-clock budget (step_milp.h). One row per
// (instance, c): time_to_optimal when the least S is found with every smaller S proven
// infeasible, else the proven lower bound on the steps (steps_lower_bound) at the time limit.
ExperimentRow ScclRow(const std::string& instance, const Topology& g, int chunks, double limit,
                      const InstanceBound& bound) {
  StepMilpOptions o;
  o.objective = StepMilpObjective::kLeastSteps;
  o.capacity = 1;
  o.chunks = chunks;
  o.max_steps = kMaxMilpSteps;
  o.file = instance;
  o.time_limit_seconds = limit;
  const StepMilpResult r = SynthesizeStepMilp(g, o);
  ExperimentRow row = BaseRow(instance, g, "sccl-milp");
  const StepMilpSolve* best = r.Best();
  if (best != nullptr) {
    row.verified = Verified::kYes;
    row.tl = Rational(best->tl);
    row.tb = best->tb;
  }
  row.lower_bound = bound.ratio;
  row.wall_seconds = r.seconds;
  // Proven least: the found S follows only proven-infeasible S (the search stops at the first
  // S the budget cut short, so a schedule after such an S cannot exist).
  int lower = r.diameter;  // no schedule has fewer steps than D(G)
  for (const StepMilpSolve& s : r.solves)
    if (s.outcome == StepMilpOutcome::kInfeasible) lower = std::max(lower, s.steps + 1);
  const StepMilpSolve* last = r.solves.empty() ? nullptr : &r.solves.back();
  std::string outcome = last == nullptr ? "time limit" : ToString(last->outcome);
  bool proven = best != nullptr;  // every S before the found one proven infeasible
  for (const StepMilpSolve& s : r.solves)
    if (&s != best && s.outcome != StepMilpOutcome::kInfeasible) proven = false;
  if (best != nullptr) outcome = proven ? "optimal" : "feasible";
  row.extra.emplace_back("chunks", std::to_string(chunks));
  row.extra.emplace_back("milp_steps", best != nullptr   ? std::to_string(best->steps)
                                       : last != nullptr ? std::to_string(last->steps)
                                                         : "");
  row.extra.emplace_back("milp_outcome", outcome);
  row.extra.emplace_back("milp_binaries", last != nullptr ? std::to_string(last->binaries) : "");
  row.extra.emplace_back("milp_rows", last != nullptr ? std::to_string(last->rows) : "");
  row.extra.emplace_back("milp_seconds", Seconds(r.seconds));
  AddMilpBudgetColumns(row, StepMilpObjective::kLeastSteps, proven, r.seconds, r.time_limit_reached,
                       std::nullopt, std::to_string(lower));
  AddCertificateColumns(row, bound);
  return row;
}

std::vector<ExperimentRow> MilpRows(const std::string& instance, const Topology& g, int chunks,
                                    int extra_steps, double limit, const InstanceBound& bound) {
  StepMilpOptions o;
  o.chunks = chunks;
  o.file = instance;
  o.time_limit_seconds = limit;  // S = D(G) first
  std::vector<ExperimentRow> rows;
  const StepMilpResult probe = SynthesizeStepMilp(g, o);
  for (const StepMilpSolve& s : probe.solves)
    rows.push_back(MilpRow(instance, g, s, chunks, bound));
  for (int k = 1; k <= extra_steps; ++k) {
    const StepMilpSolve s = SolveStepMilpOnce(g, probe.diameter + k, o, limit);
    rows.push_back(MilpRow(instance, g, s, chunks, bound));
  }
  return rows;
}

ExperimentRow PipelineRow(const std::string& instance, const Topology& g,
                          const InstanceBound& bound) {
  const auto t0 = Clock::now();
  ExperimentRow row = BaseRow(instance, g, "pipeline");
  const PipelineBuildResult built = BuildPipelineSchedule(g, PipelineOptions{});
  const PipelineCheckReport rep = CheckPipelineSchedule(g, built.schedule);
  row.verified = rep.ok ? Verified::kYes : Verified::kNo;
  row.tb = rep.ratio;
  row.lower_bound = bound.ratio;
  row.extra.emplace_back("k", ToString(built.schedule.k));
  // The schedule's own certificate, checked with it.
  row.extra.emplace_back("certified_optimal", rep.certified_optimal ? "yes" : "no");
  row.extra.emplace_back("certificate", rep.certified_optimal ? "checked cut: " + rep.certified_by
                                        : rep.ok ? "none: no certificate in the schedule"
                                                 : "none: schedule rejected by the checker");
  row.wall_seconds = SecondsSince(t0);
  return row;
}

ExperimentRow PipelineLpRow(const std::string& instance, const Topology& g,
                            const InstanceBound& bound) {
  const auto t0 = Clock::now();
  ExperimentRow row = BaseRow(instance, g, "pipeline-lp");
  const PipelineLpResult r = SolvePipelineLp(g);
  // A certified LP value that disagrees with the combinatorial optimum is a contradiction
  // between two exact methods: fail the run. CLP failing to produce a certifiable answer is
  // an outcome of the LP method, reported in lp_status with no value.
  if (r.status == PipelineLpStatus::kCertified && !r.matches_combinatorial) {
    throw std::logic_error(instance + ": pipeline LP " + ToString(r.status) + " (" +
                           ToString(r.lp_outcome) + "), LP ratio " + ToString(r.ratio) +
                           " vs combinatorial " + ToString(r.combinatorial_ratio));
  }
  if (r.status == PipelineLpStatus::kCertified) row.tb = r.ratio;  // certified, no schedule
  row.lower_bound = bound.ratio;
  row.extra.emplace_back("lp_status", ToString(r.status));
  row.extra.emplace_back("lp_matches_combinatorial", r.matches_combinatorial ? "yes" : "no");
  row.extra.emplace_back("lp_cols", std::to_string(r.lp_cols));
  row.extra.emplace_back("lp_seconds", Seconds(r.lp_seconds));
  AddCertificateColumns(row, bound);
  row.wall_seconds = SecondsSince(t0);
  return row;
}

std::vector<ExperimentTask> MakeIlpVsPolynomialTasks(const ExperimentInput& in) {
  const Params p(in);
  const double limit = p.PositiveNumber("milp_time_limit", 10, "seconds");
  const std::vector<Params> cases = p.Objects("cases");
  if (cases.empty())
    throw p.Error("cases", "must be a non-empty array of {\"topology\": EXPR, ...}");
  std::vector<ExperimentTask> tasks;
  for (const Params& c : cases) {
    const std::string expr = c.Topology("topology");
    const std::vector<std::int64_t> chunks = c.Ints("chunks", {1}, 1, kMaxMilpChunks);
    const int extra_steps = static_cast<int>(c.Int("extra_steps", 0, 0, 8));
    tasks.push_back({expr + " bfb, pipeline, pipeline-lp", [expr] {
                       const Topology g = EvaluateTopologyExpression(expr);
                       const InstanceBound bound = ComputeInstanceBound(g);
                       return std::vector<ExperimentRow>{BfbRow(expr, g, bound),
                                                         PipelineRow(expr, g, bound),
                                                         PipelineLpRow(expr, g, bound)};
                     }});
    for (const std::int64_t chunk : chunks) {
      const int pc = static_cast<int>(chunk);
      tasks.push_back({expr + " milp P=" + std::to_string(pc), [expr, pc, extra_steps, limit] {
                         const Topology g = EvaluateTopologyExpression(expr);
                         const InstanceBound bound = ComputeInstanceBound(g);
                         return MilpRows(expr, g, pc, extra_steps, limit, bound);
                       }});
    }
  }
  return tasks;
}

std::vector<ExperimentTask> MakeTable6Tasks(const ExperimentInput& in) {
  const Params p(in);
  const double limit = p.PositiveNumber("milp_time_limit", 20, "seconds");
  const std::int64_t milp_max_nodes = p.Int("milp_max_nodes", 16);
  const std::vector<std::int64_t> milp_chunks =
      p.Ints("milp_chunks", {1, 2, 3, 4}, 1, kMaxMilpChunks);
  // SCCL-style least-steps rows (off unless sccl_chunks is given).
  const std::vector<std::int64_t> sccl_chunks = p.Ints("sccl_chunks", {}, 1, kMaxMilpChunks);
  const std::int64_t sccl_max_nodes = p.Int("sccl_max_nodes", 64);
  const double sccl_limit = p.PositiveNumber("sccl_time_limit", limit, "seconds");
  std::vector<std::string> exprs;
  for (std::int64_t d : p.Ints("hypercube_dims", {2, 3, 4, 5, 6, 10}, 1, 12)) {
    exprs.push_back("hypercube(" + std::to_string(d) + ")");
  }
  for (std::int64_t n : p.Ints("torus_sides", {2, 3, 4, 5, 6, 50}, 2, 60)) {
    exprs.push_back("torus(" + std::to_string(n) + "," + std::to_string(n) + ")");
  }
  std::vector<ExperimentTask> tasks;
  for (const std::string& expr : exprs) {
    tasks.push_back({expr + " bfb", [expr] {
                       const Topology g = EvaluateTopologyExpression(expr);
                       const InstanceBound bound = ComputeInstanceBound(g);
                       return std::vector<ExperimentRow>{BfbRow(expr, g, bound)};
                     }});
    const Topology g = EvaluateTopologyExpression(expr);
    if (g.num_compute() <= sccl_max_nodes) {
      for (const std::int64_t chunk : sccl_chunks) {
        const int pc = static_cast<int>(chunk);
        tasks.push_back({expr + " sccl-milp c=" + std::to_string(pc), [expr, pc, sccl_limit] {
                           const Topology h = EvaluateTopologyExpression(expr);
                           const InstanceBound bound = ComputeInstanceBound(h);
                           return std::vector<ExperimentRow>{
                               ScclRow(expr, h, pc, sccl_limit, bound)};
                         }});
      }
    }
    if (g.num_compute() > milp_max_nodes) continue;
    for (const std::int64_t chunk : milp_chunks) {
      const int pc = static_cast<int>(chunk);
      tasks.push_back({expr + " milp P=" + std::to_string(pc), [expr, pc, limit] {
                         const Topology h = EvaluateTopologyExpression(expr);
                         const InstanceBound bound = ComputeInstanceBound(h);
                         return MilpRows(expr, h, pc, 0, limit, bound);
                       }});
    }
  }
  return tasks;
}

// The extra columns of both kinds (experiments/experiment.h).
const std::vector<std::string> kMilpColumns = {"generation_seconds",
                                               "certified_optimal",
                                               "certificate",
                                               "k",
                                               "lp_status",
                                               "lp_matches_combinatorial",
                                               "lp_cols",
                                               "lp_seconds",
                                               "chunks",
                                               "milp_steps",
                                               "milp_outcome",
                                               "milp_binaries",
                                               "milp_rows",
                                               "cbc_bound",
                                               "milp_seconds",
                                               "milp_objective",
                                               "time_to_optimal",
                                               "milp_time_limit_reached",
                                               "milp_gap",
                                               "milp_gap_decimal",
                                               "steps_lower_bound"};
const ExperimentKindRegistrar kIlpVsPolynomial("ilp-vs-polynomial", &MakeIlpVsPolynomialTasks,
                                               kMilpColumns);
const ExperimentKindRegistrar kTable6("table6-generation-time", &MakeTable6Tasks, kMilpColumns);

}  // namespace
}  // namespace collsynth::experiments
