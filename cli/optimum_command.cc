// collsynth optimum FILE [--json] [--method dinkelbach|binary-search] [--root NAME]
//   The exact optimal allgather bandwidth runtime ratio* (seed 004 eq. (1)) with its
//   bottleneck cut, Proposition 3's U and k, the allreduce bounds (6)/(7) with Theorem 19,
//   and the broadcast bound (5) for a root.
// collsynth optimum FILE --collective alltoall [--demand FILE] [--no-relay] [--json] [-o OUT]
//   The exact all-to-all throughput optimum λ* (maximum concurrent flow), reported only when
//   proofs_check's certificate checker accepts it; the bandwidth tax, the average path length
//   and the ECMP-like naive routing (seed 002 §5.4). docs/cli.md "## optimum". With -o, the
//   certified flow as a "flows" schedule (docs/formats.md), written through the checked-output
//   path (cli/schedule_output.h): its re-check from disk must give T = 1/λ*.
// collsynth optimum FILE --collective alltoall --symmetric [--no-relay] [--json] [-o OUT]
//   The same λ* for the uniform demand from the reduced LP of a group acting regularly on the
//   compute nodes (cli/symmetric_alltoall_report.h); -o writes the compact "flows-symmetric"
//   schedule, checked from disk without expanding.
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/alltoall_report.h"
#include "cli/command_registry.h"
#include "cli/optimum_report.h"
#include "cli/progress.h"
#include "cli/schedule_output.h"
#include "cli/symmetric_alltoall_report.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/topology_io.h"
#include "proofs_check/alltoall_certificate_check.h"
#include "proofs_check/flow_checker.h"
#include "schedules/collective.h"
#include "schedules/demand_io.h"
#include "schedules/symmetric_flow_schedule.h"
#include "solvers/alltoall/alltoall_metrics.h"
#include "solvers/alltoall/alltoall_optimum.h"
#include "solvers/alltoall/alltoall_paths.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct OptimumArgs {
  std::string file;
  bool json = false;
  std::string method = "dinkelbach";
  std::string root;
  std::string collective = "allgather";
  std::string demand;
  bool no_relay = false;
  std::string output;
  bool symmetric = false;
};

void AddOptimumOptions(CLI::App* cmd, OptimumArgs* args) {
  cmd->add_option("file", args->file, "topology file (JSON or edge list)")->required();
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_option("--method", args->method,
                  "dinkelbach (default) or binary-search (seed 004 §2.1)");
  cmd->add_option("--root", args->root,
                  "broadcast root for bound (5) (default: first compute node)");
  cmd->add_option("--collective", args->collective,
                  "allgather (default: seed 004 eq. (1) and the bounds it gives) or alltoall "
                  "(the maximum concurrent flow λ*)");
  cmd->add_option("--demand", args->demand,
                  "alltoall: demand-matrix file (docs/formats.md; default: uniform, 1 per pair)");
  cmd->add_flag("--no-relay", args->no_relay,
                "alltoall: compute nodes forward nothing (only switches relay)");
  cmd->add_option("-o,--output", args->output,
                  "alltoall: write the certified optimal flow as a \"flows\" schedule ('-' = "
                  "stdout; the report then goes to stderr)");
  cmd->add_flag("--symmetric", args->symmetric,
                "alltoall, uniform demand: the reduced LP of a group acting regularly on the "
                "compute nodes; -o writes a compact \"flows-symmetric\" schedule");
}

// The certified flow as a "flows" schedule with its dual lengths, checked in memory, written
// through the checked-output path and checked again from disk; both checks must give T = 1/λ and
// certify it optimal by the lengths' bound. "" when written, else why not.
std::string WriteOptimalFlows(const Topology& g, const AlltoallCertificate& cert, bool uniform,
                              const std::string& path, json* summary) {
  FlowSchedule flows = FlowScheduleFromCertificate(g, cert, uniform);
  flows.lengths = cert.length;  // the dual certificate travels with the flow
  const FlowCheckReport mem = CheckFlowSchedule(g, flows);
  if (!mem.ok || !mem.time || *mem.time != 1 / cert.lambda || !mem.optimal || !*mem.optimal) {
    return "the flows schedule fails the checker, not written: " +
           (mem.errors.empty() ? std::string("T differs from 1/lambda* or from its lengths' bound")
                               : mem.errors[0]);
  }
  const OutputCheck written = WriteCheckedSchedule(
      g, [&](std::ostream& out) { WriteFlowSchedule(out, flows, g); },
      [&] { flows = FlowSchedule(); }, path, {}, SameFigures(mem));
  if (!written.ok) return path + ": " + written.error + " (nothing written)";
  (*summary)["output"] = path;
  (*summary)["output_pairs"] = mem.pairs;
  (*summary)["output_paths"] = mem.paths;
  AddOutputCheck(*summary, written);
  return "";
}

