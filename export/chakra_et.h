// Chakra execution traces for ASTRA-sim's custom collectives (docs/export.md "ASTRA-sim
// (Chakra ET)" and "Runtime facts: Chakra ET for ASTRA-sim").
//
// ASTRA-sim 2.x runs a custom all-gather, reduce-scatter or all-reduce from one Chakra ET file
// per rank, `<prefix>.<rank>.et` (astra-sim/system/astraccl/CollectiveImplLookup.cc,
// custom_collectives/CustomAlgorithm.cc): a stream of varint-length-delimited protobuf
// messages, a GlobalMetadata first and then Nodes (mlcommons/chakra schema/protobuf/
// et_def.proto). CustomAlgorithm issues every node whose data_deps have finished: a
// COMM_SEND_NODE (5) sends `comm_size` bytes to `comm_dst` with `comm_tag`, a COMM_RECV_NODE
// (6) receives `comm_size` bytes from `comm_src` with `comm_tag` (the analytical backend
// matches a send with a receive on (tag, src, dst, size), first come first matched), a
// COMP_NODE (4) takes `duration_micros` (0: ASTRA-sim charges 1 ns). comm_size in the ET
// overrides the size of the workload's collective, so one ET set stands for one message size.
//
// The lowering starts from the MSCCL intermediate program (export/msccl_program.h), which
// the CLI has replay-checked, and runs it `slices` times (ASTRA-sim has no chunk loop; MSCCL's
// gridOffset loop runs the program once per slice of the buffer):
//   * every step of every thread block becomes, per slice, the nodes of its type:
//     s -> SEND; r -> RECV; rcs -> RECV, SEND; rrc -> RECV, COMP; rrs and rrcs -> RECV, COMP,
//     SEND; cpy, re, nop -> COMP (local work; no bytes on the network), each node depending on
//     the previous one of its step;
//   * the first node of a step depends on the last node of the previous step of its block
//     (program order; the first step of slice p on the last step of slice p-1) and, when the
//     step has depid/deps, on the last node of that step in the same slice;
//   * a transfer is the j-th sending step on connector (src, dst, channel) matched with the
//     j-th receiving step there (MSCCL's FIFO order, H2); its tag is unique per (src, dst):
//     p·T + (transfers of the pair on lower channels) + j, T the pair's transfers per slice;
//   * comm_size = cnt · size_bytes / (nchunksperloop · slices): size_bytes is the whole
//     N-rank buffer (allgather output, reduce-scatter input, allreduce vector) as in
//     docs/export.md; it must be a multiple of nchunksperloop · slices (no remainders).
// Nodes are numbered per rank 0..n-1 in a topological order (every data_dep is a smaller id).
// Cost: O(S·P·log) for S program steps and P slices, memory O(S·P). Never prints.
#ifndef COLLSYNTH_EXPORT_CHAKRA_ET_H_
#define COLLSYNTH_EXPORT_CHAKRA_ET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "export/msccl_program.h"

