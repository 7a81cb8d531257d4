// The JSON form of a verify result: what `collsynth verify --json` prints (docs/cli.md
// "verify"). The checkers (proofs_check/) return typed reports; the JSON of a verify result is
// built here only, for the user. Keys and spellings are the contract of docs/formats.md
// "verify": rationals as strings ("7/3"), absent optional figures as null. Never prints.
#ifndef COLLSYNTH_CLI_VERIFY_JSON_H_
#define COLLSYNTH_CLI_VERIFY_JSON_H_

#include <nlohmann/json.hpp>

#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/verify.h"

namespace collsynth::cli {

// A step checker's report: {"ok", "format": "steps", "tl", "tb", "ratio", "errors",
// "num_violations", "error_kinds", "bandwidth_lower_bound"} and, when checked,
// "bandwidth_optimal", "bfb", "no_duplicates".
nlohmann::json StepCheckReportJson(const StepCheckReport& r);
// A pipeline checker's report: {"ok", "format": "pipeline", "verdict", "tl": null, "tb",
// "ratio", "cut_ratio", "certified_optimal", "certified_by", "fixed_k_certified",
// "height_hops", "height_lower_bound_hops", "errors", "num_violations", "error_kinds"}; a
// report of the symmetric checker has "format" and "format_checked" "pipeline-symmetric",
// "num_generators", "num_representatives", "group_order", "link_orbits"; an allreduce's has
// its "phases".
nlohmann::json PipelineCheckReportJson(const PipelineCheckReport& r);
// A flow checker's report (docs/formats.md "Flows schedule JSON"): {"ok", "format": "flows",
// "verdict", "time", "claimed_time", "bottleneck_link", "pairs", "paths", "errors",
// "num_violations", "tl": null, "tb": time}.
nlohmann::json FlowCheckReportJson(const FlowCheckReport& r);
// Any of them, by overload (for std::visit over VerifyResult::report).
inline nlohmann::json CheckReportJson(const StepCheckReport& r) { return StepCheckReportJson(r); }
inline nlohmann::json CheckReportJson(const PipelineCheckReport& r) {
  return PipelineCheckReportJson(r);
}
inline nlohmann::json CheckReportJson(const FlowCheckReport& r) { return FlowCheckReportJson(r); }

// The checker's report (CheckReportJson) with the file's "format", its "collective" and the
// "verdict" (ScheduleVerdictName).
nlohmann::json VerifyResultJson(const VerifyResult& r);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_VERIFY_JSON_H_
