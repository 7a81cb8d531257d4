#include "cli/experiment_common.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "cli/command_registry.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/csv_table.h"
#include "experiments/definition.h"
#include "experiments/outputs.h"
#include "experiments/runner.h"
#include "experiments/shards.h"
#include "experiments/slurm.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;
namespace fs = std::filesystem;

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

}  // namespace

std::string DefinitionsDir(const std::string& dir) {
  if (!dir.empty()) return dir;
  const char* data = std::getenv("COLLSYNTH_DATA_DIR");
  if (data != nullptr && *data != '\0') return (fs::path(data) / "experiments").string();
  std::error_code ec;
  if (fs::is_directory("experiments", ec)) return "experiments";
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed =
        exe.parent_path().parent_path() / "share" / "collsynth" / "experiments";
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  return "experiments";
}

ex::ExperimentDefinition LoadNamed(const std::string& name, const std::string& option_dir) {
  const bool is_path = name.find('/') != std::string::npos ||
                       (name.size() > 5 && name.substr(name.size() - 5) == ".json");
  const std::string dir = DefinitionsDir(option_dir);
  const std::string path = is_path ? name : dir + "/" + name + ".json";
  if (!fs::exists(path)) {
    std::string known;
    if (fs::is_directory(dir)) {
      for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() == ".json") known += " " + e.path().stem().string();
      }
    }
    throw InputError(path, "",
                     "no such experiment definition (read from --dir, else $COLLSYNTH_DATA_DIR/"
                     "experiments, ./experiments or <binary>/../share/collsynth/experiments; "
                     "known:" +
                         known + ")");
  }
  return ex::LoadExperimentDefinition(path);
}

std::string OutDir(const std::string& out, const ex::ExperimentDefinition& def) {
  return out.empty() ? "notebooks_data/" + def.name : out;
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

// meta.json of a whole run (the single-box run and the merge of its shards alike).
nlohmann::json RunMeta(const ex::ExperimentDefinition& def, const ex::CsvTable& table,
                       unsigned jobs, size_t tasks, size_t rows, double seconds,
                       const nlohmann::json& environment) {
  nlohmann::json meta;
  meta["experiment"] = def.name;
  meta["definition"] = def.raw;
  meta["definition_hash"] = ex::DefinitionHash(def);
  meta["params"] = def.params;
  meta["seeds"] = def.seeds;
  meta["jobs"] = jobs;
  meta["tasks"] = tasks;
  meta["rows"] = rows;
  meta["run_seconds"] = seconds;
  meta["environment"] = environment;
  meta["csv_columns"] = table.header;
  return meta;
}

nlohmann::json Environment(const ex::ExperimentDefinition& def) {
  const std::string def_folder = fs::path(def.path).parent_path().string();
  return ex::EnvironmentJson(def_folder.empty() ? "." : def_folder);
}

}  // namespace collsynth::cli
