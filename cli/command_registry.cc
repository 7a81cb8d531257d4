#include "cli/command_registry.h"

#include <algorithm>
#include <iostream>
#include <vector>

#include "graphs/input_error.h"

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

}  // namespace

CommandRegistrar::CommandRegistrar(int order, std::function<void(CLI::App&)> setup) {
  Registry().push_back(Entry{order, std::move(setup)});
}

void SetupCommands(CLI::App& app) {
  auto& entries = Registry();
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.order < b.order; });
  for (const Entry& e : entries) e.setup(app);
}

void RunCommand(const std::function<int()>& body) {
  try {
    g_exit_code = body();
  } catch (const InputError& e) {
    std::cerr << "collsynth: " << e.what() << "\n";
    g_exit_code = kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "collsynth: <args>: " << e.what() << "\n";
    g_exit_code = kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "collsynth: out of memory (input too large?)\n";
    g_exit_code = kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "collsynth: internal error: " << e.what() << "\n";
    g_exit_code = kExitInternal;
  }
}

int ExitCode() { return g_exit_code; }

}  // namespace collsynth::cli
