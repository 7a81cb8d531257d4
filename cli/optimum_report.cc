#include "cli/optimum_report.h"

#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/properties.h"
#include "schedules/collective.h"

namespace collsynth::cli {

using nlohmann::json;

namespace {

json Names(const Topology& g, const std::vector<int>& ids) {
  json a = json::array();
  for (int v : ids) a.push_back(g.node(v).name);
  return a;
}

}  // namespace

OptimumMethod ParseOptimumMethod(const std::string& method) {
  if (method == "dinkelbach") return OptimumMethod::kDinkelbach;
  if (method == "binary-search") return OptimumMethod::kBinarySearch;
  throw InputError("<args>", "--method",
                   "unknown method '" + method + "' (dinkelbach, binary-search)");
}

int RequireOptimumInput(const Topology& g, const std::string& file, const std::string& root) {
  RequireEulerianStronglyConnected(g, file);
  if (g.num_compute() < 2) throw InputError(file, "nodes", "needs at least 2 compute nodes");
  if (root.empty()) return g.ComputeNodes().front();
  auto r = g.FindNode(root);
  if (!r || !g.IsCompute(*r)) {
    throw InputError("<args>", "--root", "'" + root + "' is not a compute node of " + file);
  }
  return *r;
}

OptimumReport ComputeOptimumReport(const Topology& g, const std::string& method, int root,
                                   const ProgressCallback& sinks,
                                   const std::function<void(const std::string&)>& stage) {
  OptimumReport r;
  r.method = method;
  r.root = root;
  r.allgather = ComputeAllgatherOptimum(g, ParseOptimumMethod(method), sinks);
  if (stage) stage("allreduce bounds (6)/(7)");
  r.allreduce = ComputeAllreduceBounds(g, r.allgather);
  if (stage) stage("broadcast bound (5)");
  r.broadcast = ComputeBroadcastBound(g, root);
  return r;
}

json OptimumReportJson(const Topology& g, const OptimumReport& r) {
  const AllgatherOptimum& opt = r.allgather;
  const AllreduceBounds& ar = r.allreduce;
  const BroadcastBound& bc = r.broadcast;
  json j;
  j["collective"] = CollectiveName(Collective::kAllgather);
  j["topology"] = g.name();
  j["compute_nodes"] = g.num_compute();
  j["ratio"] = RationalToJson(opt.ratio);
  j["bottleneck_cut"] = Names(g, opt.bottleneck_cut);
  j["cut_compute"] = opt.cut_compute;
  j["cut_bandwidth"] = RationalToJson(opt.cut_bandwidth);
  j["U"] = RationalToJson(opt.U);
  j["k"] =
      opt.k <= 1000000000000LL ? json(static_cast<std::int64_t>(opt.k)) : json(ToString(opt.k));
  j["method"] = r.method;
  j["oracle_tests"] = opt.tests;
  j["max_flow_calls"] = opt.max_flow_calls;
  j["rooted_min_cuts"] = opt.rooted_min_cuts;
  j["allreduce"] = {{"bound6", RationalToJson(ar.bound6)},
                    {"bound7", RationalToJson(ar.bound7)},
                    {"lower_bound", RationalToJson(ar.lower_bound)},
                    {"min_cut", RationalToJson(ar.min_cut)},
                    {"min_cut_set", Names(g, ar.min_cut_set)},
                    {"max_single_node_cut", RationalToJson(ar.max_single_cut)},
                    {"rs_ag_ratio", RationalToJson(ar.rs_ag_ratio)},
                    {"theorem19_a", ar.theorem19_a},
                    {"theorem19_b", ar.theorem19_b},
                    {"rs_ag_optimal", ar.rs_ag_optimal}};
  j["broadcast"] = {{"root", g.node(r.root).name},
                    {"min_cut", RationalToJson(bc.min_cut)},
                    {"ratio", RationalToJson(bc.ratio)},
                    {"cut", Names(g, bc.cut)}};
  return j;
}

}  // namespace collsynth::cli
