// MSCCL++ execution plans (docs/export.md "MSCCL++ plans"): the JSON that microsoft/mscclpp's C++
// executor loads (ExecutionPlan(path, rank); facts in docs/export.md "Runtime facts: MSCCL++
// execution plans"), lowered from the same
// transfers as the MSCCL XML (msccl_lowering.h: LowerPipelineSchedule / LowerStepSchedule),
// never converted from the XML. docs/export.md, "MSCCL++ plans", documents the format used.
//
// Lowering (Simple protocol, memory channels only), per transfer src -> dst of cnt chunks:
//   * gather (allgather, allreduce's second phase): at src `put` of the chunks into dst's
//     final location (dst's remote output buffer), `nop`, `signal` on the memory channel to
//     dst; at dst `wait` on the paired channel, and a `nop` before any later operation that
//     touches data;
//   * reduction (reduce-scatter, allreduce's first phase): src puts its partial sum (or its
//     own contribution) into a scratch slot of dst reserved for this transfer (slots are never
//     reused, so there is no write-after-read hazard), nop, signal; dst waits, nop, `re`
//     (accumulator := local operand + slot), nop before the next use.
//   * the transfers' dependencies (a forward after its receive, the next reduction of a chunk
//     after the previous one) are program order when both ends are in one thread block, else
//     a per-GPU semaphore of that dependency and consumer block: `sem_release` right after the
//     receive (and its nop) in the producer block, `sem_acquire` then `nop` before the first
//     use in the consumer block (one release and one acquire per semaphore per execution, so
//     the counters return to 0 and the plan can be run again).
//   * every block lists its operations in key order (instance, piece, phase, level, tree,
//     chunk, src, dst; msccl_program.h) and every dependency points to a smaller key, so the
//     operation with the smallest key among the unfinished ones can always run: no deadlock.
//   * `nop` (__syncthreads) is inserted lazily: before a data operation (`put`, `re`, `copy`)
//     when a `wait`, `rlxwait`, `sem_acquire` or data operation ran since the last nop, and
//     before a `signal` / `sem_release` when a data operation or wait ran since.
//   * start-of-launch handshake per segment (below): the receiver block starts with
//     `rlxsignal` on the segment's handshake entry, the sender block `rlxwait`s on the paired
//     entry before the segment's first put. The plan is launched again on the same buffers and
//     a GPU's next launch may start while a peer still runs the previous one: without it a
//     put of launch 2 could overwrite data the receiver's launch 1 (or its caller) still reads.
//     Relaxed is enough (a kernel boundary is a device-wide fence; the DSL does the same); the
//     signal never blocks (no deadlock). No end-of-launch handshake: the plan only writes
//     remote memory, and every remote write is waited for by its target before its kernel ends.
// Streams and thread blocks: the transfers of one (instance, src, dst) are a stream, cut into
// segments whose sender and receiver parts each fit 64 operations. Segment s of src -> dst
// signals on src's s-th memory channel entry to dst and waits on dst's s-th entry to src (the
// executor pairs the k-th entry of A to B with the k-th entry of B to A); segment s of
// dst -> src uses the same pair the other way. After these D data entries of a pair come its
// handshake entries, one per segment (lower rank -> higher first, then the other way), the same
// index at both ends. So every channel entry is used for signals in one block and for waits in
// one block, and both ends have the same number of entries. Each
// segment end (plus a local copy for out-of-place allgather) is one thread block when a GPU
// has at most --max-tbs of them, else they are packed first-fit decreasing into blocks of at
// most 64 operations, 16 memory channels and 16 remote buffers; ExportLimitError("--max-tbs")
// names the count needed when that is still too many.
// --pieces P cuts every transfer into P parts (the chunk unit shrinks P times) so a forward can
// start before the whole transfer has arrived; MSCCL++ has no implicit chunk loop.
// Buffers: one chunk size per rank (input_chunks / output_chunks in the ratio of the buffer
// sizes: allgather K / N·K, reducescatter N·K / K, allreduce N·K / N·K, K = chunks per shard),
// scratch: N·K partial-sum chunks when used, then the slots; buffer_alignment 16.
// The build runs as named phases (PlanBuilder in mscclpp_plan.cc): OrderTransfers (key order,
// consumers), CutSegments, AssignChannelEntries, AssignRemoteBuffers, LayoutScratch, MakeItems,
// PackBlocks, AssignSemaphores, EmitOperations.
// Cost: O(T log T) for T transfers (after pieces) plus O(T) JSON. Never prints.
#ifndef COLLSYNTH_EXPORT_MSCCLPP_PLAN_H_
#define COLLSYNTH_EXPORT_MSCCLPP_PLAN_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/flow_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth {

// The executor's limits (mscclpp src/core/include/execution_common.hpp).
inline constexpr int kMscclppMaxOperations = 64;        // per thread block, nops included
inline constexpr int kMscclppMaxChannelsPerBlock = 16;  // memory channels per block
inline constexpr int kMscclppMaxRemoteBuffersPerBlock = 16;
inline constexpr int kMscclppMaxSemaphoresPerOp = 16;
inline constexpr int kMscclppBufferAlignment = 16;

struct MscclppExportOptions {
  std::string proto = "Simple";  // only Simple; "LL" is refused (not implemented yet)
  bool inplace = false;
  std::int64_t min_bytes = 0;
  std::int64_t max_bytes = 0;  // 0: no bound (written as 2^64 - 1)
  int max_tbs = 64;            // thread blocks per GPU
  // Bound on N·I·K before --pieces (as nchunksperloop for MSCCL; the plan's largest buffer
  // then has N·I·K·P chunks).
  std::int64_t max_chunks = 256;
  int instances = 1;
  int pieces = 1;    // 1..64
  std::string name;  // plan "name"; default collsynth-<collective>
};

// The options `export mscclpp` takes (docs/export.md, "MSCCL++ execution plans"), checked
// before anything is lowered: proto Simple ("LL" is not supported yet); min_bytes >= 0;
// max_bytes 0 (no bound) or >= min_bytes; max_tbs 1..1024; max_chunks 1..2^40; instances
// 1..32; pieces 1..64. InputError("<args>", "--OPTION", ...) otherwise.
void ValidateMscclppExportOptions(const MscclppExportOptions& options);

struct MscclppExportResult {
  nlohmann::ordered_json plan;
  Collective collective = Collective::kAllgather;
  int ngpus = 0;
  std::int64_t input_chunks = 0;  // every GPU
  std::int64_t output_chunks = 0;
  std::int64_t max_scratch_chunks = 0;  // over GPUs
  std::int64_t chunks_per_shard = 0;    // K·P, in the plan's chunk unit (one instance)
  bool exact_chunks = true;
  BigInt exact_chunks_per_shard;  // the lcm of the denominators
  Rational optimal_ratio;
  Rational achieved_ratio;
  std::vector<std::vector<int>> ops_per_block;  // [rank][block]
  int blocks_per_gpu = 0;                       // maxima over GPUs / blocks
  int max_ops_per_block = 0;
  int max_channels_per_block = 0;
  int max_remote_buffers_per_block = 0;
  int channels_per_gpu = 0;    // memory channel entries
  int semaphores_per_gpu = 0;  // cross-block dependencies
  std::int64_t transfers = 0;  // puts in all
  // Side file (docs/export.md), as for MSCCL; transfers in the plan's chunk unit, `chan` the
  // channel slot s of the segment.
  nlohmann::json routes;
};

// The lowering. `rank_of_node` as for ExportPipelineToMscclProgram. Throws ExportLimitError
// when the limits cannot be met, InputError(file, item, problem) for input this target does
// not take (broadcast, step schedules through switches), std::invalid_argument for bad
// options (LL, pieces outside 1..64, ...).
MscclppExportResult ExportPipelineToMscclppPlan(const Topology& g, const PipelineSchedule& s,
                                                const std::vector<int>& rank_of_node,
                                                const MscclppExportOptions& options,
                                                const std::string& file);
MscclppExportResult ExportStepsToMscclppPlan(const Topology& g, const StepSchedule& s,
                                             const std::vector<int>& rank_of_node,
                                             const MscclppExportOptions& options,
                                             const std::string& file);
// All-to-all flows: collective "alltoall" (the MSCCL++ DSL's AllToAll), the lowering of
// ExportFlowsToMscclProgram (uniform demand, out of place); relays receive into scratch.
MscclppExportResult ExportFlowsToMscclppPlan(const Topology& g, const FlowSchedule& s,
                                             const std::vector<int>& rank_of_node,
                                             const MscclppExportOptions& options,
                                             const std::string& file);

// The "collective" spelling of the executor and the DSL: allgather, reducescatter, allreduce,
// alltoall.
std::string MscclppCollName(Collective coll);

// The plan text written to disk (2-space indented JSON, newline at the end).
std::string MscclppPlanText(const MscclppExportResult& r);

// <coll>-n<ngpus>-Simple-<inplace|outofplace>-<min:020d>-<max:020d>.json (as the XML names).
std::string MscclppFileName(const MscclppExportResult& r, const MscclppExportOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPORT_MSCCLPP_PLAN_H_
