// collsynth prove NAME [--range LO..HI] [--out DIR] [--json] | prove --list | prove all
//   Numerical verification of a theorem over a family range (experiments/sweeps/sweep.h):
//   prints the instances checked and any counterexample; counterexamples are saved as topology
//   files under DIR (default prove-counterexamples/) and the exit code is 1.
//   docs/cli.md "## prove".
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command_registry.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/sweeps/sweep.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct ProveArgs {
  std::string name;
  std::string range;
  std::string out = "prove-counterexamples";
  bool list = false;
  bool json = false;
};

std::string SafeFileName(const std::string& s) {
  std::string r;
  for (char c : s)
    r += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return r.substr(0, 120);
}

void AddProveOptions(CLI::App* cmd, ProveArgs* args) {
  cmd->add_option("name", args->name, "sweep name (see --list), or 'all'");
  cmd->add_option("--range", args->range, "LO..HI or HI (meaning per sweep, see --list)");
  cmd->add_option("--out", args->out,
                  "directory for counterexample topologies (default prove-counterexamples)");
  cmd->add_flag("--list", args->list, "list the sweeps");
  cmd->add_flag("--json", args->json, "print one JSON object");
}

int RunProve(const ProveArgs& a) {
  using sweeps::AllSweeps;
  if (a.list) {
    json j = json::array();
    for (const auto& s : AllSweeps()) {
      if (a.json) {
        j.push_back({{"name", s.name},
                     {"source", s.source},
                     {"statement", s.statement},
                     {"range", s.range_meaning},
                     {"default_range", std::to_string(s.default_range.lo) + ".." +
                                           std::to_string(s.default_range.hi)}});
      } else {
        std::cout << s.name << "  [" << s.source << "]  " << s.statement
                  << "\n      range: " << s.range_meaning << ", default " << s.default_range.lo
                  << ".." << s.default_range.hi << "\n";
      }
    }
    if (a.json) std::cout << j.dump() << "\n";
    return kExitOk;
  }
  if (a.name.empty()) throw InputError("<args>", "NAME", "give a sweep name or --list");
  std::vector<const sweeps::SweepSpec*> todo;
  if (a.name == "all") {
    for (const auto& s : AllSweeps()) todo.push_back(&s);
  } else if (const auto* s = sweeps::FindSweep(a.name)) {
    todo.push_back(s);
  } else {
    throw InputError("<args>", "NAME", "unknown sweep '" + a.name + "' (collsynth prove --list)");
  }
  if (todo.size() > 1 && !a.range.empty()) throw InputError("<args>", "--range", "not with 'all'");
  json out = json::array();
  bool all_ok = true;
  for (const auto* s : todo) {
    sweeps::SweepRange range = sweeps::ParseSweepRange(a.range, s->default_range);
    auto start = std::chrono::steady_clock::now();
    sweeps::SweepReport rep = s->run(range);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    all_ok &= rep.ok();
    json files = json::array();
    for (std::size_t i = 0; i < rep.counterexamples.size(); ++i) {
      const auto& c = rep.counterexamples[i];
      if (!c.topology) continue;
      std::filesystem::create_directories(a.out);
      std::string path = a.out + "/" + s->name + "-" + std::to_string(i) + "-" +
                         SafeFileName(c.instance) + ".json";
      WriteTopologyFile(*c.topology, path);
      files.push_back(path);
    }
    json cj = json::array();
    for (const auto& c : rep.counterexamples)
      cj.push_back({{"instance", c.instance}, {"detail", c.detail}});
    out.push_back({{"name", s->name},
                   {"source", s->source},
                   {"range", std::to_string(range.lo) + ".." + std::to_string(range.hi)},
                   {"instances", rep.instances},
                   {"ok", rep.ok()},
                   {"counterexamples", cj},
                   {"saved", files},
                   {"notes", rep.notes},
                   {"seconds", secs}});
    if (!a.json) {
      std::cout << s->name << " [" << s->source << "] range " << range.lo << ".." << range.hi
                << ": " << rep.instances << " instances checked, " << rep.counterexamples.size()
                << " counterexamples (" << secs << " s)\n";
      for (const auto& n : rep.notes) std::cout << "  note: " << n << "\n";
      for (const auto& c : rep.counterexamples)
        std::cout << "  COUNTEREXAMPLE " << c.instance << ": " << c.detail << "\n";
      for (const auto& f : files) std::cout << "  saved " << f.get<std::string>() << "\n";
    }
  }
  if (a.json)
    std::cout << (todo.size() == 1 ? out[0] : json{{"sweeps", out}, {"ok", all_ok}}).dump() << "\n";
  return all_ok ? kExitOk : kExitCheckFailed;
}

CommandRegistrar reg_prove(0, [](CLI::App& app) {
  AddCommand(app, "prove", "Numerically verify a theorem over a family range (--list for names)",
             AddProveOptions, RunProve);
});

}  // namespace
}  // namespace collsynth::cli
