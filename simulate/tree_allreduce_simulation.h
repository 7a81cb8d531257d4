// Simulation of a pipelined reduce-then-broadcast allreduce over spanning trees of compute
// nodes (NCCL's tree allreduce; the double binary tree of Sanders et al., seed 000 §8.2 [35],
// Table 4's caption; docs/simulate.md "Tree allreduce"). Tree t carries the fraction share_t of
// the M-byte vector, cut into P equal chunks. Reduce: node u sends chunk j to its parent once
// it has chunk j from every child (each arrival reduced: γ per byte); leaves send at once.
// Broadcast: the root sends chunk j to its children once it has chunk j from every child; a
// node forwards chunk j to its children once it received it. Chunks of one (tree, edge,
// direction) go in order (chunk j after chunk j-1 left the link), so α is paid per chunk per
// link, as in BuildPipelineSimulation. Links are shared first come, first served by every tree.
//
// Unlike the "dbtree" step baseline (solvers/baselines/double_binary_tree.h), whose sends each
// carry one shard, so that a tree edge moves O(N) sends per chunk (O(N²·P) in all: 4.19 M sends
// at N = 1024, P = 1), every transfer here carries a chunk of the whole vector slice:
// 2·(N-1)·P transfers per tree. Cost O(trees · N · P) transfers and dependencies. Never prints.
#ifndef COLLSYNTH_SIMULATE_TREE_ALLREDUCE_SIMULATION_H_
#define COLLSYNTH_SIMULATE_TREE_ALLREDUCE_SIMULATION_H_

#include <cstdint>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

struct ReductionTree {
  std::vector<int> parent;  // by node id: the parent node id, -1 for the root and non-members
  int root = -1;
  Rational share;  // fraction of the vector this tree carries (the shares sum to 1)
};

// 2·(members - 1)·P per tree (saturating).
std::uint64_t TreeAllreduceTransferCount(const std::vector<ReductionTree>& trees,
                                         const SimulationModel& m);

// m.size is the vector size M (bytes); m.chunks = P. Every tree edge must be a link of g in both
// directions (std::invalid_argument naming the edge otherwise), parent arrays of size
// g.num_nodes(), P >= 1.
FlowSimulation BuildTreeAllreduceSimulation(const std::vector<ReductionTree>& trees,
                                            const Topology& g, const SimulationModel& m);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_TREE_ALLREDUCE_SIMULATION_H_
