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
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule, "schedule JSON (pipeline, steps, steps-compact)")
      ->required();
  cmd->add_option("-o,--output", args->output,
                  "plan file, or a directory (file named by collective, size range)")
      ->required();
  cmd->add_option("--proto", args->proto, "Simple (default; LL is not supported yet)");
  auto* ip = cmd->add_flag("--inplace", args->inplace, "plan for in-place calls");
  auto* oop =
      cmd->add_flag("--outofplace", args->outofplace, "plan for out-of-place calls (default)");
  ip->excludes(oop);
  cmd->add_option("--min-bytes", args->min_bytes, "min_message_size (default 0)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-bytes", args->max_bytes, "max_message_size, 0 = no bound (default)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-tbs", args->max_tbs, "thread blocks per GPU (default 64)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--max-chunks", args->max_chunks,
                  "bound on N x instances x chunks per shard, before --pieces (default 256)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  cmd->add_option("--instances", args->instances,
                  "copies of the schedule on fresh chunks and channels (default 1)")
      ->check(CLI::Range(1, 32));
  cmd->add_option("--pieces", args->pieces,
                  "cut every transfer into P parts so forwards pipeline (default 1)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--ranks", args->ranks,
                  "JSON: compute node names in rank order, or {name: rank}");
  cmd->add_option("--name", args->name, "plan name (default collsynth-<collective>)");
  cmd->add_flag("--json", args->json, "print one JSON summary object");
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
