// Stages 2 and 3 of the MSCCL XML replay checker (proofs_check/msccl_replay.h), on a file
// that passed stage 1 (msccl_schema.h):
//   stage 2, FIFO matching per connector (src, dst, channel) (shared/executors.md §8.5 H2);
//   stage 3, event-driven symbolic execution of all thread blocks for options.iterations
//   rounds of the chunk loop (§2.5, §2.6, §8.3, §8.7 and its correction): contribution sets,
//   the kernel's enabling rules, deadlock with the wait-for cycle, races (vector clocks over
//   all blocks), double counting, unwritten reads, input writes, postconditions.
// Complexity of stage 3: O(M·B) time for M one-chunk transfers and B blocks, O(B^2 + cells)
// memory.
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

// Stage 3 for one mode (in place or out of place) with `depth` one-chunk transfers per
// connector. Requires stages 1 and 2 without violations.
void ExecuteSymbolically(const Algo& algo, const std::vector<Connector>& connectors,
                         const ReplayOptions& options, bool inplace, int depth, Reporter* rep);

}  // namespace collsynth::msccl

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCL_EXECUTION_H_
