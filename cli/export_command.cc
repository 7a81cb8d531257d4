// collsynth export msccl|mscclpp|chakra: the group; each format is a command of its own
// (export_msccl_command.cc, export_mscclpp_command.cc, export_chakra_command.cc), registered
// after the group (orders 10, 11, 12: the order `collsynth export --help` lists them in).
#include "cli/command_registry.h"

namespace collsynth::cli {
namespace {}  // namespace
}  // namespace collsynth::cli