namespace collsynth {

// Chakra NodeType values (et_def.proto) the lowering uses.
enum class ChakraNodeType : int { kComp = 4, kSend = 5, kRecv = 6 };

// Chakra CollectiveCommType values (et_def.proto): written as the `comm_type` attribute of
// SEND and RECV nodes (ASTRA-sim's custom-collective reader does not read it).
enum class ChakraCommType : int {
  kAllReduce = 0,
  kAllGather = 2,
  kAllToAll = 6,
  kReduceScatter = 7
};

struct ChakraNode {
  ChakraNodeType type = ChakraNodeType::kComp;
  std::vector<std::uint64_t> data_deps;  // node ids of the same rank, each < this node's id
  // SEND and RECV only.
  std::int64_t comm_size = 0;  // bytes
  int comm_src = -1;
  int comm_dst = -1;
  std::int32_t comm_tag = 0;
  // Origin in the MSCCL program, for the node's name.
  int block = 0;
  int step = 0;
  int slice = 0;
};

struct ChakraTraces {
  Collective collective = Collective::kAllgather;
  int ngpus = 0;
  int slices = 1;
  std::int64_t size_bytes = 0;
  std::int64_t chunk_slice_bytes = 0;  // size_bytes / (nchunksperloop · slices)
  // ranks[r][id]: rank r's nodes, the node id being the index.
  std::vector<std::vector<ChakraNode>> ranks;
  // The step types of the program, for the names: step_types[r][block][step].
  std::vector<std::vector<std::vector<std::string>>> step_types;
};

struct ChakraOptions {
  std::int64_t size_bytes = 0;
  int slices = 4;
};

// The traces of program `p`. Throws std::invalid_argument for a broadcast program (ASTRA-sim
// has no custom broadcast), size_bytes <= 0, slices < 1, size_bytes not a multiple of
// nchunksperloop · slices, a step type outside the table above, or connectors whose two sides
// disagree (count or cnt); ExportLimitError("comm_tag", ...) when a pair needs tags beyond
// 2^31 - 1.
ChakraTraces LowerMscclProgramToChakra(const MscclProgram& p, const ChakraOptions& options);

// The number of trace nodes LowerMscclProgramToChakra(p, {.., slices}) builds, over all ranks
// (each step's parts, once per slice), computed in O(steps) before anything is built. Steps of
// a type outside the table count 0 (the lowering refuses them).
std::int64_t ChakraTraceNodeCount(const MscclProgram& p, int slices);

// The bound export chakra puts on ChakraTraceNodeCount: a node takes about 150 bytes in memory
// and 100 bytes on disk (two_cluster allgather, 7,680 and 61,440 nodes: 12.4 and 20.3 MB peak,
// 100 KB and 788 KB per rank file), so 2^23 nodes stay near 1.3 GB in memory and 0.9 GB of
// traces; --slices 65536 on a 9-node torus wrote 2.1 GB, --slices 4096 on fattree(8) ran out of
// memory.
inline constexpr std::int64_t kMaxChakraTraceNodes = std::int64_t{1} << 23;

// The options of `export chakra` for a lowered program, checked before any trace is built:
// size_bytes > 0; slices 1..65536; at most kMaxChakraTraceNodes trace nodes
// (ChakraTraceNodeCount); size_bytes a multiple of nchunksperloop x slices (every slice of a
// chunk is a whole number of bytes; the message names the nearest sizes that are).
// InputError("<args>", "--size" or "--slices", ...) otherwise. CheckChakraSize is the first
// check alone (the CLI runs it before reading anything).
void CheckChakraSize(std::int64_t size_bytes);
void CheckChakraOptions(const MscclProgram& p, const ChakraOptions& options);

// The lowering's self-check on the in-memory traces: every rank has a node (ASTRA-sim ends a
// custom collective only when a node completes); ids dense with every data_dep naming a
// smaller id of the same rank; SEND/RECV with comm_size > 0, peers in range, the own rank on
// its side; every SEND matched by exactly one RECV with the same (src, dst, tag) and size and
// no RECV left over; the graph of data_deps plus send -> matching receive acyclic over all
// ranks (so ASTRA-sim, whose sends do not wait for the receiver, cannot deadlock). Returns the
// violations (empty: ok), at most 20 listed.
std::vector<std::string> CheckChakraTraces(const ChakraTraces& t);

// The bytes of `<prefix>.<rank>.et`: a GlobalMetadata with string attributes `schema`
// ("1.0.2-chakra.0.0.4", as astra-sim's converter writes), `collective` (CollectiveName) and
// `generator`, then the rank's nodes in id order. Node fields: id (1), name (2), type (3),
// data_deps (5, packed), attr (10): comm_type and comm_size as int64_val, comm_src, comm_dst
// and comm_tag as int32_val (the types of astra-sim's example traces), always written (a
// oneof value 0 is still present). Fields at their proto3 default (id 0, no deps) are
// omitted.
std::string ChakraEtFileBytes(const ChakraTraces& t, int rank);

// The node's name, e.g. "rcs.tb2.s0.slice1.recv".
std::string ChakraNodeName(const ChakraTraces& t, int rank, const ChakraNode& node);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPORT_CHAKRA_ET_H_
