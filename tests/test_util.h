// Shared helpers for the test suite: run the collsynth binary, write temp files, seeds.
#ifndef COLLSYNTH_TESTS_TEST_UTIL_H_
#define COLLSYNTH_TESTS_TEST_UTIL_H_

#include <cstdint>
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

// A fresh file under a per-process temp directory, with the given content; returns its path.
std::string WriteTempFile(const std::string& name, const std::string& content);
// A path under the per-process temp directory (file not created).
std::string TempPath(const std::string& name);

// Seed for randomized tests: $COLLSYNTH_SEED if set, else the default. Tests print it on
// failure so a run can be replayed.
std::uint64_t TestSeed(std::uint64_t default_seed = 20261122);

// Path of a file in the source tree (e.g. "experiments/topologies/k22.json").
std::string SourcePath(const std::string& relative);

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_TEST_UTIL_H_
