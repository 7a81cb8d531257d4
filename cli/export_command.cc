// collsynth export msccl|mscclpp|chakra: the group; each format is a command of its own
// (export_msccl_command.cc, export_mscclpp_command.cc, export_chakra_command.cc), registered
// after the group (orders 10, 11, 12: the order `collsynth export --help` lists them in).
#include "cli/command_registry.h"

namespace collsynth::cli {
namespace {

CommandRegistrar reg_export(0, [](CLI::App& app) {
  app.add_subcommand("export", "Export a checked schedule to an executor format (docs/export.md)")
      ->require_subcommand(1);
});

}  // namespace
}  // namespace collsynth::cli
