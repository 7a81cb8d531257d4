#include "cli/checked_output.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/input_error.h"
#include "export/msccl_program.h"

namespace collsynth::cli {

std::int64_t MscclProgramStepLimit() {
  const char* v = std::getenv("COLLSYNTH_TEST_MAX_PROGRAM_STEPS");
  if (v == nullptr) return kMscclMaxProgramSteps;
  const std::string text(v);
  std::int64_t n = 0;
  bool ok = !text.empty() && text.size() <= 18;
  for (char c : text) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    n = n * 10 + (c - '0');
  }
  if (!ok) {
    throw InputError("COLLSYNTH_TEST_MAX_PROGRAM_STEPS", "",
                     "'" + text + "' is not a decimal integer of at most 18 digits");
  }
  return std::min(n, kMscclMaxProgramSteps);
}

}  // namespace collsynth::cli
