// Stages 2 and 3 of the MSCCL XML replay checker (proofs_check/msccl_replay.h), on a file
// that passed stage 1 (msccl_schema.h):
//   stage 2, FIFO matching per connector (src, dst, channel) (docs/export.md "Hard constraints
//   H1–H6", H2); stage 3, event-driven symbolic execution of all thread blocks for
//   options.iterations rounds of the chunk loop (§2.5, §2.6, §8.3, §8.7 and its correction):
//   contribution sets, the kernel's enabling rules, deadlock with the wait-for cycle, races, double
//   counting, unwritten reads, input writes, postconditions.
// Races: cells belong to one GPU, so only accesses by two blocks of one GPU can race, but the
// path that orders them may pass through other GPUs. Each block keeps a vector clock over
// the blocks of its own GPU only (program order and that GPU's flags: a sufficient test);
// a pair it does not order is decided exactly by a backward search from the later access in
// the recorded event graph (program order, message push -> pop, flag publication -> wait),
// visiting only events created after the earlier access, and the events found are added to
// the clock. Exact: the verdict is the one of vector clocks over all blocks.
// Complexity of stage 3, for M one-chunk transfers, E events (transfers and satisfied
// dependencies), B blocks in all and B_g blocks on one GPU: O(M + E·B_g) time when the
// per-GPU clocks order every conflicting pair (every exporter file out of place, every
// allgather), plus O(W log E) per pair they do not order, W the events created between its
// two accesses; O(B·B_g + E + cells) memory (was O(M·B) time, O(B^2) memory with clocks
// over all blocks).
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCL_EXECUTION_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCL_EXECUTION_H_

#include <vector>

#include "proofs_check/msccl_model.h"
#include "proofs_check/msccl_replay.h"

namespace collsynth::msccl {

// One connector per (src, dst, channel) that some block names; -1 for a missing side.
struct Connector {
  int src = 0, dst = 0, chan = 0;
  int sender_tb = -1, receiver_tb = -1;  // on src / dst
};

// The connectors of `algo`, sorted by (src, dst, channel).
std::vector<Connector> BuildConnectors(const Algo& algo);

// Stage 2: reports every connector whose sender and receiver cnt sequences differ.
void CheckFifoMatching(const Algo& algo, const std::vector<Connector>& connectors, Reporter* rep);

// How stage 3 decides whether two accesses are ordered. Both are exact and give the same
// violations; kSearchOnly skips the per-GPU clocks (every pair of accesses by two blocks goes
// to the event-graph search) and exists for the differential test of the two.
enum class OrderingMethod { kGpuClocksThenSearch, kSearchOnly };

// Stage 3 for one mode (in place or out of place) with `depth` one-chunk transfers per
// connector. Requires stages 1 and 2 without violations.
void ExecuteSymbolically(const Algo& algo, const std::vector<Connector>& connectors,
                         const ReplayOptions& options, bool inplace, int depth, Reporter* rep,
                         OrderingMethod method = OrderingMethod::kGpuClocksThenSearch);

}  // namespace collsynth::msccl

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCL_EXECUTION_H_
