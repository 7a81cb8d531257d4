// Reader of Chakra execution-trace files as ASTRA-sim's custom collectives read them
// (docs/export.md "ASTRA-sim (Chakra ET)" and "Runtime facts: Chakra ET for ASTRA-sim"): one
// file per rank, a stream of protobuf messages each preceded by its length as a varint, a
// GlobalMetadata first and then Nodes (mlcommons/chakra schema/protobuf/et_def.proto). Decoded
// with libprotobuf from the checker's own declaration of the fields it reads
// (proofs_check/chakra_trace.proto), independently of the exporter (export/chakra_et.h).
//
// What the reader takes as bad input (InputError naming the file, the item and the problem):
// a file that cannot be read or is 2 GiB or larger; a missing, truncated or overlong length
// prefix; a message that does not decode as its type; no GlobalMetadata; a node type other
// than COMP_NODE (4), COMM_SEND_NODE (5), COMM_RECV_NODE (6), the ones a custom collective
// issues; two nodes with one id; a data or control dependency naming no node of the file; a
// SEND or RECV without comm_size (int64_val), comm_src, comm_dst or comm_tag (int32_val),
// with one of them of another value type (Chakra's feeder, mlcommons/chakra
// src/feeder/et_feeder_node.cpp, reads exactly these members and would see 0), or with one of
// them twice. Whether the nodes make a correct collective is the checker's question
// (chakra_trace_check.h). Cost: linear in the file's bytes; memory about 56 bytes per node
// plus 8 per dependency. Never prints.
#ifndef COLLSYNTH_PROOFS_CHECK_CHAKRA_TRACE_H_
#define COLLSYNTH_PROOFS_CHECK_CHAKRA_TRACE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace collsynth {

// Node types a custom-collective trace may hold (et_def.proto NodeType values).
enum class ChakraTraceNodeType : std::uint8_t { kComp = 4, kSend = 5, kRecv = 6 };

struct ChakraTraceNode {
  std::uint64_t id = 0;
  ChakraTraceNodeType type = ChakraTraceNodeType::kComp;
  // Dependencies (data_deps then ctrl_deps) as indices into ChakraRankTrace::nodes:
  // deps[deps_begin .. deps_end) of the trace.
  std::uint64_t deps_begin = 0;
  std::uint64_t deps_end = 0;
  // SEND and RECV only (0 for COMP).
  std::int64_t comm_size = 0;
  std::int32_t comm_src = 0;
  std::int32_t comm_dst = 0;
  std::int32_t comm_tag = 0;
};

struct ChakraRankTrace {
  std::string file;                    // the name the reader was given, for messages
  std::string version;                 // GlobalMetadata.version
  std::vector<ChakraTraceNode> nodes;  // in file order
  std::vector<std::uint64_t> deps;     // node indices, see ChakraTraceNode
};

// Decodes `bytes`, the contents of `file`. Throws InputError(file, item, problem) as above;
// items are "message K" (0-based position in the stream), "node K" (K-th node, id X) and
// "node K attr NAME".
ChakraRankTrace ParseChakraTrace(std::string_view bytes, const std::string& file);

// Reads and decodes the file at `path` (InputError for a file that cannot be read, too).
ChakraRankTrace ReadChakraTraceFile(const std::string& path);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_CHAKRA_TRACE_H_
