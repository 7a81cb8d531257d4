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

void Bfs(const Csr& csr, int s, std::vector<int>& dist, std::vector<int>& queue) {
  std::fill(dist.begin(), dist.end(), -1);
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
}

}  // namespace

std::vector<int> BfsDistances(const Topology& g, int source) {
  Csr csr(g);
  std::vector<int> dist(g.num_nodes()), queue(g.num_nodes());
  Bfs(csr, source, dist, queue);
  return dist;
}

DistanceStats ComputeDistanceStats(const Topology& g, unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  Csr csr(g);
  auto compute = g.ComputeNodes();
  threads = std::min<unsigned>(threads, std::max<std::size_t>(1, compute.size()));
  std::atomic<std::size_t> next{0};
  std::vector<DistanceStats> partial(threads);
  auto work = [&](unsigned t) {
    std::vector<int> dist(g.num_nodes()), queue(g.num_nodes());
    DistanceStats& st = partial[t];
    for (std::size_t i; (i = next.fetch_add(1)) < compute.size();) {
      Bfs(csr, compute[i], dist, queue);
      for (int v : compute) {
        if (v == compute[i]) continue;
        int d = dist[v];
        if (d < 0) {
          ++st.unreachable_pairs;
          continue;
        }
        if (static_cast<std::size_t>(d) >= st.histogram.size()) st.histogram.resize(d + 1, 0);
        ++st.histogram[d];
        st.total_distance += d;
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
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
