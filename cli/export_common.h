// The pieces `export msccl` and `export mscclpp` share (export_msccl_command.cc,
// export_mscclpp_command.cc): the schedule read once and checked, the rank mapping (--ranks),
// and where the files go.
#ifndef COLLSYNTH_CLI_EXPORT_COMMON_H_
#define COLLSYNTH_CLI_EXPORT_COMMON_H_

#include <string>
#include <vector>

#include "cli/schedule_input.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth::cli {

// A schedule read once, checked (the check `collsynth verify` runs) and ready to lower.
struct VerifiedInput {
  Topology g;
  std::string file;  // the schedule's name in messages ("<stdin>" for -)
  std::string format;
  CheckedSchedule schedule;
  std::vector<int> rank;  // node id -> rank
};

// Reads the topology and the schedule and checks the schedule; false (after printing the
// failure, exit 1) when it does not verify. Then reads the rank mapping (--ranks).
bool ReadVerifiedInput(const std::string& topology, const std::string& schedule,
                       const std::string& ranks, VerifiedInput* in);

// Calls `pipeline` or `steps` with the checked schedule.
template <typename R, typename P, typename S>
R LowerByFormat(const VerifiedInput& in, P pipeline, S steps) {
  if (in.schedule.pipeline) return pipeline(*in.schedule.pipeline);
  return steps(*in.schedule.steps);
}

// Where the file goes: OUT, or OUT/<generated name> when OUT is a directory (or ends in '/').
std::string OutputPath(const std::string& out, const std::string& generated_name);

// The side file next to `path`: its name without `ext` (".xml", ".json") + ".routes.json".
std::string RoutesPath(const std::string& path, const std::string& ext);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_EXPORT_COMMON_H_
