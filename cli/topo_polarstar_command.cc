// collsynth topo polarstar --radix K [-o FILE] [--check] [--json]
//   Lists every feasible PolarStar of radix K (seed 003 §7.1: ER_q with an Inductive-Quad or
//   Paley supernode of degree d' = K - q - 1), marks the largest, and with -o builds it and
//   writes it (JSON or edge list by extension). --check also verifies diameter 3 by BFS and
//   exits 1 if it fails. No feasible design (K < 3) or a design over the size limit: exit 2.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "cli/command_registry.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/generators/polarstar.h"
#include "graphs/metrics.h"
#include "graphs/topology_io.h"
#include "theory/polarstar_bounds.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// 100·a/b rounded down to two decimals, exactly: "31.32%".
std::string Percent(const BigInt& a, const BigInt& b) {
  BigInt hundredths = a * 10000 / b;
  BigInt whole = hundredths / 100, frac = hundredths % 100;
  std::ostringstream o;
  o << ToString(whole) << "." << std::setw(2) << std::setfill('0') << ToString(frac) << "%";
  return o.str();
}

std::string ConfigName(const PolarStarConfig& c) {
  return "polarstar(" + std::to_string(c.q) + "," + std::to_string(c.d_prime) + "," +
         SupernodeKindName(c.kind) + ")";
}

json ConfigJson(const PolarStarConfig& c) {
  return {{"q", c.q},
          {"d_prime", c.d_prime},
          {"supernode", SupernodeKindName(c.kind)},
          {"routers", ToString(c.order)},
          {"expression", ConfigName(c)}};
}

struct TopoPolarstarArgs {
  std::int64_t radix = 0;
  std::string out;
  bool check = false;
  bool json = false;
};

void AddTopoPolarstarOptions(CLI::App* cmd, TopoPolarstarArgs* args) {
  cmd->add_option("--radix", args->radix, "router radix K = q + 1 + d'")->required();
  cmd->add_option("-o,--output", args->out,
                  "write the largest design (.json -> JSON, else edge list)");
  cmd->add_flag("--check", args->check, "build the largest design and verify diameter 3 (BFS)");
  cmd->add_flag("--json", args->json, "print the design space as one JSON object");
}

int RunTopoPolarstar(const TopoPolarstarArgs& a) {
  constexpr std::int64_t kMaxRadix = 100000;
  if (a.radix < 1 || a.radix > kMaxRadix) {
    throw InputError(
        "<args>", "--radix",
        "must be in [1, " + std::to_string(kMaxRadix) + "], got " + std::to_string(a.radix));
  }
  const auto space = PolarStarDesignSpace(a.radix);
  const auto best = LargestPolarStar(a.radix);
  if (!best) {
    throw InputError("<args>", "--radix",
                     "no PolarStar of radix " + std::to_string(a.radix) +
                         " exists (ER_q needs q >= 2, so K >= 3)");
  }
  const BigInt moore = MooreBoundDiameter3(a.radix);
  if (a.json) {
    json j;
    j["radix"] = a.radix;
    j["moore_bound_diameter3"] = ToString(moore);
    j["designs"] = json::array();
    for (const auto& c : space) j["designs"].push_back(ConfigJson(c));
    j["largest"] = ConfigJson(*best);
    std::cout << j.dump(1) << "\n";
  } else {
    std::cout << "PolarStar designs of radix " << a.radix << " (q + 1 + d' = K; seed 003 §7.1)\n"
              << "     q    d'  supernode       routers  of Moore bound\n";
    for (const auto& c : space) {
      std::cout << (c.q == best->q && c.kind == best->kind ? "*" : " ") << std::setw(5) << c.q
                << std::setw(6) << c.d_prime << "  " << std::left << std::setw(9)
                << SupernodeKindName(c.kind) << std::right << std::setw(14) << ToString(c.order)
                << "  " << std::setw(14) << Percent(c.order, moore) << "\n";
    }
    std::cout << "largest: " << ConfigName(*best) << " with " << ToString(best->order)
              << " routers; diameter-3 Moore bound " << ToString(moore) << "\n";
  }
  if (a.out.empty() && !a.check) return kExitOk;
  Topology g;
  try {
    g = PolarStar(static_cast<int>(best->q), static_cast<int>(best->d_prime), best->kind);
  } catch (const std::invalid_argument& e) {  // the generator's size limit
    throw InputError("<args>", "--radix", ConfigName(*best) + ": " + e.what());
  }
  if (a.check) {
    DistanceStats ds = ComputeDistanceStats(g);
    if (ds.unreachable_pairs != 0 || ds.diameter != 3) {
      std::cerr << "collsynth: " << g.name() << ": diameter check failed: "
                << (ds.unreachable_pairs != 0 ? "disconnected"
                                              : "diameter " + std::to_string(ds.diameter))
                << "\n";
      return kExitCheckFailed;
    }
    if (!a.json) std::cout << "checked: " << g.name() << " has diameter 3\n";
  }
  if (!a.out.empty()) {
    WriteTopologyFile(g, a.out);
    if (!a.json && a.out != "-") std::cout << "wrote " << a.out << "\n";
  }
  return kExitOk;
}

CommandRegistrar reg_topo_polarstar(14, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("topo"), "polarstar",
             "PolarStar design space for a radix (seed 003 §7.1); build the largest with -o",
             AddTopoPolarstarOptions, RunTopoPolarstar);
});

}  // namespace
}  // namespace collsynth::cli
