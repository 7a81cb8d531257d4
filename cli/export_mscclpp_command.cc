// collsynth export mscclpp TOPOLOGY SCHEDULE -o PLAN.json [--proto Simple] [--inplace |
//   --outofplace] [--min-bytes B] [--max-bytes B] [--max-tbs N] [--max-chunks K]
//   [--instances I] [--pieces P] [--ranks FILE] [--name NAME] [--json]
// Lowers the same schedules from the same transfers into an MSCCL++ execution plan
// (export/mscclpp_plan.h); written to PLAN.partial, replayed from disk by the independent
// plan checker (proofs_check/mscclpp_replay.h), renamed only when accepted; same exit codes.
// The work is cli/export_mscclpp.h's (shared with the Python package).
#include <iostream>

#include "cli/command_registry.h"
#include "cli/export_mscclpp.h"

namespace collsynth::cli {
namespace {

void AddExportMscclppOptions(CLI::App* cmd, ExportMscclppArgs* args) {
  AddExportTargetOptions(
      cmd, args,
      {"plan file, or a directory (file named by collective, size range)",
       "Simple (default; LL is not supported yet)", "plan for in-place calls",
       "plan for out-of-place calls (default)", "min_message_size (default 0)",
       "max_message_size, 0 = no bound (default)",
       "bound on N x instances x chunks per shard, before --pieces (default 256)",
       "plan name (default collsynth-<collective>)"});
  cmd->add_option("--pieces", args->pieces,
                  "cut every transfer into P parts so forwards pipeline (default 1)")
      ->check(CLI::Range(1, 64));
}

int RunExportMscclpp(const ExportMscclppArgs& a) {
  ExportInput source;
  source.topology = a.topology;
  source.schedule = a.schedule;
  source.ranks = a.ranks;
  return PrintOutcome(ExportMscclpp(a, source), a.json);
}

CommandRegistrar reg_export_mscclpp(12, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("export"), "mscclpp",
             "MSCCL++ execution plan of a pipeline or step schedule, replay-checked",
             AddExportMscclppOptions, RunExportMscclpp);
});

}  // namespace
}  // namespace collsynth::cli
