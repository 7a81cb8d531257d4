#include "cli/command_outcome.h"

#include <iostream>
#include <utility>

#include "cli/command_registry.h"

namespace collsynth::cli {

CommandOutcome OutcomeFailed(std::string failure) {
  CommandOutcome o;
  o.ok = false;
  o.failure = std::move(failure);
  return o;
}

int PrintOutcome(const CommandOutcome& outcome, bool json) {
  if (!outcome.ok) {
    if (!outcome.failure.empty()) PrintFailure(outcome.failure);
    return kExitCheckFailed;
  }
  std::cout << (json ? outcome.json.dump() + "\n" : outcome.text);
  return kExitOk;
}

}  // namespace collsynth::cli
