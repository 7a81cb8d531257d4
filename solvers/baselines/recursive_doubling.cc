#include "solvers/baselines/recursive_doubling.h"

namespace collsynth {

StepSchedule RecursiveDoublingAllgather(const std::vector<int>& label) {
  int n = static_cast<int>(label.size());
  std::vector<int> node(n);
  for (int v = 0; v < n; ++v) node[label[v]] = v;
  StepSchedule s;
  s.extra["baseline"] = "recursive-doubling";
  for (int step = 1; (1 << (step - 1)) < n; ++step) {
    int bit = 1 << (step - 1);
    for (int l = 0; l < n; ++l) {
      // Sources held: labels agreeing with l on the bits >= step-1.
      int base = l & ~(bit - 1);
      for (int src = base; src < base + bit; ++src) {
        s.sends.push_back(StepSend{node[src], {Interval{0, 1}}, node[l], node[l ^ bit], step});
      }
    }
  }
  return s;
}

}  // namespace collsynth
