// The work of `collsynth simulate` on a checked schedule (simulation_run.h).
#include "simulate/simulation_run.h"

#include <functional>
#include <stdexcept>

#include "core/input_error.h"
#include "simulate/alltoall_simulation.h"
#include "simulate/chunk_choice.h"
#include "simulate/pipeline_simulation.h"
#include "simulate/step_simulation.h"

namespace collsynth {

SimulationModel ParseSimulationOptions(const SimulationOptions& o) {
  SimulationModel m;
  m.size = ParseQuantity("--size", o.size, SizeUnits(), "B", false);
  m.default_alpha = ParseQuantity("--alpha", o.alpha, TimeUnits(), "s", true);
  m.gamma = ParseQuantity("--gamma", o.gamma, TimePerByteUnits(), "s/B", true);
  m.bytes_per_unit = ParseBandwidthUnit("--bandwidth-unit", o.bandwidth_unit);
  m.chunks = ParseChunkCount("--chunks", o.chunks, kMaxSimulatedTransfers);
  const std::optional<SwitchModel> sw = ParseSwitchModel(o.switch_model);
  if (!sw) {
    throw InputError("<args>", "--switch-model",
                     "'" + o.switch_model + "' is not store-and-forward or cut-through");
  }
  m.switch_model = *sw;
  const std::optional<StepMode> mode = ParseStepMode(o.mode);
  if (!mode) throw InputError("<args>", "--mode", "'" + o.mode + "' is not sync or async");
  m.step_mode = *mode;
  return m;
}

namespace {

using TransferCount = std::function<std::uint64_t(const SimulationModel&)>;
using Builder = std::function<FlowSimulation(const SimulationModel&)>;

// Refuses a sweep whose simulations would move more than kMaxSimulatedTransfers transfers in
// all, or one P above the limit alone, before any is built. `units` names what is chunked
// ("routes", "paths").
void CheckSweepWork(const TransferCount& count_for, const SimulationModel& model,
                    const std::vector<std::int64_t>& list, const std::string& units) {
  std::uint64_t total = 0;
  for (std::int64_t p : list) {
    SimulationModel mp = model;
    mp.chunks = p;
    const std::uint64_t count = count_for(mp);
    if (count > kMaxSimulatedTransfers) {
      throw InputError("<args>", "--chunks-sweep",
                       "P = " + std::to_string(p) + " gives more than " +
                           std::to_string(kMaxSimulatedTransfers) + " transfers (" + units +
                           " x P x hops), above the simulator's limit");
    }
    total += count;
    if (total > kMaxSimulatedTransfers) {
      throw InputError("<args>", "--chunks-sweep",
                       "the sweep's simulations up to P = " + std::to_string(p) +
                           " move more than " + std::to_string(kMaxSimulatedTransfers) +
                           " transfers in all (" + units +
                           " x P x hops, summed over the list), above the simulator's limit: "
                           "give fewer or smaller P");
    }
  }
}

// A chunked simulation (pipeline or flows) for model.chunks, or the sweep's best.
SimulationRun SimulateChunked(const TransferCount& count_for, const Builder& build,
                              SimulationModel model, const std::string& chunks_sweep,
                              const std::string& units) {
  SimulationRun run;
  if (!chunks_sweep.empty()) {
    const std::vector<std::int64_t> list =
        ParseChunkList("--chunks-sweep", chunks_sweep, kMaxSimulatedTransfers);
    CheckSweepWork(count_for, model, list, units);
    ChunkChoice choice = ChooseChunkCount(build, model, list);
    model.chunks = choice.best;
    run.sweep = std::move(choice.times);
  }
  if (count_for(model) > kMaxSimulatedTransfers) {
    throw InputError("<args>", "--chunks",
                     "P = " + std::to_string(model.chunks) + " gives more than " +
                         std::to_string(kMaxSimulatedTransfers) + " transfers (" + units +
                         " x P x hops), above the simulator's limit");
  }
  run.sim = std::make_unique<FlowSimulation>(build(model));
  run.result = run.sim->Run();
  run.model = std::move(model);
  return run;
}

}  // namespace

SimulationRun SimulatePipelineSchedule(const PipelineSchedule& s, const Topology& g,
                                       SimulationModel model, const std::string& chunks_sweep) {
  return SimulateChunked([&](const SimulationModel& m) { return PipelineTransferCount(s, m); },
                         [&](const SimulationModel& m) { return BuildPipelineSimulation(s, g, m); },
                         std::move(model), chunks_sweep, "routes");
}

SimulationRun SimulateAlltoallSchedule(const FlowSchedule& s, const Topology& g,
                                       SimulationModel model, const std::string& chunks_sweep) {
  return SimulateChunked([&](const SimulationModel& m) { return AlltoallTransferCount(s, m); },
                         [&](const SimulationModel& m) { return BuildAlltoallSimulation(s, g, m); },
                         std::move(model), chunks_sweep, "paths");
}

SimulationRun SimulateStepSchedule(const StepSchedule& s, const Topology& g,
                                   SimulationModel model) {
  SimulationRun run;
  run.sim = std::make_unique<FlowSimulation>(BuildStepSimulation(s, g, model));
  run.result = run.sim->Run();
  run.model = std::move(model);
  return run;
}

ReplayOptions ParseMscclSimulationOptions(const std::string& profile, const std::string& fifo_depth,
                                          int root) {
  ReplayOptions ro;
  try {
    ro.profile = ParseMscclProfile(profile);
  } catch (const std::invalid_argument& e) {
    throw InputError("<args>", "--profile", e.what());
  }
  ro.fifo_depth = fifo_depth == "0"
                      ? 0
                      : static_cast<int>(ParseChunkCount("--fifo-depth", fifo_depth, 1 << 20));
  ro.root = root;
  return ro;
}

void CheckMscclProgramRanks(const msccl::Algo& algo, const Topology& g, const std::string& file) {
  if (algo.ngpus != g.num_compute()) {
    throw InputError(file, "ngpus",
                     std::to_string(algo.ngpus) + " GPUs, but the topology has " +
                         std::to_string(g.num_compute()) + " compute nodes");
  }
}

SimulationRun SimulateMscclProgram(const msccl::Algo& algo, const Topology& g, MscclRouting routing,
                                   SimulationModel model, int fifo_depth, const std::string& file) {
  CheckMscclProgramRanks(algo, g, file);
  if (MscclTransferCount(algo, routing, g, model) > kMaxMscclSimulatedTransfers) {
    throw InputError("<args>", "--chunks",
                     "P = " + std::to_string(model.chunks) + " gives more than " +
                         std::to_string(kMaxMscclSimulatedTransfers) +
                         " transfers (units x P x hops), above the simulator's limit for MSCCL "
                         "XML files (about 220 bytes each)");
  }
  SimulationRun run;
  run.sim = std::make_unique<FlowSimulation>(
      BuildMscclSimulation(algo, g, std::move(routing), model, fifo_depth));
  run.result = run.sim->Run();
  run.model = std::move(model);
  return run;
}

}  // namespace collsynth
