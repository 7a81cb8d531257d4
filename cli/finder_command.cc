// collsynth finder --nodes N --degree d [--alpha A --bandwidth B --size M] [--json]
//   The topology finder of seed 000 §5.4 (solvers/finder/finder.h): the Pareto frontier of
//   allgather (T_L, T_B) over base topologies and expansions, and the best choice for the workload
//   by allreduce time 2·(T_L·α + T_B·M/B) (Table 4's convention). docs/cli.md "## finder".
//   --up-to NMAX runs N = 2..NMAX on one engine (Figure 13); --emit-genkautz-table D MAX
//   prints the rows of solvers/finder/finder_genkautz_table.inc.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/finder_report.h"
#include "core/input_error.h"
#include "graphs/expression.h"
#include "solvers/finder/finder.h"
#include "solvers/finder/finder_bfb_value.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct FinderArgs {
  FinderRequest request;  // cli/finder_report.h
  bool json = false;
  std::int64_t up_to = 0;
  std::vector<int> emit_table;
};

int EmitTable(const std::vector<int>& spec) {
  if (spec.size() != 2) throw InputError("<args>", "--emit-genkautz-table", "needs D MAX");
  int d = spec[0], max = spec[1];
  for (int m = d + 2; m <= max; ++m) {
    std::string e = "genkautz(" + std::to_string(d) + "," + std::to_string(m) + ")";
    BfbValue v = ComputeBfbValue(EvaluateTopologyExpression(e), e);
    std::cout << "{" << d << "," << m << "," << v.diameter << "," << ToString(Numerator(v.tb_shard))
              << "," << ToString(Denominator(v.tb_shard)) << "},\n";
  }
  return kExitOk;
}

void AddFinderOptions(CLI::App* cmd, FinderArgs* args) {
  cmd->add_option("--nodes", args->request.nodes, "number of nodes N");
  cmd->add_option("--degree", args->request.degree, "degree d (links out of each node)")
      ->required();
  cmd->add_option("--alpha", args->request.alpha,
                  "per-step latency α (default 10us; s, ms, us, ns)");
  cmd->add_option("--bandwidth", args->request.bandwidth,
                  "node egress bandwidth B (default 100Gbps; bps..Tbps)");
  cmd->add_option("--size", args->request.size,
                  "allreduce size M (default 1MB = 2^20 bytes; B, KB, MB, GB)");
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_option("--up-to", args->up_to, "run every N = 2..NMAX on one engine (best per N)");
  cmd->add_option("--emit-genkautz-table", args->emit_table,
                  "print table rows for D, MAX (maintenance)")
      ->expected(2);
}

int RunFinder(const FinderArgs& a) {
  if (!a.emit_table.empty()) return EmitTable(a.emit_table);
  if (a.up_to > 0) {
    auto start = std::chrono::steady_clock::now();
    const FinderUpToReport report = ComputeFinderUpTo(a.request, a.up_to);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.json) {
      std::cout << json{{"degree", a.request.degree},
                        {"results", report.results},
                        {"seconds", secs}}
                       .dump()
                << "\n";
      return kExitOk;
    }
    std::ostringstream text;
    for (const FinderUpToRow& row : report.rows) {
      const FinderCandidate& b = row.best;
      text << std::setw(6) << row.nodes << "  " << std::setw(12) << b.Label() << "  T_L "
           << std::setw(3) << b.tl << "  T_B " << std::setw(10) << FinderDecimal(b.tb, 4) << "  "
           << FinderDecimal(AllreduceTime(b, report.workload) * 1000000, 1) << " us  " << b.topology
           << "\n";
    }
    std::cout << text.str() << "(" << report.rows.size() << " sizes in " << FinderDecimal(secs, 2)
              << " s)\n";
    return kExitOk;
  }
  const FinderReport report = ComputeFinderReport(a.request);
  if (a.json) {
    std::cout << report.json.dump() << "\n";
    return kExitOk;
  }
  const FinderResult& r = report.result;
  const FinderWorkload& w = report.workload;
  const FinderCandidate& best = r.frontier[report.best];
  std::ostringstream o;
  o << "Pareto frontier, N = " << r.nodes << ", d = " << r.degree
    << " (allgather; T_L* = " << r.moore_steps << ", T_B* = " << ToString(r.tb_lower_bound)
    << " M/B)\n";
  o << "  T_L  T_B (M/B)              allreduce    topology\n";
  for (const auto& c : r.frontier) {
    std::string tb = ToString(c.tb) + " = " + FinderDecimal(c.tb, 4);
    o << "  " << std::setw(3) << c.tl << "  " << std::left << std::setw(22) << tb << std::right
      << std::setw(10) << FinderDecimal(AllreduceTime(c, w) * 1000000, 1) << " us  " << c.topology
      << (c.bw_optimal ? "  [BW optimal]" : "") << (c.moore_optimal ? "  [Moore optimal]" : "")
      << "\n";
    for (const auto& a : c.alternatives)
      o << "                                              = " << a << "\n";
  }
  o << "best for α = " << FinderDecimal(w.alpha * 1000000, 3)
    << " us, M = " << ToString(w.size_bytes)
    << " B, B = " << FinderDecimal(w.bandwidth_bps / 1000000000, 3) << " Gbps: " << best.topology
    << " (allreduce " << FinderDecimal(AllreduceTime(best, w) * 1000000, 1) << " us)\n";
  std::cout << o.str();
  return kExitOk;
}

CommandRegistrar reg_finder(0, [](CLI::App& app) {
  AddCommand(app, "finder",
             "Topology finder (seed 000 §5.4): Pareto frontier of (T_L, T_B) for N nodes of "
             "degree d",
             AddFinderOptions, RunFinder);
});

}  // namespace
}  // namespace collsynth::cli
