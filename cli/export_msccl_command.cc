// collsynth export msccl TOPOLOGY SCHEDULE -o OUT.xml [--profile executor|rccl|legacy]
//   [--proto Simple|LL|LL128] [--inplace | --outofplace] [--min-bytes B] [--max-bytes B]
//   [--max-tbs N] [--max-channels C] [--max-chunks K] [--instances I] [--root-specific]
//   [--fuse] [--ranks FILE] [--name NAME] [--json]
// Lowers a pipeline or step schedule into an MSCCL executor XML (docs/export.md). The
// schedule is verified first (exit 1 if invalid); the lowered program is self-checked
// (H1-H6); the XML is written to OUT.partial, replayed from disk by the independent checker
// (proofs_check/msccl_replay.h) and only then renamed to OUT, next to the side file of
// physical routes OUT-without-.xml + ".routes.json". No file is written that the replay
// did not accept. Exit 0 ok, 1 a check failed or the limits cannot be met (the message names
// the limit and the smallest value that would work), 2 bad input.
// The work is cli/export_msccl.h's (shared with the Python package).
#include <iostream>

#include "cli/command_registry.h"
#include "cli/export_msccl.h"

namespace collsynth::cli {
namespace {

void AddExportMscclOptions(CLI::App* cmd, ExportMscclArgs* args) {
  AddExportTargetOptions(
      cmd, args,
      {"XML file, or a directory (file named by collective, size range)",
       "Simple (default), LL, LL128", "file for in-place calls",
       "file for out-of-place calls (default)",
       "smallest message size (bytes) the file is for (default 0)",
       "largest message size, 0 = no bound (default)", "bound on nchunksperloop (default 256)",
       "<algo name> (default collsynth-<collective>)"});
  cmd->add_option("--profile", args->profile, "executor (default), rccl, legacy");
  cmd->add_option("--max-channels", args->max_channels, "channels (default 32)")
      ->check(CLI::Range(1, 32));
  cmd->add_flag("--root-specific", args->root_specific,
                "allow broadcast (the runtimes select by size and ranks, never by root)");
  cmd->add_flag(
      "--fuse", args->fuse,
      "pipeline schedules: forwards as one rcs/rrs step, a channel per chain of main children");
}

int RunExportMsccl(const ExportMscclArgs& a) {
  ExportInput source;
  source.topology = a.topology;
  source.schedule = a.schedule;
  source.ranks = a.ranks;
  return PrintOutcome(ExportMsccl(a, source), a.json);
}

CommandRegistrar reg_export_msccl(10, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("export"), "msccl",
             "MSCCL executor XML of a pipeline or step schedule, replay-checked before writing",
             AddExportMscclOptions, RunExportMsccl);
});

}  // namespace
}  // namespace collsynth::cli
