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
#include "core/input_error.h"
#include "graphs/expression.h"
#include "solvers/finder/finder.h"
#include "solvers/finder/finder_bfb_value.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct FinderArgs {
  std::int64_t nodes = 0;
  int degree = 0;
  std::string alpha = "10us";
  std::string bandwidth = "100Gbps";
  std::string size = "1MB";
  bool json = false;
  std::int64_t up_to = 0;
  std::vector<int> emit_table;
};

// "<number><unit>" with the unit from `units` (factor to the base unit); a bare number uses
// `bare`. Exact.
Rational ParseQuantity(const std::string& option, const std::string& text,
                       const std::vector<std::pair<std::string, Rational>>& units,
                       const std::string& bare) {
  std::size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) ||
                               text[end] == '.' || text[end] == '/')) {
    ++end;
  }
  std::string num = text.substr(0, end), unit = text.substr(end);
  if (unit.empty()) unit = bare;
  Rational v;
  try {
    v = ParseRational(num);
  } catch (const std::invalid_argument& e) {
    throw InputError("<args>", option, "'" + text + "': " + e.what());
  }
  for (const auto& [name, factor] : units) {
    if (name == unit) {
      if (v <= 0) throw InputError("<args>", option, "'" + text + "' must be positive");
      return v * factor;
    }
  }
  std::string list;
  for (const auto& u : units) list += (list.empty() ? "" : ", ") + u.first;
  throw InputError("<args>", option, "unknown unit '" + unit + "' (" + list + ")");
}

FinderWorkload ParseWorkload(const FinderArgs& a) {
  FinderWorkload w;
  w.alpha = ParseQuantity("--alpha", a.alpha,
                          {{"s", 1},
                           {"ms", Rational(1, 1000)},
                           {"us", Rational(1, 1000000)},
                           {"ns", Rational(1, 1000000000)}},
                          "us");
  w.bandwidth_bps = ParseQuantity("--bandwidth", a.bandwidth,
                                  {{"bps", 1},
                                   {"Kbps", 1000},
                                   {"Mbps", 1000000},
                                   {"Gbps", 1000000000},
                                   {"Tbps", Rational(1000000000000LL)}},
                                  "Gbps");
  w.size_bytes = ParseQuantity("--size", a.size,
                               {{"B", 1},
                                {"KB", 1024},
                                {"MB", 1 << 20},
                                {"GB", 1 << 30},
                                {"KiB", 1024},
                                {"MiB", 1 << 20},
                                {"GiB", 1 << 30}},
                               "B");
  return w;
}

std::string Decimal(const Rational& r, int digits = 6) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << static_cast<double>(r);
  return o.str();
}

json CandidateJson(const FinderCandidate& c, const FinderWorkload& w) {
  json j;
  j["topology"] = c.topology;
  j["alternatives"] = c.alternatives;
  j["nodes"] = c.nodes;
  j["degree"] = c.degree;
  j["tl"] = c.tl;
  j["tb"] = ToString(c.tb);
  j["tb_decimal"] = Decimal(c.tb);
  j["bw_optimal"] = c.bw_optimal;
  j["moore_optimal"] = c.moore_optimal;
  j["family"] = c.base_family;
  j["label"] = c.Label();
  j["method"] = FinderMethodName(c.method);
  j["derivation"] = c.derivation;
  Rational t = AllreduceTime(c, w);
  j["allreduce_us"] = Decimal(t * 1000000, 3);
  j["allreduce_seconds_exact"] = ToString(t);
  return j;
}

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
  cmd->add_option("--nodes", args->nodes, "number of nodes N");
  cmd->add_option("--degree", args->degree, "degree d (links out of each node)")->required();
  cmd->add_option("--alpha", args->alpha, "per-step latency α (default 10us; s, ms, us, ns)");
  cmd->add_option("--bandwidth", args->bandwidth,
                  "node egress bandwidth B (default 100Gbps; bps..Tbps)");
  cmd->add_option("--size", args->size,
                  "allreduce size M (default 1MB = 2^20 bytes; B, KB, MB, GB)");
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_option("--up-to", args->up_to, "run every N = 2..NMAX on one engine (best per N)");
  cmd->add_option("--emit-genkautz-table", args->emit_table,
                  "print table rows for D, MAX (maintenance)")
      ->expected(2);
}

