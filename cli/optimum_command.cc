// collsynth optimum FILE [--json] [--method dinkelbach|binary-search] [--root NAME]
//   The exact optimal allgather bandwidth runtime ratio* (seed 004 eq. (1)) with its
//   bottleneck cut, Proposition 3's U and k, the allreduce bounds (6)/(7) with Theorem 19,
//   and the broadcast bound (5) for a root. docs/cli.md "## optimum".
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/optimum_report.h"
#include "cli/progress.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

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
  ParseOptimumMethod(a.method);  // a bad --method before the file is read
  Topology g = ReadTopologyFile(a.file);
  const int root = RequireOptimumInput(g, a.file, a.root);
  ProgressPrinter progress("optimum");
  const OptimumReport r =
      ComputeOptimumReport(g, a.method, root, progress.Counter("sinks", "Theorem-1 test "),
                           [&](const std::string& stage) { progress.Stage(stage); });
  const AllgatherOptimum& opt = r.allgather;
  const AllreduceBounds& ar = r.allreduce;
  const BroadcastBound& bc = r.broadcast;
  if (a.json) {
    std::cout << OptimumReportJson(g, r).dump() << "\n";
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
