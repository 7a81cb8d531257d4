// collsynth experiment list [--dir DIR]: the definitions in DIR (default ./experiments).
#include <iomanip>
#include <iostream>

#include "cli/command_registry.h"
#include "cli/experiment_common.h"
#include "experiments/definition.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;

struct ExperimentListArgs {
  std::string dir = "experiments";  // relative to the current directory
};

void AddExperimentListOptions(CLI::App* cmd, ExperimentListArgs* args) {
  cmd->add_option("--dir", args->dir, "folder of definitions (default ./experiments)");
}

int RunExperimentList(const ExperimentListArgs& a) {
  for (const auto& d : ex::LoadExperimentDefinitions(a.dir)) {
    std::cout << std::left << std::setw(28) << d.name << std::setw(22) << d.kind
              << (d.quick ? "quick  " : "       ") << d.title << "\n";
  }
  return kExitOk;
}

CommandRegistrar reg_experiment_list(10, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("experiment"), "list", "List the experiment definitions",
             AddExperimentListOptions, RunExperimentList);
});

}  // namespace
}  // namespace collsynth::cli
