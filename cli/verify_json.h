// The JSON form of a verify result: what `collsynth verify --json` prints (docs/cli.md
// "verify"). The checkers (proofs_check/) return typed reports; the JSON of a verify result is
// built here only, for the user. Keys and spellings are the contract of docs/formats.md
// "verify": rationals as strings ("7/3"), absent optional figures as null. Never prints.
#ifndef COLLSYNTH_CLI_VERIFY_JSON_H_
#define COLLSYNTH_CLI_VERIFY_JSON_H_

#include <nlohmann/json.hpp>

#include "proofs_check/verify.h"

namespace collsynth::cli {

// The checker's report (StepCheckReport::ToJson or PipelineCheckReport::ToJson) with the
// file's "format", its "collective" and the "verdict" (ScheduleVerdictName).
nlohmann::json VerifyResultJson(const VerifyResult& r);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_VERIFY_JSON_H_
