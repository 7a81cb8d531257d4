// collsynth experiment list [--dir DIR]: the definitions in DIR (default: DefinitionsDir's search,
// cli/experiment_common.h).
#include <iomanip>
#include <iostream>

#include "cli/command_registry.h"
#include "cli/experiment_common.h"
#include "experiments/definition.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;

struct ExperimentListArgs {
  std::string dir;  // --dir; empty: DefinitionsDir's search
};

void AddExperimentListOptions(CLI::App* cmd, ExperimentListArgs* args) {
  cmd->add_option("--dir", args->dir,
                  "folder of definitions (default: $COLLSYNTH_DATA_DIR/experiments, ./experiments, "
                  "then the installed ones; docs/install.md)");
}

int RunExperimentList(const ExperimentListArgs& a) {
  for (const auto& d : ex::LoadExperimentDefinitions(DefinitionsDir(a.dir))) {
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
