#include "proofs_check/replay_report.h"

#include <stdexcept>

namespace collsynth {

MscclProfile ParseMscclProfile(const std::string& text) {
  if (text == "executor") return MscclProfile::kExecutor;
  if (text == "rccl") return MscclProfile::kRccl;
  if (text == "legacy") return MscclProfile::kLegacy;
  throw std::invalid_argument("'" + text + "' is not executor, rccl or legacy");
}

}  // namespace collsynth
