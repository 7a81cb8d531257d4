// What `collsynth replay` runs (cli/replay_command.cc) and the Python package's
// `collsynth.replay` (python/, docs/python.md) share: an MSCCL XML file or MSCCL++ plan read,
// told apart, replayed by the independent checker (proofs_check/msccl_replay.h,
// proofs_check/mscclpp_replay.h), and the `replay --json` object.
#ifndef COLLSYNTH_CLI_REPLAY_REQUEST_H_
#define COLLSYNTH_CLI_REPLAY_REQUEST_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proofs_check/msccl_replay.h"

namespace collsynth::cli {

struct ReplayRequest {
  std::string profile = "executor";  // executor | rccl | legacy (XML only)
  ReplayOptions options;             // fifo depth, root, rounds (XML only), max violations
  // The XML-only options given by name ("--profile", ...): noted and ignored for a plan.
  std::vector<std::string> xml_only_given;
};

struct ReplayOutcome {
  ReplayResult result;
  bool plan = false;    // an MSCCL++ plan (else MSCCL XML)
  std::string profile;  // "mscclpp" for a plan
};

// The file's text ("-" = stdin); larger than 256 MiB, missing, a directory or a device is
// InputError.
std::string ReadReplayFile(const std::string& path);

// An MSCCL++ plan: the name ends in ".json" or the text starts with '{' after JSON whitespace.
bool IsMscclppPlan(const std::string& name, const std::string& text);

// Replays `text` (named `name` in messages; `plan` as IsMscclppPlan decides). An unknown
// profile is InputError.
ReplayOutcome ReplayText(const std::string& text, const std::string& name, bool plan,
                         const ReplayRequest& request);

// The `replay --json` object.
nlohmann::json ReplayJson(const ReplayOutcome& outcome);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_REPLAY_REQUEST_H_
