// Simulation of an all-to-all "flows" schedule (docs/formats.md "Flows schedule JSON") on its
// topology with P chunks (docs/simulate.md "All-to-all flows"). Pair (s, t) moves d_st · shard
// bytes (shard = M/N: the uniform all-to-all sends M/N to every other compute node; a demand
// matrix's amounts are in the same unit); a path of share σ carries σ · d_st · shard of it, cut
// into P equal chunks. Every path starts at time 0 and sends its chunks in order; a relay (a
// switch, or a compute node when the schedule relays) forwards a chunk once all of it has
// arrived (store-and-forward: one transfer per (path, chunk, link)), or the chunk holds the whole
// path (cut-through: one transfer per (path, chunk)); simulate/route_transfers.h. Links are
// first come, first served (FlowSimulation). Without latency the time lies between T · shard / b
// (T the flow checker's max_e load_e / b_e) and (P + H − 1)/P times that, H the longest path in
// links. Precondition: the schedule passed proofs_check/flow_checker.h on g. Cost O(paths · P ·
// hops) transfers and dependencies. Never prints.
#ifndef COLLSYNTH_SIMULATE_ALLTOALL_SIMULATION_H_
#define COLLSYNTH_SIMULATE_ALLTOALL_SIMULATION_H_

#include <cstdint>

#include "graphs/topology.h"
#include "schedules/flow_schedule.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// The number of transfers BuildAlltoallSimulation would create (saturating at 2^64-1).
std::uint64_t AlltoallTransferCount(const FlowSchedule& s, const SimulationModel& m);

// Transfers are labelled group = the pair's index in s.flows, route = the path's index in its
// pair, chunk, hop (-1 for cut-through).
FlowSimulation BuildAlltoallSimulation(const FlowSchedule& s, const Topology& g,
                                       const SimulationModel& m);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_ALLTOALL_SIMULATION_H_
