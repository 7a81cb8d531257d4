// What `collsynth optimum TOPO --collective alltoall --symmetric` computes and prints
// (cli/optimum_command.cc): the uniform all-to-all optimum λ* from the reduced LP of a group H
// acting regularly on the compute nodes (solvers/alltoall/symmetric_alltoall.h, docs/alltoall.md
// "Symmetric all-to-all"), H found as the symmetric pipeline finds it (ChooseRegularGroup,
// solvers/pipeline/symmetric_pipeline.h: the declared automorphisms, commuting, regular), the
// result a compact "flows-symmetric" schedule that proofs_check/symmetric_flow_checker.h accepted
// with T = 1/λ* certified by its lengths. Never prints.
#ifndef COLLSYNTH_CLI_SYMMETRIC_ALLTOALL_REPORT_H_
#define COLLSYNTH_CLI_SYMMETRIC_ALLTOALL_REPORT_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "graphs/topology.h"
#include "schedules/symmetric_flow_schedule.h"

namespace collsynth::cli {

struct SymmetricAlltoallReport {
  bool certified = false;  // else the CLI's exit 1 with `failure`
  std::string failure;
  nlohmann::json json;  // `optimum --collective alltoall --symmetric --json`, when certified
  std::string text;     // the text report, when certified
  std::optional<SymmetricFlowSchedule> schedule;  // the checked schedule (optimum -o)
};

// InputError naming `file` when the topology has fewer than 2 compute nodes, a compute node has
// no path to another, or no declared automorphisms give a group acting regularly on ALL compute
// nodes (one orbit). `stage` (may be empty) is told when each stage starts.
SymmetricAlltoallReport ComputeSymmetricAlltoallReport(
    const Topology& g, const std::string& file, bool relay,
    const std::function<void(const std::string&)>& stage);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_SYMMETRIC_ALLTOALL_REPORT_H_
