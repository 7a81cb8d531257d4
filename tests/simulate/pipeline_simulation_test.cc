// Pipeline schedules in the simulator (simulate/pipeline_simulation.h, docs/simulate.md): one tree
// on a path equals its closed form (P + d - 1)(α + M/(P·b)) exactly (store-and-forward, and
// cut-through through switches); with α = 0 the optimal schedules of several topologies stay
// within T_B*·M/N ≤ time ≤ (P + H - 1)/P · T_B*·M/N (H: the deepest chain of hops), so they
// approach the bound at rate O(1/P) and never beat it; reduce-scatter on a path mirrors the
// allgather on the transpose; bytes per link equal the schedule's loads.
#include "simulate/pipeline_simulation.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <queue>

#include "graphs/generators/seed000_generators.h"
#include "graphs/topology_io.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "test_util.h"

namespace collsynth {
namespace {

const Rational kGB(1000000000);

SimulationModel Model(Rational size, Rational alpha, std::int64_t chunks) {
  SimulationModel m;
  m.size = size;
  m.default_alpha = alpha;
  m.chunks = chunks;
  return m;
}

Rational Simulate(const PipelineSchedule& s, const Topology& g, const SimulationModel& m) {
  return BuildPipelineSimulation(s, g, m).Run().completion;
}

// c0 - c1 - ... - c(n-1), duplex links of bandwidth b; with `switches`, a switch between each
// pair (c_i - s_i - c_{i+1}).
Topology Path(int n, int b, bool switches) {
  Topology g("path");
  for (int i = 0; i < n; ++i) g.AddCompute("c" + std::to_string(i));
  for (int i = 0; i + 1 < n; ++i) {
    if (switches) {
      int s = g.AddSwitch("s" + std::to_string(i));
      g.AddDuplexLink(i, s, b);
      g.AddDuplexLink(s, i + 1, b);
    } else {
      g.AddDuplexLink(i, i + 1, b);
    }
  }
  return g;
}

// One tree c0 -> c1 -> ... along the path, k = 1: a broadcast from c0 (or, as
// reduce-scatter's building block, the same edges with the data flowing up).
PipelineSchedule Chain(const Topology& g, int n, Collective c) {
  PipelineSchedule s;
  s.collective = c;
  s.root = 0;
  s.k = 1;
  s.U = 1;
  s.ratio = 1;
  PipelineTree t;
  t.root = 0;
  t.multiplicity = 1;
  for (int i = 0; i + 1 < n; ++i) {
    PipelineTreeEdge e;
    e.from = i;
    e.to = i + 1;
    PipelineRoute r;
    r.multiplicity = 1;
    if (g.num_switches() > 0) {
      r.path = {i, *g.FindNode("s" + std::to_string(i)), i + 1};
    } else {
      r.path = {i, i + 1};
    }
    e.routes.push_back(r);
    t.edges.push_back(e);
  }
  s.trees.push_back(t);
  return s;
}

TEST(PipelineSimulationTest, OneTreeOnAPathIsItsClosedForm) {
  for (int n : {2, 4, 6}) {
    for (std::int64_t p : {1, 3, 16}) {
      Topology g = Path(n, 2, false);
      PipelineSchedule s = Chain(g, n, Collective::kBroadcast);
      const Rational alpha(1, 1000000), size(1 << 20);
      const Rational hop = alpha + size / (p * 2 * kGB);
      EXPECT_EQ(Simulate(s, g, Model(size, alpha, p)), (p + (n - 1) - 1) * hop)
          << "n = " << n << ", P = " << p;
    }
  }
}

TEST(PipelineSimulationTest, SwitchModelsOnAPathAreTheirClosedForms) {
  const int n = 4;
  const std::int64_t p = 5;
  Topology g = Path(n, 1, true);
  PipelineSchedule s = Chain(g, n, Collective::kBroadcast);
  const Rational alpha(1, 1000000), size(1000000);
  SimulationModel m = Model(size, alpha, p);
  // Store-and-forward: 2(n-1) links in a row, each chunk α + M/(P·b) per link.
  EXPECT_EQ(Simulate(s, g, m), (p + 2 * (n - 1) - 1) * (alpha + size / (p * kGB)));
  // Cut-through: n-1 routes in a row, each chunk 2α + M/(P·b) per route.
  m.switch_model = SwitchModel::kCutThrough;
  EXPECT_EQ(Simulate(s, g, m), (p + (n - 1) - 1) * (2 * alpha + size / (p * kGB)));
}

TEST(PipelineSimulationTest, ReduceScatterOnAPathMirrorsTheAllgatherOnTheTranspose) {
  // Different bandwidths each way, so G^T is not G.
  Topology g("path");
  for (int i = 0; i < 4; ++i) g.AddCompute("c" + std::to_string(i));
  for (int i = 0; i < 3; ++i) {
    g.AddLink(i, i + 1, 1 + i);
    g.AddLink(i + 1, i, 4 - i);
  }
  PipelineSchedule rs = Chain(g, 4, Collective::kReduceScatter);
  PipelineSchedule ag = Chain(g, 4, Collective::kAllgather);
  const Topology gt = g.Transpose();
  for (std::int64_t p : {1, 4, 9}) {
    SimulationModel m = Model(Rational(4000), Rational(1, 1000000), p);
    EXPECT_EQ(Simulate(rs, g, m), Simulate(ag, gt, m)) << "P = " << p;
  }
}

// The most links any chain of store-and-forward transfers crosses: max over trees of the
// deepest node's hop count from the root.
int DeepestChain(const PipelineSchedule& s) {
  int worst = 0;
  for (const PipelineTree& t : s.trees) {
    std::map<int, std::vector<const PipelineTreeEdge*>> out;
    for (const PipelineTreeEdge& e : t.edges) out[e.from].push_back(&e);
    std::function<void(int, int)> walk = [&](int v, int depth) {
      worst = std::max(worst, depth);
      for (const PipelineTreeEdge* e : out[v]) {
        int hops = 0;
        for (const PipelineRoute& r : e->routes) {
          hops = std::max(hops, static_cast<int>(r.path.size()) - 1);
        }
        walk(e->to, depth + hops);
      }
    };
    walk(t.root, 0);
  }
  return worst;
}

struct Case {
  std::string name;
  Topology g;
};

std::vector<Case> Topologies() {
  return {{"two_cluster",
           ReadTopologyFile(testing::SourcePath("experiments/topologies/two_cluster.json"))},
          {"hypercube(3)", Hypercube(3)},
          {"torus(3,3)", Torus({3, 3})},
          {"kautz(2,2)", Kautz(2, 2)}};
}

TEST(PipelineSimulationTest, WithoutLatencyApproachesTheBandwidthBoundAtRateOneOverP) {
  for (const Case& c : Topologies()) {
    for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter}) {
      PipelineOptions o;
      o.collective = coll;
      PipelineBuildResult built = BuildPipelineSchedule(c.g, o);
      const PipelineSchedule& s = built.schedule;
      const int n = c.g.num_compute();
      const Rational size(1 << 24);
      const Rational bound = built.optimal_ratio * size / (n * kGB);  // T_B*·M/N
      const int h = DeepestChain(s);
      ASSERT_GE(h, 1);
      for (std::int64_t p : {1, 4, 16, 64}) {
        FlowSimulationResult r = BuildPipelineSimulation(s, c.g, Model(size, 0, p)).Run();
        const Rational t = r.completion;
        // The ratio the schedule claims is the busiest link's bytes / (b_e · shard).
        Rational busiest = 0;
        for (int e = 0; e < c.g.num_links(); ++e) {
          busiest =
              std::max(busiest, Rational(r.link_bytes[e] / (c.g.link(e).bandwidth * size / n)));
        }
        EXPECT_EQ(busiest, s.ratio) << c.name;
        EXPECT_GE(t, bound) << c.name << " " << CollectiveName(coll) << " P = " << p;
        EXPECT_LE(t, Rational(p + h - 1, p) * s.ratio * size / (n * kGB))
            << c.name << " " << CollectiveName(coll) << " P = " << p << ", H = " << h;
      }
    }
  }
}

