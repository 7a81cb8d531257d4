// collsynth optimum FILE [--json] [--method dinkelbach|binary-search] [--root NAME]
//   The exact optimal allgather bandwidth runtime ratio* (seed 004 eq. (1)) with its
//   bottleneck cut, Proposition 3's U and k, the allreduce bounds (6)/(7) with Theorem 19,
//   and the broadcast bound (5) for a root. docs/cli.md "## optimum".
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/progress.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/properties.h"
#include "graphs/topology_io.h"
#include "schedules/collective.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

json Names(const Topology& g, const std::vector<int>& ids) {
  json a = json::array();
  for (int v : ids) a.push_back(g.node(v).name);
  return a;
}

struct OptimumArgs {
  std::string file;
  bool json = false;
  std::string method = "dinkelbach";
  std::string root;
};

void AddOptimumOptions(CLI::App* cmd, OptimumArgs* args) {
  cmd->add_option("file", args->file, "topology file (JSON or edge list)")->required();
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_option("--method", args->method,
                  "dinkelbach (default) or binary-search (seed 004 §2.1)");
  cmd->add_option("--root", args->root,
                  "broadcast root for bound (5) (default: first compute node)");
}

int RunOptimum(const OptimumArgs& a) {
  OptimumMethod method;
  if (a.method == "dinkelbach")
    method = OptimumMethod::kDinkelbach;
  else if (a.method == "binary-search")
    method = OptimumMethod::kBinarySearch;
  else
    throw InputError("<args>", "--method",
                     "unknown method '" + a.method + "' (dinkelbach, binary-search)");
  Topology g = ReadTopologyFile(a.file);
  RequireEulerianStronglyConnected(g, a.file);
  if (g.num_compute() < 2) throw InputError(a.file, "nodes", "needs at least 2 compute nodes");
  int root = g.ComputeNodes().front();
  if (!a.root.empty()) {
    auto r = g.FindNode(a.root);
    if (!r || !g.IsCompute(*r)) {
      throw InputError("<args>", "--root", "'" + a.root + "' is not a compute node of " + a.file);
    }
    root = *r;
  }
  ProgressPrinter progress("optimum");
  AllgatherOptimum opt =
      ComputeAllgatherOptimum(g, method, progress.Counter("sinks", "Theorem-1 test "));
  progress.Stage("allreduce bounds (6)/(7)");
  AllreduceBounds ar = ComputeAllreduceBounds(g, opt);
  progress.Stage("broadcast bound (5)");
  BroadcastBound bc = ComputeBroadcastBound(g, root);
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
  j["method"] = a.method;
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
  j["broadcast"] = {{"root", g.node(root).name},
                    {"min_cut", RationalToJson(bc.min_cut)},
                    {"ratio", RationalToJson(bc.ratio)},
                    {"cut", Names(g, bc.cut)}};
  if (a.json) {
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::ostringstream o;
  o << "allgather optimum   T_B* = (M/N) · " << ToString(opt.ratio) << "   (N = " << g.num_compute()
    << ")\n"
    << "bottleneck cut S*   |S* ∩ V_c| = " << opt.cut_compute
    << ", B+(S*) = " << ToString(opt.cut_bandwidth) << "\n"
    << "  S* = {";
  for (std::size_t i = 0; i < opt.bottleneck_cut.size(); ++i) {
    o << (i ? ", " : "") << g.node(opt.bottleneck_cut[i]).name;
  }
  o << "}\n"
    << "Proposition 3       U = " << ToString(opt.U) << ", k = " << ToString(opt.k) << "\n"
    << "allreduce bounds    (6) " << ToString(ar.bound6) << ", (7) " << ToString(ar.bound7)
    << " (units of M/N); RS+AG gives " << ToString(ar.rs_ag_ratio) << " -> "
    << (ar.rs_ag_optimal ? "optimal" : "not proven optimal")
    << " (Theorem 19 a: " << (ar.theorem19_a ? "yes" : "no")
    << ", b: " << (ar.theorem19_b ? "yes" : "no") << ")\n"
    << "broadcast bound (5) root " << g.node(root).name << ": T_B >= M · " << ToString(bc.ratio)
    << " (min cut " << ToString(bc.min_cut) << ")\n";
  std::cout << o.str();
  return kExitOk;
}

CommandRegistrar reg_optimum(0, [](CLI::App& app) {
  AddCommand(
      app, "optimum",
      "Exact optimal allgather bandwidth runtime T_B* = (M/N)·ratio* with its bottleneck cut",
      AddOptimumOptions, RunOptimum);
});

}  // namespace
}  // namespace collsynth::cli
