// What `collsynth optimum` computes and prints as JSON (docs/cli.md "## optimum"), shared with
// the Python package's collsynth.optimum (docs/python.md): the exact allgather optimum ratio*
// with its bottleneck cut (seed 004 eq. (1), Theorem 1), Proposition 3's U and k, the
// allreduce bounds (6)/(7) with Theorem 19, and the broadcast bound (5) for a root. Never
// prints.
#ifndef COLLSYNTH_CLI_OPTIMUM_REPORT_H_
#define COLLSYNTH_CLI_OPTIMUM_REPORT_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/progress.h"
#include "graphs/topology.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"

namespace collsynth::cli {

struct OptimumReport {
  std::string method;  // "dinkelbach" or "binary-search"
  AllgatherOptimum allgather;
  AllreduceBounds allreduce;
  int root = -1;  // the broadcast root
  BroadcastBound broadcast;
};

// The checks `optimum` makes of its input (InputError naming `file` or the option): `method`
// is dinkelbach or binary-search; the topology is Eulerian and strongly connected with at least
// 2 compute nodes; `root` (empty: the first compute node) names a compute node.
OptimumMethod ParseOptimumMethod(const std::string& method);
int RequireOptimumInput(const Topology& g, const std::string& file, const std::string& root);

// The report; `sinks` counts Theorem-1 tests (may be empty), `stage` (may be empty) is told
// when the allreduce and broadcast bounds start.
OptimumReport ComputeOptimumReport(const Topology& g, const std::string& method, int root,
                                   const ProgressCallback& sinks,
                                   const std::function<void(const std::string&)>& stage);

// The JSON object `optimum --json` prints.
nlohmann::json OptimumReportJson(const Topology& g, const OptimumReport& r);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_OPTIMUM_REPORT_H_
