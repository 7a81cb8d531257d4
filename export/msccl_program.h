// The MSCCL intermediate form and the lowering of collsynth schedules into it
// (docs/export.md, "Chunking", "Lowering" and "Runtime facts").
//
// MscclProgram mirrors the executor's XML one to one: per GPU, thread blocks with a fixed
// (send peer, recv peer, channel) and a list of steps. The default (split) lowering is
// deliberately uniform:
//   * every tree edge (pipeline) or send (step schedule) becomes "transfers" of at most 71
//     contiguous chunks; a transfer is one `s` step in the sender's block for
//     (channel, send=dst) and one `r` (gather) or `rrc` (reduction) step in the receiver's
//     block for (channel, recv=src): one block per (GPU, channel, peer, direction), pure
//     senders and pure receivers, never `rcs`/`rrs` (a forward is `r` then `s` with a
//     dependency). H1 holds by construction.
//   * every transfer has a key (instance, phase, level, tree, first chunk, src, dst): the
//     level is the edge's depth in its tree (allgather, broadcast), the height of its tail
//     (reduce-scatter: data flows to the root), or the comm step (step schedules). Every
//     block lists its steps in key order and every dependency points to a step with a
//     smaller key, so sender and receiver see one order per connector (H2) and the
//     smallest unfinished step can always run: no deadlock for any connector depth >= 1
//     transfer, whatever the protocol.
//   * reductions into one chunk are serialised by dependency chains (`rrc` after `rrc`);
//     partial sums live in scratch (`s`), so out-of-place programs never write `i`.
//   * a receive that overwrites a cell read in an earlier phase by another block of its GPU
//     (in-place allreduce: the contribution) waits for that read, so the pair is ordered on
//     the GPU (docs/export.md).
//   * channels: the j-th transfer of a (src, dst) pair goes on channel (j + src + dst) mod C
//     (when no C meets --max-tbs that way, a pair with m transfers is packed onto
//     min(C, ceil(m / p)) channels, (j mod that + src + dst) mod C, for the least p <= the
//     steps limit that fits); C is the largest value meeting --max-channels, --max-tbs, the
//     steps-per-block limit, the 32-blocks-per-channel limit and the parser's 4095 counted elements
//     per rank (kMscclMaxRankElements; every channel adds blocks, so fewer channels means fewer
//     elements). When none does,
//     ExportLimitError names the limit and the smallest value that would work.
// The fused lowering (MscclExportOptions::fuse, pipeline schedules) carries a forward in one
// `rcs` / `rrs` step and gives every chain of main children its own channel (see `fuse`).
// Cost: O(T log T) for T transfers (N roots × N-1 edges × pieces × instances for pipelines),
// plus O(T) per channel count tried (at most --max-channels). Never prints.
#ifndef COLLSYNTH_EXPORT_MSCCL_PROGRAM_H_
#define COLLSYNTH_EXPORT_MSCCL_PROGRAM_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/flow_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth {

// Which runtime reads the file (docs/export.md "Which runtime reads an MSCCL XML file").
enum class MscclExportProfile { kExecutor, kRccl, kLegacy };

// MSCCL_MAX_NUM_STEPS of the profile: 64 (executor, RCCL) or 256 (legacy).
int MscclMaxSteps(MscclExportProfile profile);
// "executor", "rccl", "legacy"; ParseMscclExportProfile throws std::invalid_argument otherwise.
std::string MscclExportProfileName(MscclExportProfile profile);
MscclExportProfile ParseMscclExportProfile(const std::string& text);

