// collsynth experiment list [--dir DIR]
// collsynth experiment run NAME [--jobs J] [--out DIR] [--dir DIR] [--no-plots]
// collsynth experiment report NAME [--out DIR] [--dir DIR] [--no-plots]
//
// NAME is a path to a definition file when it contains '/' or ends in .json, else the
// definition DIR/NAME.json with DIR = --dir, default ./experiments. Outputs go to --out,
// default ./notebooks_data/NAME/ (experiments/outputs.h). Relative paths are relative to the
// current directory: the binary has no compiled-in folder, so running from a copy of the
// tree reads and writes that copy (docs/cli.md "experiment"). Progress (count, rate, ETA)
// goes to stderr when it is a terminal.
// Plots are rendered by gnuplot run without a shell (experiments/outputs.h RenderPlots).
// Exit codes: 0 ok (also when gnuplot is not installed: a warning, no PNG listed), 1 a row's
// schedule was not accepted by the checker or a plot asked for was not produced, 2 bad input.
#include <unistd.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/command_registry.h"
#include "experiments/csv_table.h"
#include "experiments/definition.h"
#include "experiments/outputs.h"
#include "experiments/runner.h"
#include "graphs/input_error.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;
namespace fs = std::filesystem;

struct ExperimentArgs {
  std::string name;
  std::string dir = "experiments";  // relative to the current directory
  std::string out;
  unsigned jobs = 1;
  bool no_plots = false;
};

ex::ExperimentDefinition LoadNamed(const ExperimentArgs& a) {
  const bool is_path = a.name.find('/') != std::string::npos ||
                       (a.name.size() > 5 && a.name.substr(a.name.size() - 5) == ".json");
  const std::string path = is_path ? a.name : a.dir + "/" + a.name + ".json";
  if (!fs::exists(path)) {
    std::string known;
    if (fs::is_directory(a.dir)) {
      for (const auto& e : fs::directory_iterator(a.dir)) {
        if (e.path().extension() == ".json") known += " " + e.path().stem().string();
      }
    }
    throw InputError(path, "",
                     "no such experiment definition (read from --dir, default ./experiments; "
                     "known:" +
                         known + ")");
  }
  return ex::LoadExperimentDefinition(path);
}

std::string OutDir(const ExperimentArgs& a, const ex::ExperimentDefinition& def) {
  return a.out.empty() ? "notebooks_data/" + def.name : a.out;
}

void PrintSummary(const ex::CsvTable& t) {
  const std::vector<std::string> cols = {"instance", "algorithm", "collective",     "nodes",
                                         "tl",       "tb",        "ratio_to_bound", "verified"};
  std::vector<int> idx;
  for (const auto& c : cols) idx.push_back(t.Column(c));
  std::vector<size_t> width(cols.size());
  for (size_t i = 0; i < cols.size(); ++i) width[i] = cols[i].size();
  const size_t shown = std::min<size_t>(t.rows.size(), 40);
  for (size_t r = 0; r < shown; ++r) {
    for (size_t i = 0; i < cols.size(); ++i) {
      if (idx[i] >= 0)
        width[i] = std::max(width[i], std::min<size_t>(40, t.rows[r][idx[i]].size()));
    }
  }
  auto line = [&](auto cell) {
    for (size_t i = 0; i < cols.size(); ++i) {
      std::cout << std::left << std::setw(static_cast<int>(width[i]) + 2) << cell(i);
    }
    std::cout << "\n";
  };
  line([&](size_t i) { return cols[i]; });
  for (size_t r = 0; r < shown; ++r) {
    line([&](size_t i) { return idx[i] < 0 ? std::string() : t.rows[r][idx[i]].substr(0, 40); });
  }
  if (shown < t.rows.size()) std::cout << "... " << t.rows.size() - shown << " more rows\n";
}

// Writes the outputs and renders the plots (experiments/outputs.h: gnuplot without a shell).
// Returns kExitCheckFailed when a plot that was asked for was not produced (gnuplot failed
// or left no PNG); a missing gnuplot is a warning (exit 0) and no PNG is listed as made.
int Finish(const ex::ExperimentDefinition& def, const ex::CsvTable& table,
           const nlohmann::json& meta, const std::string& dir, bool no_plots) {
  const auto scripts = ex::WriteExperimentOutputs(def, table, meta, dir);
  const auto renders = no_plots ? std::vector<ex::PlotRender>{} : ex::RenderPlots(scripts);
  PrintSummary(table);
  std::cout << "\noutputs of " << def.name << " in " << dir << ":\n  results.csv  meta.json  "
            << def.name << ".ipynb  README.md";
  int failed = 0;
  bool missing = false;
  for (const auto& r : renders) {
    // A PNG is listed only when this run rendered it; otherwise the script is.
    const std::string& shown = r.outcome == ex::PlotOutcome::kRendered ? r.png : r.script;
    std::cout << "  " << fs::path(shown).filename().string();
    missing = missing || r.outcome == ex::PlotOutcome::kGnuplotMissing;
  }
  std::cout << "\n";
  if (missing) {
    std::cerr << "collsynth: gnuplot not found (scripts/setup.sh installs gnuplot-nox); plots "
                 "not rendered, left as .gp scripts (any .png in "
              << dir << " is from an earlier run)\n";
  }
  for (const auto& r : renders) {
    if (r.outcome != ex::PlotOutcome::kFailed) continue;
    ++failed;
    std::string why = r.diagnostics;
    while (!why.empty() && why.back() == '\n') why.pop_back();
    for (char& c : why) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    std::cerr << "collsynth: " << r.script << ": plot not produced: " << why << "\n";
  }
  return failed > 0 ? kExitCheckFailed : kExitOk;
}

