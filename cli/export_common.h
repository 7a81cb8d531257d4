// The pieces the exporters share (export_msccl.cc, export_mscclpp.cc, export_chakra.cc): the
// options `export msccl` and `export mscclpp` both take, the schedule read once (from files,
// or from text for the Python package) and checked, the rank mapping (--ranks), and where the
// files go.
#ifndef COLLSYNTH_CLI_EXPORT_COMMON_H_
#define COLLSYNTH_CLI_EXPORT_COMMON_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/command_outcome.h"
#include "cli/schedule_input.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth::cli {

// The options both exporters take, declared once (docs/cli.md "export msccl", "export
// mscclpp"). Each command adds its own after them.
struct ExportTargetArgs {
  std::string topology, schedule, output;
  std::string proto = "Simple";
  bool inplace = false;
  bool outofplace = false;
  std::int64_t min_bytes = 0;
  std::int64_t max_bytes = 0;
  int max_tbs = 64;
  std::int64_t max_chunks = 256;
  int instances = 1;
  std::string ranks;
  std::string name;
  bool json = false;
};

// The help texts that differ between the two exporters.
struct ExportTargetHelp {
  const char* output;      // -o
  const char* proto;       // --proto
  const char* inplace;     // --inplace
  const char* outofplace;  // --outofplace
  const char* min_bytes;   // --min-bytes
  const char* max_bytes;   // --max-bytes
  const char* max_chunks;  // --max-chunks
  const char* name;        // --name
};

void AddExportTargetOptions(CLI::App* cmd, ExportTargetArgs* args, const ExportTargetHelp& help);

// InputError(<args>, -o) when `output` is "-".
void RequireOutputFile(const std::string& output, const char* what);

// The common options into an exporter's option struct (MscclExportOptions,
// MscclppExportOptions: the same member names). InputError for -o - (the file is replayed
// from disk before it is kept, so it cannot go to stdout); `what` names the file ("XML").
template <typename O>
void SetExportTargetOptions(const ExportTargetArgs& a, const char* what, O* o) {
  RequireOutputFile(a.output, what);
  o->proto = a.proto;
  o->inplace = a.inplace;
  o->min_bytes = a.min_bytes;
  o->max_bytes = a.max_bytes;
  o->max_tbs = a.max_tbs;
  o->max_chunks = a.max_chunks;
  o->instances = a.instances;
  o->name = a.name;
}

// A schedule read once, checked (the check `collsynth verify` runs) and ready to lower.
struct VerifiedInput {
  Topology g;
  std::string file;  // the schedule's name in messages ("<stdin>" for -)
  std::string format;
  CheckedSchedule schedule;
  std::vector<int> rank;  // node id -> rank
};

// Where an exporter's schedule comes from: the command's files, or (the Python package) a
// topology and a schedule's text in memory.
struct ExportInput {
  std::string topology, schedule;  // files, when `g` is null
  std::string ranks;               // --ranks (empty: DefaultRanks)
  const Topology* g = nullptr;     // in memory: the topology ...
  std::string text;                // ... and the schedule's text, named "<python>"
};

// Reads the topology and the schedule and checks the schedule; false (after printing the
// failure, exit 1) when it does not verify. Then reads the rank mapping (--ranks).
bool ReadVerifiedInput(const ExportInput& source, VerifiedInput* in);

// What an exporter did (cli/command_outcome.h).
using ExportOutcome = CommandOutcome;

// Calls `pipeline` or `steps` with the checked schedule.
template <typename R, typename P, typename S, typename F>
R LowerByFormat(const VerifiedInput& in, P pipeline, S steps, F flows) {
  if (in.schedule.pipeline) return pipeline(*in.schedule.pipeline);
  if (in.schedule.flows) return flows(*in.schedule.flows);
  return steps(*in.schedule.steps);
}

// Where the file goes: OUT, or OUT/<generated name> when OUT is a directory (or ends in '/').
std::string OutputPath(const std::string& out, const std::string& generated_name);

// The side file next to `path`: its name without `ext` (".xml", ".json") + ".routes.json".
std::string RoutesPath(const std::string& path, const std::string& ext);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_EXPORT_COMMON_H_
