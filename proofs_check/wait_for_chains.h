// The wait-for walk shared by the replay checkers' executions (msccl_execution.cc,
// mscclpp_execution.cc): when a run stops with unfinished blocks, each unfinished block waits
// for at most one other; following those edges from every unfinished block not yet visited
// gives the chains and cycles a deadlock report names, each once. Internal to proofs_check/.
#ifndef COLLSYNTH_PROOFS_CHECK_WAIT_FOR_CHAINS_H_
#define COLLSYNTH_PROOFS_CHECK_WAIT_FOR_CHAINS_H_

#include <functional>
#include <vector>

namespace collsynth {

// One deadlocked wait-for path: blocks[0] waits for blocks[1], ..., and the last one waits for
// `end`. cycle: end is an unfinished block of the path and `blocks` is the cycle from it (end ==
// blocks[0]); otherwise end is a finished block or -1 (waits for nothing that can release it).
struct WaitForChain {
  std::vector<int> blocks;
  bool cycle = false;
  int end = -1;
};

// The chains and cycles among blocks 0..num_blocks-1, in the order of their first unfinished
// block: a walk from each unfinished block not visited by an earlier walk, stopped at a finished
// block, at -1, or at a visited block (a walk that runs into an earlier walk's blocks is
// reported there and gives no chain). waits_for(i) is the block unfinished block i waits for,
// or -1. Empty iff every block is finished. O(num_blocks) calls of each function.
std::vector<WaitForChain> FindWaitForChains(int num_blocks,
                                            const std::function<bool(int)>& finished,
                                            const std::function<int(int)>& waits_for);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_WAIT_FOR_CHAINS_H_