// Executor constants (docs/export.md "The MSCCL XML schema", "Compile-time limits").
inline constexpr int kMscclMaxCount = 72;             // cnt < 72
inline constexpr int kMscclMaxBlocksPerChannel = 32;  // per direction
inline constexpr int kMscclMaxChannels = 32;          // MAXCHANNELS of the executor
// The runtime's XML parser (msccl_parser.cc, mscclXmlLoadSub / mscclAlgoXmlGpu) counts an
// element only when a handler matches it: <algo>, every <gpu>, and the <tb> and <step> of the
// loading rank's own <gpu> only. It fails when the count reaches MAX_NODES = 4096 at the top
// of any loop iteration, closing tags included, so per rank r:
// 1 + ngpus + tbs(r) + steps(r) <= 4095. The file as a whole has no element limit.
inline constexpr int kMscclMaxRankElements = 4095;
inline constexpr int kMscclExportMaxSubs = 1024;  // MAX_SUBS: counted children (gpus; tbs of a gpu)
// Every runtime stores the block a step depends on in an int8_t (dependentBid), and srcoff,
// dstoff and deps in int16_t (microsoft/msccl src/include/msccl.h; Azure/msccl-executor-nccl
// and ROCm/rccl src/include/msccl/msccl_struct.h): --max-tbs is capped at 128 blocks per GPU.
inline constexpr int kMscclMaxDependableBlocks = 128;
// The bound export msccl and export chakra put on a program's steps, all GPUs together: the
// written file's replay keeps about 1.9 KB per step (fattree(16) allgather with --max-chunks
// 1024 --max-tbs 73: about 2.1 M steps, a 250 MB file, 4.0 GB peak and 37 s; fattree(8)
// allgather: 32,640 steps, 83 MB), so 2^20 steps stay near 2 GB (docs/export.md).
inline constexpr std::int64_t kMscclMaxProgramSteps = std::int64_t{1} << 20;
inline constexpr std::int64_t kMscclMaxOffset = 32767;

struct MscclStep {
  std::string type;  // "s", "r", "rrc", "cpy" (this exporter); the writer takes any
  char srcbuf = 'i';
  std::int64_t srcoff = 0;
  char dstbuf = 'o';
  std::int64_t dstoff = 0;
  int cnt = 1;
  int depid = -1;  // block on the same GPU, -1 for none
  int deps = -1;   // step index in that block
  bool hasdep = false;
};

struct MscclBlock {
  int send = -1;  // peer rank or -1
  int recv = -1;
  int chan = 0;
  std::vector<MscclStep> steps;
};

struct MscclGpu {
  std::int64_t i_chunks = 0;
  std::int64_t o_chunks = 0;
  std::int64_t s_chunks = 0;
  std::vector<MscclBlock> blocks;  // block id = index
};

struct MscclProgram {
  std::string name;
  // The writer spells it for the profile (MscclCollName).
  Collective collective = Collective::kAllgather;
  std::string proto = "Simple";  // "Simple", "LL", "LL128"
  int nchannels = 1;
  std::int64_t nchunksperloop = 0;
  int ngpus = 0;
  bool inplace = false;  // the file is for in-place calls only, else out-of-place only
  std::int64_t min_bytes = 0;
  std::int64_t max_bytes = 0;  // 0: no upper bound (executor, RCCL)
  std::vector<MscclGpu> gpus;  // index = rank
};

// The number of steps of every block of every GPU of `p`.
std::int64_t MscclProgramStepCount(const MscclProgram& p);

struct MscclExportOptions {
  MscclExportProfile profile = MscclExportProfile::kExecutor;
  std::string proto = "Simple";
  bool inplace = false;
  std::int64_t min_bytes = 0;
  std::int64_t max_bytes = 0;
  int max_tbs = 64;
  int max_channels = 32;
  std::int64_t max_chunks = 256;  // bound on nchunksperloop
  int instances = 1;
  bool root_specific = false;  // required for broadcast
  // Pipeline schedules only: the fused lowering (ForestColl's chain-per-channel rule): a
  // forward is one `rcs` (gathers) or `rrs` (reductions) step in a block with both peers, and
  // every chain of main children gets its own channel on each link (no packing). Fewer steps
  // and blocks; needs as many channels as chains share a link. Step schedules ignore it.
  bool fuse = false;
  std::string name;  // <algo name>; default "collsynth-<collective>"
};

// The limits cannot be met (CLI exit 1): `limit` names it ("--max-tbs", "--max-channels",
// "--max-chunks", "steps per block", "blocks per channel"), `needed` is the smallest value
// that would work (0 when no option value helps), what() says it in one sentence.
class ExportLimitError : public std::runtime_error {
 public:
  ExportLimitError(std::string limit, std::int64_t needed, const std::string& message)
      : std::runtime_error(message), limit_(std::move(limit)), needed_(needed) {}
  const std::string& limit() const { return limit_; }
  std::int64_t needed() const { return needed_; }

 private:
  std::string limit_;
  std::int64_t needed_;
};

