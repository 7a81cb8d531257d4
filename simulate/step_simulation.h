// Simulation of a step schedule ("steps" / "steps-compact", seed 000 Def. 6) on its topology
// (docs/simulate.md "Step schedules"). One transfer per send over its link, of
// measure(chunk) · ShardBytes bytes; sends into a compute node during a reduce-scatter phase
// are reductions (γ per byte at the receiver).
// Sync: a barrier between consecutive used steps (the sends of a step are issued when every
// send of the previous used step is done; an unused step number costs nothing). Async: a send
// from u of shard v is issued when every send into u of shard v with an earlier step and an
// overlapping chunk is done (for a schedule without duplicate deliveries: when its data has
// arrived, reduced in reduce-scatter phases); in an allgather or broadcast the owner's sends of
// its own shard wait for nothing.
// Precondition: the schedule passed the step checker on g (every send's link exists).
// Cost O(sends · log) to build, plus, async, the overlap tests of each send against the sends
// into its sender of the same shard. Never prints.
#ifndef COLLSYNTH_SIMULATE_STEP_SIMULATION_H_
#define COLLSYNTH_SIMULATE_STEP_SIMULATION_H_

#include "graphs/topology.h"
#include "schedules/step_schedule.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// Transfer t is send t of s (in s.sends order); barriers follow.
FlowSimulation BuildStepSimulation(const StepSchedule& s, const Topology& g,
                                   const SimulationModel& m);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_STEP_SIMULATION_H_
