// Writing a schedule so that the bytes on disk are the checked artifact (docs/performance.md
// "Output check: the written file is the checked file"): the
// text is written to OUT.partial, read back with the reader `collsynth verify` uses
// (the same parser and checker, streamed from the file: VerifyScheduleFile), checked, compared with
// the in-memory check's figures, and only then renamed to OUT, through the one checked-output
// path (core/checked_output.h, WriteChecked; docs/cli.md "Written files"). A writer bug, a short
// write or a full disk is a failed check (exit 1, naming the file and the OS error) and leaves
// no file at OUT and no OUT.partial. For "-" the text is checked
// before it is printed. Cost: one parse and one check of the written file (docs/performance.md,
// "Output check").
//
// Testing hook (docs/cli.md): COLLSYNTH_FAULT_INJECT=corrupt-output makes the writer drop the
// last element of the schedule's "sends", "steps", "trees" or "flows" array before writing, so
// tests can show that a writer bug becomes exit 1. It can only make a command fail.
#ifndef COLLSYNTH_CLI_SCHEDULE_OUTPUT_H_
#define COLLSYNTH_CLI_SCHEDULE_OUTPUT_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "core/rational.h"
#include "graphs/topology.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/verify.h"

namespace collsynth::cli {

struct OutputCheck {
  bool ok = false;      // the written bytes verified and agree with `expected`
  double seconds = 0;   // read back + parse + check
  std::string error;    // first reason when !ok
  VerifyResult result;  // the checker's report on the written file
};

// The figures of the in-memory check that the re-check of the written file must reproduce
// exactly; unset ones are not compared.
struct ExpectedCheck {
  std::optional<int> tl;                     // a step schedule's T_L
  std::optional<Rational> tb;                // a step schedule's T_B
  std::optional<Rational> ratio;             // a pipeline schedule's ratio
  std::optional<PipelineVerdict> verdict;    // a pipeline schedule's verdict
  std::optional<std::int64_t> height_hops;   // a pipeline schedule's measured height
  std::optional<Rational> time;              // a flows schedule's achieved T
  std::optional<Rational> time_lower_bound;  // a flows schedule's certified bound ("lengths")
};
// T_L and T_B of a step check.
ExpectedCheck SameFigures(const StepCheckReport& r);
// Ratio, verdict and height of a pipeline check.
ExpectedCheck SameFigures(const PipelineCheckReport& r);
// The achieved T of a flows check, and its certified lower bound when it has one.
ExpectedCheck SameFigures(const FlowCheckReport& r);

// Writes `text` (a schedule document) to `path` ("-" = stdout) after/while checking it as
// above. The re-check must reproduce `expected`. `text` is consumed (freed before the
// read-back).
OutputCheck WriteCheckedSchedule(const Topology& g, std::string&& text, const std::string& path,
                                 const VerifyOptions& options, const ExpectedCheck& expected);

// The same with the document written by `write` straight to OUT.partial (16 KiB at a time,
// docs/performance.md "Plain pipeline path: where the memory goes": a 3,456-host pipeline schedule
// is 1.5 GB of text, never held in memory). `written` (may be empty) is called once the bytes are
// on disk, before the read-back, so the caller can free what it wrote from. For "-" and under the
// testing hook the document goes through a string and the function above. An OUT.partial that
// cannot be created is an InputError naming it (exit 2); a failed write is !ok (exit 1).
using ScheduleTextWriter = std::function<void(std::ostream&)>;
OutputCheck WriteCheckedSchedule(const Topology& g, const ScheduleTextWriter& write,
                                 const std::function<void()>& written, const std::string& path,
                                 const VerifyOptions& options, const ExpectedCheck& expected);

// Adds "output_verified" and "output_verify_seconds" to a --json summary.
void AddOutputCheck(nlohmann::json& summary, const OutputCheck& check);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_SCHEDULE_OUTPUT_H_
