// collsynth baseline NAME TOPOLOGY -o SCHEDULE.json [--collective C] [--chunks P]
//                   [--order a,b,..] [--dims 4,4] [--shifts 1,5] [--fan-out K]
// Builds a baseline schedule (solvers/baselines/baselines.h: uniring, biring, biring-bfb, torus,
// recursive-doubling, recursive-halving, dbtree, shiftedring, shiftedbfbring, multitree),
// runs the step checker and writes it only when valid (exit 1 otherwise). A topology that does
// not fit the baseline is bad input (exit 2). The routed baselines (direct, routed-ring,
// routed-recursive-doubling, routed-double-binary-tree, hierarchical;
// solvers/baselines/routed_baselines.h) run on any topology, switches included (hierarchical:
// on GPU boxes), and are written as pipeline schedules, checked by the pipeline checker. With
// --collective alltoall [--no-relay] [--demand FILE] [--no-optimum], NAME is direct, ecmp or
// topoopt-forwarding (solvers/alltoall/alltoall_baselines.h): a flows schedule checked by the
// flow checker, reported with its T next to the certified optimum T*.
#include <iostream>

#include "cli/baseline_request.h"
#include "cli/command_registry.h"
#include "cli/schedule_output.h"
#include "graphs/topology_io.h"
#include "solvers/baselines/baselines.h"
#include "solvers/baselines/routed_baselines.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct BaselineArgs {
  BaselineRequest request;  // cli/baseline_request.h
  std::string out;
  bool json = false;
};

// Every baseline name, step and routed, comma-separated (the help texts list them).
std::string AllBaselineNames() {
  std::string names;
  for (const auto& n : BaselineNames()) names += (names.empty() ? "" : ", ") + n;
  for (const auto& n : RoutedBaselineNames()) names += ", " + n;
  return names;
}

void AddBaselineOptions(CLI::App* cmd, BaselineArgs* args) {
  cmd->add_option("name", args->request.options.name, "baseline: " + AllBaselineNames())
      ->required();
  cmd->add_option("topology", args->request.topology, "topology file (JSON or edge list)")
      ->required();
  cmd->add_option("-o,--output", args->out, "output schedule JSON ('-' = stdout)")->required();
  cmd->add_option("--collective", args->request.collective,
                  "allgather, reduce-scatter, allreduce (default: the baseline's own) or alltoall "
                  "(direct, ecmp, topoopt-forwarding: flows schedules)");
  cmd->add_option("--chunks", args->request.options.chunks, "pipeline chunks P (dbtree)");
  cmd->add_option("--order", args->request.options.order,
                  "ring order, node names (rings, dbtree, routed baselines)")
      ->delimiter(',');
  cmd->add_option("--dims", args->request.options.dims,
                  "grid dimensions, row-major node ids (torus, multitree)")
      ->delimiter(',');
  cmd->add_option("--shifts", args->request.options.shifts,
                  "ring shifts p, gcd(p, N) = 1 (shifted rings)")
      ->delimiter(',');
  cmd->add_option("--fan-out", args->request.options.fan_out,
                  "k-ary cap on MultiTree children (0 = none)");
  cmd->add_option("--ecmp-routes", args->request.ecmp_routes,
                  "routed baselines: at most this many shortest routes per tree edge, the "
                  "tree split evenly over them (default 64)");
  cmd->add_flag(
      "--no-relay", [args](std::int64_t) { args->request.relay = false; },
      "alltoall: compute nodes forward nothing (only switches relay)");
  cmd->add_option("--demand", args->request.demand,
                  "alltoall: demand-matrix file (docs/formats.md; default: uniform, 1 per pair)");
  cmd->add_flag(
      "--no-optimum", [args](std::int64_t) { args->request.optimum = false; },
      "alltoall: do not compute the certified optimum T* (an LP) for the ratio");
  cmd->add_flag("--json", args->json, "print the check report as JSON");
}

int RunBaseline(const BaselineArgs& a) {
  Topology g = ReadTopologyFile(a.request.topology);
  const std::string& name = a.request.options.name;
  CheckedBaseline b = BuildCheckedBaseline(g, a.request);
  if (!b.ok) {  // never written unchecked
    PrintFailure("baseline " + name + " failed the checker: " + b.error);
    return kExitCheckFailed;
  }
  // The written bytes are the checked artifact (schedule_output.h).
  OutputCheck out = WriteCheckedSchedule(g, std::move(b.text), a.out, {}, b.expected);
  if (!out.ok) {
    PrintFailure("baseline " + name + ": " + a.out + ": " + out.error + " (nothing written)");
    return kExitCheckFailed;
  }
  std::ostream& info = a.out == "-" ? std::cerr : std::cout;  // keep stdout pure JSON
  if (a.json) {
    AddOutputCheck(b.report, out);
    info << b.report.dump() << "\n";
  } else {
    info << b.line << "\n";
  }
  return kExitOk;
}

CommandRegistrar reg_baseline(0, [](CLI::App& app) {
  AddCommand(app, "baseline", "Baseline collective schedules, checked (" + AllBaselineNames() + ")",
             AddBaselineOptions, RunBaseline);
});

}  // namespace
}  // namespace collsynth::cli
