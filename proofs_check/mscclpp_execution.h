// Stage 3 of the MSCCL++ plan replay checker (proofs_check/mscclpp_replay.h): symbolic
// execution of every thread block of every GPU on chunk cells holding contribution sets.
// Internal to the checker.
//
// Model (execution_kernel.hpp; docs/export.md "Replay of MSCCL++ plans"):
//   - a thread block runs its operations in order, but only `nop` (__syncthreads) and
//     `barrier` order its threads: data operations are split over all threads, while
//     signal / wait / sem_* run on threads tid < n only. Each block therefore has a data lane
//     (what every thread is known to have seen) and per-thread sync lanes; a data operation is
//     ordered after an earlier one of its own block, or after a wait, only through a nop;
//   - happens-before edges: nop, signal -> the wait that consumes it (counting, per paired
//     channel), sem_release -> the sem_acquire that takes its token, barrier (all arrivals),
//     vector clocks over the data operations' epochs; rlxsignal / rlxwait count but carry no
//     ordering beyond what the signalling GPU completed before its launch (kernel boundary),
//     except for reads: a second clock half orders completed reads before a peer's writes
//     through any signal, relaxed ones included;
//   - thread-block groups (tbg_info) work on chunk parts (Plan::slices);
//   - a port channel entry has a proxy actor: puts handed to it are performed in order after
//     what the handing thread knew, its signals follow them, a flush makes the thread wait for
//     it; kernels do not wait for proxies;
//   - the plan runs twice on the same buffers: a GPU's kernel ends when all its blocks have
//     ended, its caller then reads the output (the postcondition of that launch) and writes
//     the next input, and its next launch starts after that; other GPUs may still run;
//   - any two accesses to one cell (one a write) not ordered by happens-before are a race,
//     including remote writes (put, res, rres) and remote reads (get, rre, rres), the
//     caller's accesses and accesses of the two launches;
//   - reductions are disjoint unions (an overlap is double counting); reading a cell nothing
//     wrote is an uninitialised read; out-of-place plans must not write the input; each
//     launch's output must hold the collective's contribution sets of that launch.
// Complexity O(A·B) for A cell accesses and B thread blocks in all (clock joins), O(B^2) memory.
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCLPP_EXECUTION_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCLPP_EXECUTION_H_

#include <cstdint>

#include "proofs_check/mscclpp_pairing.h"
#include "proofs_check/mscclpp_plan.h"

namespace collsynth::mscclpp_check {

// Runs stage 3; every violation goes to `rep`. `max_set_elements` bounds the set elements
// built by reductions (a kLimit violation when exceeded).
void ExecutePlan(const Plan& plan, const ChannelPairing& pairing, std::int64_t max_set_elements,
                 Reporter* rep);

}  // namespace collsynth::mscclpp_check

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCLPP_EXECUTION_H_
