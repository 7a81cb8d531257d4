#include "graphs/metrics.h"

#include <algorithm>
#include <atomic>
#include <thread>

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
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  Csr csr(g);
  const std::vector<int> compute = g.ComputeNodes();
  const std::int64_t num_compute = static_cast<std::int64_t>(compute.size());
  std::vector<char> is_compute(static_cast<std::size_t>(g.num_nodes()), 0);
  for (int v : compute) is_compute[v] = 1;
  threads = std::min<unsigned>(threads, std::max<std::size_t>(1, compute.size()));
  std::atomic<std::size_t> next{0};
  std::atomic<std::int64_t> finished{0};
  std::int64_t reported = 0;  // written by thread 0 only
  std::vector<DistanceStats> partial(threads);
  auto work = [&](unsigned t) {
    // Everything a BFS updates is local to the thread (no shared cache lines in the loop).
    // The histogram is counted as nodes are discovered (one pass; index = distance < V),
    // and only the reached nodes are reset afterwards.
    std::vector<int> dist(g.num_nodes(), -1), queue(g.num_nodes());
    std::vector<std::int64_t> histogram(static_cast<std::size_t>(g.num_nodes()), 0);
    std::int64_t unreachable = 0;
    for (std::size_t i; (i = next.fetch_add(1)) < compute.size();) {
      std::size_t head = 0, tail = 0;
      std::int64_t reached_compute = 0;
      queue[tail++] = compute[i];
      dist[compute[i]] = 0;
      while (head < tail) {
        int v = queue[head++];
        int dv = dist[v] + 1;
        for (int a = csr.start[v]; a < csr.start[v + 1]; ++a) {
          int w = csr.target[a];
          if (dist[w] < 0) {
            dist[w] = dv;
            queue[tail++] = w;
            if (is_compute[w]) {
              ++histogram[dv];
              ++reached_compute;
            }
          }
        }
      }
      unreachable += num_compute - 1 - reached_compute;
      for (std::size_t k = 0; k < tail; ++k) dist[queue[k]] = -1;
      std::int64_t done = finished.fetch_add(1) + 1;
      if (t == 0 && progress) {
        progress(done, num_compute);
        reported = done;
      }
    }
    std::size_t size = histogram.size();
    while (size > 0 && histogram[size - 1] == 0) --size;
    histogram.resize(size);
    std::int64_t total = 0;
    for (std::size_t k = 0; k < size; ++k) total += static_cast<std::int64_t>(k) * histogram[k];
    partial[t].histogram = std::move(histogram);
    partial[t].unreachable_pairs = unreachable;
    partial[t].total_distance = total;
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  if (progress && reported < num_compute) progress(num_compute, num_compute);
  DistanceStats out;
  for (const auto& st : partial) {
    if (st.histogram.size() > out.histogram.size()) out.histogram.resize(st.histogram.size(), 0);
    for (std::size_t k = 0; k < st.histogram.size(); ++k) out.histogram[k] += st.histogram[k];
    out.unreachable_pairs += st.unreachable_pairs;
    out.total_distance += st.total_distance;
  }
  for (std::size_t k = 0; k < out.histogram.size(); ++k) {
    if (out.histogram[k] > 0) out.diameter = static_cast<int>(k);
  }
  return out;
}

}  // namespace collsynth
