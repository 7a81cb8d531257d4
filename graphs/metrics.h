// Distance metrics over the compute nodes: BFS (unit hop per link, switches included as
// intermediate hops) from every compute node, parallel on the shared pool (thread_pool.h).
// O(N_c · (V + E)) time, O(V) memory per thread; each BFS touches only what it reaches (no
// per-source O(V) pass), and threads share nothing but the next source's index.
#ifndef COLLSYNTH_GRAPHS_METRICS_H_
#define COLLSYNTH_GRAPHS_METRICS_H_

#include <cstdint>
#include <vector>

#include "core/progress.h"
#include "graphs/topology.h"

namespace collsynth {

struct DistanceStats {
  // histogram[k] = number of ordered pairs (u, v) of distinct compute nodes at distance k.
  std::vector<std::int64_t> histogram;
  std::int64_t unreachable_pairs = 0;
  int diameter = 0;  // max finite distance; meaningful when unreachable_pairs == 0
  // Sum of distances over reachable ordered pairs (for the average).
  std::int64_t total_distance = 0;
};

// threads = 0 uses the thread budget (thread_pool.h: the hardware threads, or the share of
// the enclosing pool task); the result is the same for every thread count. `progress`
// (optional) is called on the calling thread with (sources done, N_c) as the BFS runs finish.
DistanceStats ComputeDistanceStats(const Topology& g, unsigned threads = 0,
                                   const ProgressCallback& progress = {});

// Hop distances from one node to every node (-1 when unreachable).
std::vector<int> BfsDistances(const Topology& g, int source);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_METRICS_H_
