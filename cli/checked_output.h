// The CLI's side of the checked-output path (core/checked_output.h, WriteChecked: every file
// to PATH.partial, checked on disk, renamed; one failure policy, docs/cli.md "Written files"):
// the step limit of the MSCCL exporters, with its testing hook.
#ifndef COLLSYNTH_CLI_CHECKED_OUTPUT_H_
#define COLLSYNTH_CLI_CHECKED_OUTPUT_H_

#include <cstdint>

#include "core/checked_output.h"

namespace collsynth::cli {

// The step limit of export msccl and export chakra (CheckMscclProgramStepLimit,
// export/msccl_program.h): kMscclMaxProgramSteps (2^20). Testing hook (docs/cli.md): the
// environment variable COLLSYNTH_TEST_MAX_PROGRAM_STEPS=N (a decimal integer >= 0) lowers it to
// N, so that tests can show the refusal on a small schedule; a value above 2^20 leaves 2^20,
// so the hook can only make a command refuse more. Any other value is bad input
// (InputError naming the variable, exit 2).
std::int64_t MscclProgramStepLimit();

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_CHECKED_OUTPUT_H_
