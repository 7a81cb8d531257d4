// collsynth experiment list [--dir DIR]
// collsynth experiment run NAME [--jobs J] [--out DIR] [--dir DIR] [--no-plots] [--shard I/N]
// collsynth experiment merge NAME [--out DIR] [--dir DIR] [--no-plots] [--shards N] [SHARD_DIR...]
// collsynth experiment submit NAME --slurm --shards N [--out DIR] [--dir DIR] [--partition P]
//     [--time T] [--cpus-per-task C] [--no-plots] [--wait] [--dry-run]
// collsynth experiment report NAME [--out DIR] [--dir DIR] [--no-plots]
//
// run --shard I/N runs only shard I of N and leaves DIR/shard-I-of-N/ (experiments/shards.h);
// merge checks the shards and writes exactly what run writes; submit runs the shards as a
// Slurm job array and the merge as a dependent job (experiments/slurm.h).
//
// NAME is a path to a definition file when it contains '/' or ends in .json, else the
// definition DIR/NAME.json with DIR = --dir, default ./experiments. Outputs go to --out,
// default ./notebooks_data/NAME/ (experiments/outputs.h). Relative paths are relative to the
// current directory: the binary has no compiled-in folder, so running from a copy of the
// tree reads and writes that copy (docs/cli.md "experiment"). Progress (count, rate, ETA)
// goes to stderr when it is a terminal.
// Plots are rendered by gnuplot run without a shell (experiments/outputs.h RenderPlots).
// Exit codes: 0 ok (also when gnuplot is not installed: a warning, no PNG listed), 1 a row's
// schedule was not accepted by the checker or a plot asked for was not produced, or (submit
// --wait) a Slurm task or the merge job failed, 2 bad input (also: a missing, duplicated or
// foreign shard; no sbatch on PATH; sbatch refused a script).
#include <unistd.h>

#include <chrono>
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
  std::string shard;                    // run --shard I/N
  size_t shards = 0;                    // merge / submit --shards N
  std::vector<std::string> shard_dirs;  // merge SHARD_DIR...
  bool slurm = false, wait = false, dry_run = false;
  std::string partition, time;
  unsigned cpus_per_task = 1;
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

// experiment merge: checks the shards (experiments/shards.h) and writes the outputs.
int MergeCommand(const ExperimentArgs& a) {
  const auto def = LoadNamed(a);
  const std::string dir = OutDir(a, def);
  const auto dirs = a.shard_dirs.empty() ? ex::FindShardDirs(dir, a.shards) : a.shard_dirs;
  const ex::MergedShards merged = ex::MergeShards(def, dirs);
  if (a.shards > 0 && merged.shards.front().spec.count != a.shards) {
    throw InputError(merged.shards.front().dir, "shard",
                     "one of " + std::to_string(merged.shards.front().spec.count) +
                         " shards, --shards says " + std::to_string(a.shards));
  }
  std::string unverified;
  for (const auto& r : merged.rows) {
    if (r.verified == ex::Verified::kNo) unverified += "\n  " + r.instance + " / " + r.algorithm;
  }
  if (!unverified.empty()) {
    std::cerr << "collsynth: experiment " << def.name
              << ": rows whose schedule the checker did not accept:" << unverified << "\n";
    return kExitCheckFailed;
  }
  const auto table = ex::RowsToTable(merged.rows);
  double seconds = 0;
  nlohmann::json shards = nlohmann::json::array();
  for (const auto& s : merged.shards) {
    seconds += s.run_seconds;
    shards.push_back(
        {{"index", s.spec.index},
         {"dir", s.dir},
         {"rows", s.rows},
         {"jobs", s.jobs},
         {"run_seconds", s.run_seconds},
         {"hostname", s.hostname ? nlohmann::json(*s.hostname) : nlohmann::json(nullptr)}});
  }
  const auto& first = merged.shards.front();
  nlohmann::json meta =
      RunMeta(def, table, first.jobs, merged.tasks, merged.rows.size(), seconds, first.environment);
  meta["shards"] = shards;
  std::cout << "merged " << merged.shards.size() << " shards of " << def.name << " ("
            << merged.tasks << " tasks, " << merged.rows.size() << " rows)\n";
  return Finish(def, table, meta, dir, a.no_plots);
}

