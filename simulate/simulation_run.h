// The work of `collsynth simulate` (docs/simulate.md) on a schedule that was already read and
// checked, with the command line's options as text: the options parsed into a SimulationModel,
// the bounds on the work checked (kMaxSimulatedTransfers, kMaxMscclSimulatedTransfers; the
// --chunks-sweep list as a whole), and the simulation built and run. The CLI prints the result;
// the fuzz target fuzz/simulate_options_fuzzer.cc drives the same functions. Bad options are
// InputError("<args>", OPTION, ...) (exit 2); inputs whose exact times need more than
// kMaxTimeBits are SimulationTimeResolutionError (the CLI maps it to exit 2 as well). Cost: that
// of the simulations run (one, or one per distinct P of the sweep plus the best once more).
// Never prints.
#ifndef COLLSYNTH_SIMULATE_SIMULATION_RUN_H_
#define COLLSYNTH_SIMULATE_SIMULATION_RUN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "proofs_check/msccl_model.h"
#include "proofs_check/replay_report.h"
#include "schedules/flow_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "simulate/flow_simulation.h"
#include "simulate/msccl_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// The model options of `simulate`, as given on the command line.
struct SimulationOptions {
  std::string size;  // required
  std::string chunks = "1", alpha = "0", gamma = "0", bandwidth_unit = "GB/s";
  std::string switch_model = "store-and-forward", mode = "sync";
};

// --size, --alpha, --gamma, --bandwidth-unit, --chunks (1..kMaxSimulatedTransfers),
// --switch-model, --mode. The link latencies are not set (the topology file's).
SimulationModel ParseSimulationOptions(const SimulationOptions& o);

struct SimulationRun {
  SimulationModel model;  // chunks: the P simulated (the sweep's best when there is a sweep)
  std::vector<std::pair<std::int64_t, Rational>> sweep;  // (P, completion time), input order
  std::unique_ptr<FlowSimulation> sim;                   // refers to the topology given
  FlowSimulationResult result;
};

// A checked pipeline schedule for model.chunks, or, when `chunks_sweep` is not empty, for every
// P of that list (ParseChunkList: duplicates dropped) and then once more for the fastest. The
// sweep's simulations together move at most kMaxSimulatedTransfers transfers, and so does the
// final one; InputError("<args>", "--chunks-sweep" or "--chunks", ...) before anything is built
// otherwise.
SimulationRun SimulatePipelineSchedule(const PipelineSchedule& s, const Topology& g,
                                       SimulationModel model, const std::string& chunks_sweep);
// A checked all-to-all flows schedule (simulate/alltoall_simulation.h), for model.chunks or
// the fastest P of `chunks_sweep`, with the same bounds on the work as a pipeline schedule
// (paths x P x hops transfers).
SimulationRun SimulateAlltoallSchedule(const FlowSchedule& s, const Topology& g,
                                       SimulationModel model, const std::string& chunks_sweep);
// A checked step schedule (model.chunks is not used).
SimulationRun SimulateStepSchedule(const StepSchedule& s, const Topology& g, SimulationModel model);

// The replay options of `simulate` on an MSCCL XML file: --profile (executor, rccl, legacy),
// --fifo-depth ("0" = the kernel's; else 1..2^20), --root.
ReplayOptions ParseMscclSimulationOptions(const std::string& profile, const std::string& fifo_depth,
                                          int root);
// InputError(file, "ngpus", ...) unless the program has one GPU per compute node of g (checked
// before its routes are read).
void CheckMscclProgramRanks(const msccl::Algo& algo, const Topology& g, const std::string& file);
// An MSCCL XML program the replay accepted (ReadMscclProgram), for model.chunks iterations of the
// chunk loop over `routing`. CheckMscclProgramRanks, then InputError("<args>", "--chunks", ...)
// above kMaxMscclSimulatedTransfers.
SimulationRun SimulateMscclProgram(const msccl::Algo& algo, const Topology& g, MscclRouting routing,
                                   SimulationModel model, int fifo_depth, const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_SIMULATION_RUN_H_
