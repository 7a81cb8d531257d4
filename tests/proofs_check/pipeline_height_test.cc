// Height of pipeline schedules (docs/formats.md "Height"): the checker's measurement, the
// producers' claim (schedules/pipeline_schedule.h) and the lower bound
// (PipelineHeightLowerBound), each against a brute force over every tree on small graphs; and
// the height in α-time (PipelineHeightAlpha) against the same brute force with random latencies.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "fixtures/json_tree_writers.h"
#include "fixtures/schedule_fixtures.h"
#include "proofs_check/pipeline_check_parts.h"
#include "proofs_check/pipeline_checker.h"
#include "schedules/pipeline_schedule.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::TwoCluster;
using testing::TwoClusterPipeline;

// A random strongly connected topology: `c` compute nodes and `s` switches on a cycle through
// all of them, in both directions (so every pair is connected), plus `extra` random links.
Topology RandomTopology(std::mt19937_64& rng, int c, int s, int extra) {
  Topology g("random");
  for (int i = 0; i < c; ++i) g.AddCompute("c" + std::to_string(i));
  for (int i = 0; i < s; ++i) g.AddSwitch("s" + std::to_string(i));
  std::vector<int> order(c + s);
  for (int i = 0; i < c + s; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int i = 0; i < c + s; ++i) g.AddDuplexLink(order[i], order[(i + 1) % (c + s)], Rational(1));
  std::uniform_int_distribution<int> node(0, c + s - 1);
  for (int i = 0; i < extra; ++i) {
    const int a = node(rng), b = node(rng);
    if (a != b) g.AddLink(a, b, Rational(1));
  }
  return g;
}

// Every route from compute node u to compute node v: a simple path over links with only
// switches inside (depth-first).
std::vector<std::vector<int>> Routes(const Topology& g, int u, int v) {
  std::vector<std::vector<int>> out;
  std::vector<int> path{u};
  std::vector<char> on(g.num_nodes(), 0);
  on[u] = 1;
  std::function<void(int)> walk = [&](int x) {
    for (int e : g.OutLinks(x)) {
      const int y = g.link(e).to;
      if (y == v) {
        path.push_back(y);
        out.push_back(path);
        path.pop_back();
      } else if (!on[y] && !g.IsCompute(y)) {
        on[y] = 1;
        path.push_back(y);
        walk(y);
        path.pop_back();
        on[y] = 0;
      }
    }
  };
  walk(u);
  return out;
}

struct Choice {
  int parent;
  std::vector<int> route;
};

// Calls visit(tree, height) for every tree rooted at r: each other compute node picks a parent
// and a route; assignments that are not trees (a cycle of parents) are skipped. The height is
// computed here from the parent pointers, independently of the code under test.
void ForEachTree(const Topology& g, int r,
                 const std::function<void(const PipelineTree&, std::int64_t)>& visit) {
  const std::vector<int> compute = g.ComputeNodes();
  std::vector<int> others;
  for (int v : compute)
    if (v != r) others.push_back(v);
  std::vector<std::vector<Choice>> options(others.size());
  for (std::size_t i = 0; i < others.size(); ++i) {
    for (int u : compute) {
      if (u == others[i]) continue;
      for (auto& route : Routes(g, u, others[i])) options[i].push_back({u, route});
    }
  }
  std::vector<std::size_t> pick(others.size(), 0);
  while (true) {
    bool all_have = true;
    for (const auto& o : options) all_have = all_have && !o.empty();
    if (!all_have) return;
    std::vector<int> parent(g.num_nodes(), -1), hops(g.num_nodes(), 0);
    for (std::size_t i = 0; i < others.size(); ++i) {
      parent[others[i]] = options[i][pick[i]].parent;
      hops[others[i]] = static_cast<int>(options[i][pick[i]].route.size()) - 1;
    }
    std::int64_t height = 0;
    bool tree = true;
    for (int v : others) {
      std::int64_t depth = 0;
      int u = v, steps = 0;
      while (u != r && steps <= g.num_nodes()) {
        depth += hops[u];
        u = parent[u];
        ++steps;
      }
      if (u != r) tree = false;
      height = std::max(height, depth);
    }
    if (tree) {
      PipelineTree t;
      t.root = r;
      t.multiplicity = 1;
      for (std::size_t i = 0; i < others.size(); ++i) {
        const Choice& c = options[i][pick[i]];
        t.edges.push_back({c.parent, others[i], {{c.route, 1}}});
      }
      visit(t, height);
    }
    std::size_t i = 0;
    while (i < pick.size() && ++pick[i] == options[i].size()) pick[i++] = 0;
    if (i == pick.size()) return;
  }
}

