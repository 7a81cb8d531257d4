// Stage 1 of the MSCCL++ plan replay checker (proofs_check/mscclpp_replay.h): reads a parsed
// JSON execution plan into a typed model, checking every field the C++ loader reads
// (execution_plan.cc) with its type, the executor's limits (execution_common.hpp, executor.cc)
// and this checker's own bounds on work. Internal to the checker; not a public interface.
// Facts: docs/export.md "Runtime facts: MSCCL++ execution plans" and "Replay of MSCCL++ plans".
// Complexity O(size of the document).
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCLPP_PLAN_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCLPP_PLAN_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proofs_check/msccl_model.h"
#include "proofs_check/msccl_replay.h"

namespace collsynth::mscclpp_check {

using Reporter = msccl::Reporter;
using Kind = ReplayViolationKind;
using msccl::Where;

// The executor's limits (execution_common.hpp, executor.cc).
inline constexpr int kMaxOperations = 64;       // per thread block, nops and pipeline inner ops
inline constexpr int kMaxChannels = 16;         // memory (and port) channels per thread block
inline constexpr int kMaxRemoteBuffers = 16;    // remote buffers per thread block and type
inline constexpr int kMaxChannelsPerOp = 8;     // channel ids per operation
inline constexpr int kMaxBuffersPerOp = 10;     // src_buff / dst_buff entries per operation
inline constexpr int kMaxSyncers = 16;          // barrier ids
inline constexpr int kMaxSemaphoresPerOp = 16;  // semaphore ids per operation
// This checker's bounds on work (hostile plans; kLimit violations naming them).
inline constexpr int kMaxGpus = 1024;
inline constexpr int kMaxBlocksPerGpu = 1024;
// Every block, proxy and caller is an actor, and the execution keeps a vector clock over all
// actors for every block and every signal in flight, so memory grows with the square of the
// blocks, about 80 bytes per block^2 on large plans: fattree(8) allgather, 3,328 blocks,
// 335 MB peak; the fattree(8) allreduce, about 6,400 blocks, 3.2 GB; fattree(10) allgather,
// 7,500 blocks, 4.4 GB (out of memory under a 4 GB cap). 6,656 blocks stay near 3.5 GB
// (docs/export.md, "Plan replay").
inline constexpr int kMaxBlocksTotal = 6656;
inline constexpr std::int64_t kMaxChunksPerBuffer = 1 << 16;
inline constexpr std::int64_t kMaxCellsTotal = std::int64_t{1} << 20;
inline constexpr std::int64_t kMaxCellAccesses = std::int64_t{1} << 24;
inline constexpr int kMaxSlices = 64;  // lcm of the tbg_size values: parts per chunk

enum class Coll { kAllgather, kReduceScatter, kAllreduce, kAlltoall };

enum class OpType {
  kNop,
  kBarrier,
  kPut,
  kGet,
  kCopy,
  kSignal,
  kWait,
  kRelaxedSignal,
  kRelaxedWait,
  kReduce,          // re
  kReduceSend,      // res
  kReadReduce,      // rre
  kReadReduceSend,  // rres
  kSemAcquire,
  kSemRelease,
  kPutWithSignal,          // pws (port channels)
  kPutWithSignalAndFlush,  // pwsf (port channels)
  kFlush,                  // flush (port channels)
};

const char* OpName(OpType t);

// A buffer reference resolved to its owner: chunks [index, index + size) of buffer `type`
// ('i', 'o', 's') of rank `rank`; `remote` when it was written as {buffer_id, ...}.
struct BufRef {
  int rank = 0;
  char type = 'i';
  int index = 0;
  int size = 0;
  bool remote = false;
};

struct Op {
  OpType type = OpType::kNop;
  std::vector<BufRef> src, dst;
  bool port = false;          // channel_type "port" (else memory)
  std::vector<int> channels;  // entries of the GPU's flattened channel list of that type
  std::vector<int> sems;      // indices into the GPU's semaphores
  int barrier_id = -1, barrier_blocks = 0;
  int part = 0, parts = 1;  // tbg_info: this block does part `part` of `parts` of every range
};

struct Block {
  std::vector<Op> ops;
};

struct Gpu {
  int in_chunks = 0, out_chunks = 0, s_chunks = 0;
  std::vector<int> memory_peer;  // flattened memory channel entries: the peer of each
  std::vector<int> port_peer;    // flattened port channel entries
  std::vector<int> sem_init;
  std::vector<Block> tbs;
};

struct Plan {
  Coll coll = Coll::kAllgather;
  std::string proto;
  bool inplace = false;
  int ngpus = 0;
  // Parts per chunk: the lcm of the plan's tbg_size values (1 without thread-block groups).
  // Stage 3 works on chunk parts, as if every chunk were a multiple of `slices` alignment
  // units (then the kernel's calcOffset cuts each group member's range exactly).
  int slices = 1;
  std::vector<Gpu> gpus;
};

// Reads `doc` into *plan. Every violation goes to `rep` (stage 1); the plan is complete only
// when none was reported. Fills result->coll, proto, ngpus, nchunksperloop, modes and notes.
void ReadMscclppPlan(const nlohmann::json& doc, Reporter* rep, Plan* plan, ReplayResult* result);

}  // namespace collsynth::mscclpp_check

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCLPP_PLAN_H_
