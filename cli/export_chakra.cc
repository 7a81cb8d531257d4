#include "cli/export_chakra.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/checked_output.h"
#include "cli/command_registry.h"
#include "cli/schedule_input.h"
#include "core/checked_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "export/chakra_et.h"
#include "export/msccl_program.h"
#include "export/msccl_xml.h"
#include "graphs/topology_io.h"
#include "proofs_check/chakra_trace.h"
#include "proofs_check/chakra_trace_check.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/verify.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// ASTRA-sim's system-JSON key for the collective (CollectiveImplLookup.cc).
const char* SystemJsonKey(Collective c) {
  switch (c) {
    case Collective::kAllgather:
      return "all-gather-implementation-custom";
    case Collective::kReduceScatter:
      return "reduce-scatter-implementation-custom";
    case Collective::kAlltoall:
      return "all-to-all-implementation-custom";
    default:
      return "all-reduce-implementation-custom";
  }
}

// The bytes each ordered pair of ranks must carry in the traces: the MSCCL replay checker's
// chunks per pair in one round of the program (of size / nchunksperloop bytes each; the
// traces run the round once in `slices` slices of a chunk each). nullopt when a count
// overflows int64.
std::optional<ChakraTraceExpectation> ExpectedChakraBytes(
    const std::vector<ReplayPairChunks>& chunks, std::int64_t nchunksperloop,
    std::int64_t size_bytes) {
  ChakraTraceExpectation e;
  const std::int64_t chunk_bytes = size_bytes / nchunksperloop;
  for (const ReplayPairChunks& c : chunks) {
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(c.chunks, chunk_bytes, &bytes)) return std::nullopt;
    e.bytes_per_pair.push_back({c.src, c.dst, bytes});
  }
  return e;
}

// The check of the written trace files: each read back by the independent reader
// (proofs_check/chakra_trace.h), the set checked against the expected bytes per pair
// (proofs_check/chakra_trace_check.h), and each equal to the bytes meant to be written.
// Returns "" or the first problem.
std::string CheckWrittenTraces(const std::vector<std::string>& partials, const ChakraTraces& t,
                               const ChakraTraceExpectation& expected) {
  std::vector<ChakraRankTrace> read;
  std::vector<std::string> bytes;
  try {
    for (const std::string& partial : partials) {
      bytes.push_back(ReadTextFile(partial));
      read.push_back(ParseChakraTrace(bytes.back(), partial));
    }
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  const ChakraTraceReport report = CheckChakraTraceSet(read, t.ngpus, expected);
  if (!report.ok) {
    return "the trace check: " + report.violations.front() +
           (report.violations_total > 1
                ? " (and " + std::to_string(report.violations_total - 1) + " more)"
                : std::string());
  }
  for (std::size_t v = 0; v < partials.size(); ++v) {
    if (bytes[v] != ChakraEtFileBytes(t, static_cast<int>(v))) {
      return partials[v] + " does not read back as written";
    }
  }
  return "";
}

}  // namespace

