#include "cli/symmetric_alltoall_report.h"

#include <sstream>
#include <utility>

#include "core/input_error.h"
#include "core/json_io.h"
#include "core/stopwatch.h"
#include "solvers/alltoall/alltoall_optimum.h"
#include "solvers/alltoall/symmetric_alltoall.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// H from the declared automorphisms, refused unless it is regular on every compute node.
ComputeRegularGroup GroupOrRefuse(const Topology& g, const std::string& file) {
  std::string why;
  std::optional<RegularGroup> h;
  try {
    h = ChooseRegularGroup(g, &why);
  } catch (const std::invalid_argument& e) {
    throw InputError(file, "automorphisms", e.what());
  }
  if (!h || h->representatives.size() != 1) {
    throw InputError(file, "automorphisms",
                     h ? "the commuting regular group found has " +
                             std::to_string(h->representatives.size()) +
                             " orbits on the compute nodes, not one (--symmetric needs H "
                             "regular on all of them)"
                       : why);
  }
  return {h->generators, h->orders, h->exponents, h->link_orbit, h->link_orbit_size};
}

}  // namespace

SymmetricAlltoallReport ComputeSymmetricAlltoallReport(
    const Topology& g, const std::string& file, bool relay,
    const std::function<void(const std::string&)>& stage) {
  if (g.num_compute() < 2) throw InputError(file, "nodes", "needs at least 2 compute nodes");
  if (stage) stage("regular group on the compute nodes");
  auto start = SteadyClock::now();
  const ComputeRegularGroup h = GroupOrRefuse(g, file);
  const double group_seconds = SecondsSince(start);
  // H is transitive on the compute nodes: one source's reachability decides every pair.
  DemandMatrix from_root;
  const std::vector<int> compute = g.ComputeNodes();
  for (int t : compute) {
    if (t != compute[0]) from_root.entries.push_back({compute[0], t, Rational(1)});
  }
  const std::string cut = DisconnectedDemandPair(g, from_root, relay);
  if (!cut.empty()) {
    throw InputError(file, "pair " + cut,
                     relay ? "no path (not strongly connected)" : "no path through switches only");
  }
  if (stage) stage("reduced all-to-all LP and compact certificate");
  SymmetricAlltoallResult res = ComputeSymmetricAlltoall(g, h, relay);
  SymmetricAlltoallReport r;
  if (!res.certified) {
    r.failure = "optimum: symmetric all-to-all optimum not certified: " + res.why;
    return r;
  }
  r.certified = true;
  json& j = r.json;
  j["collective"] = "alltoall";
  j["topology"] = g.name();
  j["compute_nodes"] = g.num_compute();
  j["demand"] = "uniform";
  j["relay"] = relay;
  j["lambda"] = RationalToJson(res.lambda);
  j["time"] = RationalToJson(1 / res.lambda);
  j["certified"] = true;
  j["certificate"] = {{"lower", RationalToJson(res.lambda)},
                      {"upper", RationalToJson(res.lambda)},
                      {"certified_by", kFromCompactRegularGroup},
                      {"primal_from", kFromCompactRegularGroup},
                      {"dual_from", kFromCompactRegularGroup},
                      {"denominator_bound", 0},
                      {"lp_columns", res.lp_columns},
                      {"lp_rows", res.lp_rows}};
  j["symmetric"] = {{"generators", h.generators.size()},       {"group_order", g.num_compute()},
                    {"link_orbits", h.link_orbit_size.size()}, {"root_paths", 0},
                    {"group_seconds", group_seconds},          {"lp_seconds", res.lp_seconds},
                    {"exact_seconds", res.exact_seconds},      {"paths_seconds", res.paths_seconds},
                    {"check_seconds", res.check_seconds}};
  std::int64_t paths = 0;
  for (const PairFlows& f : res.schedule->flows) paths += static_cast<std::int64_t>(f.paths.size());
  j["symmetric"]["root_paths"] = paths;
  std::ostringstream o;
  o << "alltoall optimum    lambda* = " << ToString(res.lambda)
    << "   T* = " << ToString(1 / res.lambda)
    << " · (M/N) per unit bandwidth   (N = " << g.num_compute() << (relay ? "" : ", no relay")
    << ")\n"
    << "certificate         compact flow and H-invariant lengths, " << h.generators.size()
    << " generators, " << h.link_orbit_size.size() << " link orbits, " << paths
    << " root paths (checked without expanding; certified by " << kFromCompactRegularGroup << ")\n";
  r.text = o.str();
  r.schedule = std::move(res.schedule);
  return r;
}

}  // namespace collsynth::cli
