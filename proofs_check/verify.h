// Verify a schedule given as JSON: detects the format by its "format" field ("steps",
// "steps-compact" (compact_schedule.h), "pipeline", "pipeline-symmetric", "flows" or
// "flows-symmetric"), reads it
// against the topology (schedules/schedule_file.h) and runs the matching checker (step_checker.h,
// pipeline_checker.h, symmetric_pipeline_checker.h, flow_checker.h, symmetric_flow_checker.h). One
// entry point for `collsynth verify` and for every command that writes a schedule (they must verify
// before writing). Cost: that of the checker. Bad input (unknown format, malformed schedule) throws
// InputError; a schedule that reads fine but violates the model is a result with ok == false. The
// result is typed (the checker's own report); its JSON and text forms are built by the CLI
// (cli/verify_json.h, cli/verify_command.cc). Never prints.
#ifndef COLLSYNTH_PROOFS_CHECK_VERIFY_H_
#define COLLSYNTH_PROOFS_CHECK_VERIFY_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "graphs/topology.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"
#include "schedules/schedule_file.h"

namespace collsynth {

struct VerifyOptions {
  bool check_bandwidth_optimal = false;  // steps only (seed 000 Thm 7)
  bool check_bfb = false;                // steps only (Def. 15 / Thm 14)
  bool check_no_duplicates = false;      // steps only
  int max_errors = 10;
};

// The verdict of the checker that ran: step_checker's for "steps" and "steps-compact",
// pipeline_checker's for "pipeline" and "pipeline-symmetric", flow_checker's for "flows" and
// "flows-symmetric".
using ScheduleVerdict = std::variant<StepVerdict, PipelineVerdict, FlowVerdict>;
// StepVerdictName, PipelineVerdictName or FlowVerdictName of the alternative held.
const char* ScheduleVerdictName(const ScheduleVerdict& v);

// The report of the checker that ran: the step checker's for "steps" and "steps-compact", the
// pipeline checker's for "pipeline", the symmetric checker's (PipelineCheckReport::symmetric
// set) for "pipeline-symmetric", the flow checker's for "flows", the symmetric flow checker's
// (FlowCheckReport with link_orbits and group_order set) for "flows-symmetric".
using ScheduleCheckReport = std::variant<StepCheckReport, PipelineCheckReport, FlowCheckReport>;

struct VerifyResult {
  bool ok = false;
  std::string format;  // "steps", "steps-compact", "pipeline", "pipeline-symmetric", "flows", ...
  Collective collective = Collective::kAllgather;  // the schedule's
  ScheduleVerdict verdict = StepVerdict::kInvalid;
  ScheduleCheckReport report;
  // The first violations the checker described (at most max_errors), and how many it found.
  const std::vector<std::string>& Errors() const;
  std::int64_t NumViolations() const;
  // The first violation the checker listed, or the verdict's name when it listed none.
  std::string FirstError() const;
};

// The check `collsynth verify` runs, on a schedule already loaded (schedules/schedule_file.h):
// the step checker for "steps" and "steps-compact", the pipeline checker for "pipeline", the
// symmetric checker (without expanding) for "pipeline-symmetric", the flow checker for "flows",
// the symmetric flow checker (without expanding) for "flows-symmetric".
// Every consumer of a
// schedule file runs this on the value it then acts on, so one file gets one verdict.
VerifyResult VerifyLoadedSchedule(const Topology& g, const LoadedSchedule& schedule,
                                  const VerifyOptions& options = {});

// The same from the file's text: parses it (ParseJsonText) and, for pipeline schedules,
// converts the trees while parsing (PipelineTreeStreamHook), so the document's JSON tree is
// never held whole. What `collsynth verify` and the output check of every writing command use.
VerifyResult VerifyScheduleText(const Topology& g, const std::string& text, const std::string& file,
                                const VerifyOptions& options = {});

// The same from the file at `path` (errors while parsing name `file`), read as it is parsed
// (ParseJsonFile): a pipeline schedule's text is never held whole either. What the output
// check of `collsynth pipeline` uses for the written file.
VerifyResult VerifyScheduleFile(const Topology& g, const std::string& path, const std::string& file,
                                const VerifyOptions& options = {});

VerifyResult VerifyScheduleJson(const Topology& g, const nlohmann::json& schedule,
                                const std::string& file, const VerifyOptions& options = {});

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_VERIFY_H_
