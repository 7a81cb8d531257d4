// Baselines on any topology, switches included (docs/baselines.md "Routed baselines"): the
// algorithms NCCL and MPI run, written as pipeline schedules (docs/formats.md "Pipeline schedule
// JSON"), so that one checker, the simulator and the exporters take them like the optimal ones.
// Each root's data follows a tree (two halves on two trees for the double binary tree) over the
// compute nodes whose edges are routed over shortest paths with only switches inside; where
// several shortest routes join the same two nodes the tree is split over them evenly, as ECMP
// spreads flows (each route gets 1/#routes of the tree's copies).
//
//   direct              one shortest-path tree per root: a node's parent is the last compute node
//                       on a shortest path from the root (the root itself on a switched fabric:
//                       every root sends to every node, as ASTRA-sim's `direct` and NCCL's
//                       all-to-all-style algorithms do). Height = the root's eccentricity, so the
//                       schedule reaches the height lower bound (PipelineHeightLowerBound).
//   routed-ring         the ring order[0] -> order[1] -> ... -> order[0]: root order[j]'s tree is
//                       the path order[j], order[j+1], ..., order[j-1] (NCCL's ring allgather).
//                       Default order: on GPU boxes (InferBoxes) the rail-aware ring
//                       (RailAwareRingOrder: box to box on one rail, as NCCL's rings leave and
//                       enter a node through the same NIC, NVIDIA/nccl src/graph/search.cc),
//                       else the compute nodes' id order.
//   routed-recursive-doubling
//                       N = 2^d nodes in `order`; root i's tree is the binomial tree of recursive
//                       doubling: at level s every node holding the data sends it to its partner
//                       at position (position XOR 2^s) (seed 000 App. I on any fabric).
//   routed-double-binary-tree
//                       NCCL's two binary trees over ranks 0..N-1 = `order` (NcclDoubleBinaryTrees,
//                       solvers/baselines/double_binary_tree.h; NVIDIA/nccl src/graph/trees.cc):
//                       root r has two trees, each carrying half of its shard, the two NCCL trees
//                       re-rooted at r (its data climbs to the tree's root and comes down the
//                       other branches, as NCCL's reduce-then-broadcast moves it). On GPU boxes
//                       (InferBoxes) without --order, NCCL's multi-node form (the trees across
//                       nodes, a chain inside each; NVIDIA/nccl src/graph/connect.cc,
//                       connectTrees): for each GPU index c, a channel whose two trees join the
//                       boxes' GPU c (one rail) as NCCL's trees over the boxes, and chain each
//                       box c, c+1, ..., c-1; 2·G trees per root, each 1/(2G) of its shard.
//   hierarchical        on GPU boxes (InferBoxes, solvers/baselines/baseline_structure.h), root
//                       GPU i of box b sends along rail i to GPU i of every other box, and GPU i
//                       of every box then sends to its box's other GPUs. Reduce-scatter runs the
//                       same trees upwards: intra-box first, then along the rails; the allreduce
//                       is NCCL's multi-node scheme (intra-box reduce-scatter, inter-box along
//                       the rails, intra-box allgather). A topology without boxes: InputError.
//
// Collectives: allgather; reduce-scatter (the same trees, data climbing them: routes are shortest
// paths towards the root, whose reversed links carry the load); allreduce (reduce-scatter then
// allgather, seed 004 App. B). The ratio and U are the loads the trees put on the links
// (max_e load_e / (k·b_e)); the schedule carries its height claim. Bad input (a topology the
// baseline does not fit, an order that is not a permutation of the compute nodes, a tree edge
// with no switch-only route): InputError naming `file` and the option. Cost: O(N·(|V| + |E|))
// for the distances plus the size of the schedule, which holds at most kMaxRoutedBaselineRoutes
// routes (InputError above that, before building).
#ifndef COLLSYNTH_SOLVERS_BASELINES_ROUTED_BASELINES_H_
#define COLLSYNTH_SOLVERS_BASELINES_ROUTED_BASELINES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

struct RoutedBaselineOptions {
  std::string name;  // one of RoutedBaselineNames()
  Collective collective = Collective::kAllgather;
  std::vector<std::string> order;  // ring / recursive-doubling order (compute node names)
  int max_routes_per_edge = 64;    // ECMP: at most this many shortest routes per tree edge
};

inline constexpr std::int64_t kMaxRoutedBaselineRoutes = std::int64_t{1} << 22;

// "direct", "routed-ring", "routed-recursive-doubling", "routed-double-binary-tree",
// "hierarchical".
const std::vector<std::string>& RoutedBaselineNames();
bool IsRoutedBaseline(const std::string& name);

PipelineSchedule BuildRoutedBaseline(const Topology& g, const RoutedBaselineOptions& options,
                                     const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_ROUTED_BASELINES_H_