// The symmetric all-to-all optimum (--symmetric): the compact schedule, checked by its checker
// (in the solver), written through the checked-output path, where the re-check from disk must
// give the same T and bound.
int RunSymmetricAlltoallOptimum(const OptimumArgs& a) {
  if (!a.demand.empty()) {
    throw InputError("<args>", "--demand", "--symmetric solves the uniform all-to-all only");
  }
  if (a.no_relay) {  // the reduced LP without relay is not yet certified (docs/alltoall.md)
    throw InputError("<args>", "--no-relay", "is not supported with --symmetric yet");
  }
  Topology g = ReadTopologyFile(a.file);
  ProgressPrinter progress("optimum");
  SymmetricAlltoallReport r = ComputeSymmetricAlltoallReport(
      g, a.file, !a.no_relay, [&progress](const std::string& stage) { progress.Stage(stage); });
  if (!r.certified) {
    PrintFailure(r.failure);
    return kExitCheckFailed;
  }
  json j = r.json;
  if (!a.output.empty()) {
    progress.Stage("flows-symmetric schedule");
    ExpectedCheck expected;
    expected.time = r.schedule->time;
    expected.time_lower_bound = r.schedule->time;
    const OutputCheck written = WriteCheckedSchedule(
        g, [&](std::ostream& out) { WriteSymmetricFlowSchedule(out, *r.schedule, g); },
        [&] { r.schedule.reset(); }, a.output, {}, expected);
    if (!written.ok) {
      PrintFailure("optimum: " + a.output + ": " + written.error + " (nothing written)");
      return kExitCheckFailed;
    }
    j["output"] = a.output;
    AddOutputCheck(j, written);
  }
  std::ostream& report = a.output == "-" ? std::cerr : std::cout;
  if (a.json) {
    report << j.dump() << "\n";
    return kExitOk;
  }
  report << r.text;
  if (!a.output.empty()) {
    report << "flows-symmetric     T = " << j["time"].get<std::string>()
           << " (checked from disk without expanding), written to " << a.output << "\n";
  }
  return kExitOk;
}

// The all-to-all optimum: solved, then checked here by proofs_check's checker (exit 1 unless
// it accepts), then reported with the tax and the naive routing.
int RunAlltoallOptimum(const OptimumArgs& a) {
  if (!a.root.empty() || a.method != "dinkelbach") {
    throw InputError("<args>", a.root.empty() ? "--method" : "--root",
                     "applies to --collective allgather only");
  }
  if (a.symmetric) return RunSymmetricAlltoallOptimum(a);
  Topology g = ReadTopologyFile(a.file);
  ProgressPrinter progress("optimum");
  const AlltoallReport r =
      ComputeAlltoallReport(g, a.file, a.demand, !a.no_relay,
                            [&progress](const std::string& stage) { progress.Stage(stage); });
  if (!r.certified) {
    std::cerr << "collsynth: " << r.failure << "\n";
    return r.lp_failed ? kExitInternal : kExitCheckFailed;
  }
  json j = r.json;
  if (!a.output.empty()) {
    progress.Stage("flows schedule");
    const std::string failed = WriteOptimalFlows(g, r.certificate, a.demand.empty(), a.output, &j);
    if (!failed.empty()) {
      PrintFailure("optimum: " + failed);
      return kExitCheckFailed;
    }
  }
  std::ostream& report = a.output == "-" ? std::cerr : std::cout;
  if (a.json) {
    report << j.dump() << "\n";
    return kExitOk;
  }
  report << r.text;
  if (!a.output.empty()) {
    report << "flows schedule      " << j["output_paths"].get<std::int64_t>() << " paths for "
           << j["output_pairs"].get<std::int64_t>()
           << " pairs, T = " << j["time"].get<std::string>() << " (checked from disk), written to "
           << a.output << "\n";
  }
  return kExitOk;
}

int RunOptimum(const OptimumArgs& a) {
  if (a.collective == "alltoall") return RunAlltoallOptimum(a);
  if (a.collective != "allgather") {
    throw InputError("<args>", "--collective",
                     "unknown collective '" + a.collective + "' (allgather, alltoall)");
  }
  if (!a.demand.empty() || a.no_relay || !a.output.empty() || a.symmetric) {
    throw InputError("<args>",
                     a.symmetric         ? "--symmetric"
                     : !a.output.empty() ? "--output"
                     : a.demand.empty()  ? "--no-relay"
                                         : "--demand",
                     "applies to --collective alltoall only");
  }
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
      "Exact optimal allgather bandwidth runtime T_B* = (M/N)·ratio* with its bottleneck cut, "
      "or the certified all-to-all optimum λ* (--collective alltoall)",
      AddOptimumOptions, RunOptimum);
});

}  // namespace
}  // namespace collsynth::cli
