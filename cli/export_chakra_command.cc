// collsynth export chakra TOPOLOGY SCHEDULE --size BYTES -o PREFIX [--slices P]
//   [--max-chunks K] [--max-tbs N] [--max-channels C] [--fuse] [--json]
// Chakra execution traces for ASTRA-sim's custom collectives (export/chakra_et.h;
// docs/export.md "ASTRA-sim (Chakra ET)"): one file PREFIX.<rank>.et per rank. The schedule
// is verified (exit 1 if invalid) and lowered to the MSCCL program `export msccl` would write
// with the same options; that program is self-checked and replayed by the independent checker
// (proofs_check/msccl_replay.h) before it is turned into traces, and the traces are checked
// (matched sends and receives, acyclic dependencies) before any file is written. Files go to
// PREFIX.<rank>.et.partial first, are read back by the independent Chakra reader and checker
// (proofs_check/chakra_trace.h, chakra_trace_check.h: matching, no cycle, the replayed
// program's bytes per pair) and are renamed together once accepted. Exit 0 ok, 1 a check failed or
// a limit cannot be met, 2 bad input (also: broadcast, a size that is not a positive multiple of
// nchunksperloop x slices).
// The work is cli/export_chakra.h's (shared with the Python package).
#include <iostream>

#include "cli/command_registry.h"
#include "cli/export_chakra.h"

namespace collsynth::cli {
namespace {

void AddExportChakraOptions(CLI::App* cmd, ExportChakraArgs* args) {
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule, "schedule JSON (pipeline, steps, steps-compact)")
      ->required();
  cmd->add_option("-o,--output", args->prefix, "file prefix: writes PREFIX.<rank>.et")->required();
  cmd->add_option("--size", args->size,
                  "bytes of the whole N-rank buffer (allgather output, reduce-scatter input, "
                  "allreduce vector)")
      ->required();
  cmd->add_option("--slices", args->slices,
                  "pipeline slices per chunk (MSCCL's chunk loop, explicit; default 4)")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--max-chunks", args->max_chunks, "bound on nchunksperloop (default 256)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  cmd->add_option("--max-tbs", args->max_tbs,
                  "thread blocks per GPU of the program (default 64; blocks run concurrently)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--max-channels", args->max_channels, "channels of the program (default 32)")
      ->check(CLI::Range(1, 32));
  cmd->add_flag("--fuse", args->fuse,
                "pipeline schedules: the fused lowering (rcs/rrs steps, see export msccl)");
  cmd->add_flag("--json", args->json, "print one JSON summary object");
}

int RunExportChakra(const ExportChakraArgs& a) {
  ExportInput source;
  source.topology = a.topology;
  source.schedule = a.schedule;
  return PrintOutcome(ExportChakra(a, source), a.json);
}

CommandRegistrar reg_export_chakra(11, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("export"), "chakra",
             "Chakra ET files (PREFIX.<rank>.et) for ASTRA-sim's custom collectives",
             AddExportChakraOptions, RunExportChakra);
});

}  // namespace
}  // namespace collsynth::cli
