// Independent replay checker for MSCCL executor XML files (design and
// semantics in docs/export.md "Replay checker", runtime facts in "Runtime facts"). Proves that a
// file (any file: ours, msccl-tools', ForestColl's, hand-written) is accepted by the runtime and
// implements its collective. Shares no code with any exporter; never prints.
//
// Stages, run in order; the first stage with a violation ends the check:
//   0 lexical  the runtime's hand-written lexer rules (msccl_xml_lexer.h);
//   1 schema   required attributes per profile, types, ranges and limits (§2.4, §2.7, §8.5
//              H1/H3/H4/H5), dependencies (existing block and step, hasdep, nop chains);
//   2 fifo     per connector (src, dst, channel) the sender's cnt sequence equals the
//              receiver's (H2);
//   3 execute  event-driven symbolic execution of every thread block of every GPU for
//              `iterations` rounds of the chunk loop, on cells holding contribution sets,
//              with the kernel's enabling rules (flags published only by hasdep steps,
//              connectors holding `fifo_depth` one-chunk transfers); reports deadlock (with
//              the wait-for cycle), races (unordered accesses by two blocks to one cell, one
//              a write; happens-before from program order, flag and send->receive edges),
//              double counting, reads of uninitialised cells, writes to the input of an
//              out-of-place run, and the postcondition of allgather / reducescatter /
//              allreduce / broadcast for each of the in-place / out-of-place modes the file
//              claims.
// Complexity: stage 3 keeps vector clocks over the blocks of one GPU (B_g entries) and
// decides pairs they do not order by an exact search of the event graph
// (msccl_execution.h): O(E·B_g) time for E events when the per-GPU clocks suffice, plus a
// search over the events between the two accesses per pair they do not order;
// O(B·B_g + E) memory for B blocks in all. The runtime caps each rank at 4095 counted
// elements (the lexer).
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCL_REPLAY_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCL_REPLAY_H_

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

// Runs the stages on the XML `text`. `file` is the caller's name for it and is not quoted:
// messages locate a fault by line, gpu, tb and step, and the caller prints the file name.
// Never throws for any text (a rejection is a violation); throws std::invalid_argument for
// bad options (fifo_depth < 0, iterations < 1, max_violations < 1).
ReplayResult ReplayMscclXml(const std::string& text, const std::string& file,
                            const ReplayOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCL_REPLAY_H_
