// What `collsynth export mscclpp` does (cli/export_mscclpp_command.cc) once its options are
// parsed, shared with the Python package's `Schedule.export_mscclpp` (python/, docs/python.md): the
// schedule lowered to an MSCCL++ plan, the file replayed from disk before it is kept, and the
// `--json` summary.
#ifndef COLLSYNTH_CLI_EXPORT_MSCCLPP_H_
#define COLLSYNTH_CLI_EXPORT_MSCCLPP_H_

#include <cstdint>
#include <string>

#include "cli/export_common.h"

namespace collsynth::cli {

// The command's options (docs/cli.md); `json` only chooses what the command prints.
struct ExportMscclppArgs : ExportTargetArgs {  // the options shared with export msccl
  int pieces = 1;
};

// Lowers the checked schedule from `source`, checks and writes as the command does; bad
// options and input are InputError, a failed check or limit is !ok with the CLI's message.
ExportOutcome ExportMscclpp(const ExportMscclppArgs& a, const ExportInput& source);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_EXPORT_MSCCLPP_H_
