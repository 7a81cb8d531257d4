// The double-binary-tree topology (NCCL; Sanders, Speck, Träff two-tree scheme, seed 000
// §8.2 baseline "DBT"): nodes 0..n-1, the bidirectional links of tree A — the in-order
// balanced binary tree over positions 0..n-1, root of [lo, hi) at (lo + hi) / 2 — and of
// tree B, tree A with every position shifted by one (p -> p+1 mod n). A link in both trees
// is one link of bandwidth 2 (multiplicity 2). Degree <= 6, mostly 3 + 1 = 4 (a node inner in
// one tree is mostly a leaf in the other). It is the topology on which
// `collsynth baseline dbtree` runs with the identity order; solvers/baselines/double_binary_tree.h
// builds the same two trees for the schedule. n in [2, kMaxGeneratedNodes].
#ifndef COLLSYNTH_GRAPHS_GENERATORS_DOUBLE_BINARY_TREE_TOPOLOGY_H_
#define COLLSYNTH_GRAPHS_GENERATORS_DOUBLE_BINARY_TREE_TOPOLOGY_H_

#include <cstdint>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

// Parent position of each position 0..n-1 in the in-order balanced binary tree (root of
// [lo, hi) at (lo + hi) / 2); -1 at the root. Tree B of the pair is this tree with every
// position shifted by one. Shared with solvers/baselines/double_binary_tree.h so that the topology
// and the schedule use one definition of the trees.
std::vector<std::int64_t> InOrderTreeParents(std::int64_t n);

Topology DoubleBinaryTreeTopology(std::int64_t n);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_DOUBLE_BINARY_TREE_TOPOLOGY_H_
