#include "experiments/collective_compare.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/csv_table.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "graphs/metrics.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "solvers/baselines/baselines.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

// The solvers' exact lower bound and the part of it the checker certifies: the solvers' cuts
// (bottleneck cut S* of (1), of G^T for reduce-scatter; the (6) cut and the (7) cuts S_v for
// allreduce) re-evaluated by proofs_check (CheckCutBound / CheckSingleNodeCutsBound).
struct RowBound {
  Rational lower_bound;             // the solvers' value (max of (6), (7) for allreduce)
  std::vector<CutBound> certified;  // the bounds the checker accepted
};

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

// Columns certified_optimal and certificate: "yes" exactly when a bound the checker derived
// from a cut equals the row's checked T_B; the certificate names that bound, or says why
// there is none. No row may look optimal (ratio_to_bound = 1) without saying by what.
std::pair<bool, std::string> CutCertificate(const ExperimentRow& row,
                                            const std::optional<RowBound>& rb) {
  std::string certificate;
  bool certified = false;
  if (!row.tb) {
    certificate = "none: no T_B";
  } else if (row.verified == Verified::kNo) {
    certificate = "none: schedule rejected by the checker";
  } else if (!rb) {
    certificate = "none: no lower bound computed";
  } else if (rb->certified.empty()) {
    certificate = "none: the checker accepted no cut";
  } else {
    Rational best = rb->certified[0].bound;
    for (const CutBound& c : rb->certified) best = std::max(best, c.bound);
    std::string attained, all;
    for (const CutBound& c : rb->certified) {
      const std::string number = c.name.substr(c.name.find('('));
      all += (all.empty() ? "" : " and ") + number;
      if (c.bound == *row.tb) attained += (attained.empty() ? "" : " and ") + number;
    }
    const bool several = all.find(" and ") != std::string::npos;
    if (best == *row.tb) {
      certified = true;
      certificate = std::string("checked cut: ") +
                    (attained.find(" and ") != std::string::npos ? "bounds " : "bound ") + attained;
    } else if (best < *row.tb) {
      certificate = std::string("none: ") + (several ? "bounds " : "bound ") + all +
                    " not attained (checked bound " + ToString(best) + ")";
    } else {
      certificate = "none: T_B below the checked bound " + ToString(best) + " (a defect)";
    }
    if (!certified && row.lower_bound && *row.tb == *row.lower_bound) {
      certificate += "; the solvers' bound is not certified";
    }
  }
  return {certified, certificate};
}