struct MscclExportResult {
  MscclProgram program;
  // The schedule's exact ratio (pipeline: its `ratio`, the sum of the phases for allreduce;
  // steps: T_B in shard units) and the ratio the integer chunks achieve (equal when exact).
  Rational optimal_ratio;
  Rational achieved_ratio;
  std::int64_t chunks_per_shard = 0;  // K (per instance)
  bool exact_chunks = true;
  BigInt exact_chunks_per_shard;  // the lcm of the denominators
  int blocks_per_gpu = 0;         // the maximum over GPUs
  int max_steps_per_block = 0;
  int channels_per_instance = 0;
  int root_rank = -1;  // broadcast: the root's rank
  // Side file (docs/export.md): transfers with their physical routes, loads per link.
  nlohmann::json routes;
};

// Rank of every node: compute nodes in topology order get 0..N-1, switches -1.
std::vector<int> DefaultRanks(const Topology& g);

// Lowering. `rank_of_node` maps node ids to ranks (a bijection of the compute nodes onto
// 0..N-1, -1 for switches). The schedule must be valid for g (the CLI verifies it first).
// Throws ExportLimitError when the limits cannot be met, InputError(file, item, problem) for
// input the exporter does not take (broadcast without root_specific, step schedules through
// switches, broadcast step schedules), std::invalid_argument for bad options.
MscclExportResult ExportPipelineToMscclProgram(const Topology& g, const PipelineSchedule& s,
                                               const std::vector<int>& rank_of_node,
                                               const MscclExportOptions& options,
                                               const std::string& file);
MscclExportResult ExportStepsToMscclProgram(const Topology& g, const StepSchedule& s,
                                            const std::vector<int>& rank_of_node,
                                            const MscclExportOptions& options,
                                            const std::string& file);
// All-to-all flows (coll "alltoall", docs/export.md "All-to-all flows"): the uniform demand
// only and out of place only (InputError otherwise); --fuse is ignored, as for step schedules.
MscclExportResult ExportFlowsToMscclProgram(const Topology& g, const FlowSchedule& s,
                                            const std::vector<int>& rank_of_node,
                                            const MscclExportOptions& options,
                                            const std::string& file);

// The options `export msccl` and `export chakra` take (docs/export.md, "Options"), checked
// before anything is lowered: proto Simple, LL or LL128; min_bytes >= 0; max_bytes 0 (no
// bound) or >= min_bytes; max_tbs 1..128 (kMscclMaxDependableBlocks: the runtimes store a
// dependency's block in an int8_t), at most 64 for RCCL; max_channels 1..32; max_chunks
// 1..2^40; instances 1..32. InputError("<args>", "--OPTION", ...) otherwise. With
// `runtime_file` false (export chakra: the program is an intermediate, never loaded by an MSCCL
// runtime) max_tbs may go up to 1024.
void ValidateMscclExportOptions(const MscclExportOptions& options, bool runtime_file = true);

// The bound on a lowered program's steps (all GPUs together), checked after lowering and before
// anything is written or replayed: ExportLimitError("steps", MscclProgramStepCount(p), ...)
// when the count is above `limit` (kMscclMaxProgramSteps: the replay of the written file keeps
// about 1.9 KB per step). The limit is a parameter so that tests can show the refusal on a
// small program (docs/export.md, "Options").
void CheckMscclProgramStepLimit(const MscclProgram& p, std::int64_t limit = kMscclMaxProgramSteps);

// The exporter's own check of the hard constraints H1-H6 (docs/export.md "Hard constraints H1–H6")
// on a program: one block per (channel, peer, direction); equal cnt sequences per (src, dst,
// channel); steps per block and cnt within the profile's limits; blocks per GPU <= max_tbs and <=
// 32 senders / receivers per channel; channels < nchannels <= max_channels; dependencies on
// existing steps with hasdep set; the graph of program order, dependencies and matched
// send->receive is acyclic; offsets inside the declared buffers; for every rank at most 4095
// counted elements (algo, all gpus, that rank's blocks and steps: kMscclMaxRankElements), at
// most 1024 gpus and 1024 blocks per gpu (MAX_SUBS). Returns the violations
// (empty: ok). Not the independent replay checker: a self-check of the lowering.
std::vector<std::string> CheckMscclProgramInvariants(const MscclProgram& p,
                                                     const MscclExportOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPORT_MSCCL_PROGRAM_H_
