// Choosing P (docs/simulate.md "Pipeline schedules", "Choosing P"): the simulated time of a
// pipeline schedule for each candidate chunk count at one message size, and the count that
// minimises it (the smallest among equal times). Each candidate is one full simulation
// (BuildPipelineSimulation + Run), so the cost is the sum of theirs. Never prints.
#ifndef COLLSYNTH_SIMULATE_CHUNK_CHOICE_H_
#define COLLSYNTH_SIMULATE_CHUNK_CHOICE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

struct ChunkChoice {
  std::vector<std::pair<std::int64_t, Rational>> times;  // (P, completion time), in input order
  std::int64_t best = 0;
  Rational best_time;
};

// Precondition: candidates non-empty, each >= 1 (std::invalid_argument otherwise); m.chunks is
// ignored.
ChunkChoice ChooseChunkCount(const PipelineSchedule& s, const Topology& g, SimulationModel m,
                             const std::vector<std::int64_t>& candidates);
// The same for any chunked simulation: `build` makes it for a model with m.chunks set (an
// all-to-all flows schedule, simulate/alltoall_simulation.h).
ChunkChoice ChooseChunkCount(const std::function<FlowSimulation(const SimulationModel&)>& build,
                             SimulationModel m, const std::vector<std::int64_t>& candidates);

// "1,2,4,16" -> {1, 2, 4, 16}; every entry as ParseChunkCount(option, entry, max_chunks). A
// repeated entry is kept once, where it first appears ("4,1,4" -> {4, 1}): simulating it
// again would give the same time.
std::vector<std::int64_t> ParseChunkList(const std::string& option, const std::string& text,
                                         std::int64_t max_chunks);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_CHUNK_CHOICE_H_
