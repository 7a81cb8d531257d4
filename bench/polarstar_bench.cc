// Largest PolarStar for a radix (seed 003): design-space search, build, diameter-3 check and
// JSON write, against building its ER_q factor alone (the baseline, same process).
// Usage: build/bench/polarstar_bench [RADIX]   (default 32)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/stopwatch.h"
#include "graphs/generators/polarstar.h"
#include "graphs/metrics.h"
#include "graphs/topology_io.h"
#include "theory/polarstar_bounds.h"

int main(int argc, char** argv) {
  using namespace collsynth;
  std::int64_t radix = argc > 1 ? std::atoll(argv[1]) : 32;
  auto t0 = std::chrono::steady_clock::now();
  auto best = LargestPolarStar(radix);
  double search = SecondsSince(t0);
  if (!best) {
    std::printf("no PolarStar for radix %lld\n", static_cast<long long>(radix));
    return 1;
  }
  t0 = std::chrono::steady_clock::now();
  Topology er = ErTopology(static_cast<int>(best->q));
  double er_build = SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  Topology g = PolarStar(static_cast<int>(best->q), static_cast<int>(best->d_prime), best->kind);
  double build = SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  DistanceStats d = ComputeDistanceStats(g);
  double bfs = SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  std::string text = WriteTopologyJson(g);
  double write = SecondsSince(t0);
  std::printf(
      "polarstar_bench radix=%lld q=%lld d'=%lld %s: %d routers (formula %s), %d links, diameter "
      "%d\n",
      static_cast<long long>(radix), static_cast<long long>(best->q),
      static_cast<long long>(best->d_prime), SupernodeKindName(best->kind).c_str(), g.num_nodes(),
      best->order.str().c_str(), g.num_links(), d.diameter);
  std::printf(
      "  design space %.4f s; ER_q alone %.4f s (baseline); PolarStar build %.4f s (%.1fx "
      "baseline)\n",
      search, er_build, build, build / er_build);
  std::printf("  diameter check (all-pairs BFS) %.3f s; JSON write %.3f s (%zu bytes)\n", bfs,
              write, text.size());
  return d.diameter == 3 && BigInt(g.num_nodes()) == best->order && d.unreachable_pairs == 0 ? 0
                                                                                             : 1;
}
