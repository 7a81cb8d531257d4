// Reading a schedule for a command that acts on it (export msccl|mscclpp|chakra, simulate,
// schedule expand): the file is loaded once (schedules/schedule_file.h), checked by the very
// check `collsynth verify` runs on it (VerifyLoadedSchedule), and handed over in the form the
// command lowers or simulates. One file gets one verdict: a "pipeline-symmetric" file that
// `verify` rejects (a wrong generator order, swapped root exponents, ...) is rejected here
// too, before it is expanded. Its expansion (struct to struct, never through text) is then
// checked by the plain pipeline checker as well, since the expansion is what is acted on; a
// "flows-symmetric" file likewise (its expansion to "flows" by the plain flows checker).
#ifndef COLLSYNTH_CLI_SCHEDULE_INPUT_H_
#define COLLSYNTH_CLI_SCHEDULE_INPUT_H_

#include <optional>
#include <string>

#include "graphs/topology.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/verify.h"
#include "schedules/flow_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/schedule_file.h"
#include "schedules/step_schedule.h"

namespace collsynth::cli {

struct CheckedSchedule {
  std::string file;    // the schedule's name in messages ("<stdin>" for -)
  std::string format;  // the file's format
  VerifyResult verified;
  // Exactly one is set: pipeline schedules ("pipeline-symmetric" as its checked expansion),
  // step schedules ("steps-compact" expanded to steps), all-to-all flows (only when the caller
  // accepts them).
  std::optional<PipelineSchedule> pipeline;
  std::optional<StepSchedule> steps;
  std::optional<FlowSchedule> flows;
  // "pipeline-symmetric": the plain checker's report on the expansion.
  std::optional<PipelineCheckReport> expansion_report;
  // "flows-symmetric" (expanded into `flows`): the plain flows checker's report on the expansion.
  std::optional<FlowCheckReport> flows_expansion_report;
  Collective collective() const;
};

// Loads `path` ("-" = stdin) on `g` and checks it. Bad input throws InputError (exit 2).
// When the check fails prints "FILE: the schedule does not verify, nothing ACTION: FIRST
// ERROR" (exit 1 follows) and returns std::nullopt. `action` is e.g. "exported". A "flows"
// or "flows-symmetric" schedule is InputError (exit 2, before it is checked) unless
// `accept_flows` (`simulate`, export).
std::optional<CheckedSchedule> LoadCheckedSchedule(const Topology& g, const std::string& path,
                                                   const std::string& action,
                                                   bool accept_flows = false);
// The same for a schedule already loaded (e.g. from text read to sniff its kind).
std::optional<CheckedSchedule> CheckLoadedSchedule(const Topology& g, LoadedSchedule loaded,
                                                   const std::string& action,
                                                   bool accept_flows = false);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_SCHEDULE_INPUT_H_
