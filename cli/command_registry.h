// The collsynth CLI is one CLI11 App; each subcommand lives in its own cli/<name>_command.cc
// and registers itself here with a static CommandRegistrar, so adding a command touches no
// other file. Registration order decides nesting and the order --help lists commands in:
// "topo" (order 0) is created before "topo info" (order 10) .. "topo polarstar" (order 14)
// look it up with app.get_subcommand("topo"). Every command has the shape AddCommand takes.
//
// Exit codes (a contract): 0 ok, 1 a check failed, 2 bad input (an InputError, or an argument
// CLI11 rejects), 3 internal error (any other exception, including out of memory).
#ifndef COLLSYNTH_CLI_COMMAND_REGISTRY_H_
#define COLLSYNTH_CLI_COMMAND_REGISTRY_H_

#include <CLI/CLI.hpp>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace collsynth::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternal = 3;

struct CommandRegistrar {
  CommandRegistrar(int order, std::function<void(CLI::App&)> setup);
};

// Called by main: runs every registered setup in order, and makes every subcommand record
// itself as the running command when CLI11 starts parsing it (named in internal errors).
void SetupCommands(CLI::App& app);

// Runs body, mapping InputError to exit 2 and every other exception to exit 3 (see
// ExitCodeForException) with one line on stderr; stores the code for main.
void RunCommand(const std::function<int()>& body);
int ExitCode();

// The one shape of a command: `struct XArgs` (its options' values), `void AddXOptions(
// CLI::App*, XArgs*)` (declares the options, bound to the XArgs), `int RunX(const XArgs&)`
// (the body: returns the exit code, throws InputError for bad input). AddCommand adds the
// subcommand `name` to `parent`, declares its options into an XArgs it owns, and runs RunX
// through RunCommand when the subcommand is given; it returns the subcommand.
template <typename Args>
CLI::App* AddCommand(CLI::App& parent, const std::string& name, const std::string& description,
                     void (*add_options)(CLI::App*, Args*), int (*run)(const Args&)) {
  auto args = std::make_shared<Args>();
  CLI::App* cmd = parent.add_subcommand(name, description);
  add_options(cmd, args.get());
  cmd->callback([args, run]() { RunCommand([&]() { return run(*args); }); });
  return cmd;
}

// `text` made printable on one line: the control characters \n \r \t as backslash-n/r/t,
// other control bytes (< 0x20, 0x7f) and bytes that are not part of valid UTF-8 as \xNN;
// valid UTF-8 (including non-ASCII) is kept. O(|text|).
std::string EscapeForMessage(std::string_view text);

// Prints "collsynth: " + EscapeForMessage(text) and a newline on stderr: the one line of a
// failed check (exit 1), whatever node names the checker's message quotes.
void PrintFailure(const std::string& text);

// The exit code for an exception thrown by the body of `command` (e.g. "topo gen") run on
// the positional `inputs`, and in *message the one line (no newline) to print on stderr:
//   InputError                -> 2, "collsynth: FILE: ITEM: PROBLEM"
//   std::bad_alloc            -> 3, "collsynth: internal error: out of memory while running
//                                    COMMAND on INPUTS (please report it)"
//   anything else             -> 3, "collsynth: internal error: TYPE: WHAT (while running
//                                    COMMAND on INPUTS; please report it)"
// Every part is passed through EscapeForMessage. `error` must not be null.
int ExitCodeForException(std::exception_ptr error, const std::string& command,
                         const std::vector<std::string>& inputs, std::string* message);

// The one line (no newline) for an argument error CLI11 reports while parsing (exit 2):
// "collsynth: <args>: WHAT".
std::string ParseErrorMessage(const CLI::Error& e);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_COMMAND_REGISTRY_H_