// experiment submit --slurm: writes the two batch scripts, submits them and, with --wait,
// waits for the merge and reports every failed task with its log.
int SubmitCommand(const ExperimentArgs& a) {
  if (!a.slurm) {
    throw InputError("--slurm", "", "missing: Slurm is the only scheduler; add --slurm");
  }
  if (a.shards == 0) throw InputError("--shards", "", "missing: the number of array tasks");
  const auto def = LoadNamed(a);
  ex::MakeExperimentTasks(def);  // a bad parameter fails here, not in every array task
  ex::SlurmSubmitSpec spec;
  std::error_code ec;
  spec.binary = fs::canonical("/proc/self/exe", ec).string();
  if (ec) throw InputError("/proc/self/exe", "", "cannot find the collsynth binary");
  spec.definition = fs::absolute(def.path).lexically_normal().string();
  spec.name = def.name;
  spec.out = fs::absolute(OutDir(a, def)).lexically_normal().string();
  while (spec.out.size() > 1 && spec.out.back() == '/') spec.out.pop_back();
  spec.workdir = fs::current_path().string();
  spec.shards = a.shards;
  spec.partition = a.partition;
  spec.time = a.time;
  spec.cpus_per_task = a.cpus_per_task;
  spec.no_plots = a.no_plots;
  const ex::SlurmScripts scripts = ex::MakeSlurmScripts(spec);
  if (a.dry_run) {
    std::cout << "# " << scripts.array_path << "\n"
              << scripts.array_script << "\n# " << scripts.merge_path << "\n"
              << scripts.merge_script << "\n# would run:\nsbatch --parsable " << scripts.array_path
              << "\nsbatch --parsable --dependency=afterok:<array job id> "
                 "--kill-on-invalid-dep=yes "
              << scripts.merge_path << "\n";
    return kExitOk;
  }
  const ex::SlurmJobIds ids = ex::SubmitSlurmJobs(scripts);
  std::cout << "submitted " << def.name << ": array job " << ids.array << " (" << a.shards
            << " shards), merge job " << ids.merge << " (afterok:" << ids.array
            << "); scripts and logs in " << scripts.log_dir << "\n"
            << std::flush;
  if (!a.wait) return kExitOk;
  // Wait until neither job is queued or running; tolerate a controller that does not answer
  // for a while (about a minute).
  int errors = 0;
  for (;;) {
    std::string error;
    const auto status = ex::SlurmQueueStatus({ids.array, ids.merge}, &error);
    if (status == ex::QueueStatus::kGone) break;
    if (status == ex::QueueStatus::kError && ++errors > 30) throw InputError("squeue", "", error);
    if (status == ex::QueueStatus::kQueued) errors = 0;
    std::this_thread::sleep_for(std::chrono::seconds(errors > 0 ? 2 : 1));
  }
  const auto merge = ex::SlurmJobRecords(ids.merge);
  const auto tasks = ex::SlurmJobRecords(ids.array);
  const std::string merge_state = merge.empty() ? "" : merge.front().state;
  if (merge_state == "COMPLETED") {
    std::cout << "done: " << a.shards << " shards merged into " << spec.out
              << "/results.csv (merge log " << ex::SlurmMergeLog(scripts) << ")\n";
    return kExitOk;
  }
  size_t failed = 0;
  for (const auto& t : tasks) {
    if (!t.array_task || t.state == "COMPLETED") continue;
    ++failed;
    std::cerr << "collsynth: task " << *t.array_task << " of array job " << ids.array << " ended "
              << t.state << " (exit " << t.exit_code << "): log "
              << ex::SlurmTaskLog(scripts, *t.array_task) << "\n";
  }
  if (merge.empty() && tasks.empty()) {
    std::cerr << "collsynth: Slurm no longer knows jobs " << ids.array << " and " << ids.merge
              << " (and sacct cannot tell): see the logs in " << scripts.log_dir << "\n";
  } else {
    std::cerr << "collsynth: merge job " << ids.merge << " ended "
              << (merge_state.empty() ? "(unknown)" : merge_state)
              << (merge.empty() || merge.front().reason.empty() || merge.front().reason == "None"
                      ? ""
                      : " (" + merge.front().reason + ")")
              << (failed > 0 ? "" : ": log " + ex::SlurmMergeLog(scripts)) << "\n";
  }
  return kExitCheckFailed;
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
  run->add_option("--shard", run_args->shard,
                  "run only shard I of N (tasks i with i mod N = I) into OUT/shard-I-of-N/");
  run->callback([run_args]() {
    RunCommand([&]() {
      const auto def = LoadNamed(*run_args);
      ex::RunOptions opt;
      opt.jobs = run_args->jobs;
      std::optional<ex::ShardSpec> shard;
      std::string shard_dir;
      if (!run_args->shard.empty()) {
        shard = ex::ParseShardSpec(run_args->shard);
        opt.shard_index = shard->index;
        opt.shard_count = shard->count;
        // Before running: a shard that fails now is missing, not its earlier result.
        shard_dir = ex::PrepareShardDir(OutDir(*run_args, def), *shard);
      }
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
      if (shard) {
        const CheckedOutput written =
            ex::WriteShard(shard_dir, def, *shard, result, Environment(def), run_args->jobs);
        if (!written.ok) {
          PrintFailure("experiment run: " + written.error + "; shard not written");
          return kExitCheckFailed;
        }
        std::cout << "shard " << shard->index << " of " << shard->count << " of " << def.name
                  << ": " << result.ran_tasks.size() << " of " << result.tasks << " tasks, "
                  << result.rows.size() << " rows in " << shard_dir << "\n";
        return kExitOk;
      }
      const auto table = ex::RowsToTable(result.rows);
      const nlohmann::json meta = RunMeta(def, table, run_args->jobs, result.tasks,
                                          result.rows.size(), result.seconds, Environment(def));
      return Finish(def, table, meta, OutDir(*run_args, def), run_args->no_plots);
    });
  });

  auto merge_args = std::make_shared<ExperimentArgs>();
  auto* merge =
      cmd->add_subcommand("merge", "Merge the shards of a sharded run; write what `run` writes");
  merge->add_option("name", merge_args->name, "experiment name or definition file")->required();
  merge->add_option("shard_dirs", merge_args->shard_dirs,
                    "shard folders (default: OUT/shard-I-of-N/ for every I)");
  merge->add_option("--out", merge_args->out, "output folder (default ./notebooks_data/NAME)");
  merge->add_option("--dir", merge_args->dir, "folder of definitions (default ./experiments)");
  merge->add_option("--shards", merge_args->shards, "expect OUT/shard-I-of-N/ for I < N")
      ->check(CLI::Range(1, 100000));
  merge->add_flag("--no-plots", merge_args->no_plots, "do not run gnuplot");
  merge->callback([merge_args]() { RunCommand([&]() { return MergeCommand(*merge_args); }); });

  auto sub_args = std::make_shared<ExperimentArgs>();
  auto* sub = cmd->add_subcommand(
      "submit", "Run an experiment as a Slurm job array of shards plus a merge job");
  sub->add_option("name", sub_args->name, "experiment name or definition file")->required();
  sub->add_flag("--slurm", sub_args->slurm, "submit to Slurm (sbatch; the only scheduler)");
  sub->add_option("--shards", sub_args->shards, "number of array tasks (shards)")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--out", sub_args->out,
                  "output folder on the shared file system (default ./notebooks_data/NAME)");
  sub->add_option("--dir", sub_args->dir, "folder of definitions (default ./experiments)");
  sub->add_option("--partition", sub_args->partition, "Slurm partition (default: the cluster's)");
  sub->add_option("--time", sub_args->time, "time limit per task, sbatch --time syntax");
  sub->add_option("--cpus-per-task", sub_args->cpus_per_task,
                  "CPUs per array task; each shard runs with --jobs C (default 1)")
      ->check(CLI::Range(1, 256));
  sub->add_flag("--no-plots", sub_args->no_plots, "the merge job does not run gnuplot");
  sub->add_flag("--wait", sub_args->wait, "wait for the merge; report failed tasks and logs");
  sub->add_flag("--dry-run", sub_args->dry_run, "print the scripts, submit nothing");
  sub->callback([sub_args]() { RunCommand([&]() { return SubmitCommand(*sub_args); }); });

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
        ex::CheckReadmeMeta(meta, dir + "/meta.json");
      }
      return Finish(def, table, meta, dir, rep_args->no_plots);
    });
  });
});

}  // namespace
}  // namespace collsynth::cli
