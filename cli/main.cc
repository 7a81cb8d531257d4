// collsynth: synthesize topologies and collective schedules, prove them optimal, check them.
#include <exception>
#include <iostream>
#include <string>

#include "cli/command_registry.h"

int main(int argc, char** argv) {
  namespace cli = collsynth::cli;
  try {
    CLI::App app{"collsynth: exact, verified collective-communication schedules and topologies"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "collsynth 0.1");
    cli::SetupCommands(app);
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app.exit(e);
      std::cerr << cli::ParseErrorMessage(e) << "\n";  // one line, unlike CLI11's app.exit
      return cli::kExitBadInput;
    }
    return cli::ExitCode();
  } catch (...) {
    // Not from a command body (those go through RunCommand): a fault of the CLI itself.
    std::string message;
    const int code = cli::ExitCodeForException(std::current_exception(), "collsynth", {}, &message);
    std::cerr << message << "\n";
    return code;
  }
}
