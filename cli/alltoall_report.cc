#include "cli/alltoall_report.h"

#include <sstream>

#include "core/input_error.h"
#include "core/json_io.h"
#include "proofs_check/alltoall_certificate_check.h"
#include "schedules/demand_io.h"
#include "solvers/alltoall/alltoall_metrics.h"
#include "solvers/alltoall/alltoall_optimum.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

void Stage(const std::function<void(const std::string&)>& stage, const std::string& text) {
  if (stage) stage(text);
}

}  // namespace

AlltoallReport ComputeAlltoallReport(const Topology& g, const std::string& file,
                                     const std::string& demand_file, bool relay,
                                     const std::function<void(const std::string&)>& stage) {
  if (g.num_compute() < 2) throw InputError(file, "nodes", "needs at least 2 compute nodes");
  AlltoallReport r;
  const DemandMatrix demand =
      demand_file.empty() ? UniformDemand(g) : ReadDemandFile(demand_file, g);
  const std::string cut = DisconnectedDemandPair(g, demand, relay);
  if (!cut.empty()) {
    throw InputError(file, "pair " + cut,
                     relay ? "no path (not strongly connected)" : "no path through switches only");
  }
  Stage(stage, "alltoall LP and certificate");
  AlltoallOptimum opt = ComputeAlltoallOptimum(g, demand, {relay});
  if (opt.outcome == AlltoallOutcome::kLpFailed) {
    r.lp_failed = true;
    r.failure = "optimum: all-to-all LP failed: " + opt.detail;
    return r;
  }
  const AlltoallCheckReport check = CheckAlltoallCertificate(g, opt.certificate);
  if (opt.outcome != AlltoallOutcome::kCertified || !check.ok) {
    r.failure = "optimum: all-to-all optimum not certified (" +
                (opt.outcome != AlltoallOutcome::kCertified ? opt.detail : check.violation) +
                "); exact bounds " + (opt.has_lower ? ToString(opt.lower) : "(none)") +
                " <= lambda* <= " + (opt.has_upper ? ToString(opt.upper) : "(none)");
    return r;
  }
  Stage(stage, "ECMP-like routing");
  const EcmpRouting ecmp = ComputeEcmpRouting(g, demand, relay);
  const Rational& lambda = check.lower;
  const Rational tax = BandwidthTax(g, opt.certificate);
  r.certified = true;
  json& j = r.json;
  j["collective"] = "alltoall";
  j["topology"] = g.name();
  j["compute_nodes"] = g.num_compute();
  j["demand"] = demand_file.empty() ? json("uniform") : json(demand_file);
  j["relay"] = relay;
  j["lambda"] = RationalToJson(lambda);
  j["time"] = RationalToJson(1 / lambda);
  j["certified"] = true;
  j["certificate"] = {
      {"lower", RationalToJson(check.lower)}, {"upper", RationalToJson(check.upper)},
      {"certified_by", opt.certified_by},     {"primal_from", opt.primal_from},
      {"dual_from", opt.dual_from},           {"denominator_bound", opt.denominator},
      {"lp_columns", opt.lp_columns},         {"lp_rows", opt.lp_rows}};
  j["bandwidth_tax"] = RationalToJson(tax);
  j["average_path_length"] = RationalToJson(ecmp.average_path_length);
  j["ecmp"] = {{"lambda", RationalToJson(ecmp.lambda)},
               {"time", RationalToJson(1 / ecmp.lambda)},
               {"bandwidth_tax", RationalToJson(ecmp.bandwidth_tax)},
               {"slowdown", RationalToJson(lambda / ecmp.lambda)}};
  std::ostringstream o;
  o << "alltoall optimum    lambda* = " << ToString(lambda) << "   T* = " << ToString(1 / lambda)
    << (demand_file.empty() ? " · (M/N) per unit bandwidth" : " · (demand unit) per unit bandwidth")
    << "   (N = " << g.num_compute() << (relay ? "" : ", no relay") << ")\n"
    << "certificate         flow at lambda and lengths with dual bound " << ToString(check.upper)
    << " (checked; certified by " << opt.certified_by << ")\n"
    << "bandwidth tax       " << ToString(tax) << " (optimal flow), average path length "
    << ToString(ecmp.average_path_length) << "\n"
    << "ECMP-like routing   lambda = " << ToString(ecmp.lambda)
    << ", T = " << ToString(1 / ecmp.lambda) << ", tax " << ToString(ecmp.bandwidth_tax)
    << ", slowdown " << ToString(lambda / ecmp.lambda) << "\n";
  r.text = o.str();
  r.certificate = std::move(opt.certificate);
  return r;
}

}  // namespace collsynth::cli
