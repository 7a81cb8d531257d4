// What `collsynth pipeline` and the Python package's `collsynth.pipeline` (python/, docs/
// python.md) both check before a pipeline schedule is built: the collective, --fixed-k, the
// topology (Eulerian, strongly connected, at least two compute nodes), the root, and whether
// the symmetric path applies (docs/symmetry.md). One implementation, so the two cannot
// disagree on what they accept; the option names in messages are each caller's own.
#ifndef COLLSYNTH_CLI_PIPELINE_REQUEST_H_
#define COLLSYNTH_CLI_PIPELINE_REQUEST_H_

#include <string>

#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth::cli {

// How the caller spells its options in InputError items: "--collective" on the command line,
// "collective" in Python.
struct PipelineOptionNames {
  const char* collective;
  const char* fixed_k;
  const char* root;
};
inline constexpr PipelineOptionNames kCliPipelineOptionNames{"--collective", "--fixed-k", "--root"};

// The collective and --fixed-k (empty: none) into PipelineOptions; InputError (exit 2)
// naming the option for an unknown collective or a K that is not a positive integer.
PipelineOptions ParsePipelineOptions(const std::string& collective, const std::string& fixed_k,
                                     const PipelineOptionNames& names);

// The topology's checks and the root (empty: the first compute node) into `opt`:
// InputError naming `file` when g is not Eulerian and strongly connected or has fewer than
// two compute nodes, naming the root option when `root` is not a compute node of g.
void SetPipelineTopology(const Topology& g, const std::string& file, const std::string& root,
                         const PipelineOptionNames& names, PipelineOptions* opt);

// Whether the symmetric path can serve this request: allgather, reduce-scatter or allreduce
// without a fixed k (docs/symmetry.md).
bool SymmetricPathApplies(const PipelineOptions& opt);

// Sets the schedule's claimed height (and each phase's) to the height measured from its trees
// (docs/formats.md "Height"); the checker compares the claim with its own measurement.
void ClaimMeasuredHeight(PipelineSchedule* s);
void ClaimMeasuredHeight(SymmetricPipelineSchedule* s);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_PIPELINE_REQUEST_H_
