#include "cli/command_registry.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <typeinfo>
#include <vector>

#include "core/input_error.h"

namespace collsynth::cli {
namespace {

struct Entry {
  int order;
  std::function<void(CLI::App&)> setup;
};

std::vector<Entry>& Registry() {
  static std::vector<Entry> entries;
  return entries;
}

int g_exit_code = kExitOk;
const CLI::App* g_running = nullptr;  // the innermost subcommand CLI11 started parsing

void NoteRunningCommands(CLI::App* app) {
  for (CLI::App* sub : app->get_subcommands({})) {
    sub->preparse_callback([sub](std::size_t) { g_running = sub; });
    NoteRunningCommands(sub);
  }
}

// "topo gen" for the running subcommand, "collsynth" if none.
std::string RunningCommand() {
  std::string name;
  for (const CLI::App* a = g_running; a != nullptr && a->get_parent() != nullptr;
       a = a->get_parent()) {
    name = a->get_name() + (name.empty() ? "" : " " + name);
  }
  return name.empty() ? "collsynth" : name;
}

// The positional arguments given to the running subcommand, in order.
std::vector<std::string> RunningInputs() {
  std::vector<std::string> inputs;
  if (g_running == nullptr) return inputs;
  for (const CLI::Option* opt : g_running->get_options()) {
    if (!opt->get_positional()) continue;
    for (const std::string& r : opt->results()) inputs.push_back(r);
  }
  return inputs;
}

// Length of the valid UTF-8 sequence starting at s[i], 0 if the bytes there are not one.
std::size_t Utf8Length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}

std::string TypeName(const std::type_info& t) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(t.name(), nullptr, nullptr, &status),
                                           std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(t.name());
}

std::string Context(const std::string& command, const std::vector<std::string>& inputs) {
  std::string s = "running " + command;
  for (std::size_t i = 0; i < inputs.size(); ++i) s += (i == 0 ? " on " : " ") + inputs[i];
  return EscapeForMessage(s);
}

}  // namespace

CommandRegistrar::CommandRegistrar(int order, std::function<void(CLI::App&)> setup) {
  Registry().push_back(Entry{order, std::move(setup)});
}

void SetupCommands(CLI::App& app) {
  auto& entries = Registry();
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.order < b.order; });
  for (const Entry& e : entries) e.setup(app);
  NoteRunningCommands(&app);
}

std::string EscapeForMessage(std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (c == '\t') {
      out += "\\t";
      ++i;
    } else if (std::size_t len = c >= 0x80 ? Utf8Length(text, i) : 0; len > 0) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++i;
    }
  }
  return out;
}

int ExitCodeForException(std::exception_ptr error, const std::string& command,
                         const std::vector<std::string>& inputs, std::string* message) {
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    *message = "collsynth: " + EscapeForMessage(e.what());
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    *message = "collsynth: internal error: out of memory while " + Context(command, inputs) +
               " (please report it)";
    return kExitInternal;
  } catch (const std::exception& e) {
    *message = "collsynth: internal error: " + EscapeForMessage(TypeName(typeid(e))) + ": " +
               EscapeForMessage(e.what()) + " (while " + Context(command, inputs) +
               "; please report it)";
    return kExitInternal;
  } catch (...) {
    *message = "collsynth: internal error: unknown exception (while " + Context(command, inputs) +
               "; please report it)";
    return kExitInternal;
  }
}

std::string ParseErrorMessage(const CLI::Error& e) {
  return "collsynth: <args>: " + EscapeForMessage(e.what());
}

void RunCommand(const std::function<int()>& body) {
  try {
    g_exit_code = body();
  } catch (...) {
    std::string message;
    g_exit_code =
        ExitCodeForException(std::current_exception(), RunningCommand(), RunningInputs(), &message);
    std::cerr << message << "\n";
  }
}

void PrintFailure(const std::string& text) {
  std::cerr << "collsynth: " << EscapeForMessage(text) << "\n";
}

int ExitCode() { return g_exit_code; }

}  // namespace collsynth::cli
