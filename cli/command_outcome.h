// What a command that the Python package shares computed (cli/README.md): `ok` with its
// `--json` object and its text report, or the failure that is the CLI's exit 1. The support
// functions return it and never print; the command prints it with PrintOutcome.
#ifndef COLLSYNTH_CLI_COMMAND_OUTCOME_H_
#define COLLSYNTH_CLI_COMMAND_OUTCOME_H_

#include <nlohmann/json.hpp>
#include <string>

namespace collsynth::cli {

struct CommandOutcome {
  bool ok = true;
  std::string failure;  // the message when !ok (empty: printed already)
  nlohmann::json json;  // the `--json` object
  std::string text;     // the text report
};

CommandOutcome OutcomeFailed(std::string failure);

// The command's output and exit code: the JSON (`json`) or the text on stdout, or the failure
// on stderr and exit 1.
int PrintOutcome(const CommandOutcome& outcome, bool json);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_COMMAND_OUTCOME_H_
