// What `collsynth export chakra` does (cli/export_chakra_command.cc) once its options are parsed,
// shared with the Python package's `Schedule.export_chakra` (python/, docs/python.md): the schedule
// lowered to Chakra ET traces, the program replayed and the files read back and checked before they
// are kept, and the `--json` summary.
#ifndef COLLSYNTH_CLI_EXPORT_CHAKRA_H_
#define COLLSYNTH_CLI_EXPORT_CHAKRA_H_

#include <cstdint>
#include <string>

#include "cli/export_common.h"

namespace collsynth::cli {

// The command's options (docs/cli.md); `json` only chooses what the command prints.
struct ExportChakraArgs {
  std::string topology, schedule, prefix;
  std::int64_t size = 0;
  int slices = 4;
  std::int64_t max_chunks = 256;
  int max_tbs = 64;
  int max_channels = 32;
  bool fuse = false;
  bool json = false;
};

// Lowers the checked schedule from `source`, checks and writes as the command does; bad
// options and input are InputError, a failed check or limit is !ok with the CLI's message.
ExportOutcome ExportChakra(const ExportChakraArgs& a, const ExportInput& source);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_EXPORT_CHAKRA_H_
