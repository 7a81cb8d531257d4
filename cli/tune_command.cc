// collsynth tune TOPOLOGY --sizes LIST -o DIR [--collective C] [--alpha T] [--gamma G]
//               [--bandwidth-unit U] [--switch-model M] [--chunks-sweep LIST]
//               [--export msccl|mscclpp|nccl-tuner] [--json]
// At each size, every candidate the topology admits (experiments/tune.h) is simulated; the
// fastest wins, its checked schedule is written to DIR/<algorithm>.json (read back and checked,
// cli/schedule_output.h), and the size's row reports its time, LB(M), the gap and every
// candidate's time and height (docs/tune.md); --export writes the set for a runtime
// (cli/tune_export.h).
// The work is cli/tune_report.h's (shared with the Python package).
#include <iostream>

#include "cli/command_registry.h"
#include "cli/tune_report.h"

namespace collsynth::cli {
namespace {

struct TuneArgs {
  TuneRequest request;  // cli/tune_report.h
  bool json = false;
};

void AddTuneOptions(CLI::App* cmd, TuneArgs* args) {
  cmd->add_option("topology", args->request.topology, "topology file (JSON or edge list)")
      ->required();
  cmd->add_option("--sizes", args->request.sizes,
                  "message sizes M (B, KB, MB, GB; e.g. 1KB,1MB,256MB)")
      ->delimiter(',')
      ->required();
  cmd->add_option("-o,--output-dir", args->request.out_dir, "directory for the winning schedules")
      ->required();
  cmd->add_option("--collective", args->request.collective,
                  "allgather (default), reduce-scatter, allreduce");
  cmd->add_option("--alpha", args->request.model.alpha,
                  "latency of links without a 'latency' field");
  cmd->add_option("--gamma", args->request.model.gamma, "reduction cost per byte");
  cmd->add_option("--bandwidth-unit", args->request.model.bandwidth_unit,
                  "what one unit of topology bandwidth is (default GB/s)");
  cmd->add_option("--switch-model", args->request.model.switch_model,
                  "store-and-forward (default) or cut-through");
  cmd->add_option("--chunks-sweep", args->request.chunks_sweep,
                  "P values tried for pipeline schedules (default 1,2,4,8,16,32,64)");
  cmd->add_option("--export", args->request.export_target,
                  "msccl or mscclpp: also one replay-checked file per byte range and an index; "
                  "nccl-tuner: the CSV of NCCL's example tuner plugin "
                  "(docs/tune.md)");
  cmd->add_flag("--json", args->json, "print the report as JSON");
}

int RunTune(const TuneArgs& a) { return PrintOutcome(RunTuneRequest(a.request), a.json); }

CommandRegistrar reg_tune(0, [](CLI::App& app) {
  AddCommand(app, "tune",
             "Fastest checked schedule per message size, with its gap to the lower bound",
             AddTuneOptions, RunTune);
});

}  // namespace
}  // namespace collsynth::cli