ExportOutcome ExportChakra(const ExportChakraArgs& a, const ExportInput& source) {
  CheckChakraSize(a.size);
  if (a.prefix.empty() || a.prefix == "-") {
    throw InputError("<args>", "-o", "give a file prefix: the traces are PREFIX.<rank>.et");
  }
  VerifiedInput in;
  if (!ReadVerifiedInput(source, &in)) return OutcomeFailed("");
  const Topology& g = in.g;
  const CheckedSchedule* checked = &in.schedule;
  const std::string& file = in.file;

  MscclExportOptions o;
  o.max_chunks = a.max_chunks;
  o.max_tbs = a.max_tbs;
  o.max_channels = a.max_channels;
  o.fuse = a.fuse;
  ValidateMscclExportOptions(o, /*runtime_file=*/false);
  const std::vector<int> rank = DefaultRanks(g);
  MscclExportResult r;
  if (checked->collective() == Collective::kBroadcast) {
    throw InputError(file, "collective",
                     "broadcast has no ASTRA-sim custom collective; export chakra takes "
                     "allgather, reduce-scatter, allreduce and all-to-all flows");
  }
  try {
    if (checked->pipeline) {
      r = ExportPipelineToMscclProgram(g, *checked->pipeline, rank, o, file);
    } else if (checked->flows) {
      r = ExportFlowsToMscclProgram(g, *checked->flows, rank, o, file);
    } else {
      r = ExportStepsToMscclProgram(g, *checked->steps, rank, o, file);
    }
    CheckMscclProgramStepLimit(r.program, MscclProgramStepLimit());
  } catch (const ExportLimitError& e) {
    return OutcomeFailed("export chakra: limit " + e.limit() + ": " + e.what());
  }
  const MscclProgram& p = r.program;
  ChakraOptions co;
  co.size_bytes = a.size;
  co.slices = a.slices;
  CheckChakraOptions(p, co);
  std::vector<std::string> violations = CheckMscclProgramInvariants(p, o);
  if (!violations.empty()) {
    return OutcomeFailed("export chakra: the lowered program breaks " + violations[0] +
                         "; nothing written");
  }
  // The program the traces come from must implement the collective: the independent replay.
  ReplayOptions ro;
  std::vector<ReplayPairChunks> program_chunks;
  for (int depth : {0, 1}) {
    ro.fifo_depth = depth;
    ReplayResult replay =
        ReplayMscclXml(MscclXmlText(p, MscclExportProfile::kExecutor), "<program>", ro);
    program_chunks = replay.bytes_per_pair;
    if (!replay.ok) {
      return OutcomeFailed(
          "export chakra: the replay checker did not accept the lowered program: " +
          (replay.violations.empty() ? std::string("no violation listed")
                                     : replay.violations[0].message) +
          "; nothing written");
    }
  }
  ChakraTraces t;
  try {
    t = LowerMscclProgramToChakra(p, co);
  } catch (const ExportLimitError& e) {
    return OutcomeFailed("export chakra: limit " + e.limit() + ": " + e.what());
  }
  violations = CheckChakraTraces(t);
  if (!violations.empty()) {
    return OutcomeFailed("export chakra: the traces break: " + violations[0] + "; nothing written");
  }
  // The files on disk are read back by the independent reader and checked (matching, no
  // cycle, the program's bytes per pair) and must equal the bytes written (a short write or a
  // full disk is exit 1, nothing kept).
  std::optional<ChakraTraceExpectation> expected =
      ExpectedChakraBytes(program_chunks, p.nchunksperloop, a.size);
  if (!expected) {
    return OutcomeFailed("export chakra: limit comm_size: the bytes per pair exceed 2^63 - 1");
  }
  std::vector<OutputFile> files;
  for (int v = 0; v < t.ngpus; ++v) {
    files.push_back({a.prefix + "." + std::to_string(v) + ".et",
                     [&t, v](std::ostream& out) { out << ChakraEtFileBytes(t, v); }});
  }
  const CheckedOutput written =
      WriteChecked(files, [&t, &expected](const std::vector<std::string>& partials) {
        return CheckWrittenTraces(partials, t, *expected);
      });
  if (!written.ok) {
    return OutcomeFailed("export chakra: " + written.error + "; nothing written");
  }

  std::int64_t nodes = 0, sends = 0;
  std::size_t max_nodes = 0;
  json sent_bytes = json::array();
  for (const std::vector<ChakraNode>& rank_nodes : t.ranks) {
    nodes += static_cast<std::int64_t>(rank_nodes.size());
    max_nodes = std::max(max_nodes, rank_nodes.size());
    std::int64_t bytes = 0;
    for (const ChakraNode& x : rank_nodes) {
      if (x.type != ChakraNodeType::kSend) continue;
      ++sends;
      bytes += x.comm_size;
    }
    sent_bytes.push_back(bytes);
  }
  const char* key = SystemJsonKey(t.collective);
  ExportOutcome outcome;
  outcome.json = {{"ok", true},
                  {"prefix", a.prefix},
                  {"files", files.size()},
                  {"system_json_key", key},
                  {"collective", CollectiveName(t.collective)},
                  {"ngpus", t.ngpus},
                  {"size_bytes", t.size_bytes},
                  {"slices", t.slices},
                  {"nchunksperloop", p.nchunksperloop},
                  {"chunk_slice_bytes", t.chunk_slice_bytes},
                  {"nodes", nodes},
                  {"max_nodes_per_rank", max_nodes},
                  {"sends", sends},
                  {"sent_bytes_per_rank", sent_bytes},
                  {"exact_chunks", r.exact_chunks},
                  {"optimal_ratio", ToString(r.optimal_ratio)},
                  {"achieved_ratio", ToString(r.achieved_ratio)},
                  {"replay", "accepted"}};
  std::ostringstream text;
  text << "wrote " << EscapeForMessage(files.front().path) << " .. "
       << EscapeForMessage(files.back().path) << " (" << CollectiveName(t.collective) << ", "
       << t.ngpus << " ranks, " << nodes << " nodes, " << t.slices << " slices of nchunksperloop "
       << p.nchunksperloop << ", " << t.chunk_slice_bytes
       << " bytes per chunk slice; program replay accepted)\n"
       << "ratio: optimal " << ToString(r.optimal_ratio) << ", achieved "
       << ToString(r.achieved_ratio)
       << (r.exact_chunks ? " (exact chunks)" : " (chunks rounded to --max-chunks)") << "\n"
       << "ASTRA-sim system JSON: \"" << key << "\": [\"" << EscapeForMessage(a.prefix)
       << "\"] (the ET's comm_size, " << t.size_bytes
       << " bytes in all, overrides the workload's size)\n";
  outcome.text = text.str();
  return outcome;
}

}  // namespace collsynth::cli
