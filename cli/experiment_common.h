// The pieces the `experiment` commands share (experiment_<name>_command.cc): the definition
// named on the command line, the output folder, meta.json and the outputs with their plots.
#ifndef COLLSYNTH_CLI_EXPERIMENT_COMMON_H_
#define COLLSYNTH_CLI_EXPERIMENT_COMMON_H_

#include <nlohmann/json.hpp>
#include <string>

#include "experiments/csv_table.h"
#include "experiments/definition.h"

namespace collsynth::cli {

// The options of every experiment command but `list`: the definition NAME (read from --dir),
// the output folder (--out) and --no-plots.
struct ExperimentNamedArgs {
  std::string name;
  std::string dir;  // --dir; empty: DefinitionsDir's search
  std::string out;
  bool no_plots = false;
};

// The folder of definitions (docs/install.md "Where the experiment definitions are found"):
// `dir` (--dir) when not empty, else the first of
//   1. $COLLSYNTH_DATA_DIR/experiments, when COLLSYNTH_DATA_DIR is set and not empty (used
//      even if the folder is missing, so a wrong setting is reported, not skipped);
//   2. ./experiments, when it is a folder (the repository root, or a copy of the tree);
//   3. <folder of the running binary>/../share/collsynth/experiments, when it is a folder
//      (an installed binary, cmake --install: P/bin/collsynth reads P/share/collsynth);
//   4. ./experiments (missing: the error names the path looked for).
// The binary's folder is read from /proc/self/exe at run time: nothing is compiled in.
std::string DefinitionsDir(const std::string& dir);

// The definition NAME names: a path when it contains '/' or ends in .json, else
// DIR/NAME.json (DIR = DefinitionsDir(dir)). A missing file is an InputError listing the known
// names.
experiments::ExperimentDefinition LoadNamed(const std::string& name, const std::string& dir);

// --out, default notebooks_data/NAME.
std::string OutDir(const std::string& out, const experiments::ExperimentDefinition& def);

// Writes the outputs and renders the plots (experiments/outputs.h: gnuplot without a shell).
// Returns kExitCheckFailed when a plot that was asked for was not produced (gnuplot failed
// or left no PNG); a missing gnuplot is a warning (exit 0) and no PNG is listed as made.
int Finish(const experiments::ExperimentDefinition& def, const experiments::CsvTable& table,
           const nlohmann::json& meta, const std::string& dir, bool no_plots);

// meta.json of a whole run (the single-box run and the merge of its shards alike).
nlohmann::json RunMeta(const experiments::ExperimentDefinition& def,
                       const experiments::CsvTable& table, unsigned jobs, size_t tasks, size_t rows,
                       double seconds, const nlohmann::json& environment);

// The environment of a run (experiments/outputs.h EnvironmentJson) for the definition's folder.
nlohmann::json Environment(const experiments::ExperimentDefinition& def);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_EXPERIMENT_COMMON_H_