// On random small topologies, over every tree of every root: the checker's height and the
// producers' PipelineTreeHeightHops equal the brute-force height; and the lower bound equals
// max over roots of the least height of any tree (it is attained: a shortest-path tree).
TEST(PipelineHeight, MeasuredHeightAndLowerBoundAgainstEveryTree) {
  std::mt19937_64 rng(testing::TestSeed());
  std::int64_t trees_seen = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int c = 3 + trial % 3, s = trial % 3;
    Topology g = RandomTopology(rng, c, s, c + trial % 4);
    PipelineCheckReport report;
    PipelineViolationCollector out(report, 10);
    PipelineTreeChecker checker(g, Collective::kAllgather, std::nullopt, out);
    std::int64_t best_over_roots = 0;
    for (int r : g.ComputeNodes()) {
      std::int64_t least = -1;
      ForEachTree(g, r, [&](const PipelineTree& t, std::int64_t height) {
        std::vector<BigInt> load(g.num_links(), BigInt(0));
        checker.Check("tree", t, load);
        ASSERT_EQ(report.num_violations, 0) << report.errors[0];
        EXPECT_EQ(checker.height(), height);
        EXPECT_EQ(PipelineTreeHeightHops(t), height);
        least = least < 0 ? height : std::min(least, height);
        ++trees_seen;
      });
      ASSERT_GE(least, 0) << "no tree rooted at " << g.node(r).name;
      best_over_roots = std::max(best_over_roots, least);
    }
    EXPECT_EQ(PipelineHeightLowerBound(g, Collective::kAllgather, g.ComputeNodes()),
              best_over_roots)
        << "trial " << trial;
  }
  EXPECT_GT(trees_seen, 1000);
}

// Reduce-scatter: the data climbs from v to r, so the bound is max dist(v, r). Links c0 -> c1,
// c1 -> c2, c2 -> c0 and c0 -> c2: rooted at c0 alone, the allgather (and broadcast) bound is 1
// and the reduce-scatter bound is 2 (c1 reaches c0 only through c2).
TEST(PipelineHeight, ReduceScatterBoundUsesDistancesTowardsTheRoot) {
  Topology g("cycle");
  for (int i = 0; i < 3; ++i) g.AddCompute("c" + std::to_string(i));
  g.AddLink(0, 1, Rational(1));
  g.AddLink(1, 2, Rational(1));
  g.AddLink(2, 0, Rational(1));
  g.AddLink(0, 2, Rational(1));
  EXPECT_EQ(PipelineHeightLowerBound(g, Collective::kAllgather, {0}), 1);
  EXPECT_EQ(PipelineHeightLowerBound(g, Collective::kReduceScatter, {0}), 2);
  EXPECT_EQ(PipelineHeightLowerBound(g, Collective::kBroadcast, {0}), 1);
}

// Seed 004 Figure 1's schedule: c11 reaches c21 through s0 (2 links), which forwards to c22
// through s2 (2 more): height 4; the farthest pair is 2 links apart.
TEST(PipelineHeight, TwoClusterScheduleIsFourLinksTall) {
  Topology g = TwoCluster();
  PipelineSchedule s = TwoClusterPipeline();
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  ASSERT_TRUE(r.ok) << r.errors[0];
  EXPECT_EQ(r.height_hops, 4);
  EXPECT_EQ(r.height_lower_bound_hops, 2);
  EXPECT_EQ(PipelineScheduleHeightHops(s), 4);
}

