#include "cli/export_msccl.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/checked_output.h"
#include "cli/command_registry.h"
#include "cli/export_common.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "export/msccl_program.h"
#include "export/msccl_xml.h"
#include "graphs/topology_io.h"
#include "proofs_check/msccl_replay.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// The independent replay (proofs_check/msccl_replay.h) of the file at `path`, read back
// from disk, at the kernel's connector depth and at depth 1 (a conservative model: the
// lowering must not rely on connector buffering). Returns the violations (empty: accepted).
std::vector<std::string> ReplayWrittenFile(const std::string& path, MscclExportProfile profile,
                                           int root) {
  ReplayOptions ro;
  ro.profile = profile == MscclExportProfile::kLegacy ? MscclProfile::kLegacy
               : profile == MscclExportProfile::kRccl ? MscclProfile::kRccl
                                                      : MscclProfile::kExecutor;
  ro.root = root < 0 ? 0 : root;
  const std::string text = ReadTextFile(path);
  for (int depth : {0, 1}) {
    ro.fifo_depth = depth;
    ReplayResult r = ReplayMscclXml(text, path, ro);
    if (r.ok) continue;
    std::vector<std::string> out;
    for (const ReplayViolation& v : r.violations) {
      out.push_back(std::string(ReplayStageName(v.stage)) + " " + ReplayViolationKindName(v.kind) +
                    ": " + v.message + (depth == 1 ? " (connector depth 1)" : ""));
    }
    if (out.empty()) out.push_back("rejected without a violation listed");
    return out;
  }
  return {};
}

// Testing hook (docs/cli.md): COLLSYNTH_FAULT_INJECT=corrupt-output drops the last <step>
// line of the XML before it is written, a stand-in for a writer bug, so tests can show that
// the replay of the written bytes turns it into exit 1. It can only make the command fail.
void MaybeCorrupt(std::string& xml) {
  const char* v = std::getenv("COLLSYNTH_FAULT_INJECT");
  if (v == nullptr || std::strcmp(v, "corrupt-output") != 0) return;
  const std::size_t at = xml.rfind("<step ");
  if (at == std::string::npos) return;
  const std::size_t begin = xml.rfind('\n', at) + 1;
  const std::size_t end = xml.find('\n', at);
  xml.erase(begin, end - begin + 1);
}

}  // namespace

