// All-to-all flows schedules in the simulator (simulate/alltoall_simulation.h, docs/simulate.md
// "All-to-all flows"): closed forms exactly (K_n with direct paths: P·α + M/(N·b); two compute
// nodes through a switch: (P + 1)(α + M/(2·P·b)) store-and-forward, 2·P·α + M/(2b)
// cut-through; a demand matrix scales the bytes by its amounts); with α = 0 the certified optimal
// flows of several topologies, switches included, stay within T*·M/(N·b) ≤ time ≤ (P + H − 1)/P ·
// T*·M/(N·b) (H: the longest path in links), so they approach the bound at rate O(1/P) and never
// beat it; the bytes per link are the checker's loads times the shard; int64 ticks and Rationals
// agree.
#include "simulate/alltoall_simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>

#include "graphs/generators/seed000_generators.h"
#include "graphs/generators/switch_topologies.h"
#include "proofs_check/flow_checker.h"
#include "solvers/alltoall/alltoall_optimum.h"
#include "solvers/alltoall/alltoall_paths.h"

namespace collsynth {
namespace {

const Rational kGB(1000000000);

SimulationModel Model(Rational size, Rational alpha, std::int64_t chunks,
                      SwitchModel sw = SwitchModel::kStoreAndForward) {
  SimulationModel m;
  m.size = size;
  m.default_alpha = alpha;
  m.chunks = chunks;
  m.switch_model = sw;
  return m;
}

// Every pair of the demand over the link between them (the topology must have it), share 1.
FlowSchedule DirectFlows(const Topology& g, DemandMatrix demand, bool uniform) {
  FlowSchedule s;
  s.uniform = uniform;
  s.demand = std::move(demand);
  for (const DemandEntry& d : s.demand.entries) {
    s.flows.push_back({d.from, d.to, {FlowPath{{d.from, d.to}, Rational(1)}}});
  }
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  s.time = r.time ? *r.time : Rational(0);
  return s;
}

// The certified optimal flows of g's uniform all-to-all.
FlowSchedule OptimalFlows(const Topology& g) {
  const AlltoallOptimum opt = ComputeAlltoallOptimum(g, UniformDemand(g));
  EXPECT_EQ(opt.outcome, AlltoallOutcome::kCertified) << g.name();
  return FlowScheduleFromCertificate(g, opt.certificate, true);
}

TEST(AlltoallSimulationTest, CompleteGraphWithDirectPathsIsPAlphaPlusShardOverBandwidth) {
  for (int n : {3, 4, 5}) {
    const Topology g = Complete(n);  // unit links
    const FlowSchedule s = DirectFlows(g, UniformDemand(g), true);
    ASSERT_TRUE(CheckFlowSchedule(g, s).ok);
    const Rational size(1 << 20), alpha(3, 1000000), shard = size / n;
    for (std::int64_t p : {1, 2, 5}) {
      for (SwitchModel sw : {SwitchModel::kStoreAndForward, SwitchModel::kCutThrough}) {
        const FlowSimulationResult r =
            BuildAlltoallSimulation(s, g, Model(size, alpha, p, sw)).Run();
        // Each link carries its own pair alone: P chunks in a row, α + shard/(P·b) each.
        EXPECT_EQ(r.completion, Rational(p) * alpha + shard / kGB) << "K_" << n << " P = " << p;
      }
    }
  }
}

TEST(AlltoallSimulationTest, TwoNodesThroughASwitchArePipelineClosedForms) {
  Topology g("two-through-switch");
  const int a = g.AddCompute("a"), b = g.AddCompute("b"), sw = g.AddSwitch("s");
  g.AddDuplexLink(a, sw, 2);
  g.AddDuplexLink(sw, b, 2);
  FlowSchedule s;
  s.demand = UniformDemand(g);
  s.time = Rational(1, 2);  // each link carries one pair's shard at bandwidth 2
  s.flows.push_back({a, b, {FlowPath{{a, sw, b}, Rational(1)}}});
  s.flows.push_back({b, a, {FlowPath{{b, sw, a}, Rational(1)}}});
  ASSERT_TRUE(CheckFlowSchedule(g, s).ok);
  const Rational size(1 << 20), alpha(1, 1000000), rate = 2 * kGB, shard = size / 2;
  for (std::int64_t p : {1, 3, 8}) {
    EXPECT_EQ(BuildAlltoallSimulation(s, g, Model(size, alpha, p)).Run().completion,
              Rational(p + 1) * (alpha + shard / (p * rate)))
        << "store-and-forward P = " << p;
    EXPECT_EQ(BuildAlltoallSimulation(s, g, Model(size, alpha, p, SwitchModel::kCutThrough))
                  .Run()
                  .completion,
              Rational(2 * p) * alpha + shard / rate)
        << "cut-through P = " << p;
  }
}

TEST(AlltoallSimulationTest, DemandMatrixScalesTheBytes) {
  const Topology g = Complete(3);
  DemandMatrix d;
  d.entries = {{0, 1, Rational(2)}, {1, 2, Rational(1, 2)}, {2, 0, Rational(3, 4)}};
  const FlowSchedule s = DirectFlows(g, d, false);
  ASSERT_TRUE(CheckFlowSchedule(g, s).ok);
  EXPECT_EQ(s.time, Rational(2));
  const Rational size(3000);  // shard 1000 bytes
  const FlowSimulationResult r = BuildAlltoallSimulation(s, g, Model(size, 0, 4)).Run();
  EXPECT_EQ(r.completion, Rational(2000) / kGB);  // the heaviest pair alone on its link
  EXPECT_EQ(r.link_bytes[*g.FindLink(1, 2)], Rational(500));
  EXPECT_EQ(r.link_bytes[*g.FindLink(2, 0)], Rational(750));
  EXPECT_EQ(r.link_bytes[*g.FindLink(1, 0)], Rational(0));
}

struct Case {
  std::string name;
  Topology g;
};

std::vector<Case> Topologies() {
  return {{"circulant(6,1)", Circulant(6, {1}, true)},
          {"hypercube(3)", Hypercube(3)},
          {"torus(3,3)", Torus({3, 3})},
          {"kautz(2,2)", Kautz(2, 2)},
          {"fattree(4)", FatTree(4)}};
}

TEST(AlltoallSimulationTest, OptimalFlowsApproachTheCertifiedTimeAtRateOneOverP) {
  for (const Case& c : Topologies()) {
    const FlowSchedule s = OptimalFlows(c.g);
    const FlowCheckReport check = CheckFlowSchedule(c.g, s);
    ASSERT_TRUE(check.ok) << c.name;
    // The per-link loads, summed here from the paths (the checker's T is their maximum).
    std::map<int, Rational> load;
    std::size_t longest = 0;
    for (const PairFlows& pair : s.flows) {
      for (const FlowPath& path : pair.paths) {
        longest = std::max(longest, path.nodes.size() - 1);
        for (std::size_t i = 0; i + 1 < path.nodes.size(); ++i) {
          load[*c.g.FindLink(path.nodes[i], path.nodes[i + 1])] += path.share;  // d_st = 1
        }
      }
    }
    const int n = c.g.num_compute();
    const Rational size(1 << 24), shard = size / n;
    const Rational bound = *check.time * shard / kGB;  // T*·M/(N·b), unit bandwidth b = 1 GB/s
    const std::int64_t h = static_cast<std::int64_t>(longest);
    for (std::int64_t p : {1, 4, 16}) {
      const FlowSimulationResult r = BuildAlltoallSimulation(s, c.g, Model(size, 0, p)).Run();
      for (int e = 0; e < c.g.num_links(); ++e) {
        EXPECT_EQ(r.link_bytes[e], load[e] * shard) << c.name << " link " << e;
      }
      EXPECT_GE(r.completion, bound) << c.name << " P = " << p;
      EXPECT_LE(r.completion, Rational(p + h - 1, p) * bound)
          << c.name << " P = " << p << ", H = " << h;
    }
  }
}

TEST(AlltoallSimulationTest, TicksAndRationalsAgree) {
  const Topology g = Torus({3, 3});
  const FlowSchedule s = OptimalFlows(g);
  const FlowSimulation sim =
      BuildAlltoallSimulation(s, g, Model(Rational(1000003), Rational(7, 1000000), 3));
  const FlowSimulationResult ticks = sim.Run(), exact = sim.RunRational();
  EXPECT_TRUE(ticks.integer_ticks);
  EXPECT_EQ(ticks.completion, exact.completion);
  EXPECT_EQ(ticks.critical_path, exact.critical_path);
}

TEST(AlltoallSimulationTest, TransferCountIsPathsTimesChunksTimesHops) {
  const Topology g = Hypercube(3);
  const FlowSchedule s = OptimalFlows(g);
  std::uint64_t links = 0, paths = 0;
  for (const PairFlows& pair : s.flows) {
    for (const FlowPath& path : pair.paths) {
      links += path.nodes.size() - 1;
      ++paths;
    }
  }
  SimulationModel m = Model(Rational(1024), 0, 3);
  EXPECT_EQ(AlltoallTransferCount(s, m), 3 * links);
  EXPECT_EQ(static_cast<std::uint64_t>(BuildAlltoallSimulation(s, g, m).num_transfers()),
            3 * links);
  m.switch_model = SwitchModel::kCutThrough;
  EXPECT_EQ(AlltoallTransferCount(s, m), 3 * paths);
}

}  // namespace
}  // namespace collsynth
