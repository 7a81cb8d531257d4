#include "graphs/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "test_util.h"

namespace collsynth {
namespace {

// Floyd–Warshall: an independent O(n^3) reference for the parallel BFS.
std::vector<std::vector<int>> AllPairs(const Topology& g) {
  int n = g.num_nodes();
  const int kInf = 1 << 28;
  std::vector<std::vector<int>> d(n, std::vector<int>(n, kInf));
  for (int v = 0; v < n; ++v) d[v][v] = 0;
  for (const Link& l : g.links()) d[l.from][l.to] = std::min(d[l.from][l.to], 1);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
  return d;
}

TEST(MetricsTest, ParallelBfsAgreesWithFloydWarshallOnRandomGraphs) {
  std::mt19937_64 rng(testing::TestSeed());
  for (int it = 0; it < 60; ++it) {
    Topology g;
    int n = 2 + static_cast<int>(rng() % 14);
    for (int i = 0; i < n; ++i) {
      if (i > 0 && rng() % 4 == 0)
        g.AddSwitch("s" + std::to_string(i));
      else
        g.AddCompute("c" + std::to_string(i));
    }
    int m = static_cast<int>(rng() % (3 * n));
    for (int i = 0; i < m; ++i)
      g.AddLink(static_cast<int>(rng() % n), static_cast<int>(rng() % n), 1);
    auto ref = AllPairs(g);
    std::vector<std::int64_t> hist;
    std::int64_t unreachable = 0;
    for (int u : g.ComputeNodes()) {
      for (int v : g.ComputeNodes()) {
        if (u == v) continue;
        if (ref[u][v] >= (1 << 28)) {
          ++unreachable;
          continue;
        }
        if (static_cast<int>(hist.size()) <= ref[u][v]) hist.resize(ref[u][v] + 1, 0);
        ++hist[ref[u][v]];
      }
    }
    for (unsigned threads : {1u, 2u, 3u}) {
      DistanceStats s = ComputeDistanceStats(g, threads);
      EXPECT_EQ(s.unreachable_pairs, unreachable);
      EXPECT_EQ(s.histogram, hist) << "iteration " << it;
    }
  }
}

TEST(MetricsTest, RingAndCompleteGraphDiameters) {
  Topology ring;
  for (int i = 0; i < 10; ++i) ring.AddCompute(std::to_string(i));
  for (int i = 0; i < 10; ++i) ring.AddLink(i, (i + 1) % 10, 1);
  auto s = ComputeDistanceStats(ring);
  EXPECT_EQ(s.diameter, 9);
  EXPECT_EQ(s.histogram[1], 10);
  EXPECT_EQ(s.histogram[9], 10);
  EXPECT_EQ(s.total_distance, 10 * 45);
  Topology k;
  for (int i = 0; i < 5; ++i) k.AddCompute(std::to_string(i));
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      if (i != j) k.AddLink(i, j, 1);
  EXPECT_EQ(ComputeDistanceStats(k).diameter, 1);
}

TEST(MetricsTest, SwitchHopsCountAndSwitchPairsAreExcluded) {
  Topology g;
  int a = g.AddCompute("a"), b = g.AddCompute("b"), s = g.AddSwitch("s"), t = g.AddSwitch("t");
  g.AddDuplexLink(a, s, 1);
  g.AddDuplexLink(s, t, 1);
  g.AddDuplexLink(t, b, 1);
  auto st = ComputeDistanceStats(g);
  EXPECT_EQ(st.diameter, 3);
  EXPECT_EQ(st.histogram.size(), 4u);
  EXPECT_EQ(st.histogram[3], 2);  // only the two compute pairs count
}

// `topo info` on a 20000-node ring took 26 s (docs/performance.md "Sparse graphs, progress and
// size limits"). The BFS now touches only what it
// reaches and threads share no counters; the answer is unchanged (a bidirectional ring of
// n = 2000: 2n pairs at each distance 1..999, n at 1000) for every thread count, and the
// progress callback runs on the calling thread, ending with (N, N).
TEST(MetricsTest, Issue14RingDistancesWithProgress) {
  const int n = 2000;
  Topology ring;
  for (int i = 0; i < n; ++i) ring.AddCompute(std::to_string(i));
  for (int i = 0; i < n; ++i) ring.AddDuplexLink(i, (i + 1) % n, 1);
  for (unsigned threads : {1u, 2u, 3u}) {
    std::vector<std::int64_t> done;
    std::thread::id caller = std::this_thread::get_id();
    bool other_thread = false;
    DistanceStats s = ComputeDistanceStats(ring, threads, [&](std::int64_t d, std::int64_t total) {
      EXPECT_EQ(total, n);
      other_thread |= std::this_thread::get_id() != caller;
      done.push_back(d);
    });
    EXPECT_FALSE(other_thread);
    ASSERT_EQ(s.histogram.size(), static_cast<std::size_t>(n / 2 + 1));
    EXPECT_EQ(s.histogram[0], 0);
    for (int k = 1; k < n / 2; ++k) ASSERT_EQ(s.histogram[k], 2 * n) << k;
    EXPECT_EQ(s.histogram[n / 2], n);
    EXPECT_EQ(s.diameter, n / 2);
    EXPECT_EQ(s.unreachable_pairs, 0);
    // sum over ordered pairs: n · (2 · (1 + ... + 999) + 1000)
    EXPECT_EQ(s.total_distance, std::int64_t{n} * (2 * (n / 2 - 1) * (n / 2) / 2 + n / 2));
    ASSERT_FALSE(done.empty());
    EXPECT_EQ(done.back(), n);
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
  }
}

}  // namespace
}  // namespace collsynth
