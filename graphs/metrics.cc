#include "graphs/metrics.h"

#include <algorithm>
#include <atomic>

#include "core/thread_pool.h"

namespace collsynth {
namespace {

// CSR adjacency: BFS over it is several times faster than over vector<vector<int>> of ids.
struct Csr {
  std::vector<int> start, target;
  explicit Csr(const Topology& g) : start(g.num_nodes() + 1, 0) {
    for (const Link& l : g.links()) ++start[l.from + 1];
    for (int v = 0; v < g.num_nodes(); ++v) start[v + 1] += start[v];
    target.resize(g.num_links());
    std::vector<int> pos(start.begin(), start.end() - 1);
    for (const Link& l : g.links()) target[pos[l.from]++] = l.to;
  }
};

// BFS from s over `csr`. On entry dist[v] == -1 for every v; on return queue[0..returned)
// holds the reached nodes in BFS order with their distances in dist (the caller resets
// exactly those, so one BFS costs O(reached nodes + their out-links), not O(V)).
std::size_t Bfs(const Csr& csr, int s, std::vector<int>& dist, std::vector<int>& queue) {
  std::size_t head = 0, tail = 0;
  queue[tail++] = s;
  dist[s] = 0;
  while (head < tail) {
    int v = queue[head++];
    int dv = dist[v] + 1;
    for (int i = csr.start[v]; i < csr.start[v + 1]; ++i) {
      int w = csr.target[i];
      if (dist[w] < 0) {
        dist[w] = dv;
        queue[tail++] = w;
      }
    }
  }
  return tail;
}

}  // namespace

std::vector<int> BfsDistances(const Topology& g, int source) {
  Csr csr(g);
  std::vector<int> dist(g.num_nodes(), -1), queue(g.num_nodes());
  Bfs(csr, source, dist, queue);
  return dist;
}

DistanceStats ComputeDistanceStats(const Topology& g, unsigned threads,
                                   const ProgressCallback& progress) {
  Csr csr(g);
  const std::vector<int> compute = g.ComputeNodes();
  const std::int64_t num_compute = static_cast<std::int64_t>(compute.size());
  std::vector<char> is_compute(static_cast<std::size_t>(g.num_nodes()), 0);
  for (int v : compute) is_compute[v] = 1;
  // Everything a BFS updates is local to its worker (no shared cache lines in the loop). The
  // histogram is counted as nodes are discovered (one pass; index = distance < V), and only
  // the reached nodes are reset afterwards.
  struct alignas(64) Scratch {
    std::vector<int> dist, queue;
    std::vector<std::int64_t> histogram;
    std::int64_t unreachable = 0;
  };
  std::vector<Scratch> scratch(ParallelWorkers(compute.size(), threads));
  std::atomic<std::int64_t> finished{0};
  std::int64_t reported = 0;  // written by worker 0 (the calling thread) only
  ParallelForWorkers(compute.size(), threads, [&](std::size_t i, unsigned w) {
    Scratch& sc = scratch[w];
    if (sc.dist.empty()) {
      sc.dist.assign(g.num_nodes(), -1);
      sc.queue.resize(g.num_nodes());
      sc.histogram.assign(static_cast<std::size_t>(g.num_nodes()), 0);
    }
    std::vector<int>& dist = sc.dist;
    std::vector<int>& queue = sc.queue;
    std::size_t head = 0, tail = 0;
    std::int64_t reached_compute = 0;
    queue[tail++] = compute[i];
    dist[compute[i]] = 0;
    while (head < tail) {
      int v = queue[head++];
      int dv = dist[v] + 1;
      for (int a = csr.start[v]; a < csr.start[v + 1]; ++a) {
        int x = csr.target[a];
        if (dist[x] < 0) {
          dist[x] = dv;
          queue[tail++] = x;
          if (is_compute[x]) {
            ++sc.histogram[dv];
            ++reached_compute;
          }
        }
      }
    }
    sc.unreachable += num_compute - 1 - reached_compute;
    for (std::size_t k = 0; k < tail; ++k) dist[queue[k]] = -1;
    std::int64_t done = finished.fetch_add(1) + 1;
    if (w == 0 && progress) {
      progress(done, num_compute);
      reported = done;
    }
  });
  if (progress && reported < num_compute) progress(num_compute, num_compute);
  // Integer sums: the same result for every worker count and schedule.
  DistanceStats out;
  for (const Scratch& sc : scratch) {
    if (sc.histogram.size() > out.histogram.size()) out.histogram.resize(sc.histogram.size(), 0);
    for (std::size_t k = 0; k < sc.histogram.size(); ++k) {
      out.histogram[k] += sc.histogram[k];
      out.total_distance += static_cast<std::int64_t>(k) * sc.histogram[k];
    }
    out.unreachable_pairs += sc.unreachable;
  }
  while (!out.histogram.empty() && out.histogram.back() == 0) out.histogram.pop_back();
  for (std::size_t k = 0; k < out.histogram.size(); ++k) {
    if (out.histogram[k] > 0) out.diameter = static_cast<int>(k);
  }
  return out;
}

}  // namespace collsynth
