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
// definition DIR/NAME.json with DIR = --dir, else $COLLSYNTH_DATA_DIR/experiments, else
// ./experiments, else the installed <binary>/../share/collsynth/experiments (DefinitionsDir,
// experiment_common.h; docs/install.md). Outputs go to --out, default ./notebooks_data/NAME/
// (experiments/outputs.h). Relative paths are relative to the current directory: the binary
// has no compiled-in folder, so running from a copy of the tree reads and writes that copy
// (docs/cli.md "experiment"). Progress (count, rate, ETA)
// goes to stderr when it is a terminal.
// Plots are rendered by gnuplot run without a shell (experiments/outputs.h RenderPlots).
// Exit codes: 0 ok (also when gnuplot is not installed: a warning, no PNG listed), 1 a row's
// schedule was not accepted by the checker or a plot asked for was not produced, or (submit
// --wait) a Slurm task or the merge job failed, 2 bad input (also: a missing, duplicated or
// foreign shard; no sbatch on PATH; sbatch refused a script).
//
// The group; each subcommand is a command of its own (experiment_<name>_command.cc),
// registered after the group (orders 10..14: the order `collsynth experiment --help` lists them
// in); the pieces they share are in experiment_common.{h,cc}.
#include "cli/command_registry.h"

namespace collsynth::cli {
namespace {

CommandRegistrar reg_experiment(0, [](CLI::App& app) {
  app.add_subcommand("experiment", "Reproducible experiments (experiments/*.json)")
      ->require_subcommand(1);
});

}  // namespace
}  // namespace collsynth::cli
