#include "experiments/collective_compare.h"

#include <chrono>
#include <optional>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/algorithm_registry.h"
#include "experiments/csv_table.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "graphs/metrics.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Params p(in);
  const std::vector<Collective> collectives = ReadCollectives(p);
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
        const auto [name, problem] = AcceptAlgorithm(a, {{"bfb", "pipeline", "optimum"}});
        if (!name) throw p.Error("algorithms", problem);
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
                                         {"series", "k", "U", "trees", "height_hops",
                                          "rs_ag_optimal", "cut_compute", "cut_bandwidth",
                                          "certified_optimal", "certificate", "links", "diameter",
                                          "time_us_*"});

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
  const std::optional<std::string> name = CanonicalAlgorithm(algorithm);
  if (!name) throw InputError(topology_expr, "algorithms", "unknown algorithm '" + algorithm + "'");
  const AlgorithmRun run = RunAlgorithm(g, {*name, topology_expr}, collective);
  ExperimentRow row;
  row.instance = label.empty() ? topology_expr : label;
  row.algorithm = algorithm;
  row.collective = run.collective;
  row.nodes = g.num_compute();
  row.tb_unit = "(M/N)/b";
  row.verified = run.verified;
  row.tl = run.tl;
  row.tb = run.tb;
  row.extra = run.columns;
  row.wall_seconds = SecondsSince(t0);
  std::optional<RowBound> rb;
  if (lower_bound) {
    rb = ComputeRowBound(g, *row.collective);
    row.lower_bound = rb->lower_bound;
  }
  const RunCertificate cert = CertifyRun(run, rb);
  row.extra.emplace_back("certified_optimal", cert.certified ? "yes" : "no");
  row.extra.emplace_back("certificate", cert.certificate);
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
