#include "proofs_check/verify.h"

#include <utility>

#include "core/input_error.h"
#include "graphs/topology_io.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/symmetric_flow_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "schedules/compact_schedule.h"
#include "schedules/flat_step_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/schedule_file.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth {

using nlohmann::json;

namespace {

// The checker of the loaded format, on the loaded value.
struct Checker {
  const Topology& g;
  const VerifyOptions& options;
  const std::string& file;
  VerifyResult* result;

  StepCheckOptions StepOptions() const {
    StepCheckOptions o;
    o.check_bandwidth_optimal = options.check_bandwidth_optimal;
    o.check_bfb = options.check_bfb;
    o.check_no_duplicates = options.check_no_duplicates;
    o.max_errors = options.max_errors;
    return o;
  }
  template <typename S>
  void Steps(const S& s) {
    StepCheckReport r;
    try {
      r = CheckStepSchedule(g, s, StepOptions());
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError(file, e.item(), e.problem());  // a checker limit: name the file
    }
    result->ok = r.ok;
    result->verdict = r.verdict();
    result->report = std::move(r);
  }
  void Pipeline(PipelineCheckReport r) {
    result->ok = r.ok;
    result->verdict = r.verdict;
    result->report = std::move(r);
  }
  void RefuseStepOptions() const {
    if (options.check_bfb || options.check_bandwidth_optimal || options.check_no_duplicates) {
      throw InputError("<args>", "options",
                       "--bw-optimal, --bfb and --no-duplicates apply to \"steps\" schedules; a "
                       "pipeline schedule's optimality is certified by its bottleneck_cut, a "
                       "flows schedule's by collsynth optimum");
    }
  }
  void operator()(const StepSchedule& s) { Steps(s); }
  void operator()(const CompactStepSchedule& s) { Steps(s); }
  void operator()(const PipelineSchedule& s) {
    RefuseStepOptions();
    Pipeline(CheckPipelineSchedule(g, s, options.max_errors));
  }
  void operator()(const SymmetricPipelineSchedule& s) {
    RefuseStepOptions();
    Pipeline(CheckSymmetricPipelineSchedule(g, s, options.max_errors));
  }
  template <typename Check>
  void Flows(Check check) {
    RefuseStepOptions();
    FlowCheckReport r;
    try {
      r = check();
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError(file, e.item(), e.problem());  // a checker limit: name the file
    }
    result->ok = r.ok;
    result->verdict = r.verdict;
    result->report = std::move(r);
  }
  void operator()(const FlowSchedule& s) {
    Flows([&] { return CheckFlowSchedule(g, s, options.max_errors); });
  }
  void operator()(const SymmetricFlowSchedule& s) {
    Flows([&] { return CheckSymmetricFlowSchedule(g, s, options.max_errors); });
  }
};

}  // namespace

VerifyResult VerifyLoadedSchedule(const Topology& g, const LoadedSchedule& schedule,
                                  const VerifyOptions& options) {
  VerifyResult result;
  result.format = schedule.Format();
  std::visit(Checker{g, options, schedule.file, &result}, schedule.value);
  result.collective = schedule.collective();
  return result;
}

const std::vector<std::string>& VerifyResult::Errors() const {
  return std::visit([](const auto& r) -> const std::vector<std::string>& { return r.errors; },
                    report);
}

std::int64_t VerifyResult::NumViolations() const {
  return std::visit([](const auto& r) { return r.num_violations; }, report);
}

std::string VerifyResult::FirstError() const {
  const std::vector<std::string>& errors = Errors();
  return errors.empty() ? std::string(ScheduleVerdictName(verdict)) : errors.front();
}

const char* ScheduleVerdictName(const ScheduleVerdict& v) {
  if (const StepVerdict* s = std::get_if<StepVerdict>(&v)) return StepVerdictName(*s);
  if (const FlowVerdict* f = std::get_if<FlowVerdict>(&v)) return FlowVerdictName(*f);
  return PipelineVerdictName(std::get<PipelineVerdict>(v));
}

VerifyResult VerifyScheduleJson(const Topology& g, const json& schedule, const std::string& file,
                                const VerifyOptions& options) {
  return VerifyLoadedSchedule(g, LoadScheduleJson(g, schedule, file), options);
}

namespace {

// The flat form of a "steps" document is checked as the "steps" schedule it stands for.
VerifyResult VerifyForCheck(const Topology& g, const ScheduleForCheck& s, const std::string& file,
                            const VerifyOptions& options) {
  if (const LoadedSchedule* loaded = std::get_if<LoadedSchedule>(&s))
    return VerifyLoadedSchedule(g, *loaded, options);
  const FlatStepSchedule& flat = std::get<FlatStepSchedule>(s);
  VerifyResult result;
  result.format = "steps";
  Checker{g, options, file, &result}.Steps(flat);
  result.collective = flat.collective;
  return result;
}

}  // namespace

VerifyResult VerifyScheduleText(const Topology& g, const std::string& text, const std::string& file,
                                const VerifyOptions& options) {
  return VerifyForCheck(g, LoadScheduleTextForCheck(g, text, file), file, options);
}

VerifyResult VerifyScheduleFile(const Topology& g, const std::string& path, const std::string& file,
                                const VerifyOptions& options) {
  return VerifyForCheck(g, LoadScheduleFileForCheck(g, path, file), file, options);
}

}  // namespace collsynth
