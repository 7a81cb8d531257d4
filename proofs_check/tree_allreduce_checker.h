// Checker for a reduce-then-broadcast allreduce over trees (NCCL's tree allreduce; the double
// binary tree of Sanders et al., seed 000 §8.2 [35]; the model simulate/tree_allreduce_simulation.h
// times), written from the definition, independent of the producers. Tree t, rooted at r_t with
// parent array p_t, carries the fraction share_t of the vector: every member sends its partial sum
// of that fraction to its parent (reduce), then the root's total goes back down every tree edge
// (broadcast). That is an allreduce exactly when, for every tree:
//   - the root is a compute node with no parent, and every other member has a parent;
//   - the members are exactly the compute nodes (each contributes and receives once);
//   - following parents from any member reaches the root (no cycle), so every contribution
//     is summed once at the root and the sum reaches every member;
//   - every tree edge is a link of g in both directions (child → parent for the reduce,
//     parent → child for the broadcast);
// and the shares are positive and sum to 1 (every element is carried by exactly one tree's
// fraction). Cost O(trees · |V| + |E|). Exact (Rational shares).
#ifndef COLLSYNTH_PROOFS_CHECK_TREE_ALLREDUCE_CHECKER_H_
#define COLLSYNTH_PROOFS_CHECK_TREE_ALLREDUCE_CHECKER_H_

#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

struct CheckedReductionTree {
  std::vector<int> parent;  // by node id: the parent node id, -1 for the root and non-members
  int root = -1;
  Rational share;  // the fraction of the vector this tree carries
};

struct TreeAllreduceCheckReport {
  bool ok = false;
  std::vector<std::string> errors;  // the first violation of each tree, then of the shares
};

TreeAllreduceCheckReport CheckTreeAllreduce(const Topology& g,
                                            const std::vector<CheckedReductionTree>& trees);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_TREE_ALLREDUCE_CHECKER_H_
