// Experiment kind "collective-compare": for each topology (a `topo gen` expression) run a set
// of algorithms for one collective, check every schedule with proofs_check and report the
// checker's T_L and T_B next to the exact lower bound, plus α-β runtimes for named workloads.
//
// params:
//   "cases": [{"topology": "torus(4,4)", "algorithms": ["bfb", "baseline:torus"],
//              "label": "optional instance label",
//              "series": "optional family name"}, ...]
//     each row gets a column series = "<series> <algorithm>" (or the algorithm alone), the
//     natural plot group when one algorithm runs on several topology families
//     and/or "topologies": [...] with "algorithms": [...] (cross product)
//   "collective": "allgather" | "reduce-scatter" | "allreduce"   (default "allreduce"),
//     or "collectives": [...] — every case runs once per collective
//   "workloads": [{"name": "1MB", "alpha_us": "10", "bytes": "1000000", "gbps": "100"}]
//   "lower_bound": true (default) — compute the exact bound (costs max-flows on big graphs)
// Algorithms (experiments/algorithm_registry.h): bfb, pipeline (T_L left empty, it is a fluid
// schedule), optimum (verified n/a, certified by its cut), baseline:NAME (the baseline's own
// collective is used when it has only one, e.g. dbtree/multitree allreduce).
//
// Units: tb is in (M/N)/b — shard size over the unit link bandwidth of the topology — for
// every algorithm, so rows compare directly; lower_bound is seed 004's exact bound in the
// same unit (allgather/reduce-scatter: ratio* of (1); allreduce: max of (6), (7)).
// Workload columns time_us_<name> = T_L·α + T_B·(M/N)/b with b = gbps·10^9/8 bytes/s per
// unit of link bandwidth, in µs, exact then rounded to 3 decimals.
// Extra columns: diameter, links, and for pipeline k, U, trees. Every row also gets
// certified_optimal ("yes" exactly when the proofs_check checker derived a lower bound from
// a cut that equals the row's checked tb: the pipeline schedule's own certificate, or for
// other algorithms the solvers' cuts re-evaluated by CheckCutBound /
// CheckSingleNodeCutsBound — bound (1), (1) on G^T, (6), (7)) and certificate (which bound
// certifies the row, e.g. "checked cut: bound (7)", or why none does, e.g. "none: bounds (6)
// and (7) not attained (checked bound 62/25)").
#ifndef COLLSYNTH_EXPERIMENTS_COLLECTIVE_COMPARE_H_
#define COLLSYNTH_EXPERIMENTS_COLLECTIVE_COMPARE_H_

#include <string>
#include <vector>

#include "core/rational.h"
#include "experiments/experiment.h"

namespace collsynth::experiments {

class Params;

struct Workload {
  std::string name;
  Rational alpha_us, bytes, gbps;
};

// Runs one algorithm (a name CanonicalAlgorithm accepts) on one topology expression and returns
// its checked row.
ExperimentRow RunCollectiveCase(const std::string& topology_expr, const std::string& label,
                                const std::string& algorithm, Collective collective,
                                const std::vector<Workload>& workloads, bool lower_bound);

// params.workloads (absent: none); InputError naming the key (experiments/params.h).
std::vector<Workload> ParseWorkloads(const Params& params);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_COLLECTIVE_COMPARE_H_
