#include "proofs_check/wait_for_chains.h"

#include <algorithm>
#include <utility>

namespace collsynth {

std::vector<WaitForChain> FindWaitForChains(int num_blocks,
                                            const std::function<bool(int)>& finished,
                                            const std::function<int(int)>& waits_for) {
  std::vector<WaitForChain> chains;
  std::vector<int> mark(static_cast<std::size_t>(num_blocks), -1);  // walk that visited it
  for (int start = 0; start < num_blocks; ++start) {
    if (finished(start) || mark[start] >= 0) continue;
    std::vector<int> path;
    int cur = start;
    while (cur >= 0 && !finished(cur) && mark[cur] < 0) {
      mark[cur] = start;
      path.push_back(cur);
      cur = waits_for(cur);
    }
    if (cur >= 0 && !finished(cur) && mark[cur] != start) continue;  // known part
    WaitForChain chain;
    chain.cycle = cur >= 0 && !finished(cur);
    chain.end = cur;
    if (chain.cycle) {
      chain.blocks.assign(std::find(path.begin(), path.end(), cur), path.end());
    } else {
      chain.blocks = std::move(path);
    }
    chains.push_back(std::move(chain));
  }
  return chains;
}

}  // namespace collsynth
