// Checker of a set of per-rank Chakra execution traces (read by chakra_trace.h) against what
// ASTRA-sim's custom-collective runner needs and against the bytes the traces must move
// (docs/export.md "ASTRA-sim (Chakra ET)", "What the written traces are checked for").
// ASTRA-sim issues a node when its dependencies have finished; a SEND does not wait for the
// receiver and a RECV finishes when a SEND with the same (src, dst, tag, size) arrives
// (astra-sim/system/astraccl/custom_collectives/CustomAlgorithm.cc, the analytical backend's
// matching, first come first matched). So the traces run the collective to its end exactly
// when:
//   1 structure  the number of traces is the expected number of ranks, every rank has a node
//                (a custom collective ends when a node completes), every SEND of rank r says
//                comm_src = r and every RECV comm_dst = r, the peer is another rank in range,
//                comm_size > 0;
//   2 matching   (src, dst, tag) is unique among the SENDs and among the RECVs, and every
//                SEND is matched by exactly one RECV with the same (src, dst, tag) and
//                comm_size, and every RECV by one SEND;
//   3 acyclic    the graph of all ranks' nodes with an edge from each dependency (data and
//                control) to its node and from each SEND to its RECV has no cycle (no
//                deadlock; the violation names a cycle);
//   4 bytes      when an expectation is given: for every ordered pair (src, dst) of ranks the
//                SENDs from src to dst carry exactly the expected bytes (0 for pairs it does
//                not list).
// The stages run in order; the first stage with a violation ends the check. Shares no code with
// the exporter (export/chakra_et.h). Cost: O(V log V + E) time and O(V + E) memory for V nodes
// and E dependencies over all ranks. Never prints.
#ifndef COLLSYNTH_PROOFS_CHECK_CHAKRA_TRACE_CHECK_H_
#define COLLSYNTH_PROOFS_CHECK_CHAKRA_TRACE_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "proofs_check/chakra_trace.h"

namespace collsynth {

// Bytes from rank src to rank dst.
struct ChakraPairBytes {
  int src = 0;
  int dst = 0;
  std::int64_t bytes = 0;
};

// What the traces must move: plain data, filled by the caller from the program the traces
// stand for (export chakra: the MSCCL replay checker's chunks per pair times the chunk bytes).
struct ChakraTraceExpectation {
  std::vector<ChakraPairBytes> bytes_per_pair;  // one entry per pair at most; absent: 0
};

enum class ChakraTraceStage { kStructure = 1, kMatching = 2, kAcyclic = 3, kBytes = 4 };

struct ChakraTraceReport {
  bool ok = false;
  ChakraTraceStage stage = ChakraTraceStage::kStructure;  // the failing stage when !ok
  std::vector<std::string> violations;  // at most 20 listed, each naming file and node
  std::int64_t violations_total = 0;
  std::int64_t nodes = 0;
  std::int64_t sends = 0;
  std::vector<ChakraPairBytes> bytes_per_pair;  // as traced (stage 2 onwards), by (src, dst)
};

// Checks `ranks` (ranks[r] is rank r's trace). `expected_ranks`: the number of ranks the
// traces must have.
ChakraTraceReport CheckChakraTraceSet(const std::vector<ChakraRankTrace>& ranks, int expected_ranks,
                                      const std::optional<ChakraTraceExpectation>& expected);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_CHAKRA_TRACE_CHECK_H_
