// collsynth experiment merge NAME [--out DIR] [--dir DIR] [--no-plots] [--shards N] [SHARD_DIR...]
// Checks the shards of a sharded run (experiments/shards.h) and writes exactly what `run` writes.
#include <iostream>

#include "cli/command_registry.h"
#include "cli/experiment_common.h"
#include "core/input_error.h"
#include "experiments/runner.h"
#include "experiments/shards.h"

namespace collsynth::cli {
namespace {

namespace ex = collsynth::experiments;

struct ExperimentMergeArgs : ExperimentNamedArgs {
  size_t shards = 0;                    // --shards N
  std::vector<std::string> shard_dirs;  // SHARD_DIR...
};

void AddExperimentMergeOptions(CLI::App* cmd, ExperimentMergeArgs* args) {
  cmd->add_option("name", args->name, "experiment name or definition file")->required();
  cmd->add_option("shard_dirs", args->shard_dirs,
                  "shard folders (default: OUT/shard-I-of-N/ for every I)");
  cmd->add_option("--out", args->out, "output folder (default ./notebooks_data/NAME)");
  cmd->add_option("--dir", args->dir,
                  "folder of definitions (default: $COLLSYNTH_DATA_DIR/experiments, ./experiments, "
                  "then the installed ones; docs/install.md)");
  cmd->add_option("--shards", args->shards, "expect OUT/shard-I-of-N/ for I < N")
      ->check(CLI::Range(1, 100000));
  cmd->add_flag("--no-plots", args->no_plots, "do not run gnuplot");
}

// experiment merge: checks the shards (experiments/shards.h) and writes the outputs.
int RunExperimentMerge(const ExperimentMergeArgs& a) {
  const auto def = LoadNamed(a.name, a.dir);
  const std::string dir = OutDir(a.out, def);
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

CommandRegistrar reg_experiment_merge(12, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("experiment"), "merge",
             "Merge the shards of a sharded run; write what `run` writes",
             AddExperimentMergeOptions, RunExperimentMerge);
});

}  // namespace
}  // namespace collsynth::cli
