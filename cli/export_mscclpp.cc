#include "cli/export_mscclpp.h"

#include <algorithm>
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
#include "export/mscclpp_plan.h"
#include "graphs/topology_io.h"
#include "proofs_check/mscclpp_plan.h"
#include "proofs_check/mscclpp_replay.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// Testing hook (docs/cli.md): COLLSYNTH_FAULT_INJECT=corrupt-output turns the plan's last
// `signal` into a `nop` before it is written, so a wait is left without its signal.
void MaybeCorruptPlan(std::string& text) {
  const char* v = std::getenv("COLLSYNTH_FAULT_INJECT");
  if (v == nullptr || std::strcmp(v, "corrupt-output") != 0) return;
  const std::string from = "\"name\": \"signal\"";
  const std::size_t at = text.rfind(from);
  if (at != std::string::npos) text.replace(at, from.size(), "\"name\": \"nop\"");
}

}  // namespace

ExportOutcome ExportMscclpp(const ExportMscclppArgs& a, const ExportInput& source) {
  MscclppExportOptions o;
  SetExportTargetOptions(a, "plan", &o);
  o.pieces = a.pieces;
  ValidateMscclppExportOptions(o);

  VerifiedInput in;
  if (!ReadVerifiedInput(source, &in)) return OutcomeFailed("");
  MscclppExportResult r;
  try {
    r = LowerByFormat<MscclppExportResult>(
        in,
        [&](const PipelineSchedule& s) {
          return ExportPipelineToMscclppPlan(in.g, s, in.rank, o, in.file);
        },
        [&](const StepSchedule& s) {
          return ExportStepsToMscclppPlan(in.g, s, in.rank, o, in.file);
        },
        [&](const FlowSchedule& s) {
          return ExportFlowsToMscclppPlan(in.g, s, in.rank, o, in.file);
        });
  } catch (const ExportLimitError& e) {
    return OutcomeFailed("export mscclpp: limit " + e.limit() + ": " + e.what());
  }
  std::int64_t blocks = 0;
  for (const std::vector<int>& gpu : r.ops_per_block) blocks += gpu.size();
  if (blocks > mscclpp_check::kMaxBlocksTotal) {  // refused before the plan is written
    return OutcomeFailed("export mscclpp: limit blocks: " + std::to_string(blocks) +
                         " thread blocks in all, above the plan replay's limit of " +
                         std::to_string(mscclpp_check::kMaxBlocksTotal) +
                         " (its memory grows with the square of the blocks, docs/export.md); "
                         "nothing written");
  }
  const std::string path = OutputPath(a.output, MscclppFileName(r, o));
  const std::string routes = RoutesPath(path, ".json");
  ReplayResult replay;
  replay.ok = true;
  const CheckedOutput written = WriteChecked(
      {{path,
        [&](std::ostream& out) {
          std::string text = MscclppPlanText(r);
          MaybeCorruptPlan(text);
          out << text;
        }},
       {routes, [&](std::ostream& out) { out << r.routes.dump() << "\n"; }}},
      [&](const std::vector<std::string>& partials) {
        replay = ReplayMscclppPlan(ReadTextFile(partials[0]), path, MscclppReplayOptions{});
        return replay.ok ? std::string() : std::string("rejected");
      });
  if (!written.ok && replay.ok) {
    return OutcomeFailed("export mscclpp: " + written.error + "; nothing written");
  }
  if (!replay.ok) {
    std::string first = "rejected without a violation listed";
    if (!replay.violations.empty()) {
      const ReplayViolation& v = replay.violations[0];
      first = std::string(ReplayStageName(v.stage)) + " " + ReplayViolationKindName(v.kind) + ": " +
              v.message;
    }
    const std::int64_t more =
        std::max<std::int64_t>(replay.violations_total,
                               static_cast<std::int64_t>(replay.violations.size())) -
        1;
    return OutcomeFailed("export mscclpp: the replay checker did not accept " + path + ": " +
                         first + (more > 0 ? " (and " + std::to_string(more) + " more)" : "") +
                         "; nothing written");
  }

  json summary = {{"ok", true},
                  {"file", path},
                  {"routes_file", routes},
                  {"format", "mscclpp"},
                  {"collective", CollectiveName(r.collective)},
                  {"protocol", o.proto},
                  {"ngpus", r.ngpus},
                  {"input_chunks", r.input_chunks},
                  {"output_chunks", r.output_chunks},
                  {"max_scratch_chunks", r.max_scratch_chunks},
                  {"chunks_per_shard", r.chunks_per_shard},
                  {"exact_chunks", r.exact_chunks},
                  {"lcm_chunks_per_shard", ToString(r.exact_chunks_per_shard)},
                  {"instances", o.instances},
                  {"pieces", o.pieces},
                  {"transfers", r.transfers},
                  {"blocks_per_gpu", r.blocks_per_gpu},
                  {"max_ops_per_block", r.max_ops_per_block},
                  {"ops_per_block", r.ops_per_block},
                  {"channels_per_gpu", r.channels_per_gpu},
                  {"max_channels_per_block", r.max_channels_per_block},
                  {"max_remote_buffers_per_block", r.max_remote_buffers_per_block},
                  {"semaphores_per_gpu", r.semaphores_per_gpu},
                  {"optimal_ratio", ToString(r.optimal_ratio)},
                  {"achieved_ratio", ToString(r.achieved_ratio)},
                  {"inplace", o.inplace},
                  {"min_bytes", o.min_bytes},
                  {"max_bytes", o.max_bytes},
                  {"replay", "accepted"}};
  ExportOutcome outcome;
  outcome.json = std::move(summary);
  std::ostringstream text;
  const std::int64_t unit = kMscclppBufferAlignment * std::max(r.input_chunks, r.output_chunks);
  text << "wrote " << EscapeForMessage(path) << " (" << CollectiveName(r.collective) << ", "
       << r.ngpus << " GPUs, " << r.input_chunks << " input / " << r.output_chunks
       << " output chunks, " << r.blocks_per_gpu << " blocks per GPU, at most "
       << r.max_ops_per_block << " operations per block; replay accepted)\n"
       << "ratio: optimal " << ToString(r.optimal_ratio) << ", achieved "
       << ToString(r.achieved_ratio)
       << (r.exact_chunks ? " (exact chunks)" : " (chunks rounded to --max-chunks)") << "\n"
       << "routes: " << EscapeForMessage(routes) << "\n"
       << "the executor runs it only for buffers whose larger size in bytes is a "
       << "multiple of " << unit << " (16-byte alignment times "
       << std::max(r.input_chunks, r.output_chunks) << " chunks)\n";
  outcome.text = text.str();
  return outcome;
}

}  // namespace collsynth::cli
