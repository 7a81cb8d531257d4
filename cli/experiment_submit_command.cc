// collsynth experiment submit NAME --slurm --shards N [--out DIR] [--dir DIR] [--partition P]
//     [--time T] [--cpus-per-task C] [--no-plots] [--wait] [--dry-run]
// Runs the shards as a Slurm job array and the merge as a dependent job (experiments/slurm.h).
// Exit 1 when (--wait) a task or the merge job failed; 2 bad input (no sbatch on PATH, sbatch
// refused a script).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/command_registry.h"
#include "cli/experiment_common.h"
#include "core/input_error.h"
#include "experiments/runner.h"
#include "experiments/slurm.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;
namespace fs = std::filesystem;

struct ExperimentSubmitArgs : ExperimentNamedArgs {
  size_t shards = 0;  // --shards N
  bool slurm = false, wait = false, dry_run = false;
  std::string partition, time;
  unsigned cpus_per_task = 1;
};

void AddExperimentSubmitOptions(CLI::App* cmd, ExperimentSubmitArgs* args) {
  cmd->add_option("name", args->name, "experiment name or definition file")->required();
  cmd->add_flag("--slurm", args->slurm, "submit to Slurm (sbatch; the only scheduler)");
  cmd->add_option("--shards", args->shards, "number of array tasks (shards)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--out", args->out,
                  "output folder on the shared file system (default ./notebooks_data/NAME)");
  cmd->add_option("--dir", args->dir,
                  "folder of definitions (default: $COLLSYNTH_DATA_DIR/experiments, ./experiments, "
                  "then the installed ones; docs/install.md)");
  cmd->add_option("--partition", args->partition, "Slurm partition (default: the cluster's)");
  cmd->add_option("--time", args->time, "time limit per task, sbatch --time syntax");
  cmd->add_option("--cpus-per-task", args->cpus_per_task,
                  "CPUs per array task; each shard runs with --jobs C (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--no-plots", args->no_plots, "the merge job does not run gnuplot");
  cmd->add_flag("--wait", args->wait, "wait for the merge; report failed tasks and logs");
  cmd->add_flag("--dry-run", args->dry_run, "print the scripts, submit nothing");
}

// experiment submit --slurm: writes the two batch scripts, submits them and, with --wait,
// waits for the merge and reports every failed task with its log.
int RunExperimentSubmit(const ExperimentSubmitArgs& a) {
  if (!a.slurm) {
    throw InputError("--slurm", "", "missing: Slurm is the only scheduler; add --slurm");
  }
  if (a.shards == 0) throw InputError("--shards", "", "missing: the number of array tasks");
  const auto def = LoadNamed(a.name, a.dir);
  ex::MakeExperimentTasks(def);  // a bad parameter fails here, not in every array task
  ex::SlurmSubmitSpec spec;
  std::error_code ec;
  spec.binary = fs::canonical("/proc/self/exe", ec).string();
  if (ec) throw InputError("/proc/self/exe", "", "cannot find the collsynth binary");
  spec.definition = fs::absolute(def.path).lexically_normal().string();
  spec.name = def.name;
  spec.out = fs::absolute(OutDir(a.out, def)).lexically_normal().string();
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

CommandRegistrar reg_experiment_submit(13, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("experiment"), "submit",
             "Run an experiment as a Slurm job array of shards plus a merge job",
             AddExperimentSubmitOptions, RunExperimentSubmit);
});

}  // namespace
}  // namespace collsynth::cli
