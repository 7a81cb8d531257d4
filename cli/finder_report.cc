#include "cli/finder_report.h"

#include <cctype>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "simulate/simulation_model.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

FinderWorkload ParseWorkload(const FinderRequest& a) {
  FinderWorkload w;
  w.alpha = ParseQuantity("--alpha", a.alpha,
                          {{"s", 1},
                           {"ms", Rational(1, 1000)},
                           {"us", Rational(1, 1000000)},
                           {"ns", Rational(1, 1000000000)}},
                          "us", false);
  w.bandwidth_bps = ParseQuantity("--bandwidth", a.bandwidth,
                                  {{"bps", 1},
                                   {"Kbps", 1000},
                                   {"Mbps", 1000000},
                                   {"Gbps", 1000000000},
                                   {"Tbps", Rational(1000000000000LL)}},
                                  "Gbps", false);
  w.size_bytes = ParseQuantity("--size", a.size,
                               {{"B", 1},
                                {"KB", 1024},
                                {"MB", 1 << 20},
                                {"GB", 1 << 30},
                                {"KiB", 1024},
                                {"MiB", 1 << 20},
                                {"GiB", 1 << 30}},
                               "B", false);
  return w;
}

}  // namespace

std::string FinderDecimal(const Rational& r, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << static_cast<double>(r);
  return o.str();
}

json FinderCandidateJson(const FinderCandidate& c, const FinderWorkload& w) {
  json j;
  j["topology"] = c.topology;
  j["alternatives"] = c.alternatives;
  j["nodes"] = c.nodes;
  j["degree"] = c.degree;
  j["tl"] = c.tl;
  j["tb"] = ToString(c.tb);
  j["tb_decimal"] = FinderDecimal(c.tb, 6);
  j["bw_optimal"] = c.bw_optimal;
  j["moore_optimal"] = c.moore_optimal;
  j["family"] = c.base_family;
  j["label"] = c.Label();
  j["method"] = FinderMethodName(c.method);
  j["derivation"] = c.derivation;
  Rational t = AllreduceTime(c, w);
  j["allreduce_us"] = FinderDecimal(t * 1000000, 3);
  j["allreduce_seconds_exact"] = ToString(t);
  return j;
}

FinderWorkload CheckFinderRequest(const FinderRequest& a) {
  FinderWorkload w = ParseWorkload(a);
  if (a.degree < 1 || a.degree > 64) throw InputError("<args>", "--degree", "must be in 1..64");
  return w;
}

FinderReport ComputeFinderReport(const FinderRequest& a) {
  FinderReport report;
  const FinderWorkload w = report.workload = CheckFinderRequest(a);
  if (a.nodes < 2) throw InputError("<args>", "--nodes", "must be >= 2");
  TopologyFinder finder;
  FinderResult& r = report.result;
  try {
    r = finder.Find(a.nodes, a.degree);  // checks the size limit of --nodes
  } catch (const std::invalid_argument& e) {
    throw InputError("<args>", "--nodes", e.what());
  }
  if (r.frontier.empty()) {
    throw InputError("<args>", "--nodes",
                     "no topology with " + std::to_string(a.nodes) + " nodes of degree " +
                         std::to_string(a.degree) + " in the database");
  }
  const FinderCandidate& best = BestForWorkload(r, w);
  report.best = &best - r.frontier.data();
  json& j = report.json;
  j["nodes"] = r.nodes;
  j["degree"] = r.degree;
  j["moore_optimal_steps"] = r.moore_steps;
  j["tb_lower_bound"] = ToString(r.tb_lower_bound);
  j["workload"] = {{"alpha_seconds", ToString(w.alpha)},
                   {"size_bytes", ToString(w.size_bytes)},
                   {"bandwidth_bps", ToString(w.bandwidth_bps)}};
  j["frontier"] = json::array();
  for (const auto& c : r.frontier) j["frontier"].push_back(FinderCandidateJson(c, w));
  j["best"] = FinderCandidateJson(best, w);
  return report;
}

FinderUpToReport ComputeFinderUpTo(const FinderRequest& request, std::int64_t up_to) {
  FinderUpToReport report;
  const FinderWorkload w = report.workload = CheckFinderRequest(request);
  if (up_to < 2 || up_to > 100000) throw InputError("<args>", "--up-to", "must be in 2..100000");
  TopologyFinder finder;
  report.results = nlohmann::json::array();
  for (std::int64_t n = 2; n <= up_to; ++n) {
    FinderResult r = finder.Find(n, request.degree);
    if (r.frontier.empty()) continue;
    const FinderCandidate& b = BestForWorkload(r, w);
    report.results.push_back(
        {{"nodes", n}, {"frontier_size", r.frontier.size()}, {"best", FinderCandidateJson(b, w)}});
    report.rows.push_back({n, r.frontier.size(), b});
  }
  return report;
}

}  // namespace collsynth::cli
