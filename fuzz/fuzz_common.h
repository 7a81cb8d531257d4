// Shared helpers of the libFuzzer targets in fuzz/ (fuzz/README.md, docs/fuzzing.md).
//
// Contract of every target: bad input must end in InputError (core/input_error.h), the one
// expected failure. Anything else is a finding and aborts with a one-line reason on stderr:
// another exception type, a disagreement between two computations that the project
// documents as equal (round trips, compact vs. steps check, checker vs. brute force), and of
// course what the sanitizers, libFuzzer's -rss_limit_mb and -timeout catch.
// Inputs longer than kMaxInputBytes are skipped so that each run stays fast.
#ifndef COLLSYNTH_FUZZ_FUZZ_COMMON_H_
#define COLLSYNTH_FUZZ_FUZZ_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/input_error.h"
#include "graphs/topology.h"
#include "proofs_check/step_checker.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth::fuzz {

inline constexpr std::size_t kMaxInputBytes = 8192;

// Aborts with `what` (libFuzzer then saves the input as crash-*).
[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "collsynth fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Triage aid, never set in CI: COLLSYNTH_FUZZ_IGNORE="text1|text2" makes findings whose message
// contains one of the texts (an exception's what() or a Require message) count as expected, so
// that a long run can look past known, already reported defects. Sanitizer reports, timeouts
// and memory limits are never ignored.
inline bool Ignored(const std::string& what) {
  static const std::string patterns = [] {
    const char* p = std::getenv("COLLSYNTH_FUZZ_IGNORE");
    return std::string(p == nullptr ? "" : p);
  }();
  std::size_t begin = 0;
  while (begin < patterns.size()) {
    std::size_t end = patterns.find('|', begin);
    if (end == std::string::npos) end = patterns.size();
    if (end > begin && what.find(patterns.substr(begin, end - begin)) != std::string::npos) {
      return true;
    }
    begin = end + 1;
  }
  return false;
}

inline void Require(bool ok, const std::string& what) {
  if (!ok && !Ignored(what)) Fail(what);
}

// Runs body(); InputError is the expected outcome of bad input, anything else is a finding.
template <typename Body>
void ExpectInputErrorOnly(Body&& body) {
  try {
    body();
  } catch (const InputError&) {
    // expected for bad input
  } catch (const std::exception& e) {
    if (Ignored(e.what())) return;
    Fail(std::string("exception other than InputError: ") + e.what());
  } catch (...) {
    Fail("non-standard exception");
  }
}

// The fixed topologies the schedule targets check against (files in fuzz/topologies/ and
// experiments/topologies/, read once): 0 K_{2,2} (k22.json), 1 bidirectional 4-ring
// (ring4.txt), 2 two clusters behind switches (two_cluster.json), 3 unidirectional 3-ring
// with a doubled link (uniring3.txt).
inline constexpr int kNumFixedTopologies = 4;
const Topology& FixedTopology(int index);
const char* FixedTopologyPath(int index);

// Splits a schedule target's input: a leading byte '0'..'3' selects the fixed topology and
// is removed; any other first byte means topology 0 and the whole input is the schedule, so a
// plain schedule file for K_{2,2} is a valid input as it is.
struct ScheduleInput {
  const Topology* topology;
  int topology_index;
  std::string text;
};
ScheduleInput SplitScheduleInput(const std::uint8_t* data, std::size_t size);

// The order-independent part of a step check report: ok, T_L, T_B, number of violations
// and the optional verdicts, as one line (the listed first violations depend on send order).
std::string StepVerdicts(const StepCheckReport& r);

// Valid schedules on the fixed topologies, for the targets that fuzz a command's options rather
// than a file (simulate_options, export_options): corpus files of tests/fuzz_corpus/pipeline/ and
// tests/fuzz_corpus/steps/ (selector byte as in SplitScheduleInput), each loaded and checked
// once by the check `collsynth verify` runs (a fixture that does not verify is a finding).
// Exactly one of pipeline / steps is set.
struct ValidSchedule {
  std::string name;  // the corpus file's name
  int topology_index = 0;
  std::optional<PipelineSchedule> pipeline;
  std::optional<StepSchedule> steps;
};
const std::vector<ValidSchedule>& ValidSchedules();

// The input of the option targets: a JSON object (nullopt for anything else, and for inputs
// above kMaxInputBytes), and the fixture its "schedule" member picks (an unsigned integer modulo
// `count`; 0 when absent or of another type).
std::optional<nlohmann::json> ParseOptionsInput(const std::uint8_t* data, std::size_t size);
std::size_t PickIndex(const nlohmann::json& doc, std::size_t count);

// Cheap consequences every topology that was read must satisfy: the JSON round trip is
// lossless, the edge-list round trip is lossless or refused with InputError, and the
// structural queries run (distance statistics only for small topologies).
void CheckTopology(const Topology& g);

}  // namespace collsynth::fuzz

#endif  // COLLSYNTH_FUZZ_FUZZ_COMMON_H_
