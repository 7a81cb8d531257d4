// All-to-all baselines as "flows" schedules (schedules/flow_schedule.h), the routings the
// certified optimum (alltoall_optimum.h) is compared with (docs/baselines.md "All-to-all
// baselines"). Hop counts are over links; a path may pass a compute node other than its source
// only when `relay` is true (switches always relay).
// - direct: one shortest path per pair, the one breadth-first search from the source finds
//   first (links in id order; the parent of a node is the first node that reaches it): the
//   shortest-path rule `simulate` uses for MSCCL XML without routes, and the routing of a
//   single-path source-routed fabric.
// - ecmp: equal-cost multipath as switches hash flows: at every node, the traffic of pair
//   (s, t) splits evenly over the out-links that lie on a shortest path to t, so a path's share
//   is the product of 1/(number of such links) along it. Its loads and λ are exactly those of
//   ComputeEcmpRouting (alltoall_metrics.h), which gives the time claimed.
// - topoopt-forwarding: TopoOpt's host-based forwarding (seed 002 §3 "Host-based forwarding",
//   Algorithm 1 line 20 "ShortestPath(G, T_MP)", §5.5 "Routing strategy"): every host relays,
//   and each node forwards by the final destination alone, to one next hop on a shortest
//   path (seed 002 App. I: the forwarding rules "look up the final destination IP"); the tie
//   is broken by the least link id. The routes into each destination form a shortest-path
//   in-tree, unbalanced in general: the paper's Figure 15 measures that imbalance.
// The claimed time T = max_e load_e / b_e is computed exactly here (proofs_check/flow_checker.h
// recomputes it). Preconditions: every demand pair is connected under the relay rule
// (DisconnectedDemandPair). Cost: O(pairs · (V + E)) for direct and topoopt-forwarding,
// O(destinations · (V + E) + paths · V) for ecmp, whose paths can be exponentially many
// (d! per antipodal pair of the hypercube Q_d): more than `max_paths` is InputError naming
// `file`, before they are stored.
#ifndef COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_BASELINES_H_
#define COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_BASELINES_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"
#include "schedules/flow_schedule.h"

namespace collsynth {

enum class AlltoallBaseline { kDirect, kEcmp, kTopoOptForwarding };

// "direct", "ecmp", "topoopt-forwarding".
const std::vector<std::string>& AlltoallBaselineNames();
std::optional<AlltoallBaseline> ParseAlltoallBaseline(const std::string& name);

inline constexpr std::size_t kMaxBaselinePaths = std::size_t{1} << 20;

struct AlltoallBaselineOptions {
  AlltoallBaseline which = AlltoallBaseline::kDirect;
  bool relay = true;    // topoopt-forwarding requires it (hosts forward)
  bool uniform = true;  // the demand is UniformDemand(g), written as "uniform"
  std::size_t max_paths = kMaxBaselinePaths;
};

// InputError(file, ...) for topoopt-forwarding without relay and for too many ecmp paths.
FlowSchedule BuildAlltoallBaseline(const Topology& g, const DemandMatrix& demand,
                                   const AlltoallBaselineOptions& options, const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_BASELINES_H_
