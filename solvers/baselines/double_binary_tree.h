// Double binary tree (NCCL-style; Sanders et al. two-tree scheme, seed 000 §8.2 [35, 58], seed
// 001 §II-C) as a step schedule. Tree A is the in-order balanced binary tree over positions
// 0..N-1 (root of [lo, hi) is (lo + hi) / 2); tree B is tree A with every position shifted
// by one (p -> p+1 mod N), so most leaves of one tree are inner nodes of the other. Tree A
// carries the slice [0, 1/2) of every shard, tree B [1/2, 1), each cut into P pipeline chunks.
//
// The step model's allgather needs every shard at every node, so each tree gathers up and
// then broadcasts down: a node at depth δ of a tree of height h sends chunk c of its subtree's
// shards to its parent at step h - δ + 1 + c (c = 0..P-1); after U = h + P - 1 steps the
// parent sends chunk c of every shard outside the child's subtree at step U + δ + 1 + c.
// T_L = 2(h + P - 1) for the taller tree. The reduce-scatter is the reverse (Cor. 3.1), the
// allreduce both (seed 000 §3). NCCL's reduce-then-broadcast allreduce ends with the whole
// vector at the root, which the RS+AG step model cannot state; this is its RS+AG analogue.
//
// Positions are node ids in order (or a ring order if given). Preconditions: every tree edge is
// a link in both directions (InputError naming the first missing one), direct-connect,
// N >= 2, P >= 1. Complexity O(N²·P) sends.
#ifndef COLLSYNTH_SOLVERS_BASELINES_DOUBLE_BINARY_TREE_H_
#define COLLSYNTH_SOLVERS_BASELINES_DOUBLE_BINARY_TREE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphs/topology.h"
#include "schedules/step_schedule.h"

namespace collsynth {

struct BinaryTree {
  int root = -1;
  std::vector<int> parent;  // by node id (0..max(order)), -1 at the root and off the tree
  std::vector<int> depth;   // by node id, 0 at the root and off the tree
};

// The two trees over the given positions (position i is node order[i]).
std::vector<BinaryTree> DoubleBinaryTrees(const std::vector<int>& order);

// NCCL's double binary tree (NVIDIA/nccl src/graph/trees.cc, ncclGetBtree and ncclGetDtree),
// which differs from the in-order pair above. Tree A over ranks 0..n-1 is rooted at 0, whose one
// child is the largest power of two below n; rank r > 0 with lowest set bit β has the parent
// (r XOR β) | 2β, or r XOR β when that is >= n, so odd ranks are leaves. Tree B mirrors tree A
// (r -> n-1-r, root n-1) when n is even and shifts it by one (r -> r+1 mod n, root 1) when n is
// odd, so that most inner nodes of one tree are leaves of the other. O(log n) per rank.
std::int64_t NcclBtreeParent(std::int64_t n, std::int64_t rank);
// Both trees, rank i being node order[i].
std::vector<BinaryTree> NcclDoubleBinaryTrees(const std::vector<int>& order);

StepSchedule DoubleBinaryTreeAllgather(const Topology& g, const std::vector<int>& order, int chunks,
                                       const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_DOUBLE_BINARY_TREE_H_
