// collsynth topo info|convert|symmetry|gen|polarstar: the group; each is a command of its own
// (topo_<name>_command.cc), registered after the group (orders 10..14: the order
// `collsynth topo --help` lists them in).
#include "cli/command_registry.h"

namespace collsynth::cli {
namespace {

CommandRegistrar reg_topo(0, [](CLI::App& app) {
  app.add_subcommand("topo", "Topology tools: info, convert, gen")->require_subcommand(1);
});

}  // namespace
}  // namespace collsynth::cli
