#include "cli/schedule_input.h"

#include <type_traits>
#include <utility>

#include "cli/command_registry.h"
#include "core/input_error.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "schedules/compact_schedule.h"
#include "schedules/symmetric_flow_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth::cli {

Collective CheckedSchedule::collective() const {
  if (flows) return flows->collective;
  return pipeline ? pipeline->collective : steps->collective;
}

std::optional<CheckedSchedule> LoadCheckedSchedule(const Topology& g, const std::string& path,
                                                   const std::string& action, bool accept_flows) {
  return CheckLoadedSchedule(g, LoadScheduleFile(g, path, path == "-" ? "<stdin>" : path), action,
                             accept_flows);
}

std::optional<CheckedSchedule> CheckLoadedSchedule(const Topology& g, LoadedSchedule loaded,
                                                   const std::string& action, bool accept_flows) {
  const bool symmetric_flows = std::holds_alternative<SymmetricFlowSchedule>(loaded.value);
  if (!accept_flows && (std::holds_alternative<FlowSchedule>(loaded.value) || symmetric_flows)) {
    throw InputError(loaded.file, "format",
                     std::string(symmetric_flows ? "a \"flows-symmetric\"" : "a \"flows\"") +
                         " schedule is not " + action +
                         " (not supported yet; collsynth verify checks it)");
  }
  CheckedSchedule out;
  out.file = loaded.file;
  out.format = loaded.Format();
  out.verified = VerifyLoadedSchedule(g, loaded);
  if (!out.verified.ok) {
    PrintFailure(out.file + ": the schedule does not verify, nothing " + action + ": " +
                 out.verified.FirstError());
    return std::nullopt;
  }
  std::visit(
      [&](auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, StepSchedule>) {
          out.steps = std::move(s);
        } else if constexpr (std::is_same_v<S, CompactStepSchedule>) {
          out.steps = StepsFromCompact(s);
        } else if constexpr (std::is_same_v<S, PipelineSchedule>) {
          out.pipeline = std::move(s);
        } else if constexpr (std::is_same_v<S, FlowSchedule>) {
          out.flows = std::move(s);
        } else if constexpr (std::is_same_v<S, SymmetricFlowSchedule>) {
          out.flows = ExpandSymmetricFlowSchedule(s, g);
        } else {
          out.pipeline = ExpandSymmetricPipelineSchedule(s, g);
        }
      },
      loaded.value);
  loaded = LoadedSchedule{};
  if (symmetric_flows) {
    out.flows_expansion_report = CheckFlowSchedule(g, *out.flows);
    if (!out.flows_expansion_report->ok) {
      const std::vector<std::string>& errors = out.flows_expansion_report->errors;
      PrintFailure(out.file +
                   ": the expansion of the flows-symmetric schedule fails the flows checker, "
                   "nothing " +
                   action + ": " + (errors.empty() ? "?" : errors[0]));
      return std::nullopt;
    }
  }
  if (out.format == "pipeline-symmetric") {
    out.expansion_report = CheckPipelineSchedule(g, *out.pipeline);
    if (!out.expansion_report->ok) {
      const std::vector<std::string>& errors = out.expansion_report->errors;
      PrintFailure(out.file +
                   ": the expansion of the pipeline-symmetric schedule fails the "
                   "pipeline checker, nothing " +
                   action + ": " + (errors.empty() ? "?" : errors[0]));
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace collsynth::cli