int RunFinder(const FinderArgs& a) {
  if (!a.emit_table.empty()) return EmitTable(a.emit_table);
  FinderWorkload w = ParseWorkload(a);
  if (a.degree < 1 || a.degree > 64) throw InputError("<args>", "--degree", "must be in 1..64");
  TopologyFinder finder;
  if (a.up_to > 0) {
    if (a.up_to < 2 || a.up_to > 100000)
      throw InputError("<args>", "--up-to", "must be in 2..100000");
    auto start = std::chrono::steady_clock::now();
    json rows = json::array();
    std::ostringstream text;
    for (std::int64_t n = 2; n <= a.up_to; ++n) {
      FinderResult r = finder.Find(n, a.degree);
      if (r.frontier.empty()) continue;
      const FinderCandidate& b = BestForWorkload(r, w);
      rows.push_back(
          {{"nodes", n}, {"frontier_size", r.frontier.size()}, {"best", CandidateJson(b, w)}});
      text << std::setw(6) << n << "  " << std::setw(12) << b.Label() << "  T_L " << std::setw(3)
           << b.tl << "  T_B " << std::setw(10) << Decimal(b.tb, 4) << "  "
           << Decimal(AllreduceTime(b, w) * 1000000, 1) << " us  " << b.topology << "\n";
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.json) {
      std::cout << json{{"degree", a.degree}, {"results", rows}, {"seconds", secs}}.dump() << "\n";
    } else {
      std::cout << text.str() << "(" << rows.size() << " sizes in " << Decimal(secs, 2) << " s)\n";
    }
    return kExitOk;
  }
  if (a.nodes < 2) throw InputError("<args>", "--nodes", "must be >= 2");
  FinderResult r;
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
  if (a.json) {
    json j;
    j["nodes"] = r.nodes;
    j["degree"] = r.degree;
    j["moore_optimal_steps"] = r.moore_steps;
    j["tb_lower_bound"] = ToString(r.tb_lower_bound);
    j["workload"] = {{"alpha_seconds", ToString(w.alpha)},
                     {"size_bytes", ToString(w.size_bytes)},
                     {"bandwidth_bps", ToString(w.bandwidth_bps)}};
    j["frontier"] = json::array();
    for (const auto& c : r.frontier) j["frontier"].push_back(CandidateJson(c, w));
    j["best"] = CandidateJson(best, w);
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::ostringstream o;
  o << "Pareto frontier, N = " << r.nodes << ", d = " << r.degree
    << " (allgather; T_L* = " << r.moore_steps << ", T_B* = " << ToString(r.tb_lower_bound)
    << " M/B)\n";
  o << "  T_L  T_B (M/B)              allreduce    topology\n";
  for (const auto& c : r.frontier) {
    std::string tb = ToString(c.tb) + " = " + Decimal(c.tb, 4);
    o << "  " << std::setw(3) << c.tl << "  " << std::left << std::setw(22) << tb << std::right
      << std::setw(10) << Decimal(AllreduceTime(c, w) * 1000000, 1) << " us  " << c.topology
      << (c.bw_optimal ? "  [BW optimal]" : "") << (c.moore_optimal ? "  [Moore optimal]" : "")
      << "\n";
    for (const auto& a : c.alternatives)
      o << "                                              = " << a << "\n";
  }
  o << "best for α = " << Decimal(w.alpha * 1000000, 3) << " us, M = " << ToString(w.size_bytes)
    << " B, B = " << Decimal(w.bandwidth_bps / 1000000000, 3) << " Gbps: " << best.topology
    << " (allreduce " << Decimal(AllreduceTime(best, w) * 1000000, 1) << " us)\n";
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