TEST(PipelineSimulationTest, NeverBelowTheLatencyOrBandwidthBound) {
  for (const Case& c : Topologies()) {
    PipelineBuildResult built = BuildPipelineSchedule(c.g, PipelineOptions{});
    // Hop distances between compute nodes (switches included).
    int longest = 0;
    for (int src : c.g.ComputeNodes()) {
      std::vector<int> d(c.g.num_nodes(), -1);
      std::queue<int> q;
      d[src] = 0;
      q.push(src);
      while (!q.empty()) {
        int v = q.front();
        q.pop();
        for (int e : c.g.OutLinks(v)) {
          int w = c.g.link(e).to;
          if (d[w] < 0) d[w] = d[v] + 1, q.push(w);
        }
      }
      for (int t : c.g.ComputeNodes()) longest = std::max(longest, d[t]);
    }
    const Rational alpha(1, 100000), size(1 << 20);
    for (SwitchModel sw : {SwitchModel::kStoreAndForward, SwitchModel::kCutThrough}) {
      SimulationModel m = Model(size, alpha, 8);
      m.switch_model = sw;
      const Rational t = Simulate(built.schedule, c.g, m);
      EXPECT_GE(t, longest * alpha) << c.name;
      EXPECT_GE(t, built.optimal_ratio * size / (c.g.num_compute() * kGB)) << c.name;
    }
  }
}

