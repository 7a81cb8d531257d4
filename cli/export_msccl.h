// What `collsynth export msccl` does (cli/export_msccl_command.cc) once its options are parsed,
// shared with the Python package's `Schedule.export_msccl` (python/, docs/python.md): the schedule
// lowered to MSCCL XML, the file replayed from disk before it is kept, and the `--json` summary.
#ifndef COLLSYNTH_CLI_EXPORT_MSCCL_H_
#define COLLSYNTH_CLI_EXPORT_MSCCL_H_

#include <cstdint>
#include <string>

#include "cli/export_common.h"

namespace collsynth::cli {

// The command's options (docs/cli.md); `json` only chooses what the command prints.
struct ExportMscclArgs : ExportTargetArgs {  // the options shared with export mscclpp
  std::string profile = "executor";
  int max_channels = 32;
  bool root_specific = false;
  bool fuse = false;
};

// Lowers the checked schedule from `source`, checks and writes as the command does; bad
// options and input are InputError, a failed check or limit is !ok with the CLI's message.
ExportOutcome ExportMsccl(const ExportMscclArgs& a, const ExportInput& source);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_EXPORT_MSCCL_H_
