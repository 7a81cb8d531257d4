// topo info on large degree-4 topologies: the parallel CSR BFS behind `collsynth topo info`
// against a single-threaded run of the same code (the baseline, same process).
// Usage: build/bench/topo_info_bench [N]   (default N = 10000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/json_io.h"
#include "core/stopwatch.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "graphs/topology.h"
#include "graphs/topology_io.h"
#include "tests/fixtures/json_tree_writers.h"

namespace {

using collsynth::Topology;

// Degree-4 digraph on n nodes: the directed circulant with offsets {1, 2, 3, k} for a k near
// sqrt(n) (a stand-in for circulant/generalized-Kautz topologies of that size).
Topology Circulant4(int n) {
  Topology g("circulant4");
  for (int i = 0; i < n; ++i) g.AddCompute("v" + std::to_string(i));
  int k = 1;
  while (k * k < n) ++k;
  for (int i = 0; i < n; ++i)
    for (int off : {1, 2, 3, k}) g.AddLink(i, (i + off) % n, 1);
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  auto t0 = std::chrono::steady_clock::now();
  Topology g = Circulant4(n);
  double build = collsynth::SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  std::string text = collsynth::TopologyToJson(g).dump();
  double write = collsynth::SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  Topology r = collsynth::TopologyFromJson(collsynth::ParseJsonText(text, "mem"), "mem");
  double read = collsynth::SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  auto eu = collsynth::CheckEulerian(r);
  auto sc = collsynth::CheckStronglyConnected(r);
  auto deg = collsynth::ComputeDegrees(r);
  double props = collsynth::SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  auto single = collsynth::ComputeDistanceStats(r, 1);
  double bfs1 = collsynth::SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  auto multi = collsynth::ComputeDistanceStats(r, 0);
  double bfsn = collsynth::SecondsSince(t0);
  std::printf("topo_info_bench N=%d links=%d degree=%lld eulerian=%d connected=%d diameter=%d\n", n,
              r.num_links(), static_cast<long long>(deg.degree), eu.eulerian, sc.strongly_connected,
              multi.diameter);
  std::printf(
      "  build %.3f s, JSON write %.3f s (%zu bytes), JSON read %.3f s, properties %.3f s\n", build,
      write, text.size(), read, props);
  std::printf("  all-pairs BFS: 1 thread %.3f s (baseline), all cores %.3f s, speedup %.2fx\n",
              bfs1, bfsn, bfs1 / bfsn);
  std::printf("  topo info total (read + properties + parallel BFS) %.3f s\n", read + props + bfsn);
  return single.histogram == multi.histogram ? 0 : 1;
}
