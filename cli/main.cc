// collsynth: synthesize topologies and collective schedules, prove them optimal, check them.
#include <iostream>

#include "cli/command_registry.h"

int main(int argc, char** argv) {
  CLI::App app{"collsynth: exact, verified collective-communication schedules and topologies"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "collsynth 0.1");
  collsynth::cli::SetupCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message
    return collsynth::cli::kExitBadInput;
  }
  return collsynth::cli::ExitCode();
}