void AddCertificateColumns(ExperimentRow& row, const std::optional<RowBound>& rb) {
  const auto [certified, certificate] = CutCertificate(row, rb);
  row.extra.emplace_back("certified_optimal", certified ? "yes" : "no");
  row.extra.emplace_back("certificate", certificate);
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Params p(in);
  std::vector<std::string> names = p.Strings("collectives");
  const std::string names_key = names.empty() ? "collective" : "collectives";
  if (names.empty()) names.push_back(p.String("collective", "allreduce"));
  std::vector<Collective> collectives;
  for (const auto& name : names) {
    const std::optional<Collective> c = ParseCollective(name);
    if (!c || *c == Collective::kBroadcast) {
      throw p.Error(names_key, "'" + name + "' is not allgather, reduce-scatter or allreduce");
    }
    collectives.push_back(*c);
  }
  const bool lower_bound = p.Bool("lower_bound", true);
  const auto workloads = ParseWorkloads(p);
  struct Case {
    std::string topology, label;
    std::vector<std::string> algorithms;
    std::string series;
  };
  std::vector<Case> cases;
  for (const Params& c : p.Objects("cases")) {
    cases.push_back({c.Topology("topology"), c.String("label", ""), c.Strings("algorithms"),
                     c.String("series", "")});
  }
  for (const auto& t : p.Topologies("topologies")) {
    cases.push_back({t, "", p.Strings("algorithms"), ""});
  }
  if (cases.empty()) throw p.Error("cases", "no topologies given (cases or topologies)");
  std::vector<ExperimentTask> tasks;
  for (const auto& c : cases) {
    if (c.algorithms.empty()) {
      throw p.Error("algorithms", "no algorithms for topology " + c.topology);
    }
    for (const auto& collective : collectives) {
      for (const auto& a : c.algorithms) {
        if (a != "bfb" && a != "pipeline" && a != "optimum" && a.rfind("baseline:", 0) != 0) {
          throw p.Error("algorithms",
                        "unknown algorithm '" + a + "' (bfb, pipeline, optimum, baseline:NAME)");
        }
        tasks.push_back({c.topology + " " + a, [=] {
                           ExperimentRow row = RunCollectiveCase(c.topology, c.label, a, collective,
                                                                 workloads, lower_bound);
                           row.extra.insert(row.extra.begin(),
                                            {"series", c.series.empty() ? a : c.series + " " + a});
                           return std::vector<ExperimentRow>{row};
                         }});
      }
    }
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("collective-compare", &MakeTasks,
                                         {"series", "k", "U", "trees", "rs_ag_optimal",
                                          "cut_compute", "cut_bandwidth", "certified_optimal",
                                          "certificate", "links", "diameter", "time_us_*"});

}  // namespace

std::vector<Workload> ParseWorkloads(const Params& params) {
  std::vector<Workload> out;
  for (const Params& w : params.Objects("workloads")) {
    Workload wl{w.String("name"), w.Exact("alpha_us"), w.Exact("bytes"), w.Exact("gbps")};
    if (wl.name.empty() || wl.name.find_first_not_of(
                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                               std::string::npos) {
      throw w.Error("name", "must be [A-Za-z0-9_]+ (it names a CSV column)");
    }
    if (wl.alpha_us < 0 || wl.bytes <= 0 || wl.gbps <= 0) {
      throw w.Error("", "alpha_us must be >= 0, bytes and gbps > 0");
    }
    out.push_back(wl);
  }
  return out;
}

ExperimentRow RunCollectiveCase(const std::string& topology_expr, const std::string& label,
                                const std::string& algorithm, Collective collective,
                                const std::vector<Workload>& workloads, bool lower_bound) {
  const auto t0 = std::chrono::steady_clock::now();
  const Topology g = EvaluateTopologyExpression(topology_expr);
  ExperimentRow row;
  row.instance = label.empty() ? topology_expr : label;
  row.algorithm = algorithm;
  row.collective = collective;
  row.nodes = g.num_compute();
  row.tb_unit = "(M/N)/b";
  std::optional<PipelineCheckReport> pipeline_report;
  if (algorithm == "optimum") {
    // Seed 004's exact optimum, no schedule: allgather/reduce-scatter ratio* with its
    // bottleneck cut; allreduce RS+AG = 2·ratio* (optimal when Theorem 19 applies).
    const AllgatherOptimum opt = ComputeAllgatherOptimum(g);
    row.tb = opt.ratio;
    if (collective == Collective::kAllreduce) {
      const AllreduceBounds b = ComputeAllreduceBounds(g, opt);
      row.tb = b.rs_ag_ratio;
      row.extra.emplace_back("rs_ag_optimal", b.rs_ag_optimal ? "yes" : "unknown");
    }
    row.extra.emplace_back("cut_compute", std::to_string(opt.cut_compute));
    row.extra.emplace_back("cut_bandwidth", ToString(opt.cut_bandwidth));
  } else if (algorithm == "pipeline") {
    PipelineOptions opt;
    opt.collective = collective;
    const PipelineBuildResult built = BuildPipelineSchedule(g, opt);
    const PipelineCheckReport rep = CheckPipelineSchedule(g, built.schedule);
    row.verified = rep.ok ? Verified::kYes : Verified::kNo;
    row.tb = rep.ratio;
    const PipelineSchedule& s =
        built.schedule.phases.empty() ? built.schedule : built.schedule.phases.back();
    row.extra.emplace_back("k", ToString(s.k));
    row.extra.emplace_back("U", ToString(s.U));
    row.extra.emplace_back("trees", std::to_string(built.stats.trees));
    pipeline_report = rep;
  } else {
    StepSchedule s;
    if (algorithm == "bfb") {
      BfbOptions opt;
      opt.collective = collective;
      opt.certificates = false;
      opt.file = topology_expr;
      s = GenerateBfbSchedule(g, opt).schedule;
    } else {
      BaselineOptions opt;
      opt.name = algorithm.substr(std::string("baseline:").size());
      const Collective own = DefaultCollective(opt.name);
      // dbtree and multitree are allreduce algorithms; recursive-halving is reduce-scatter.
      opt.collective =
          (own == Collective::kAllreduce || own == Collective::kReduceScatter) ? own : collective;
      row.collective = opt.collective;
      s = BuildBaseline(g, opt, topology_expr);
    }
    const StepCheckReport rep = CheckStepSchedule(g, s);
    row.verified = rep.ok ? Verified::kYes : Verified::kNo;
    row.tl = Rational(rep.tl);
    row.tb = rep.tb;
  }
  row.wall_seconds = SecondsSince(t0);
  std::optional<RowBound> rb;
  if (lower_bound) {
    rb = ComputeRowBound(g, *row.collective);
    row.lower_bound = rb->lower_bound;
  }
  if (pipeline_report) {
    // A pipeline schedule carries its own certificate, checked with the schedule.
    const PipelineCheckReport& rep = *pipeline_report;
    row.extra.emplace_back("certified_optimal", rep.certified_optimal ? "yes" : "no");
    std::string why;
    if (rep.certified_optimal) {
      why = "checked cut: " + rep.certified_by;
    } else if (!rep.ok) {
      why = "none: schedule rejected by the checker";
    } else {
      const auto [would, text] = CutCertificate(row, rb);
      why = would ? "none: the schedule carries no certificate (the solvers' cuts would certify it)"
                  : text;
    }
    row.extra.emplace_back("certificate", why);
  } else {
    AddCertificateColumns(row, rb);
  }
  row.extra.emplace_back("links", std::to_string(g.num_links()));
  row.extra.emplace_back("diameter", std::to_string(ComputeDistanceStats(g, 1).diameter));
  for (const auto& w : workloads) {
    // (M/N)/b in µs: bytes / N / (gbps·10^9/8 bytes per s) · 10^6.
    const Rational shard_us = w.bytes * 8 / (Rational(row.nodes) * w.gbps * 1000);
    Rational t = row.tb.value_or(Rational(0)) * shard_us;
    if (row.tl) t += *row.tl * w.alpha_us;
    row.extra.emplace_back("time_us_" + w.name, FormatDecimal(t, 3));
  }
  return row;
}

}  // namespace collsynth::experiments
