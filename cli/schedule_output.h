// Writing a schedule so that the bytes on disk are the checked artifact (issue 14 §1): the
// text is written to OUT.partial, read back with the reader `collsynth verify` uses
// (ParseJsonText + VerifyScheduleJson), checked, compared with the in-memory check's figures,
// and only then renamed to OUT. A writer bug, a short write or a full disk is a failed check
// (exit 1) and leaves no file at OUT. For "-" the text is checked before it is printed.
// Cost: one parse and one check of the written file (docs/performance.md, "Output check").
//
// Testing hook (docs/cli.md): COLLSYNTH_FAULT_INJECT=corrupt-output makes the writer drop the
// last element of the schedule's "sends", "steps" or "trees" array before writing, so tests
// can show that a writer bug becomes exit 1. It can only make a command fail.
#ifndef COLLSYNTH_CLI_SCHEDULE_OUTPUT_H_
#define COLLSYNTH_CLI_SCHEDULE_OUTPUT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "graphs/topology.h"
#include "proofs_check/verify.h"

namespace collsynth::cli {

struct OutputCheck {
  bool ok = false;      // the written bytes verified and agree with `expected`
  double seconds = 0;   // read back + parse + check
  std::string error;    // first reason when !ok
  VerifyResult result;  // the checker's report on the written file
};

// Writes `text` (a schedule document) to `path` ("-" = stdout) after/while checking it as
// above. `expected` holds report fields (e.g. {"tl", "tb"} or {"ratio", "verdict"}) that the
// re-check must reproduce exactly. `text` is consumed (freed before the read-back).
OutputCheck WriteCheckedSchedule(const Topology& g, std::string&& text, const std::string& path,
                                 const VerifyOptions& options, const nlohmann::json& expected);

// Adds "output_verified" and "output_verify_seconds" to a --json summary.
void AddOutputCheck(nlohmann::json& summary, const OutputCheck& check);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_SCHEDULE_OUTPUT_H_
