#include "experiments/algorithm_registry.h"

#include <algorithm>
#include <map>

#include "core/input_error.h"
#include "experiments/params.h"
#include "proofs_check/tree_allreduce_checker.h"
#include "solvers/baselines/baseline_structure.h"
#include "solvers/baselines/baselines.h"
#include "solvers/baselines/double_binary_tree.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth::experiments {
namespace {

const std::string kBaselinePrefix = "baseline:";

const std::map<std::string, std::string>& Aliases() {
  static const std::map<std::string, std::string> aliases = {{"ring", "grid:ring"},
                                                             {"2dring", "grid:2dring"},
                                                             {"torus", "baseline:torus"},
                                                             {"multitree", "baseline:multitree"}};
  return aliases;
}

bool IsBaseline(const std::string& name) { return name.rfind(kBaselinePrefix, 0) == 0; }

// A Hamiltonian cycle of a d0 × d1 grid (d0 even) using mesh links only: row 0 from column 1
// to the end, row 1 back to column 1, ..., then up column 0. InputError when d0 is odd.
std::vector<std::string> SnakeOrder(const Topology& g, const Grid& grid, const std::string& expr) {
  if (grid.dims.size() != 2 || grid.dims[0] % 2 != 0) {
    throw InputError(expr, "ring", "RING's Hamiltonian cycle needs a 2-D grid with even rows");
  }
  const int rows = grid.dims[0], cols = grid.dims[1];
  std::vector<std::string> order;
  auto name = [&](int r, int c) { return g.node(grid.node_at[grid.Index({r, c})]).name; };
  for (int r = 0; r < rows; ++r) {
    for (int i = 1; i < cols; ++i) order.push_back(name(r, r % 2 == 0 ? i : cols - i));
  }
  for (int r = rows - 1; r >= 0; --r) order.push_back(name(r, 0));
  return order;
}

// Seed 004's exact optimum, no schedule: allgather/reduce-scatter ratio* with its bottleneck
// cut; allreduce RS+AG = 2·ratio* (optimal when Theorem 19 applies).
void RunOptimum(const Topology& g, AlgorithmRun& run) {
  const AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  run.tb = opt.ratio;
  if (run.collective == Collective::kAllreduce) {
    const AllreduceBounds b = ComputeAllreduceBounds(g, opt);
    run.tb = b.rs_ag_ratio;
    run.columns.emplace_back("rs_ag_optimal", b.rs_ag_optimal ? "yes" : "unknown");
  }
  run.columns.emplace_back("cut_compute", std::to_string(opt.cut_compute));
  run.columns.emplace_back("cut_bandwidth", ToString(opt.cut_bandwidth));
}

void RunPipeline(const Topology& g, AlgorithmRun& run) {
  PipelineOptions opt;
  opt.collective = run.collective;
  PipelineBuildResult built = BuildPipelineSchedule(g, opt);
  const PipelineCheckReport rep = CheckPipelineSchedule(g, built.schedule);
  run.verified = rep.ok ? Verified::kYes : Verified::kNo;
  run.tb = rep.ratio;
  const PipelineSchedule& s =
      built.schedule.phases.empty() ? built.schedule : built.schedule.phases.back();
  run.columns.emplace_back("k", ToString(s.k));
  run.columns.emplace_back("U", ToString(s.U));
  run.columns.emplace_back("trees", std::to_string(built.stats.trees));
  // Measured by the checker (docs/formats.md "Height"); allreduce: the phases' sum.
  run.columns.emplace_back("height_hops", rep.ok ? std::to_string(rep.height_hops) : "");
  run.pipeline_report = rep;
  run.pipeline = std::move(built.schedule);
}

// The NCCL double binary tree over the node order 0..N-1 (as the dbtree baseline's default),
// each tree half of the vector, checked as a reduce-then-broadcast allreduce.
void RunDoubleBinaryTree(const Topology& g, AlgorithmRun& run) {
  if (run.collective != Collective::kAllreduce) {
    throw InputError("", "algorithms", "tree:dbtree is an allreduce (reduce, then broadcast)");
  }
  if (g.num_compute() != g.num_nodes()) {
    throw InputError("", "algorithms", "tree:dbtree needs a direct-connect topology");
  }
  std::vector<int> order(g.num_nodes());
  for (int v = 0; v < g.num_nodes(); ++v) order[v] = v;
  std::vector<ReductionTree> trees;
  std::vector<CheckedReductionTree> checked;
  for (const BinaryTree& t : DoubleBinaryTrees(order)) {
    trees.push_back({t.parent, t.root, Rational(1, 2)});
    checked.push_back({t.parent, t.root, Rational(1, 2)});
  }
  // Checked before it is simulated; accepted trees keep `verified` n/a (a model, not a schedule
  // file, as the shipped time-vs-size outputs say), rejected ones are kNo, which fails the run.
  run.verified = CheckTreeAllreduce(g, checked).ok ? Verified::kNotApplicable : Verified::kNo;
  run.trees = std::move(trees);
}

void RunTwoDRing(const Topology& g, const std::string& file, AlgorithmRun& run) {
  TwoDRingResult r = BuildTwoDRing(g, InferGrid(g, {}, file), file);
  bool ok = true;
  for (const TwoDRingLine& line : r.lines) {
    const StepCheckReport rep = CheckStepSchedule(line.ring, line.allreduce);
    ok = ok && rep.ok && rep.tl == static_cast<int>(2 * (line.nodes.size() - 1));
  }
  run.verified = ok ? Verified::kYes : Verified::kNo;
  run.tl = Rational(r.total_steps);
  run.two_d_ring = std::move(r);
}

StepSchedule BuildStepSchedule(const Topology& g, const AlgorithmSpec& spec, AlgorithmRun& run) {
  if (spec.name == "bfb") {
    BfbOptions opt;
    opt.collective = run.collective;
    opt.certificates = spec.certificates;
    opt.file = spec.file;
    return GenerateBfbSchedule(g, opt).schedule;
  }
  BaselineOptions opt;
  if (spec.name == "grid:ring") {
    opt.name = "uniring";
    opt.order = SnakeOrder(g, InferGrid(g, {}, spec.file), spec.file);
  } else {
    opt.name = spec.name.substr(kBaselinePrefix.size());
  }
  const Collective own = DefaultCollective(opt.name);
  // dbtree and multitree are allreduce algorithms; recursive-halving is reduce-scatter.
  opt.collective =
      (own == Collective::kAllreduce || own == Collective::kReduceScatter) ? own : run.collective;
  run.collective = *opt.collective;
  return BuildBaseline(g, opt, spec.file);
}

}  // namespace

