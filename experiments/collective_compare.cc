#include "experiments/collective_compare.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

#include "experiments/csv_table.h"
#include "graphs/expression.h"
#include "graphs/input_error.h"
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

Rational ParamRational(const json& obj, const std::string& key, const std::string& item) {
  if (!obj.contains(key)) throw InputError("", item + "." + key, "missing");
  const json& v = obj[key];
  try {
    if (v.is_string()) return ParseRational(v.get<std::string>());
    if (v.is_number_integer()) return Rational(v.get<std::int64_t>());
  } catch (const std::invalid_argument& e) {
    throw InputError("", item + "." + key, e.what());
  }
  throw InputError("", item + "." + key, "must be an integer or a \"p/q\" / decimal string");
}

std::vector<std::string> StringList(const json& obj, const std::string& key,
                                    const std::string& item) {
  std::vector<std::string> out;
  if (!obj.contains(key)) return out;
  if (!obj[key].is_array()) throw InputError("", item + key, "must be an array of strings");
  for (size_t i = 0; i < obj[key].size(); ++i) {
    if (!obj[key][i].is_string()) {
      throw InputError("", item + key + "[" + std::to_string(i) + "]", "must be a string");
    }
    out.push_back(obj[key][i].get<std::string>());
  }
  return out;
}

double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

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
  const json& p = in.params;
  std::vector<std::string> names = StringList(p, "collectives", "");
  if (names.empty()) names.push_back(p.value("collective", std::string("allreduce")));
  std::vector<Collective> collectives;
  for (const auto& name : names) {
    const std::optional<Collective> c = ParseCollective(name);
    if (!c || *c == Collective::kBroadcast) {
      throw InputError("", "collective",
                       "'" + name + "' is not allgather, reduce-scatter or allreduce");
    }
    collectives.push_back(*c);
  }
  const bool lower_bound = p.value("lower_bound", true);
  const auto workloads = ParseWorkloads(p);
  struct Case {
    std::string topology, label;
    std::vector<std::string> algorithms;
    std::string series;
  };
  std::vector<Case> cases;
  if (p.contains("cases")) {
    if (!p["cases"].is_array()) throw InputError("", "cases", "must be an array");
    for (size_t i = 0; i < p["cases"].size(); ++i) {
      const json& c = p["cases"][i];
      const std::string item = "cases[" + std::to_string(i) + "].";
      if (!c.is_object() || !c.contains("topology") || !c["topology"].is_string()) {
        throw InputError("", item + "topology", "missing (a topo gen expression is required)");
      }
      cases.push_back({c["topology"].get<std::string>(), c.value("label", std::string()),
                       StringList(c, "algorithms", item), c.value("series", std::string())});
    }
  }
  for (const auto& t : StringList(p, "topologies", "")) {
    cases.push_back({t, "", StringList(p, "algorithms", ""), ""});
  }
  if (cases.empty()) throw InputError("", "cases", "no topologies given (cases or topologies)");
  std::vector<ExperimentTask> tasks;
  for (const auto& c : cases) {
    if (c.algorithms.empty()) {
      throw InputError("", "algorithms", "no algorithms for topology " + c.topology);
    }
    for (const auto& collective : collectives) {
      for (const auto& a : c.algorithms) {
        if (a != "bfb" && a != "pipeline" && a != "optimum" && a.rfind("baseline:", 0) != 0) {
          throw InputError("", "algorithms",
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

const ExperimentKindRegistrar kRegistrar("collective-compare", &MakeTasks);

}  // namespace

std::vector<Workload> ParseWorkloads(const json& params) {
  std::vector<Workload> out;
  if (!params.contains("workloads")) return out;
  if (!params["workloads"].is_array()) throw InputError("", "workloads", "must be an array");
  for (size_t i = 0; i < params["workloads"].size(); ++i) {
    const json& w = params["workloads"][i];
    const std::string item = "workloads[" + std::to_string(i) + "]";
    if (!w.is_object() || !w.contains("name") || !w["name"].is_string()) {
      throw InputError("", item + ".name", "missing (a string is required)");
    }
    Workload wl{w["name"].get<std::string>(), ParamRational(w, "alpha_us", item),
                ParamRational(w, "bytes", item), ParamRational(w, "gbps", item)};
    if (wl.name.empty() || wl.name.find_first_not_of(
                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                               std::string::npos) {
      throw InputError("", item + ".name", "must be [A-Za-z0-9_]+ (it names a CSV column)");
    }
    if (wl.alpha_us < 0 || wl.bytes <= 0 || wl.gbps <= 0) {
      throw InputError("", item, "alpha_us must be >= 0, bytes and gbps > 0");
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
  row.wall_seconds = Since(t0);
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
