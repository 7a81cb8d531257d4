// PipelineSchedule: the "pipeline" schedule format (seed 004 §2): weighted out-trees over the
// compute nodes whose edges are routed over physical paths through switches. Data type plus
// its JSON contract (docs/formats.md); no logic beyond (de)serialization. Node fields are
// Topology node ids; multiplicities are exact big integers.
#ifndef COLLSYNTH_SCHEDULES_PIPELINE_SCHEDULE_H_
#define COLLSYNTH_SCHEDULES_PIPELINE_SCHEDULE_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"

namespace collsynth {

struct PipelineRoute {
  std::vector<int> path;  // from the edge's tail to its head; inner nodes are switches
  BigInt multiplicity;
};

struct PipelineTreeEdge {
  int from = -1;  // parent (compute)
  int to = -1;    // child (compute)
  std::vector<PipelineRoute> routes;
};

struct PipelineTree {
  int root = -1;
  BigInt multiplicity;  // this many identical trees, each carrying 1/k of root's shard
  std::vector<PipelineTreeEdge> edges;
};

struct PipelineSchedule {
  // Allgather, reduce-scatter (trees parent->child, data flows child->parent along the
  // reversed path), broadcast (all trees rooted at `root`), or allreduce (then `phases`
  // holds the reduce-scatter and the allgather schedule, in that order, and `trees` is empty).
  Collective collective = Collective::kAllgather;
  std::optional<int> root;
  Rational ratio;  // claimed: max over links of load / (k · b_e)
  Rational U;
  BigInt k;
  std::vector<PipelineTree> trees;
  std::vector<PipelineSchedule> phases;            // allreduce only
  std::optional<std::vector<int>> bottleneck_cut;  // certificate S* (node ids), if claimed optimal
  // Fixed k: certificate X (node ids) that no schedule with k trees per root has a smaller
  // ratio (docs/formats.md; checked by CheckPipelineSchedule).
  std::optional<std::vector<int>> fixed_k_cut;
  // Allreduce only: certificate of bound (7) (seed 004 Corollary 18): one node set S_v per
  // compute node v with S_v ∩ V_c = {v}; the checker derives 2(N-1) / max_v B+(S_v).
  std::optional<std::vector<std::vector<int>>> single_node_cuts;
  // Claimed height (docs/formats.md "Height"): the largest number of links from a tree's root
  // to a compute node along the tree's routes, over all trees (allreduce: the sum of the two
  // phases' heights, each phase carrying its own). Optional; the checker measures the height
  // itself and rejects a claim that differs (kWrongHeight).
  std::optional<std::int64_t> height_hops;
  nlohmann::json extra = nlohmann::json::object();  // producer metadata, passed through
};

PipelineSchedule PipelineScheduleFromJson(const nlohmann::json& j, const Topology& g,
                                          const std::string& file);

// The producers' height claim (PipelineSchedule::height_hops, docs/formats.md "Height"): the
// largest number of links from the root to a node along the tree's edges, each edge counting
// its longest route. Precondition: t is a tree (what a producer built); std::logic_error on a
// node with two parents or an edge unreachable from the root. O(size of the tree · log).
// The checker measures the height with its own code (proofs_check/pipeline_check_parts.h).
std::int64_t PipelineTreeHeightHops(const PipelineTree& t);
// Over the trees; an allreduce: the sum of its phases' heights.
std::int64_t PipelineScheduleHeightHops(const PipelineSchedule& s);

// Streaming read (the written file is checked by reading it back, docs/performance.md "Output
// check: the written file is the checked file"; a 1024-GPU
// schedule's JSON tree took 1.5 GB): ParseJsonText(text, file, PipelineTreeStreamHook(...))
// converts each tree as soon as the parser has it, once the top-level "format": "pipeline"
// has been read (every collsynth writer puts it before "trees"; otherwise nothing is streamed
// and the trees stay in the document), so memory is the schedule plus one tree's JSON. Then
// PipelineScheduleFromJson(doc, g, file, &trees) gives the same schedule as the plain read
// (on a malformed file the first error named may differ: trees are read first). Key: (0 for the top
// level, 1 + p for phases[p], tree index).
using StreamedPipelineTrees = std::map<std::pair<int, std::size_t>, PipelineTree>;
JsonElementHook PipelineTreeStreamHook(const Topology& g, const std::string& file,
                                       StreamedPipelineTrees* trees);
PipelineSchedule PipelineScheduleFromJson(const nlohmann::json& j, const Topology& g,
                                          const std::string& file, StreamedPipelineTrees* streamed);
// Building blocks shared with the "pipeline-symmetric" format
// (schedules/symmetric_pipeline_schedule.h), whose representatives' trees, k and producer
// extras are written exactly as here. PipelineTreeFromJson reads one element of "trees"
// (errors name `item`.root, `item`.edges[3].routes[0].path[2], ...); PipelineTreeToJson is
// its JSON (an element of the document's "trees"). O(size of the tree).
PipelineTree PipelineTreeFromJson(const nlohmann::json& t, const Topology& g,
                                  const std::string& file, const std::string& item);
nlohmann::json PipelineTreeToJson(const PipelineTree& t, const Topology& g);
// One element of a tree's "edges" ({"from", "to", "routes"}), read and written as there (the
// pipeline-symmetric format's route overrides are such objects).
PipelineTreeEdge PipelineTreeEdgeFromJson(const nlohmann::json& e, const Topology& g,
                                          const std::string& file, const std::string& item);
nlohmann::json PipelineTreeEdgeToJson(const PipelineTreeEdge& e, const Topology& g);
// A positive big integer (`k`, multiplicities): a JSON integer or a decimal string of digits.
BigInt PipelinePositiveBigIntFromJson(const nlohmann::json& v, const std::string& file,
                                      const std::string& item);
// The optional member "height_hops" of the schedule object `j` (PipelineSchedule::height_hops):
// an integer in [0, 2^62]; nullopt when absent or null; InputError naming PREFIX.height_hops
// otherwise. Shared with the "pipeline-symmetric" reader.
std::optional<std::int64_t> ReadPipelineHeightClaim(const nlohmann::json& j,
                                                    const std::string& file,
                                                    const std::string& prefix);
// A JSON integer when 0 <= z < 2^63, else its decimal string.
nlohmann::json PipelineBigIntToJson(const BigInt& z);
// Producer extras nesting arrays/objects deeper than this are refused while reading.
inline constexpr int kMaxPipelineExtraDepth = 64;
// Whether v nests arrays/objects more than `limit` levels deep (a scalar is 0). Iterative.
bool JsonNestedDeeperThan(const nlohmann::json& v, int limit);
// Adds to `extra` the members of the schedule object `j` whose keys is_known rejects (the
// producer extras a reader passes through); one nesting deeper than kMaxPipelineExtraDepth is an
// InputError naming it ("PREFIX.KEY", or "KEY" at the top level). O(size of j's members).
void ReadPipelineExtras(const nlohmann::json& j, bool (*is_known)(const std::string&),
                        const std::string& file, const std::string& prefix, nlohmann::json& extra);
// The optional member "single_node_cuts" of the schedule object `j` (bound (7) sets: an array
// of arrays of node names of g); nullopt when absent or null. InputError naming the member
// ("PREFIX.single_node_cuts[c][i]") when it is malformed or `allreduce` is false. O(its size).
std::optional<std::vector<std::vector<int>>> ReadPipelineSingleNodeCuts(const nlohmann::json& j,
                                                                        bool allreduce,
                                                                        const Topology& g,
                                                                        const std::string& file,
                                                                        const std::string& prefix);

// Whether `key` is a top-level member of the "pipeline" format (docs/formats.md); any other
// member is producer metadata, kept in `extra`.
bool IsPipelineScheduleMember(const std::string& key);
// The document, streamed through JsonWriter (core/json_writer.h) in the order and bytes of
// a JSON tree's dump (sorted members; tests/fixtures/json_tree_writers.h is that tree, the
// reference these bytes are tested against): the trees (the bulk of a large schedule: N
// roots × N-1 edges × routes) are never held as a JSON tree. What `collsynth pipeline`
// writes.
std::string PipelineScheduleToJsonText(const PipelineSchedule& s, const Topology& g);
// The same bytes, written to `out` 16 KiB at a time as they are made (docs/performance.md "Plain
// pipeline path: where the memory goes"): the text
// (1.5 GB for 3,456 hosts) is never held in memory. `out`'s state says whether the write
// succeeded. O(size of the text) time, O(16 KiB) memory besides s.
void WritePipelineScheduleJson(const PipelineSchedule& s, const Topology& g, std::ostream& out);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_PIPELINE_SCHEDULE_H_
