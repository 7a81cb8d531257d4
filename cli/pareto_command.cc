// collsynth pareto TOPOLOGY [--collective C] [-o DIR] [--json]
//   The non-dominated (height, ratio) points among the checked pipeline schedules the workbench
//   builds (experiments/pareto.h, docs/min_height.md), from the least height to the least ratio.
//   Each point is a schedule the checker accepted; with -o each is written to DIR (read back and
//   checked, cli/schedule_output.h). Bad input exits 2, a failed check 1.
// The work is cli/pareto_report.h's (shared with the Python package).
#include <iostream>

#include "cli/command_registry.h"
#include "cli/pareto_report.h"

namespace collsynth::cli {
namespace {

struct ParetoArgs {
  ParetoRequest request;  // cli/pareto_report.h
  bool json = false;
};

void AddParetoOptions(CLI::App* cmd, ParetoArgs* args) {
  cmd->add_option("file", args->request.file, "topology file (JSON or edge list)")->required();
  cmd->add_option("--collective", args->request.collective,
                  "allgather (default), reduce-scatter, allreduce");
  cmd->add_option("-o,--output", args->request.out_dir,
                  "write each point's schedule into this folder");
  cmd->add_flag("--json", args->json, "print one JSON object");
}

int RunPareto(const ParetoArgs& a) { return PrintOutcome(RunParetoRequest(a.request), a.json); }

CommandRegistrar reg_pareto(0, [](CLI::App& app) {
  AddCommand(app, "pareto", "Non-dominated (height, ratio) points among checked pipeline schedules",
             AddParetoOptions, RunPareto);
});

}  // namespace
}  // namespace collsynth::cli
