// What `collsynth tune` does (cli/tune_command.cc), shared with the Python package's
// `collsynth.tune` (docs/python.md, docs/tune.md): at each size every candidate the topology
// admits (experiments/tune.h) simulated, the fastest's checked schedule written to the output
// directory (read back and checked, cli/schedule_output.h), and the `tune --json` report.
// Never prints.
#ifndef COLLSYNTH_CLI_TUNE_REPORT_H_
#define COLLSYNTH_CLI_TUNE_REPORT_H_

#include <string>
#include <vector>

#include "cli/command_outcome.h"
#include "graphs/topology.h"
#include "simulate/simulation_run.h"

namespace collsynth::cli {

struct TuneRequest {
  std::string topology;         // the topology file (its link latencies are read)
  const Topology* g = nullptr;  // in memory (then `topology` may be empty: no latencies)
  std::string out_dir, collective = "allgather";
  std::vector<std::string> sizes;  // "1KB", "1MB", ...
  SimulationOptions model;         // alpha, gamma, bandwidth unit, switch model
  std::string chunks_sweep = "1,2,4,8,16,32,64";
  // "msccl" or "mscclpp": also one replay-checked file per byte range and an index
  // (cli/tune_export.h, docs/tune.md "Export"); empty: none.
  std::string export_target;
};

// The report (cli/command_outcome.h); !ok: a winning schedule could not be written.
using TuneOutcome = CommandOutcome;

// Bad options and input are InputError (a time resolution the simulator cannot keep names
// --alpha).
TuneOutcome RunTuneRequest(const TuneRequest& request);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_TUNE_REPORT_H_
