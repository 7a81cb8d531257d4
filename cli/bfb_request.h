// What `collsynth bfb` computes (cli/bfb_command.cc) and the Python package's `collsynth.bfb`
// (python/, docs/python.md) share: the BFB schedule (seed 000 §6, App. D) solved, checked in
// memory by the independent step checker, and the keys of `bfb --json` up to "verified". The
// command writes the schedule through the checked-output path (cli/schedule_output.h); the
// package holds the text and writes it through the same path on `save`.
#ifndef COLLSYNTH_CLI_BFB_REQUEST_H_
#define COLLSYNTH_CLI_BFB_REQUEST_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "cli/schedule_output.h"
#include "graphs/topology.h"
#include "schedules/compact_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth::cli {

// The options of `bfb` that decide the schedule.
struct BfbRequest {
  std::string file;                      // the topology's name in messages
  std::string collective = "allgather";  // allgather | reduce-scatter | allreduce
  std::int64_t chunks = 0;               // > 0: exactly P chunks (ILP (12), App. D.2)
  std::string alpha_file;                // per-link alphas for LP (13) (App. D.3)
  bool clp_hint = false;
  bool no_certificates = false;
  bool thm4 = false;
  unsigned threads = 0;
  // false: the caller checks the written file instead (bfb -o, cli/schedule_output.h), so the
  // in-memory check is skipped; `expected` then holds the producer's claimed T_L and T_B, which
  // the check of the written file must reproduce, and "verified" is the caller's to set.
  bool check_in_memory = true;
};

// A solved and checked BFB schedule.
struct BfbOutcome {
  nlohmann::json summary;  // the keys of `bfb --json` up to "verified" (and "error")
  bool ok = false;         // no "error": the checker accepted it and Theorem 20 holds
  StepSchedule schedule;
  std::optional<CompactStepSchedule> compact;  // the flat path's schedule (schedule.sends empty)
  ExpectedCheck expected;                      // the in-memory check's figures
  VerifyOptions verify;                        // how the written file is checked
};

// Solves and checks. Bad options (an unknown collective, --chunks with another collective or
// an alpha file, --thm4 with allgather) are InputError naming the option as the CLI spells it.
BfbOutcome ComputeBfb(const Topology& g, const BfbRequest& request);

// Makes the form to write available: the compact form when `compact` (InputError when a step's
// common denominator does not fit it).
void PrepareBfbScheduleText(BfbOutcome* outcome, bool compact);
// The schedule's text, streamed to `os`: the "steps-compact" form when `compact`, else "steps"
// (docs/formats.md). Call PrepareBfbScheduleText first.
void WriteBfbScheduleText(const BfbOutcome& outcome, const Topology& g, bool compact,
                          std::ostream& os);
// The same text as one string (the Python package's Schedule).
std::string BfbScheduleText(BfbOutcome* outcome, const Topology& g, bool compact);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_BFB_REQUEST_H_