std::optional<std::string> CanonicalAlgorithm(const std::string& spelled) {
  static const std::vector<std::string> kNames = {"bfb",         "pipeline",  "optimum",
                                                  "tree:dbtree", "grid:ring", "grid:2dring"};
  if (IsBaseline(spelled)) return spelled;
  if (std::find(kNames.begin(), kNames.end(), spelled) != kNames.end()) return spelled;
  const auto it = Aliases().find(spelled);
  if (it != Aliases().end()) return it->second;
  return std::nullopt;
}

std::pair<std::optional<std::string>, std::string> AcceptAlgorithm(const std::string& spelled,
                                                                   const AlgorithmSet& allowed) {
  const std::optional<std::string> name = CanonicalAlgorithm(spelled);
  if (name &&
      ((allowed.baselines && IsBaseline(*name)) ||
       std::find(allowed.names.begin(), allowed.names.end(), *name) != allowed.names.end())) {
    return {name, ""};
  }
  std::string list;
  for (const std::string& n : allowed.names) list += (list.empty() ? "" : ", ") + n;
  if (allowed.baselines) list += (list.empty() ? "" : ", ") + kBaselinePrefix + "NAME";
  return {std::nullopt, "unknown algorithm '" + spelled + "' (" + list + ")"};
}

std::vector<Collective> ReadCollectives(const Params& p) {
  std::vector<std::string> names = p.Strings("collectives");
  const std::string key = names.empty() ? "collective" : "collectives";
  if (names.empty()) names.push_back(p.String("collective", "allreduce"));
  std::vector<Collective> collectives;
  for (const auto& name : names) {
    const std::optional<Collective> c = ParseCollective(name);
    if (!c || *c == Collective::kBroadcast) {
      throw p.Error(key, "'" + name + "' is not allgather, reduce-scatter or allreduce");
    }
    collectives.push_back(*c);
  }
  return collectives;
}

