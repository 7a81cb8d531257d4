// collsynth experiment report NAME [--out DIR] [--dir DIR] [--no-plots]
// Re-renders plots, notebook and README from an existing OUT/results.csv and OUT/meta.json.
#include <filesystem>
#include <iostream>

#include "cli/command_registry.h"
#include "cli/experiment_common.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/csv_table.h"
#include "experiments/outputs.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;
namespace fs = std::filesystem;

struct ExperimentReportArgs : ExperimentNamedArgs {};

void AddExperimentReportOptions(CLI::App* cmd, ExperimentReportArgs* args) {
  cmd->add_option("name", args->name, "experiment name or definition file")->required();
  cmd->add_option("--out", args->out, "output folder (default ./notebooks_data/NAME)");
  cmd->add_option("--dir", args->dir,
                  "folder of definitions (default: $COLLSYNTH_DATA_DIR/experiments, ./experiments, "
                  "then the installed ones; docs/install.md)");
  cmd->add_flag("--no-plots", args->no_plots, "do not run gnuplot");
}

int RunExperimentReport(const ExperimentReportArgs& a) {
  const auto def = LoadNamed(a.name, a.dir);
  const std::string dir = OutDir(a.out, def);
  const std::string csv = dir + "/results.csv";
  if (!fs::exists(csv)) {
    throw InputError(csv, "", "no results yet: run `collsynth experiment run " + def.name + "`");
  }
  const auto table = ex::ParseCsv(ReadTextFile(csv), csv);
  nlohmann::json meta = nlohmann::json::object();
  if (fs::exists(dir + "/meta.json")) {
    meta = ParseJsonText(ReadTextFile(dir + "/meta.json"), dir + "/meta.json");
    ex::CheckReadmeMeta(meta, dir + "/meta.json");
  }
  return Finish(def, table, meta, dir, a.no_plots);
}

CommandRegistrar reg_experiment_report(14, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("experiment"), "report",
             "Re-render plots, notebook and README from an existing results.csv",
             AddExperimentReportOptions, RunExperimentReport);
});

}  // namespace
}  // namespace collsynth::cli
