// Shared helpers for the test suite: run the collsynth binary, write temp files, seeds.
#ifndef COLLSYNTH_TESTS_TEST_UTIL_H_
#define COLLSYNTH_TESTS_TEST_UTIL_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace collsynth::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the collsynth binary with the given arguments (no shell; each argument verbatim).
CliResult RunCli(const std::vector<std::string>& args, const std::string& stdin_text = "");
// The same, with the binary's current directory set to `cwd` (exit code 126 if it cannot be).
CliResult RunCliIn(const std::string& cwd, const std::vector<std::string>& args,
                   const std::string& stdin_text = "");

// A fresh file under a per-process temp directory, with the given content; returns its path.
std::string WriteTempFile(const std::string& name, const std::string& content);
// A path under the per-process temp directory (file not created).
std::string TempPath(const std::string& name);
// The whole content of the file at `path`, byte for byte ("" when it cannot be read).
std::string ReadWholeFile(const std::string& path);

// Seed for randomized tests: $COLLSYNTH_SEED if set, else the default. Tests print it on
// failure so a run can be replayed.
std::uint64_t TestSeed(std::uint64_t default_seed = 20261122);

// Path of a file in the source tree (e.g. "experiments/topologies/k22.json").
std::string SourcePath(const std::string& relative);

// True when f() throws std::logic_error but not its subclass std::invalid_argument: a broken
// precondition of an internal caller, which the CLI reports as an internal error (exit 3). An
// std::invalid_argument is a parameter that callers knowing the file turn into InputError (2).
template <typename F>
bool ThrowsInvariantError(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument&) {
    return false;
  } catch (const std::logic_error&) {
    return true;
  }
  return false;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_TEST_UTIL_H_
