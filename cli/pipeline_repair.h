// `collsynth pipeline TOPO --from OLD -o OUT` (docs/cli.md "pipeline --from", docs/repair.md): a
// plain pipeline schedule OLD, optimal before some links failed, repaired for TOPO (usually the
// topology with its failed links) by solvers/pipeline/repair.h, checked in memory, written through
// the checked-output path (cli/schedule_output.h) and reported.
//
// OLD is read by the one schedule loader (schedules/schedule_file.h) on TOPO and must fit it
// (InputError naming OLD and the item, exit 2): a "pipeline" document of an allgather or
// reduce-scatter (the collective asked for, when one is), with names of TOPO's nodes, and
// structurally a schedule of TOPO's compute nodes as the pipeline checker sees it (trees rooted at
// compute nodes spanning them, routes from an edge's tail to its head through switches, each
// root's multiplicities summing to k). Missing links, overloads, a wrong ratio and a cut that no
// longer certifies are what the repair is for and are not errors.
#ifndef COLLSYNTH_CLI_PIPELINE_REPAIR_H_
#define COLLSYNTH_CLI_PIPELINE_REPAIR_H_

#include <optional>
#include <string>

#include "cli/command_outcome.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth::cli {

struct PipelineRepairRequest {
  std::string topology_file;             // TOPO, for messages
  std::string from;                      // OLD
  std::string output;                    // OUT ("-" = stdout)
  std::optional<Collective> collective;  // --collective when given: OLD must be one
  PipelineOptions fresh;                 // the fallback's packing and splitting variants
};

// OLD loaded and checked to fit g as above (InputError otherwise).
PipelineSchedule LoadRepairInput(const Topology& g, const PipelineRepairRequest& r);

// Repairs, checks, writes and reports (the summary as `json` and `text`); !ok when the checker or
// the output check fails (exit 1; nothing written).
CommandOutcome RunPipelineRepair(const Topology& g, const PipelineRepairRequest& r);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_PIPELINE_REPAIR_H_