TEST(PipelineSimulationTest, BytesPerLinkEqualTheScheduleLoads) {
  Topology g = ReadTopologyFile(testing::SourcePath("experiments/topologies/two_cluster.json"));
  PipelineOptions o;
  o.collective = Collective::kAllreduce;
  PipelineSchedule s = BuildPipelineSchedule(g, o).schedule;
  const Rational size(8000);
  const Rational shard = size / g.num_compute();
  // Loads from the routes, computed here: multiplicity / k per use of a link, times the shard;
  // the reduce-scatter phase crosses the reversed paths.
  std::vector<Rational> expected(g.num_links(), Rational(0));
  for (const PipelineSchedule& phase : s.phases) {
    const bool up = phase.collective == Collective::kReduceScatter;
    for (const PipelineTree& t : phase.trees) {
      for (const PipelineTreeEdge& e : t.edges) {
        for (const PipelineRoute& r : e.routes) {
          for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
            const int a = up ? r.path[i + 1] : r.path[i], b = up ? r.path[i] : r.path[i + 1];
            expected[*g.FindLink(a, b)] += Rational(r.multiplicity) / Rational(phase.k) * shard;
          }
        }
      }
    }
  }
  for (std::int64_t p : {1, 7}) {
    for (SwitchModel sw : {SwitchModel::kStoreAndForward, SwitchModel::kCutThrough}) {
      SimulationModel m = Model(size, Rational(1, 1000000), p);
      m.switch_model = sw;
      FlowSimulationResult r = BuildPipelineSimulation(s, g, m).Run();
      EXPECT_EQ(r.link_bytes, expected) << "P = " << p;
    }
  }
}

TEST(PipelineSimulationTest, TransferCountIsRoutesTimesChunksTimesHops) {
  const int n = 3;
  Topology g = Path(n, 1, true);
  PipelineSchedule s = Chain(g, n, Collective::kBroadcast);
  SimulationModel m = Model(Rational(1), Rational(0), 10);
  EXPECT_EQ(PipelineTransferCount(s, m), 2u * 10u * 2u);
  EXPECT_EQ(BuildPipelineSimulation(s, g, m).num_transfers(), 40);
  m.switch_model = SwitchModel::kCutThrough;
  EXPECT_EQ(PipelineTransferCount(s, m), 2u * 10u);
}

}  // namespace
}  // namespace collsynth
