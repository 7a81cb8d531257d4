// Independent replay checker for MSCCL++ JSON execution plans (facts in
// docs/export.md "Runtime facts: MSCCL++ execution plans", semantics in "MSCCL++ plans"). Proves
// that a plan (any plan: ours, the MSCCL++ DSL's, hand-written) is loadable by the C++ executor and
// implements its collective. Shares no code with any exporter; never prints.
//
// Stages, run in order; the first stage with a violation ends the check (ReplayStage values):
//   0 lexical  the text is one JSON document (nlohmann::json);
//   1 schema   the fields the loader reads, their types and ranges, and the executor's limits
//              (64 operations per thread block, 16 channels / remote buffers per block, 8
//              channels per operation, gpus[r].id == r, chunk ranges inside the buffers);
//   2 fifo     signal/wait pairing: channel entries paired as the executor pairs them, every
//              wait matched by a signal of the peer on the paired channel (counts equal);
//   3 execute  symbolic execution of every thread block of every GPU on cells holding
//              contribution sets, with the kernel's rules (waits consume signals, semaphores,
//              barriers, no implicit __syncthreads between operations: a `nop` orders the
//              threads of a block); reports deadlock (with the wait-for cycle), races,
//              double counting, uninitialised reads, writes to the input of an out-of-place
//              plan, and the postcondition of allgather / reducescatter / allreduce.
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCLPP_REPLAY_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCLPP_REPLAY_H_

#include <cstdint>
#include <string>

#include "proofs_check/msccl_replay.h"

namespace collsynth {

struct MscclppReplayOptions {
  int max_violations = 50;  // listed; the count of all is in violations_total
  // Stage 3 stops with a kLimit violation after building this many set elements in
  // reductions (bounds time and memory on hostile plans).
  std::int64_t max_set_elements = std::int64_t{1} << 26;
};

// Runs the stages on the plan `text`. `file` is the caller's name for it and is not quoted.
// Never throws for any text (a rejection is a violation); throws std::invalid_argument for
// bad options. ReplayResult fields: coll (the plan's "collective"), ngpus, proto (the plan's
// "protocol"), modes ("inplace" or "outofplace"), bytes_per_pair (chunks moved per (src, dst),
// in the plan's chunk unit), nchunksperloop (the chunk count of the rank's input or output
// buffer that defines the chunk size, for rank 0), fifo_depth 0.
ReplayResult ReplayMscclppPlan(const std::string& text, const std::string& file,
                               const MscclppReplayOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCLPP_REPLAY_H_
