// FlowSimulation (simulate/flow_simulation.h): proportional share, cut-through rates,
// latencies, reductions, busy time and the critical path, against hand-computed exact times.
#include "simulate/flow_simulation.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace collsynth {
namespace {

// a -> b (link 0), c -> d (link 1), a -> s (2), s -> b (3); rates given per test.
Topology FourLinks() {
  Topology g("four");
  for (const char* n : {"a", "b", "c", "d"}) g.AddCompute(n);
  g.AddSwitch("s");
  g.AddLink(0, 1, 1);
  g.AddLink(2, 3, 1);
  g.AddLink(0, 4, 1);
  g.AddLink(4, 1, 1);
  return g;
}

std::vector<Rational> Rates(std::vector<int> r) { return {r.begin(), r.end()}; }
std::vector<Rational> Zero() { return std::vector<Rational>(4, Rational(0)); }

TEST(FlowSimulationTest, ALinkServesFirstComeFirstServedAtFullRate) {
  Topology g = FourLinks();
  FlowSimulation sim(g, Rates({2, 1, 1, 1}), Zero(), 0);
  const int a = sim.AddTransfer({0}, 6, false, {});
  const int b = sim.AddTransfer({0}, 2, false, {});
  FlowSimulationResult r = sim.Run();
  EXPECT_EQ(r.Arrived(a), 3);
  EXPECT_EQ(r.Arrived(b), 4);  // together they take (6 + 2) / 2
  EXPECT_EQ(r.completion, 4);
  EXPECT_EQ(r.link_bytes[0], 8);
  EXPECT_EQ(r.link_busy[0], 4);
  EXPECT_EQ(r.link_bytes[1], 0);
  EXPECT_EQ(r.critical_path, (std::vector<int>{a, b}));  // b waited for a
}

TEST(FlowSimulationTest, ALateTransferWaitsForTheLink) {
  // t0 (4 bytes) on a->b (rate 2) from 0 to 2; t1 is issued at 1 (after the 4-byte transfer
  // on c->d at rate 4), waits until 2 and ends at 4.
  Topology g = FourLinks();
  FlowSimulation sim(g, Rates({2, 4, 1, 1}), Zero(), 0);
  const int t0 = sim.AddTransfer({0}, 4, false, {});
  const int gate = sim.AddTransfer({1}, 4, false, {});
  const int t1 = sim.AddTransfer({0}, 4, false, {});
  sim.AddDependency(gate, t1);
  FlowSimulationResult r = sim.Run();
  EXPECT_EQ(r.Arrived(gate), 1);
  EXPECT_EQ(r.Issued(t1), 1);
  EXPECT_EQ(r.Arrived(t0), 2);
  EXPECT_EQ(r.Arrived(t1), 4);
  EXPECT_EQ(r.link_busy[0], 4);
  EXPECT_EQ(r.link_busy[1], 1);
  EXPECT_EQ(r.gate[t1], gate);
  EXPECT_EQ(r.critical_path, (std::vector<int>{t0, t1}));
}

TEST(FlowSimulationTest, CutThroughHoldsALinkUntilItsLastByteCameThrough) {
  // m (2 bytes) over a->s (rate 1) then s->b (rate 4); t (2 bytes) on s->b only. m takes a->s
  // over [0, 2]; t takes s->b over [0, 1/2]; m then takes s->b from 1/2 until its last byte
  // has come through a->s, at 2.
  Topology g = FourLinks();
  FlowSimulation sim(g, Rates({1, 1, 1, 4}), Zero(), 0);
  const int m = sim.AddTransfer({2, 3}, 2, false, {});
  const int t = sim.AddTransfer({3}, 2, false, {});
  FlowSimulationResult r = sim.Run();
  EXPECT_EQ(r.Arrived(t), Rational(1, 2));
  EXPECT_EQ(r.Arrived(m), 2);
  EXPECT_EQ(r.SlotStart(sim.FirstSlot(m) + 1), Rational(1, 2));  // m waited for t on s->b
  EXPECT_EQ(r.SlotEnd(sim.FirstSlot(m) + 1), 2);
  EXPECT_EQ(r.SlotEnd(sim.FirstSlot(m)), 2);
  EXPECT_EQ(r.link_bytes[3], 4);
  EXPECT_EQ(r.link_busy[3], 2);
  EXPECT_EQ(r.link_busy[2], 2);
}

TEST(FlowSimulationTest, ALoneCutThroughTransferTakesTheLatenciesPlusItsBottleneckTime) {
  Topology g = FourLinks();
  std::vector<Rational> lat = {0, 0, Rational(1, 3), Rational(1, 6)};
  FlowSimulation sim(g, Rates({1, 1, 2, 4}), lat, 0);
  const int m = sim.AddTransfer({2, 3}, 1, false, {});
  EXPECT_EQ(sim.Latency(m), Rational(1, 2));
  FlowSimulationResult r = sim.Run();
  EXPECT_EQ(r.Arrived(m), 1);  // 1/3 + 1/6 + 1 byte at min(2, 4)
  EXPECT_EQ(r.link_busy[2], Rational(1, 2));
}

TEST(FlowSimulationTest, ReductionDelaysDoneByGammaPerByte) {
  Topology g = FourLinks();
  FlowSimulation sim(g, Rates({2, 1, 1, 1}), Zero(), Rational(1, 2));
  const int t = sim.AddTransfer({0}, 4, true, {});
  const int u = sim.AddTransfer({1}, 1, false, {});
  sim.AddDependency(t, u);
  FlowSimulationResult r = sim.Run();
  EXPECT_EQ(r.Arrived(t), 2);
  EXPECT_EQ(sim.DoneTime(r, t), 4);
  EXPECT_EQ(r.Issued(u), 4);
  EXPECT_EQ(r.completion, 5);
}

TEST(FlowSimulationTest, BarriersTakeNoTime) {
  Topology g = FourLinks();
  FlowSimulation sim(g, Rates({1, 1, 1, 1}), std::vector<Rational>(4, Rational(1)), 0);
  const int a = sim.AddTransfer({0}, 1, false, {});
  const int b = sim.AddBarrier();
  const int c = sim.AddTransfer({1}, 1, false, {});
  sim.AddDependency(a, b);
  sim.AddDependency(b, c);
  FlowSimulationResult r = sim.Run();
  EXPECT_EQ(r.Issued(c), 2);
  EXPECT_EQ(r.completion, 4);
  EXPECT_EQ(r.critical_path, (std::vector<int>{a, c}));
}

TEST(FlowSimulationTest, ACycleIsABuilderBug) {
  Topology g = FourLinks();
  FlowSimulation sim(g, Rates({1, 1, 1, 1}), Zero(), 0);
  const int a = sim.AddTransfer({0}, 1, false, {});
  const int b = sim.AddTransfer({1}, 1, false, {});
  sim.AddDependency(a, b);
  sim.AddDependency(b, a);
  EXPECT_THROW(sim.Run(), std::logic_error);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// Integer ticks and Rationals give the same times; a tick that does not fit int64 falls back to
// Rationals.
TEST(FlowSimulationTest, TicksAndRationalsAgree) {
  Topology g = FourLinks();
  std::vector<Rational> lat = {Rational(1, 7), 0, Rational(2, 9), Rational(1, 11)};
  FlowSimulation sim(g, Rates({3, 5, 2, 7}), lat, Rational(1, 13));
  std::vector<int> ids;
  for (int i = 0; i < 12; ++i) {
    const std::vector<int> links = i % 3 == 0 ? std::vector<int>{2, 3} : std::vector<int>{i % 2};
    ids.push_back(sim.AddTransfer(links, Rational(i + 1, 3), i % 4 == 1, {}));
    if (i >= 2) sim.AddDependency(ids[i - 2], ids[i]);
  }
  FlowSimulationResult ticks = sim.Run(), exact = sim.RunRational();
  EXPECT_TRUE(ticks.integer_ticks);
  EXPECT_FALSE(exact.integer_ticks);
  EXPECT_EQ(ticks.completion, exact.completion);
  for (int t : ids) {
    EXPECT_EQ(ticks.Issued(t), exact.Issued(t));
    EXPECT_EQ(ticks.Arrived(t), exact.Arrived(t));
  }
  EXPECT_EQ(ticks.link_busy, exact.link_busy);
  EXPECT_EQ(ticks.link_bytes, exact.link_bytes);
  EXPECT_EQ(ticks.critical_path, exact.critical_path);
  const std::int64_t slots =
      sim.FirstSlot(ids.back()) + static_cast<std::int64_t>(sim.Links(ids.back()).size());
  EXPECT_EQ(static_cast<std::size_t>(slots), ticks.start_ticks.size());
  for (std::int64_t slot = 0; slot < slots; ++slot) {
    EXPECT_EQ(ticks.SlotStart(slot), exact.SlotStart(slot));
    EXPECT_EQ(ticks.SlotEnd(slot), exact.SlotEnd(slot));
  }

  // Latency 1/p with p a prime above 2^62: no int64 tick.
  std::vector<Rational> huge = {Rational(BigInt(1), BigInt("4611686018427388039")), 0, 0, 0};
  FlowSimulation big(g, Rates({1, 1, 1, 1}), huge, 0);
  const int a = big.AddTransfer({0}, 1, false, {});
  FlowSimulationResult r = big.Run();
  EXPECT_FALSE(r.integer_ticks);
  EXPECT_EQ(r.Arrived(a), 1 + huge[0]);
}

}  // namespace
}  // namespace collsynth
