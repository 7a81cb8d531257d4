// The MSCCL replay checker's options and results (proofs_check/msccl_replay.h runs it): the
// runtime profile, the stages, the violations with their kinds, and the per-pair chunk counts.
// Kept apart from the checker so that simulate/, which reads MSCCL XML with the checker's own
// reader, includes the result types only (docs/architecture.md).
#ifndef COLLSYNTH_PROOFS_CHECK_REPLAY_REPORT_H_
#define COLLSYNTH_PROOFS_CHECK_REPLAY_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace collsynth {

// Which runtime reads the file (docs/export.md "Which runtime reads an MSCCL XML file").
enum class MscclProfile {
  kExecutor,  // Azure/msccl-executor-nccl: 64 steps/block, 32 channels, 1024 blocks/GPU
  kRccl,      // ROCm RCCL: 64 steps/block, 128 channels, 64 blocks/GPU
  kLegacy,    // microsoft/msccl: 256 steps/block, 32 channels, 216 blocks/GPU,
              // coll "reduce_scatter", lower-case minbytes/maxbytes (optional), name required
};

// The profile named "executor", "rccl" or "legacy" (the spelling of `replay --profile`,
// `simulate --profile` and docs/export.md); std::invalid_argument "'TEXT' is not executor, rccl
// or legacy" otherwise. The one parser of the name for the checker and the simulator (the
// exporter, which shares no code with its checker, has its own: ParseMscclExportProfile).
MscclProfile ParseMscclProfile(const std::string& text);

struct ReplayOptions {
  MscclProfile profile = MscclProfile::kExecutor;
  // One-chunk transfers a connector holds; 0 = as the kernel: 8 slots, a Simple transfer
  // takes 4 (depth 2), an LL/LL128 transfer 1 (depth 8).
  int fifo_depth = 0;
  int iterations = 2;       // rounds of the chunk (gridOffset) loop simulated, >= 1
  int root = 0;             // broadcast: the rank whose input is broadcast
  int max_violations = 50;  // listed; the count of all is in violations_total
  // Stage 3 stops with a kLimit violation after building this many set elements in
  // reductions in one run (bounds time and memory on hostile files).
  std::int64_t max_set_elements = std::int64_t{1} << 26;
};

enum class ReplayStage { kLexical = 0, kSchema = 1, kFifo = 2, kExecute = 3 };

enum class ReplayViolationKind {
  kLexical,           // stage 0
  kMissingAttribute,  // stage 1
  kBadValue,
  kLimit,
  kUnsupported,  // a collective or step type (combination) this checker does not model
  kStructure,    // elements, ids, peers
  kDependency,
  kConnector,     // two blocks on one connector
  kFifoMismatch,  // stage 2
  kDeadlock,      // stage 3
  kRace,
  kDoubleCount,
  kUninitializedRead,
  kInputWritten,
  kPostcondition,
};

const char* ReplayStageName(ReplayStage stage);              // "lexical", "schema", ...
const char* ReplayViolationKindName(ReplayViolationKind k);  // "missing-attribute", ...

// A position in the replay: step `step` of thread block `tb` on GPU `gpu` (the step's
// document index within its block), in round `iteration` of the chunk loop.
struct ReplayStepRef {
  int gpu = -1;
  int tb = -1;
  int step = -1;
  int iteration = -1;
};

struct ReplayViolation {
  ReplayStage stage = ReplayStage::kLexical;
  ReplayViolationKind kind = ReplayViolationKind::kLexical;
  std::string message;  // names the gpu / tb / step (and the mode for stage 3)
  int gpu = -1, tb = -1, step = -1;
  std::vector<ReplayStepRef> cycle;  // kDeadlock: the wait-for cycle, each waits for the next
};

// Chunks (of size nBytes / nchunksperloop) sent from src to dst in one round of the chunk loop.
struct ReplayPairChunks {
  int src = 0;
  int dst = 0;
  std::int64_t chunks = 0;
};

struct ReplayResult {
  bool ok = false;
  std::string coll;  // as written in the file ("" if unread)
  int ngpus = 0;
  int nchunksperloop = 0;
  std::string proto;
  int fifo_depth = 0;                       // used by stage 3
  std::vector<std::string> modes;           // "inplace" / "outofplace", those executed
  std::vector<ReplayViolation> violations;  // of the failing stage, at most max_violations
  std::int64_t violations_total = 0;
  std::vector<std::string> notes;                // not violations (ignored attributes, ...)
  std::vector<ReplayPairChunks> bytes_per_pair;  // after stage 1; sorted by (src, dst)
};

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_REPLAY_REPORT_H_