// A claimed height is checked: the true one passes, any other is rejected as wrong-height,
// also through the JSON reader.
TEST(PipelineHeight, WrongClaimIsRejected) {
  Topology g = TwoCluster();
  PipelineSchedule s = TwoClusterPipeline();
  s.height_hops = 4;
  EXPECT_TRUE(CheckPipelineSchedule(g, s).ok);
  for (std::int64_t wrong : {0, 2, 3, 5}) {
    s.height_hops = wrong;
    PipelineCheckReport r = CheckPipelineSchedule(g, s);
    ASSERT_FALSE(r.ok) << wrong;
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, PipelineViolationKind::kWrongHeight);
    EXPECT_EQ(r.violations[0].item, "height_hops");
    PipelineSchedule back = PipelineScheduleFromJson(PipelineScheduleToJson(s, g), g, "<mutant>");
    ASSERT_EQ(back.height_hops, wrong);
    EXPECT_FALSE(CheckPipelineSchedule(g, back).ok);
  }
  // Text writer and JSON writer agree on the claim.
  s.height_hops = 4;
  EXPECT_EQ(PipelineScheduleToJsonText(s, g), PipelineScheduleToJson(s, g).dump());
}

// Allreduce (reduce-scatter then allgather): the height is the sum of the phases' (4 + 4), and
// so is the bound (2 + 2); a phase's claim is checked in the phase.
TEST(PipelineHeight, AllreduceHeightIsTheSumOfThePhases) {
  Topology g = TwoCluster();
  PipelineSchedule rs = TwoClusterPipeline();
  rs.collective = Collective::kReduceScatter;
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.ratio = 2;
  ar.phases = {rs, TwoClusterPipeline()};
  ar.height_hops = 8;
  PipelineCheckReport r = CheckPipelineSchedule(g, ar);
  ASSERT_TRUE(r.ok) << r.errors[0];
  EXPECT_EQ(r.height_hops, 8);
  EXPECT_EQ(r.height_lower_bound_hops, 4);
  EXPECT_EQ(PipelineScheduleHeightHops(ar), 8);
  ar.height_hops = 4;
  r = CheckPipelineSchedule(g, ar);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, PipelineViolationKind::kWrongHeight);
  ar.height_hops = 8;
  ar.phases[1].height_hops = 3;
  r = CheckPipelineSchedule(g, ar);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).item, "phases[1].height_hops");
}

// The latency of the link a -> b, found by scanning a's out-links (independent of FindLink).
Rational LinkAlpha(const Topology& g, const std::vector<Rational>& alpha, int a, int b) {
  for (int e : g.OutLinks(a))
    if (g.link(e).to == b) return alpha[e];
  ADD_FAILURE() << "no link " << a << " -> " << b;
  return Rational(0);
}

// The α-height (docs/formats.md "Height") against a brute force over every tree on random
// topologies with random latencies: each compute node walks its parent pointers up to the
// root, adding each edge's slowest route (reduce-scatter: over the reversed links, whose
// latencies differ). With every latency 1 it is the hop height.
TEST(PipelineHeight, AlphaHeightAgainstEveryTree) {
  std::mt19937_64 rng(testing::TestSeed());
  std::int64_t trees_seen = 0, reversed_seen = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const int c = 3 + trial % 2, sw = trial % 3;
    Topology g = RandomTopology(rng, c, sw, c);
    std::uniform_int_distribution<int> num(1, 9);
    std::vector<Rational> alpha(g.num_links()), ones(g.num_links(), Rational(1));
    for (Rational& a : alpha) a = Rational(num(rng), num(rng));
    for (int r : g.ComputeNodes()) {
      ForEachTree(g, r, [&](const PipelineTree& t, std::int64_t hops) {
        for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter}) {
          const bool up = coll == Collective::kReduceScatter;
          bool reversible = true;  // reduce-scatter needs every route's reversed links
          for (const PipelineTreeEdge& e : t.edges) {
            const std::vector<int>& p = e.routes.at(0).path;
            for (std::size_t i = 0; i + 1 < p.size(); ++i)
              reversible = reversible && g.FindLink(p[i + 1], p[i]).has_value();
          }
          if (up && !reversible) continue;
          if (up) ++reversed_seen;
          std::vector<int> parent(g.num_nodes(), -1);
          std::vector<Rational> edge_alpha(g.num_nodes());
          for (const PipelineTreeEdge& e : t.edges) {
            parent[e.to] = e.from;
            const std::vector<int>& p = e.routes.at(0).path;
            for (std::size_t i = 0; i + 1 < p.size(); ++i)
              edge_alpha[e.to] +=
                  up ? LinkAlpha(g, alpha, p[i + 1], p[i]) : LinkAlpha(g, alpha, p[i], p[i + 1]);
          }
          Rational want = 0;
          for (int v : g.ComputeNodes()) {
            Rational d = 0;
            for (int u = v; u != r; u = parent[u]) d += edge_alpha[u];
            want = std::max(want, d);
          }
          PipelineSchedule s;
          s.collective = coll;
          s.trees = {t};
          EXPECT_EQ(PipelineHeightAlpha(g, s, alpha), want) << "trial " << trial;
          EXPECT_EQ(PipelineHeightAlpha(g, s, ones), Rational(hops));
        }
        ++trees_seen;
      });
    }
  }
  EXPECT_GT(trees_seen, 100);
  EXPECT_GT(reversed_seen, 50);
}

