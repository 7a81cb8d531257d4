// What `collsynth baseline` builds (cli/baseline_command.cc) and the Python package's
// `collsynth.baseline` (python/, docs/python.md) share: the baseline schedule built, checked
// in memory (the step checker, or the pipeline checker for the routed baselines), its text,
// and the report `baseline --json` prints. Writing goes through cli/schedule_output.h.
#ifndef COLLSYNTH_CLI_BASELINE_REQUEST_H_
#define COLLSYNTH_CLI_BASELINE_REQUEST_H_

#include <nlohmann/json.hpp>
#include <string>

#include "cli/schedule_output.h"
#include "graphs/topology.h"
#include "solvers/baselines/baselines.h"

namespace collsynth::cli {

struct BaselineRequest {
  BaselineOptions options;  // name, order, dims, shifts, fan-out, chunks
  std::string collective;   // as given; empty: the baseline's default
  std::string topology;     // the topology's name in messages
  int ecmp_routes = 64;     // routed baselines: shortest routes per tree edge
  // --collective alltoall (direct, ecmp, topoopt-forwarding as flows schedules):
  bool relay = true;    // compute nodes other than the source may forward
  std::string demand;   // a demand-matrix file; empty: uniform
  bool optimum = true;  // also compute the certified optimum T* and the ratio T/T*
};

struct CheckedBaseline {
  bool ok = false;         // the checker accepted it
  std::string error;       // the checker's first error when !ok
  std::string text;        // the schedule document (written only when ok)
  std::string format;      // "steps", "pipeline" or "flows"
  ExpectedCheck expected;  // the in-memory check's figures
  nlohmann::json report;   // `baseline --json` without the output check
  std::string line;        // the one-line text report
};

// Builds and checks. A topology that does not fit the baseline, an unknown name or bad
// options are InputError. With collective "alltoall" the baseline is a flows schedule
// (solvers/alltoall/alltoall_baselines.h) checked by proofs_check/flow_checker.h, and the report
// adds the certified optimum (cli/alltoall_report.h): `optimal_time` T*, `ratio_to_optimum`
// T/T* (null with `optimum_failure` when it is not certified; absent when !optimum).
CheckedBaseline BuildCheckedBaseline(const Topology& g, const BaselineRequest& request);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_BASELINE_REQUEST_H_