ExportOutcome ExportMsccl(const ExportMscclArgs& a, const ExportInput& source) {
  MscclExportOptions o;
  SetExportTargetOptions(a, "XML", &o);
  try {
    o.profile = ParseMscclExportProfile(a.profile);
  } catch (const std::invalid_argument& e) {
    throw InputError("<args>", "--profile", e.what());
  }
  o.max_channels = a.max_channels;
  o.root_specific = a.root_specific;
  o.fuse = a.fuse;
  ValidateMscclExportOptions(o);

  VerifiedInput in;
  if (!ReadVerifiedInput(source, &in)) return OutcomeFailed("");
  const Topology& g = in.g;
  const std::string& file = in.file;
  MscclExportResult r;
  try {
    r = LowerByFormat<MscclExportResult>(
        in,
        [&](const PipelineSchedule& s) {
          return ExportPipelineToMscclProgram(g, s, in.rank, o, file);
        },
        [&](const StepSchedule& s) { return ExportStepsToMscclProgram(g, s, in.rank, o, file); },
        [&](const FlowSchedule& s) { return ExportFlowsToMscclProgram(g, s, in.rank, o, file); });
    // Refused before the file is written and replayed.
    CheckMscclProgramStepLimit(r.program, MscclProgramStepLimit());
  } catch (const ExportLimitError& e) {
    return OutcomeFailed("export msccl: limit " + e.limit() + ": " + e.what());
  }
  std::vector<std::string> violations = CheckMscclProgramInvariants(r.program, o);
  if (!violations.empty()) {
    return OutcomeFailed("export msccl: the lowered program breaks " + violations[0] + " (" +
                         std::to_string(violations.size()) + " violations; nothing written)");
  }
  CheckMscclLegacyScratchRange(r.program, o);
  const std::string path = OutputPath(a.output, MscclFileName(r.program, o.profile));
  const std::string routes = RoutesPath(path, ".xml");
  std::vector<std::string> replay;
  const CheckedOutput written =
      WriteChecked({{path,
                     [&](std::ostream& out) {
                       std::string xml = MscclXmlText(r.program, o.profile);
                       MaybeCorrupt(xml);
                       out << xml;
                     }},
                    {routes, [&](std::ostream& out) { out << r.routes.dump() << "\n"; }}},
                   [&](const std::vector<std::string>& partials) {
                     replay = ReplayWrittenFile(partials[0], o.profile, r.root_rank);
                     return replay.empty() ? std::string() : replay[0];
                   });
  if (!written.ok) {
    return OutcomeFailed(
        replay.empty()
            ? "export msccl: " + written.error + "; nothing written"
            : "export msccl: the replay checker did not accept " + path + ": " + replay[0] +
                  (replay.size() > 1 ? " (and " + std::to_string(replay.size() - 1) + " more)"
                                     : "") +
                  "; nothing written");
  }

  json summary = {{"ok", true},
                  {"file", path},
                  {"routes_file", routes},
                  {"collective", CollectiveName(r.program.collective)},
                  {"profile", MscclExportProfileName(o.profile)},
                  {"proto", r.program.proto},
                  {"ngpus", r.program.ngpus},
                  {"nchunksperloop", r.program.nchunksperloop},
                  {"chunks_per_shard", r.chunks_per_shard},
                  {"exact_chunks", r.exact_chunks},
                  {"lcm_chunks_per_shard", ToString(r.exact_chunks_per_shard)},
                  {"instances", o.instances},
                  {"channels", r.program.nchannels},
                  {"blocks_per_gpu", r.blocks_per_gpu},
                  {"max_steps_per_block", r.max_steps_per_block},
                  {"optimal_ratio", ToString(r.optimal_ratio)},
                  {"achieved_ratio", ToString(r.achieved_ratio)},
                  {"inplace", r.program.inplace},
                  {"min_bytes", r.program.min_bytes},
                  {"max_bytes", MscclWrittenMaxBytes(r.program, o.profile)},
                  {"lowering", o.fuse && in.schedule.pipeline ? "fused" : "split"},
                  {"replay", "accepted"}};
  ExportOutcome outcome;
  outcome.json = std::move(summary);
  std::ostringstream text;
  const bool whole_buffer = r.program.collective == Collective::kAllgather ||
                            r.program.collective == Collective::kReduceScatter ||
                            r.program.collective == Collective::kAlltoall;
  text << "wrote " << EscapeForMessage(path) << " (" << CollectiveName(r.program.collective) << ", "
       << r.program.ngpus << " GPUs, nchunksperloop " << r.program.nchunksperloop << ", "
       << r.program.nchannels << " channels, " << r.blocks_per_gpu << " blocks per GPU, at most "
       << r.max_steps_per_block << " steps per block; replay accepted)\n"
       << "ratio: optimal " << ToString(r.optimal_ratio) << ", achieved "
       << ToString(r.achieved_ratio)
       << (r.exact_chunks ? " (exact chunks)" : " (chunks rounded to --max-chunks)") << "\n"
       << "routes: " << EscapeForMessage(routes) << "\n"
       << "run with at least " << r.program.nchannels
       << " channels (NCCL_MIN_NCHANNELS); the runtime uses "
       << "the file only when the element count" << (whole_buffer ? " times ngpus" : "")
       << " is a multiple of " << r.program.nchunksperloop << "\n";
  outcome.text = text.str();
  return outcome;
}

}  // namespace collsynth::cli