// Seed 004 Figure 1's schedule with α = 1 on every link but 1/2 on the s0 links and 5 on the
// link s2 -> c22: c11's tree reaches c22 through c21 (1/2 + 1/2, then 1 + 5) = 7. Reduce-
// scatter climbs the reversed paths: in c12's tree c2q climbs to c22 over s2 -> c22 (1 + 5),
// then to c12 over s0 (1/2 + 1/2): 7 again. An allreduce adds its phases': 14.
TEST(PipelineHeight, AlphaHeightOfTheTwoClusterSchedule) {
  Topology g = TwoCluster();
  std::vector<Rational> alpha(g.num_links(), Rational(1));
  const int s0 = *g.FindNode("s0");
  for (int e = 0; e < g.num_links(); ++e)
    if (g.link(e).from == s0 || g.link(e).to == s0) alpha[e] = Rational(1, 2);
  alpha[*g.FindLink(*g.FindNode("s2"), *g.FindNode("c22"))] = 5;
  PipelineSchedule ag = TwoClusterPipeline();
  ASSERT_TRUE(CheckPipelineSchedule(g, ag).ok);
  EXPECT_EQ(PipelineHeightAlpha(g, ag, alpha), Rational(7));
  PipelineSchedule rs = ag;
  rs.collective = Collective::kReduceScatter;
  EXPECT_EQ(PipelineHeightAlpha(g, rs, alpha), Rational(7));
  alpha[*g.FindLink(*g.FindNode("s2"), *g.FindNode("c22"))] = 1;
  alpha[*g.FindLink(*g.FindNode("c22"), *g.FindNode("s2"))] = 3;  // now c22's climbs cost 4
  // c22 climbs to c2r (r != 2) over c22 -> s2 (3 + 1), c2r to c1r over s0 (1/2 + 1/2): 5; the
  // allgather pays c22 -> s2 in c12's tree: 1 (s0) + 3 + 1 = 5.
  EXPECT_EQ(PipelineHeightAlpha(g, rs, alpha), Rational(5));
  EXPECT_EQ(PipelineHeightAlpha(g, ag, alpha), Rational(5));
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.phases = {rs, ag};
  EXPECT_EQ(PipelineHeightAlpha(g, ar, alpha), Rational(10));
}

TEST(PipelineHeight, ClaimMustBeANonNegativeInteger) {
  Topology g = TwoCluster();
  nlohmann::json j = PipelineScheduleToJson(TwoClusterPipeline(), g);
  for (const nlohmann::json& bad :
       {nlohmann::json(-1), nlohmann::json("4"), nlohmann::json(4.5),
        nlohmann::json(std::uint64_t{1} << 63), nlohmann::json::array()}) {
    j["height_hops"] = bad;
    try {
      PipelineScheduleFromJson(j, g, "f.json");
      ADD_FAILURE() << "accepted height_hops " << bad.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("height_hops"), std::string::npos) << e.what();
    }
  }
  j["height_hops"] = nullptr;  // null: no claim
  EXPECT_FALSE(PipelineScheduleFromJson(j, g, "f.json").height_hops);
}

}  // namespace
}  // namespace collsynth
