// The files an experiment run leaves in its output folder (notebooks_data/<name>/):
//   results.csv        the rows (experiments/csv_table.h)
//   meta.json          git commit, definition, parameters, seeds, machine, library versions,
//                      jobs, row/task counts and run time
//   <plot>.dat/.gp     per plot: the data (one block per group) and a gnuplot script that
//                      renders <plot>.png (pngcairo); RenderPlots runs gnuplot on it
//   <name>.ipynb       a Jupyter notebook that loads results.csv and redraws the plots
//   README.md          what the experiment shows (the definition's readme), the figures, a
//                      summary of the rows, and the command that regenerates everything
// All of it is a pure function of the definition, the rows and the environment, except the
// times recorded in meta.json and the CSV's time columns.
#ifndef COLLSYNTH_EXPERIMENTS_OUTPUTS_H_
#define COLLSYNTH_EXPERIMENTS_OUTPUTS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/csv_table.h"
#include "experiments/definition.h"

namespace collsynth::experiments {

// git commit (and whether the tree had local changes) of the work tree holding the folder
// source_root (the CLI passes the definition's folder; null when it is in no git tree),
// machine (uname, CPU model, hardware threads) and the versions of the libraries compiled in.
nlohmann::json EnvironmentJson(const std::string& source_root);

struct PlotFiles {
  std::string data;    // <stem>.dat
  std::string script;  // <stem>.gp, writes <stem>.png in the same folder
};

// Data blocks and gnuplot script for one plot; rows failing `where` are skipped, cells
// "p/q" are plotted as their value; a non-numeric x becomes a category axis.
PlotFiles MakePlotFiles(const PlotSpec& plot, const CsvTable& table);

nlohmann::json NotebookJson(const ExperimentDefinition& def);

// The README reads meta.json's jobs (any value, printed as JSON), environment.git_commit (a
// string or null) and environment.git_dirty (a boolean).
std::string ReadmeMarkdown(const ExperimentDefinition& def, const CsvTable& table,
                           const nlohmann::json& meta);

// Type-checks what ReadmeMarkdown reads of a meta.json read back from `file` (`experiment
// report`): an object; environment, when present, an object with git_commit a string or null
// and git_dirty a boolean. InputError naming the file and the field otherwise.
void CheckReadmeMeta(const nlohmann::json& meta, const std::string& file);

// Writes every file above into dir (created if needed); returns the gnuplot script paths.
std::vector<std::string> WriteExperimentOutputs(const ExperimentDefinition& def,
                                                const CsvTable& table, const nlohmann::json& meta,
                                                const std::string& dir);

enum class PlotOutcome {
  kRendered,        // gnuplot exited 0 and <stem>.png is a non-empty regular file
  kGnuplotMissing,  // no gnuplot on PATH: nothing was run, existing files are untouched
  kFailed,          // gnuplot could not be started, exited non-zero, or left no/an empty PNG
};

struct PlotRender {
  std::string script;  // <dir>/<stem>.gp
  std::string png;     // <dir>/<stem>.png
  PlotOutcome outcome = PlotOutcome::kFailed;
  std::string diagnostics;  // gnuplot's stdout+stderr (at most 16 KB) and/or our reason
};

// Renders each script with gnuplot, without a shell: gnuplot is found on PATH and started
// with an argument vector (posix_spawnp) in the script's folder, reading the script from its
// file; any earlier <stem>.png is removed first, so a PNG that exists afterwards is this
// run's. When gnuplot is missing (probed once with `gnuplot --version`) every plot is
// kGnuplotMissing and no file is touched. Never prints; O(scripts) gnuplot runs.
std::vector<PlotRender> RenderPlots(const std::vector<std::string>& scripts);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_OUTPUTS_H_
