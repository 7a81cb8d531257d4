// Internal to export/: the transfer form every lowering produces (the intermediate form shared
// by the MSCCL XML and the MSCCL++ plan targets), the lowerings of pipeline and step schedules
// into it (LowerPipelineSchedule in msccl_pipeline_lowering.cc, LowerStepSchedule in
// msccl_step_lowering.cc), and the assembly of transfers into an MscclProgram (channels,
// blocks, steps, dependencies). The MSCCL++ plan is built from the same LoweredSchedule
// (mscclpp_plan.cc). Not a public API: include only from export/*.cc. See msccl_program.h and
// mscclpp_plan.h for the designs.
#ifndef COLLSYNTH_EXPORT_MSCCL_LOWERING_H_
#define COLLSYNTH_EXPORT_MSCCL_LOWERING_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/rational.h"
#include "export/msccl_program.h"
#include "graphs/topology.h"
#include "schedules/flow_schedule.h"

namespace collsynth::export_internal {

inline constexpr int kMaxCnt = kMscclMaxCount - 1;  // 71 chunks per step

struct BufRef {
  char buf = 'o';
  std::int64_t off = 0;
};

// One contiguous run of chunks moved from src to dst: an `s` step at src and an `r`/`rrc`
// step at dst. Dependencies name transfers whose *receive* step (at this transfer's src for
// send_dep, at its dst for recv_dep) must finish first.
struct Transfer {
  int instance = 0;
  int phase = 0;
  std::int64_t level = 0;
  int tree = 0;
  std::int64_t chunk = 0;
  int src = -1;
  int dst = -1;
  int cnt = 0;
  BufRef send;
  int send_dep = -1;
  bool reduce = false;
  BufRef recv_dst;
  BufRef recv_src;  // rrc: the local operand; r: equal to recv_dst
  int recv_dep = -1;
  int route = -1;  // index into Lowering::routes
  int piece = 0;   // MSCCL++ --pieces: which part of a cut transfer (not part of KeyOf)
  // Fused lowering (--fuse): the send of transfer fuse_next is carried by this transfer's
  // receive step (rcs for gathers, rrs for reductions); that transfer has send_fused set.
  int fuse_next = -1;
  bool send_fused = false;
  // Assigned by Assemble.
  int chan = 0;
  std::tuple<int, int, int> send_block{-1, -1, -1}, recv_block{-1, -1, -1};  // (send, recv, chan)
  int send_tb = -1, send_step = -1, recv_tb = -1, recv_step = -1;
};

struct LocalCopy {
  int gpu = -1;
  BufRef from, to;
  int cnt = 0;
};

struct RouteShare {
  std::vector<int> path;  // node ids in the direction the data flows
  Rational share;         // fraction of the transfer's data on this route
};

struct Lowering {
  int ngpus = 0;
  std::vector<Transfer> transfers;
  std::vector<LocalCopy> copies;
  std::vector<std::vector<RouteShare>> routes;
  // Scratch chunks per GPU when the lowering lays scratch out itself (all-to-all relays: one
  // fresh slot range per relayed transfer); -1: the collectives' N·cK partial sums.
  std::int64_t scratch_chunks = -1;
};

inline auto KeyOf(const Transfer& t) {
  return std::make_tuple(t.instance, t.phase, t.level, t.tree, t.chunk, t.src, t.dst);
}

// Buffer roles per collective (docs/export.md "Buffer layout per collective"); g = global chunk
// index.
struct Layout {
  Collective coll = Collective::kAllgather;
  bool inplace = false;
  bool fuse = false;
  int n = 0;
  std::int64_t K = 0;   // chunks per shard per instance
  std::int64_t cK = 0;  // chunks per shard (all instances)
  std::int64_t Global(int shard, int instance, std::int64_t local) const {
    return shard * cK + instance * K + local;
  }
  // Own contribution of a reduction.
  BufRef Contrib(std::int64_t g) const {
    return {coll == Collective::kAllreduce && inplace ? 'o' : 'i', g};
  }
  // Where the owner's reduced result goes.
  BufRef Final(int shard, std::int64_t g) const {
    if (coll == Collective::kReduceScatter)
      return inplace ? BufRef{'i', g} : BufRef{'o', g - shard * cK};
    return {'o', g};
  }
  // Where a root reads its own data (allgather, broadcast, allreduce's second phase).
  BufRef RootSource(int shard, std::int64_t g) const {
    if (coll == Collective::kAllgather)
      return inplace ? BufRef{'o', g} : BufRef{'i', g - shard * cK};
    if (coll == Collective::kBroadcast) return {inplace ? 'o' : 'i', g};
    return {'o', g};
  }
};

// Options every target's lowering takes (the target checks its own options first).
struct LowerOptions {
  bool inplace = false;
  bool fuse = false;  // pipeline schedules: mark forwards for the fused MSCCL lowering
  bool root_specific = false;
  int instances = 1;
  std::int64_t max_chunks = 256;
  // Called once the chunk pieces are known and before any transfer is built, so a target can
  // refuse a schedule too large for it without building it (a 1024-GPU schedule can be
  // millions of transfers); it throws to refuse. Pipeline schedules: (fewest transfers some
  // rank receives in all: the busiest rank's lower bound, that rank, transfers in all); step
  // schedules: (a lower bound on the transfers the busiest rank receives, -1, chunks per shard).
  std::function<void(std::int64_t rank_transfers, int rank, std::int64_t total)> precheck;
};

// A schedule lowered to transfers, with what every target reports next to its file.
struct LoweredSchedule {
  Lowering L;
  Layout lay;
  bool exact_chunks = true;
  BigInt exact_chunks_per_shard;  // the lcm of the denominators
  Rational optimal_ratio;         // the schedule's exact ratio (msccl_program.h)
  int root_rank = -1;             // broadcast: the root's rank
  bool per_level = false;         // loads are grouped per comm step (step schedules)
};

// The lowerings (msccl_program.h describes them). The schedule must be valid for g. Throw
// ExportLimitError (--max-chunks), InputError(file, item, problem) for input no target takes
// (broadcast without root_specific, step schedules through switches, ...).
LoweredSchedule LowerPipelineSchedule(const Topology& g, const PipelineSchedule& s,
                                      const std::vector<int>& rank_of_node, const LowerOptions& o,
                                      const std::string& file);
LoweredSchedule LowerStepSchedule(const Topology& g, const StepSchedule& s,
                                  const std::vector<int>& rank_of_node, const LowerOptions& o,
                                  const std::string& file);
// All-to-all flows (msccl_flow_lowering.cc; docs/export.md "All-to-all flows"): every path's
// share of a pair's block becomes whole chunks, every GPU-to-GPU hop of a path (switch hops
// collapsed) a transfer; relays keep the data in scratch. Precheck: (the most steps one rank
// sends and receives, that rank, transfers in all).
LoweredSchedule LowerFlowSchedule(const Topology& g, const FlowSchedule& s,
                                  const std::vector<int>& rank_of_node, const LowerOptions& o,
                                  const std::string& file);

// Splits [0, size) at the given boundaries and into runs of at most kMaxCnt chunks; returns
// the sorted cut points including 0 and size.
std::vector<std::int64_t> Pieces(std::set<std::int64_t> bounds, std::int64_t size);

// Channels, blocks, steps and dependencies of the transfers (split or fused per options);
// fills result's block/step/channel figures. Throws ExportLimitError.
MscclProgram Assemble(Lowering& L, const MscclExportOptions& o, MscclExportResult* result);

// Loads per physical link in shard units (per phase, or per comm step when per_level); the
// achieved ratio is the sum over groups of max_e load_e / b_e. Fills link_loads.
Rational AccountLoads(const Topology& g, const Lowering& L, std::int64_t chunks_per_shard_all,
                      bool per_level, nlohmann::json* link_loads);

// The side file (docs/export.md): ranks, routes, transfers (their `chan` field), link loads
// and both ratios; nchunksperloop and chunks_per_shard in the target's chunk unit.
nlohmann::json RoutesJson(const Topology& g, const Lowering& L, Collective coll,
                          std::int64_t nchunksperloop, std::int64_t chunks_per_shard,
                          const std::vector<int>& rank_of_node, const Rational& optimal_ratio,
                          const Rational& achieved_ratio, nlohmann::json link_loads);

// std::invalid_argument for option values outside their ranges.
void CheckOptions(const MscclExportOptions& o);

// The command-line checks `export msccl|chakra` and `export mscclpp` share
// (ValidateMscclExportOptions, ValidateMscclppExportOptions): InputError("<args>", "--OPTION",
// ...) for --min-bytes / --max-bytes, --max-tbs outside 1..1024, --max-chunks outside 1..2^40,
// --instances outside 1..32.
void ValidateSharedExportOptions(std::int64_t min_bytes, std::int64_t max_bytes, int max_tbs,
                                 std::int64_t max_chunks, int instances);

// The precheck (LowerOptions::precheck) of a lowering whose counts are the busiest rank's
// steps: ExportLimitError("elements per rank") when 1 + ngpus + those steps exceed the runtime
// parser's kMscclMaxRankElements; `advice` ends the message (what to lower).
std::function<void(std::int64_t, int, std::int64_t)> RankElementsPrecheck(int ngpus,
                                                                          std::string advice);

// The lowering options of an MSCCL export.
LowerOptions LowerOptionsOf(const MscclExportOptions& o);

// The MSCCL program of a lowered schedule: Assemble, buffers, name, ratios and the side file.
// Throws ExportLimitError.
MscclExportResult AssembleMsccl(const Topology& g, Collective coll,
                                const std::vector<int>& rank_of_node, const MscclExportOptions& o,
                                LoweredSchedule* ls);

// i/o/s chunk counts and nchunksperloop of the collective's buffer layout.
void SetBuffers(const Layout& lay, const Lowering& L, MscclProgram* p);

// Out-of-place allgather / broadcast: each root copies its input into the output.
void AddCopies(const Layout& lay, int instances, const std::vector<int>& roots, Lowering* L);

}  // namespace collsynth::export_internal

#endif  // COLLSYNTH_EXPORT_MSCCL_LOWERING_H_
