// The collsynth CLI is one CLI11 App; each subcommand lives in its own cli/<name>_command.cc
// and registers itself here with a static CommandRegistrar, so adding a command touches no
// other file. Registration order decides nesting: "topo" (order 0) is created before
// "topo gen" (order 10) looks it up with app.get_subcommand("topo").
//
// Exit codes (a contract): 0 ok, 1 a check failed, 2 bad input, 3 internal error.
#ifndef COLLSYNTH_CLI_COMMAND_REGISTRY_H_
#define COLLSYNTH_CLI_COMMAND_REGISTRY_H_

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace collsynth::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternal = 3;

struct CommandRegistrar {
  CommandRegistrar(int order, std::function<void(CLI::App&)> setup);
};

// Called by main: runs every registered setup in order.
void SetupCommands(CLI::App& app);

// Runs body, mapping InputError (and std::invalid_argument from argument checks) to exit 2
// with one line on stderr, other exceptions to exit 3; stores the code for main.
void RunCommand(const std::function<int()>& body);
int ExitCode();

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_COMMAND_REGISTRY_H_
