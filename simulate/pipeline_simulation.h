// Simulation of a pipeline schedule (seed 004 §2) on its topology with P chunks
// (docs/simulate.md "Pipeline schedules"). Each tree entry's data (multiplicity/k of its root's
// shard) is cut into P equal chunks; each route of a tree edge carries its share
// (route multiplicity/k of the shard) of every chunk. Allgather and broadcast: chunks flow from
// the root down the tree edges, a node forwarding chunk j once every route of its incoming edge
// has delivered it. Reduce-scatter: chunks flow up (child -> parent along the reversed
// routes), a node sending chunk j once it has chunk j from every child (each arrival reduced:
// γ per byte). Allreduce: the reduce-scatter phase, then the allgather trees of root r start
// once r holds its whole reduced shard. A route sends its chunks in order (chunk j enters a link
// after chunk j-1 of the same route left it). Store-and-forward: one transfer per (route, chunk,
// link); cut-through: one per (route, chunk). Links are shared by every tree crossing them
// (FlowSimulation's proportional share).
// Precondition: the schedule passed the pipeline checker on g. Cost O(routes · P · hops) transfers
// and dependencies. Never prints.
#ifndef COLLSYNTH_SIMULATE_PIPELINE_SIMULATION_H_
#define COLLSYNTH_SIMULATE_PIPELINE_SIMULATION_H_

#include <cstdint>

#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// Refuse to build more transfers than this (memory: a few hundred bytes each).
inline constexpr std::uint64_t kMaxSimulatedTransfers = std::uint64_t{1} << 24;

// The number of transfers BuildPipelineSimulation would create (saturating at 2^64-1).
std::uint64_t PipelineTransferCount(const PipelineSchedule& s, const SimulationModel& m);

FlowSimulation BuildPipelineSimulation(const PipelineSchedule& s, const Topology& g,
                                       const SimulationModel& m);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_PIPELINE_SIMULATION_H_
