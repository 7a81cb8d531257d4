// What `collsynth pareto` does (cli/pareto_command.cc), shared with the Python package's
// `collsynth.pareto` (docs/python.md, docs/min_height.md): the non-dominated (height, ratio)
// points among the checked pipeline schedules the workbench builds (experiments/pareto.h),
// each written to the output folder when one is given (read back and checked,
// cli/schedule_output.h), and the `pareto --json` object. Never prints.
#ifndef COLLSYNTH_CLI_PARETO_REPORT_H_
#define COLLSYNTH_CLI_PARETO_REPORT_H_

#include <string>

#include "cli/command_outcome.h"
#include "graphs/topology.h"

namespace collsynth::cli {

struct ParetoRequest {
  std::string file;             // the topology file, or its name in messages when `g` is set
  const Topology* g = nullptr;  // in memory
  std::string collective = "allgather";
  std::string out_dir;  // empty: nothing written
};

// The report (cli/command_outcome.h); !ok: no candidate passed or a write failed.
using ParetoOutcome = CommandOutcome;

// Bad options and input are InputError.
ParetoOutcome RunParetoRequest(const ParetoRequest& request);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_PARETO_REPORT_H_
