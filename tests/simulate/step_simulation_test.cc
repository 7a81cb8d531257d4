// Step schedules in the simulator (simulate/step_simulation.h, docs/simulate.md): the closed forms
// of seed 000's model exactly (ring allgather (N-1)(α + M/(N·b)); a BFB schedule
// T_L·α + T_B·M/(N·b) with T_B from the independent checker), reduce-scatter on G equal to
// the allgather on G^T, the latency bound, and the bytes per link against the loads computed
// here from the sends.
#include "simulate/step_simulation.h"

#include <gtest/gtest.h>

#include <map>
#include <queue>

#include "graphs/generators/seed000_generators.h"
#include "proofs_check/step_checker.h"
#include "solvers/baselines/ring_baselines.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/pipeline/allgather_optimum.h"

namespace collsynth {
namespace {

const Rational kGB(1000000000);

SimulationModel Model(Rational size, Rational alpha, StepMode mode = StepMode::kSync) {
  SimulationModel m;
  m.size = size;
  m.default_alpha = alpha;
  m.step_mode = mode;
  return m;
}

Rational Simulate(const StepSchedule& s, const Topology& g, const SimulationModel& m) {
  return BuildStepSimulation(s, g, m).Run().completion;
}

StepSchedule Bfb(const Topology& g, Collective c) {
  BfbOptions o;
  o.collective = c;
  o.certificates = false;
  return GenerateBfbSchedule(g, o).schedule;
}

// max over compute pairs of the hop distance (BFS), the latency bound in units of α.
int LongestShortestPath(const Topology& g) {
  int worst = 0;
  for (int s : g.ComputeNodes()) {
    std::vector<int> d(g.num_nodes(), -1);
    std::queue<int> q;
    d[s] = 0;
    q.push(s);
    while (!q.empty()) {
      int v = q.front();
      q.pop();
      for (int e : g.OutLinks(v)) {
        int w = g.link(e).to;
        if (d[w] < 0) d[w] = d[v] + 1, q.push(w);
      }
    }
    for (int t : g.ComputeNodes()) worst = std::max(worst, d[t]);
  }
  return worst;
}

TEST(StepSimulationTest, RingAllgatherIsItsClosedFormExactly) {
  for (int n : {2, 5, 8}) {
    Topology g = UniRing(1, n);
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    StepSchedule s = UniRingAllgather(order);
    const Rational alpha(3, 1000000), size(1000003);
    const Rational expected = (n - 1) * (alpha + size / (n * kGB));
    EXPECT_EQ(Simulate(s, g, Model(size, alpha)), expected) << "N = " << n;
    // Async: every send waits for the one before it on the ring: the same time.
    EXPECT_EQ(Simulate(s, g, Model(size, alpha, StepMode::kAsync)), expected) << "N = " << n;
  }
}

TEST(StepSimulationTest, AsyncSendsStartWhenTheirDataHasArrived) {
  // Ring 0 -> 1 -> 2 -> 0, 1 byte/s, shards of 1 byte; link 2 -> 0 has latency 3 s.
  // Sync: step 1 ends at 3 + 1 = 4 (the slow link), step 2 at 8.
  // Async: 1 -> 2 forwards shard 0 at 1..2, 0 -> 1 forwards shard 2 at 4..5, and 2 -> 0's
  // forward of shard 1 (issued at 1) reaches its link at 4, after the first send left it: 4..5.
  Topology g = UniRing(1, 3);
  std::vector<int> order = {0, 1, 2};
  StepSchedule s = UniRingAllgather(order);
  SimulationModel m = Model(Rational(3), Rational(0));
  m.bytes_per_unit = 1;
  m.link_latency.assign(g.num_links(), std::nullopt);
  m.link_latency[*g.FindLink(2, 0)] = Rational(3);
  EXPECT_EQ(Simulate(s, g, m), 8);
  m.step_mode = StepMode::kAsync;
  EXPECT_EQ(Simulate(s, g, m), 5);
}

TEST(StepSimulationTest, AsyncOwnerDoesNotWaitForItsShardComingBack) {
  // a, b, c fully connected, 1 byte/s, shards of 1 byte. Step 1: a->b [a], b->c [b], c->a [c];
  // step 2: b->a [a] (a duplicate back to its owner), b->a [b], c->b [c]; step 3: a->c [a].
  // a->c [a] needs nothing: it runs at 0..1; b->a carries [b] at 0..1 and [a] at 1..2.
  Topology g("k3");
  for (const char* v : {"a", "b", "c"}) g.AddCompute(v);
  g.AddDuplexLink(0, 1, 1);
  g.AddDuplexLink(1, 2, 1);
  g.AddDuplexLink(2, 0, 1);
  StepSchedule s;
  auto send = [&](int src, int from, int to, int step) {
    s.sends.push_back(StepSend{src, {Interval{0, 1}}, from, to, step});
  };
  send(0, 0, 1, 1), send(1, 1, 2, 1), send(2, 2, 0, 1);
  send(0, 1, 0, 2), send(1, 1, 0, 2), send(2, 2, 1, 2);
  send(0, 0, 2, 3);
  ASSERT_TRUE(CheckStepSchedule(g, s).ok);
  SimulationModel m = Model(Rational(3), Rational(0), StepMode::kAsync);
  m.bytes_per_unit = 1;
  FlowSimulation sim = BuildStepSimulation(s, g, m);
  FlowSimulationResult r = sim.Run();
  EXPECT_EQ(r.Issued(6), 0);
  EXPECT_EQ(r.completion, 2);
}

TEST(StepSimulationTest, BfbScheduleIsTlAlphaPlusTbTimesShardOverBandwidth) {
  const std::vector<std::pair<const char*, Topology>> cases = {
      {"hypercube(3)", Hypercube(3)}, {"torus(3,4)", Torus({3, 4})}, {"kautz(2,2)", Kautz(2, 2)}};
  for (const auto& [name, g] : cases) {
    StepSchedule s = Bfb(g, Collective::kAllgather);
    StepCheckReport check = CheckStepSchedule(g, s);
    ASSERT_TRUE(check.ok) << name;
    const Rational alpha(1, 100000), size(1 << 20);
    const int n = g.num_compute();
    EXPECT_EQ(Simulate(s, g, Model(size, alpha)), check.tl * alpha + check.tb * size / (n * kGB))
        << name;
    // Physics: never below the latency bound nor the bandwidth bound T_B*·M/N.
    const Rational async = Simulate(s, g, Model(size, alpha, StepMode::kAsync));
    EXPECT_GE(async, LongestShortestPath(g) * alpha) << name;
    EXPECT_GE(async, ComputeAllgatherOptimum(g).ratio * size / (n * kGB)) << name;
  }
}

TEST(StepSimulationTest, ReduceScatterOnGEqualsAllgatherOnTheTranspose) {
  // Kautz(2,2) is directed: G^T differs from G.
  Topology g = Kautz(2, 2);
  StepSchedule rs = Bfb(g, Collective::kReduceScatter);
  Topology gt = g.Transpose();
  StepSchedule ag = Bfb(gt, Collective::kAllgather);
  const SimulationModel m = Model(Rational(12000), Rational(1, 1000000));
  EXPECT_EQ(Simulate(rs, g, m), Simulate(ag, gt, m));
}

TEST(StepSimulationTest, ReductionsCostGammaPerByteAtTheReceiver) {
  // Reduce-scatter on a 2-node ring: one step, each node sends the other's shard (M/2 bytes).
  Topology g = UniRing(1, 2);
  StepSchedule s = Bfb(g, Collective::kReduceScatter);
  SimulationModel m = Model(Rational(2000), Rational(0));
  m.gamma = Rational(1, 1000000000);  // 1 ns per byte
  EXPECT_EQ(Simulate(s, g, m), Rational(1000) / kGB + Rational(1000) * m.gamma);
}

TEST(StepSimulationTest, BytesPerLinkEqualTheScheduleLoads) {
  Topology g = Torus({3, 3});
  StepSchedule s = Bfb(g, Collective::kAllreduce);
  SimulationModel m = Model(Rational(900), Rational(0), StepMode::kAsync);
  FlowSimulation sim = BuildStepSimulation(s, g, m);
  FlowSimulationResult r = sim.Run();
  // Loads from the sends, computed here: measure of the merged chunk times the shard size.
  std::vector<Rational> load(g.num_links(), Rational(0));
  for (const StepSend& send : s.sends) {
    std::vector<std::pair<Rational, Rational>> iv;
    for (const Interval& in : send.chunk) iv.emplace_back(in.lo, in.hi);
    std::sort(iv.begin(), iv.end());
    Rational covered = 0, reach = 0;
    for (const auto& [lo, hi] : iv) {
      Rational from = lo > reach ? lo : reach;
      if (hi > from) covered += hi - from;
      if (hi > reach) reach = hi;
    }
    load[*g.FindLink(send.from, send.to)] += covered * Rational(900, g.num_compute());
  }
  EXPECT_EQ(r.link_bytes, load);
  for (int e = 0; e < g.num_links(); ++e) EXPECT_LE(r.link_busy[e], r.completion);
}

}  // namespace
}  // namespace collsynth
