// collsynth schedule expand: the group; `schedule expand` is a command of its own
// (schedule_expand_command.cc), registered after the group.
#include "cli/command_registry.h"

namespace collsynth::cli {
namespace {

CommandRegistrar reg_schedule(0, [](CLI::App& app) {
  app.add_subcommand("schedule", "Schedule transformations: expand")->require_subcommand(1);
});

}  // namespace
}  // namespace collsynth::cli