AlgorithmRun RunAlgorithm(const Topology& g, const AlgorithmSpec& spec, Collective collective) {
  AlgorithmRun run;
  run.algorithm = spec.name;
  run.collective = collective;
  if (spec.name == "optimum") {
    RunOptimum(g, run);
  } else if (spec.name == "pipeline") {
    RunPipeline(g, run);
  } else if (spec.name == "tree:dbtree") {
    RunDoubleBinaryTree(g, run);
  } else if (spec.name == "grid:2dring") {
    RunTwoDRing(g, spec.file, run);
  } else if (spec.name == "bfb" || spec.name == "grid:ring" || IsBaseline(spec.name)) {
    StepSchedule s = BuildStepSchedule(g, spec, run);
    const StepCheckReport rep = CheckStepSchedule(g, s);
    run.verified = rep.ok ? Verified::kYes : Verified::kNo;
    run.tl = Rational(rep.tl);
    run.tb = rep.tb;
    run.step = std::move(s);
    run.step_report = rep;
  } else {
    throw InputError(spec.file, "algorithms", "unknown algorithm '" + spec.name + "'");
  }
  return run;
}

RowBound ComputeRowBound(const Topology& g, Collective collective) {
  RowBound rb;
  const AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  if (collective == Collective::kAllreduce) {
    const AllreduceBounds b = ComputeAllreduceBounds(g, opt);
    rb.lower_bound = b.lower_bound;
    for (CutBound c : {CheckCutBound(g, Collective::kAllreduce, b.min_cut_set),
                       CheckSingleNodeCutsBound(g, b.single_cuts)}) {
      if (c.ok) rb.certified.push_back(std::move(c));
    }
    return rb;
  }
  rb.lower_bound = opt.ratio;  // allgather; reduce-scatter has the same bound on Eulerian graphs
  if (collective == Collective::kReduceScatter) {
    // |S ∩ V_c| / B-(S) on G is bound (1) on G^T: the bottleneck cut of G^T.
    const CutBound c =
        CheckCutBound(g, collective, ComputeAllgatherOptimum(g.Transpose()).bottleneck_cut);
    if (c.ok) rb.certified.push_back(c);
  } else {
    const CutBound c = CheckCutBound(g, collective, opt.bottleneck_cut);
    if (c.ok) rb.certified.push_back(c);
  }
  return rb;
}

namespace {

// The certificate from the solvers' cuts: no run may look optimal (ratio_to_bound = 1)
// without saying by what.
RunCertificate CutCertificate(const AlgorithmRun& run, const std::optional<RowBound>& rb) {
  RunCertificate out;
  if (!run.tb) {
    out.certificate = "none: no T_B";
  } else if (run.verified == Verified::kNo) {
    out.certificate = "none: schedule rejected by the checker";
  } else if (!rb) {
    out.certificate = "none: no lower bound computed";
  } else if (rb->certified.empty()) {
    out.certificate = "none: the checker accepted no cut";
  } else {
    Rational best = rb->certified[0].bound;
    for (const CutBound& c : rb->certified) best = std::max(best, c.bound);
    std::string attained, all;
    for (const CutBound& c : rb->certified) {
      const std::string number = c.name.substr(c.name.find('('));
      all += (all.empty() ? "" : " and ") + number;
      if (c.bound == *run.tb) attained += (attained.empty() ? "" : " and ") + number;
    }
    const bool several = all.find(" and ") != std::string::npos;
    if (best == *run.tb) {
      out.certified = true;
      out.certificate = std::string("checked cut: ") +
                        (attained.find(" and ") != std::string::npos ? "bounds " : "bound ") +
                        attained;
    } else if (best < *run.tb) {
      out.certificate = std::string("none: ") + (several ? "bounds " : "bound ") + all +
                        " not attained (checked bound " + ToString(best) + ")";
    } else {
      out.certificate = "none: T_B below the checked bound " + ToString(best) + " (a defect)";
    }
    if (!out.certified && *run.tb == rb->lower_bound) {
      out.certificate += "; the solvers' bound is not certified";
    }
  }
  return out;
}

}  // namespace

RunCertificate CertifyRun(const AlgorithmRun& run, const std::optional<RowBound>& bound) {
  if (!run.pipeline_report) return CutCertificate(run, bound);
  // A pipeline schedule carries its own certificate, checked with the schedule.
  const PipelineCheckReport& rep = *run.pipeline_report;
  RunCertificate out;
  out.certified = rep.certified_optimal;
  if (rep.certified_optimal) {
    out.certificate = "checked cut: " + rep.certified_by;
  } else if (!rep.ok) {
    out.certificate = "none: schedule rejected by the checker";
  } else {
    const RunCertificate would = CutCertificate(run, bound);
    out.certificate =
        would.certified
            ? "none: the schedule carries no certificate (the solvers' cuts would certify it)"
            : would.certificate;
  }
  return out;
}

}  // namespace collsynth::experiments