CommandRegistrar reg_experiment(0, [](CLI::App& app) {
  auto* cmd = app.add_subcommand("experiment", "Reproducible experiments (experiments/*.json)");
  cmd->require_subcommand(1);

  auto list_args = std::make_shared<ExperimentArgs>();
  auto* list = cmd->add_subcommand("list", "List the experiment definitions");
  list->add_option("--dir", list_args->dir, "folder of definitions (default ./experiments)");
  list->callback([list_args]() {
    RunCommand([&]() {
      for (const auto& d : ex::LoadExperimentDefinitions(list_args->dir)) {
        std::cout << std::left << std::setw(28) << d.name << std::setw(22) << d.kind
                  << (d.quick ? "quick  " : "       ") << d.title << "\n";
      }
      return kExitOk;
    });
  });

  auto run_args = std::make_shared<ExperimentArgs>();
  auto* run = cmd->add_subcommand("run", "Run an experiment; write CSV, meta, plots, notebook");
  run->add_option("name", run_args->name, "experiment name or definition file")->required();
  run->add_option("--jobs,-j", run_args->jobs, "tasks run in parallel (default 1)")
      ->check(CLI::Range(1, 256));
  run->add_option("--out", run_args->out, "output folder (default ./notebooks_data/NAME)");
  run->add_option("--dir", run_args->dir, "folder of definitions (default ./experiments)");
  run->add_flag("--no-plots", run_args->no_plots, "do not run gnuplot");
  run->callback([run_args]() {
    RunCommand([&]() {
      const auto def = LoadNamed(*run_args);
      ex::RunOptions opt;
      opt.jobs = run_args->jobs;
      if (isatty(STDERR_FILENO)) {
        opt.progress = [](const ex::RunProgress& p) {
          const double rate = p.elapsed_seconds > 0 ? p.done / p.elapsed_seconds : 0;
          const double eta = rate > 0 ? (p.total - p.done) / rate : 0;
          std::cerr << "\r[" << p.done << "/" << p.total << "] " << std::fixed
                    << std::setprecision(2) << rate << " tasks/s, ETA " << std::setprecision(0)
                    << eta << " s  " << p.last_label.substr(0, 40) << "\033[K"
                    << (p.done == p.total ? "\n" : "") << std::flush;
        };
      }
      ex::RunResult result;
      try {
        result = ex::RunExperiment(def, opt);
      } catch (const ex::UnverifiedRowError& e) {
        std::cerr << "collsynth: " << e.what() << "\n";
        return kExitCheckFailed;
      }
      const auto table = ex::RowsToTable(result.rows);
      nlohmann::json meta;
      meta["experiment"] = def.name;
      meta["definition"] = def.raw;
      meta["params"] = def.params;
      meta["seeds"] = def.seeds;
      meta["jobs"] = run_args->jobs;
      meta["tasks"] = result.tasks;
      meta["rows"] = result.rows.size();
      meta["run_seconds"] = result.seconds;
      const std::string def_folder = fs::path(def.path).parent_path().string();
      meta["environment"] = ex::EnvironmentJson(def_folder.empty() ? "." : def_folder);
      meta["csv_columns"] = table.header;
      return Finish(def, table, meta, OutDir(*run_args, def), run_args->no_plots);
    });
  });

  auto rep_args = std::make_shared<ExperimentArgs>();
  auto* rep = cmd->add_subcommand(
      "report", "Re-render plots, notebook and README from an existing results.csv");
  rep->add_option("name", rep_args->name, "experiment name or definition file")->required();
  rep->add_option("--out", rep_args->out, "output folder (default ./notebooks_data/NAME)");
  rep->add_option("--dir", rep_args->dir, "folder of definitions (default ./experiments)");
  rep->add_flag("--no-plots", rep_args->no_plots, "do not run gnuplot");
  rep->callback([rep_args]() {
    RunCommand([&]() {
      const auto def = LoadNamed(*rep_args);
      const std::string dir = OutDir(*rep_args, def);
      const std::string csv = dir + "/results.csv";
      if (!fs::exists(csv)) {
        throw InputError(csv, "",
                         "no results yet: run `collsynth experiment run " + def.name + "`");
      }
      const auto table = ex::ParseCsv(ReadTextFile(csv), csv);
      nlohmann::json meta = nlohmann::json::object();
      if (fs::exists(dir + "/meta.json")) {
        meta = ParseJsonText(ReadTextFile(dir + "/meta.json"), dir + "/meta.json");
      }
      return Finish(def, table, meta, dir, rep_args->no_plots);
    });
  });
});

}  // namespace
}  // namespace collsynth::cli
