// `collsynth tune` (docs/tune.md): at each message size, the fastest schedule the workbench can
// check, and how far it is from the best possible. The candidates are every algorithm that
// applies to the topology: the pipeline path's bandwidth-optimal schedule (symmetric where it
// applies, and the plain path up to kTunePlainPipelineMaxCompute compute nodes), BFB on
// direct-connect topologies, and the routed baselines (RoutedBaselineNames(): direct,
// routed-ring, routed-recursive-doubling, routed-double-binary-tree, hierarchical;
// solvers/baselines/routed_baselines.h). Each is checked by the
// independent checker before it is a candidate. Per size, every candidate is simulated
// (simulate/simulation_run.h) at each P of the chunk sweep; the least completion time wins.
// The lower bound LB(M) = max(D_α, ratio*·(M/N)/b) is proven in docs/tune.md. Never prints.
#ifndef COLLSYNTH_EXPERIMENTS_TUNE_H_
#define COLLSYNTH_EXPERIMENTS_TUNE_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "simulate/simulation_model.h"

namespace collsynth {

inline constexpr int kTunePlainPipelineMaxCompute = 256;
// Why a plain (Θ(N²) tree edges) schedule is not built on `g`: "" up to
// kTunePlainPipelineMaxCompute compute nodes, else the reason listed under `skipped` for the
// routed baselines (tune and the height candidates of experiments/pareto.h).
std::string PlainBaselineTooLarge(const Topology& g);
// A routed baseline whose simulation moves more than this many transfers per chunk
// (store-and-forward) and more than kTuneRoutedBaselineWorkOverDirect times `direct`'s is listed
// under `skipped`: the double binary tree on GPU boxes has 2G trees per root, and its sweep
// would take most of tune's time (docs/tune.md).
inline constexpr std::uint64_t kTuneRoutedBaselineTransfers = std::uint64_t{1} << 16;
inline constexpr std::uint64_t kTuneRoutedBaselineWorkOverDirect = 4;

struct TuneCandidate {
  std::string algorithm;  // "pipeline-symmetric", "pipeline", "bfb", "direct", ...
  // Exactly one of these: what is simulated (a symmetric schedule is simulated as its
  // expansion, which is what `collsynth simulate` does with the compact file).
  std::optional<PipelineSchedule> pipeline;
  std::optional<SymmetricPipelineSchedule> symmetric;  // with `pipeline` = its expansion
  std::optional<StepSchedule> steps;
  // Pipeline schedules: the height measured by the checker (docs/formats.md "Height"), and in
  // α-time once MeasureTuneAlphaHeights ran; nullopt for step schedules.
  std::optional<std::int64_t> height_hops;
  std::optional<Rational> height_alpha;  // seconds
};

struct TuneCandidates {
  std::vector<TuneCandidate> list;
  std::vector<std::pair<std::string, std::string>> skipped;  // (algorithm, why)
  // ratio*, certified by the checker's cut on the pipeline schedule (T_B in units of M/N), or
  // nullopt when no certified bound was found (LB is then D_α alone).
  std::optional<Rational> bandwidth_bound;
  std::string bandwidth_bound_by;  // "bound (1)", ... as the checker names it
};

// Builds and checks every candidate for `collective` (allgather, reduce-scatter, allreduce).
// An algorithm that does not apply, or (a producer defect) fails its checker, is listed in
// `skipped` with the reason. InputError for a broadcast.
TuneCandidates BuildTuneCandidates(const Topology& g, Collective collective,
                                   const std::string& file);

// Sets height_alpha of every pipeline candidate: proofs_check's PipelineHeightAlpha over the
// simulator's link latencies (LinkLatencies(g, model): a link's own, else model.default_alpha).
// O(the candidates' sizes).
void MeasureTuneAlphaHeights(const Topology& g, const SimulationModel& model,
                             TuneCandidates& candidates);

struct TuneEntry {
  std::string algorithm;
  std::size_t candidate = 0;  // index into TuneCandidates::list
  std::int64_t chunks = 1;    // the P that reproduces `time` with `collsynth simulate --chunks P`
  Rational time;              // seconds, exact
};

struct TuneRow {
  Rational bytes;                  // M
  std::vector<TuneEntry> entries;  // one per candidate simulated, candidate order
  std::vector<std::pair<std::string, std::string>> skipped;  // (algorithm, why) at this size
  std::size_t best = 0;       // index into entries (the least time; first on ties)
  Rational lower_bound;       // LB(M), seconds
  Rational alpha_bound;       // D_α, seconds
  Rational alpha_beta_bound;  // TuneAlphaBetaBound, seconds (0 when none applies)
};

// One size: model.size is set to `bytes`; `chunks_sweep` as `simulate --chunks-sweep` (pipeline
// candidates; step schedules are simulated once). A candidate whose sweep passes the simulator's
// work bound is retried with its sweep cut to the P that fit, else listed in `skipped`.
// InputError when no candidate could be simulated.
TuneRow TuneSize(const Topology& g, const TuneCandidates& candidates, SimulationModel model,
                 Collective collective, const std::string& chunks_sweep, const Rational& bytes);

// The byte ranges a size-tuned set is selected by (docs/tune.md "Export"): the tuned sizes
// `bytes` (strictly increasing whole numbers of bytes, else InputError naming --sizes) with
// their winners; adjacent sizes with the same winner form one range. The ranges are disjoint,
// inclusive and cover every byte count: the first starts at 0, the last has no upper bound,
// and between the last size b of one range and the first size b' of the next the boundary is
// the geometric mean, max_bytes = floor(sqrt(b·b')) (so b <= max_bytes < b'), the next range
// starting at max_bytes + 1. O(number of sizes) big-integer operations.
struct TuneByteRange {
  std::int64_t min_bytes = 0;
  std::optional<std::int64_t> max_bytes;  // inclusive; nullopt: no upper bound
  std::size_t first = 0, last = 0;        // the tuned sizes in it: indices into `bytes`
};
std::vector<TuneByteRange> TuneByteRanges(const std::vector<Rational>& bytes,
                                          const std::vector<std::string>& winners);

// NCCL's own algorithm for a tune candidate, in the names of NCCL's tuner plugin (docs/tune.md
// "NCCL tuner table"): `routed-ring` is NCCL's "ring"; `routed-double-binary-tree` its "tree",
// for allreduce only (NCCL has no tree allgather or reduce-scatter: NVIDIA/nccl
// src/graph/tuning.cc, `ncclTopoTuneModel`); nullopt for every other candidate (not an NCCL
// algorithm). TuneNcclCollectiveName: the plugin's collective name ("allgather",
// "reducescatter", "allreduce"; "" for the others).
std::optional<std::string> TuneNcclAlgorithm(Collective collective, const std::string& algorithm);
std::string TuneNcclCollectiveName(Collective collective);
// The fastest entry of `row` that NCCL runs (least time, first on ties), or nullopt when no
// NCCL-runnable candidate was simulated at that size. O(entries).
std::optional<std::size_t> TuneNcclBest(const TuneRow& row, Collective collective);

// The check of a written range index (`tune --export`'s OUT/<target>-index.json, docs/tune.md
// "Export"), run on the bytes read back from disk before the index is kept: "ranges" ordered,
// disjoint and covering (the first from min_bytes 0, each next from the previous max_bytes + 1,
// only the last with max_bytes null), and each range's tuned "bytes" (decimal strings) inside
// it. Returns "" when accepted, else the first problem. O(ranges + sizes).
std::string CheckTuneExportIndex(const nlohmann::json& index);

// The α-eccentricities of the compute nodes (in ComputeNodes() order): out[i], the largest
// α-distance (the least sum of link latencies LinkLatencies(g, m) over a path) from compute node
// i to another compute node; in[i], the largest from another compute node to i (0 for nodes that
// reach, or are reached by, none). Dijkstra from each compute node in exact arithmetic.
// O(N·|E|·log|V|) Rational operations.
// from_at[i] / to_at[i]: how many other compute nodes lie at each α-distance from / to compute
// node i (distance -> count; unreachable nodes are not counted).
struct TuneAlphaEccentricities {
  std::vector<Rational> out, in;
  std::vector<std::map<Rational, std::int64_t>> from_at, to_at;
};
TuneAlphaEccentricities TuneAlphaEccentricity(const Topology& g, const SimulationModel& m);

// The α-β term of LB(M) (docs/tune.md "The lower bound"), in seconds at model.size:
// * allgather: max over compute nodes v and distances d of d + j_d·shard/(B_in(v)·b), j_d the
//   number of compute nodes at α-distance >= d from which v must receive a shard, B_in(v) the
//   bandwidth of v's in-links;
// * reduce-scatter: the same with the distances from v and B_out(v) (v's own contributions to
//   j_d other outputs leave v and must then travel at least d);
// * allreduce: the larger of the two with shard M/N (an allreduce computes an allgather and a
//   reduce-scatter of M/N-byte shards: docs/tune.md "The lower bound");
// * 0 for broadcast.
// O(N · distinct distances) from `ecc`.
Rational TuneAlphaBetaBound(const Topology& g, const SimulationModel& model, Collective collective,
                            const TuneAlphaEccentricities& ecc);

// α_min: the least link latency (LinkLatencies(g, m)), 0 without links. O(|E|).
Rational TuneLeastLatency(const Topology& g, const SimulationModel& m);

// D_α: the largest α-distance (the sum of the links' latencies, LinkLatencies(g, m)) from a
// compute node to another, by Dijkstra from each compute node in exact arithmetic.
// O(N·|E|·log|V|) Rational operations.
Rational TuneAlphaDiameter(const Topology& g, const SimulationModel& m);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPERIMENTS_TUNE_H_
