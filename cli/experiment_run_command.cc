// collsynth experiment run NAME [--jobs J] [--out DIR] [--dir DIR] [--no-plots] [--shard I/N]
// Runs the experiment (experiments/runner.h) and writes its outputs; with --shard I/N only shard
// I of N, into OUT/shard-I-of-N/ (experiments/shards.h). Progress (count, rate, ETA) goes to
// stderr when it is a terminal. Exit 1 when a row's schedule was not accepted by the checker.
#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <optional>

#include "cli/command_registry.h"
#include "cli/experiment_common.h"
#include "experiments/runner.h"
#include "experiments/shards.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;

struct ExperimentRunArgs : ExperimentNamedArgs {
  unsigned jobs = 1;
  std::string shard;  // I/N
};

void AddExperimentRunOptions(CLI::App* cmd, ExperimentRunArgs* args) {
  cmd->add_option("name", args->name, "experiment name or definition file")->required();
  cmd->add_option("--jobs,-j", args->jobs, "tasks run in parallel (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--out", args->out, "output folder (default ./notebooks_data/NAME)");
  cmd->add_option("--dir", args->dir,
                  "folder of definitions (default: $COLLSYNTH_DATA_DIR/experiments, ./experiments, "
                  "then the installed ones; docs/install.md)");
  cmd->add_flag("--no-plots", args->no_plots, "do not run gnuplot");
  cmd->add_option("--shard", args->shard,
                  "run only shard I of N (tasks i with i mod N = I) into OUT/shard-I-of-N/");
}

int RunExperimentRun(const ExperimentRunArgs& a) {
  const auto def = LoadNamed(a.name, a.dir);
  ex::RunOptions opt;
  opt.jobs = a.jobs;
  std::optional<ex::ShardSpec> shard;
  std::string shard_dir;
  if (!a.shard.empty()) {
    shard = ex::ParseShardSpec(a.shard);
    opt.shard_index = shard->index;
    opt.shard_count = shard->count;
    // Before running: a shard that fails now is missing, not its earlier result.
    shard_dir = ex::PrepareShardDir(OutDir(a.out, def), *shard);
  }
  if (isatty(STDERR_FILENO)) {
    opt.progress = [](const ex::RunProgress& p) {
      const double rate = p.elapsed_seconds > 0 ? p.done / p.elapsed_seconds : 0;
      const double eta = rate > 0 ? (p.total - p.done) / rate : 0;
      std::cerr << "\r[" << p.done << "/" << p.total << "] " << std::fixed << std::setprecision(2)
                << rate << " tasks/s, ETA " << std::setprecision(0) << eta << " s  "
                << p.last_label.substr(0, 40) << "\033[K" << (p.done == p.total ? "\n" : "")
                << std::flush;
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
        ex::WriteShard(shard_dir, def, *shard, result, Environment(def), a.jobs);
    if (!written.ok) {
      PrintFailure("experiment run: " + written.error + "; shard not written");
      return kExitCheckFailed;
    }
    std::cout << "shard " << shard->index << " of " << shard->count << " of " << def.name << ": "
              << result.ran_tasks.size() << " of " << result.tasks << " tasks, "
              << result.rows.size() << " rows in " << shard_dir << "\n";
    return kExitOk;
  }
  const auto table = ex::RowsToTable(result.rows);
  const nlohmann::json meta = RunMeta(def, table, a.jobs, result.tasks, result.rows.size(),
                                      result.seconds, Environment(def));
  return Finish(def, table, meta, OutDir(a.out, def), a.no_plots);
}

CommandRegistrar reg_experiment_run(11, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("experiment"), "run",
             "Run an experiment; write CSV, meta, plots, notebook", AddExperimentRunOptions,
             RunExperimentRun);
});

}  // namespace
}  // namespace collsynth::cli
