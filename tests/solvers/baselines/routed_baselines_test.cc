// Routed baselines (solvers/baselines/routed_baselines.h, docs/baselines.md "Routed baselines"):
// checked by the pipeline checker, with closed forms for their ratio and height on a single
// switch, the height bound reached by `direct` everywhere, and `direct` bandwidth-optimal on a
// full-bisection fat-tree (the optimum computed by the pipeline path).
#include "solvers/baselines/routed_baselines.h"

#include <gtest/gtest.h>

#include <string>

#include "core/input_error.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

// n compute nodes on one switch, duplex links of bandwidth b.
Topology Star(int n, const Rational& b) {
  Topology g("star");
  for (int i = 0; i < n; ++i) g.AddCompute("g" + std::to_string(i));
  const int s = g.AddSwitch("sw");
  for (int i = 0; i < n; ++i) g.AddDuplexLink(i, s, b);
  return g;
}

PipelineCheckReport Checked(const Topology& g, const std::string& name, Collective c,
                            PipelineSchedule* out = nullptr) {
  RoutedBaselineOptions o;
  o.name = name;
  o.collective = c;
  PipelineSchedule s = BuildRoutedBaseline(g, o, "test");
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << name << ": " << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, s.ratio);
  if (out) *out = s;
  return r;
}

// On one switch every route is up and down (2 links) and every node's uplink carries the N-1
// sends of each algorithm: ratio (N-1)/b, the optimum. Heights: direct 2 (= the bound), ring
// 2(N-1), recursive doubling 2·log2 N.
TEST(RoutedBaselines, SingleSwitchClosedForms) {
  for (int n : {2, 4, 8, 16}) {
    SCOPED_TRACE(n);
    const Rational b(5, 2);
    Topology g = Star(n, b);
    const Rational expected = Rational(n - 1) / b;
    PipelineOptions po;
    EXPECT_EQ(BuildPipelineSchedule(g, po).optimal_ratio, expected);
    int log2n = 0;
    while ((1 << log2n) < n) ++log2n;
    struct Case {
      const char* name;
      std::int64_t height;
    };
    for (const Case& c : {Case{"direct", 2}, Case{"routed-ring", 2 * (n - 1)},
                          Case{"routed-recursive-doubling", 2 * log2n}}) {
      for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter}) {
        PipelineCheckReport r = Checked(g, c.name, coll);
        EXPECT_EQ(r.ratio, expected) << c.name;
        EXPECT_EQ(r.height_hops, c.height) << c.name;
        EXPECT_EQ(r.height_lower_bound_hops, 2);
      }
      PipelineCheckReport ar = Checked(g, c.name, Collective::kAllreduce);
      EXPECT_EQ(ar.ratio, 2 * expected) << c.name;
      EXPECT_EQ(ar.height_hops, 2 * c.height) << c.name;
    }
  }
}

// `direct` reaches the height bound on every topology (a shortest-path tree per root), and on a
// full-bisection fat-tree, split evenly over the shortest routes as ECMP does, it is
// bandwidth-optimal: its ratio is the pipeline path's certified optimum.
TEST(RoutedBaselines, DirectReachesTheHeightBound) {
  for (const char* e : {"fattree(4)", "fattree(6)", "torus(4,4)", "hypercube(4)",
                        "gpuboxes(4,4,300,25,2)", "dragonfly(4,2,2)", "kautz(2,3)"}) {
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    for (Collective c : {Collective::kAllgather, Collective::kReduceScatter}) {
      PipelineCheckReport r = Checked(g, "direct", c);
      EXPECT_EQ(r.height_hops, r.height_lower_bound_hops);
    }
  }
  for (const char* e : {"fattree(4)", "fattree(6)"}) {
    SCOPED_TRACE(e);
    Topology g = EvaluateTopologyExpression(e);
    PipelineOptions po;
    const Rational optimum = BuildPipelineSchedule(g, po).optimal_ratio;
    EXPECT_EQ(Checked(g, "direct", Collective::kAllgather).ratio, optimum);
    // With one route per tree edge the core links are unevenly used: worse than the optimum.
    RoutedBaselineOptions one;
    one.name = "direct";
    one.max_routes_per_edge = 1;
    PipelineSchedule s = BuildRoutedBaseline(g, one, "test");
    PipelineCheckReport r = CheckPipelineSchedule(g, s);
    ASSERT_TRUE(r.ok) << r.errors[0];
    EXPECT_GT(r.ratio, optimum);
  }
}

// Recursive doubling on hypercube(d) is the binomial tree of seed 000 App. I: every tree edge is
// one link and the height is d, the diameter. Pipelined, all levels run at once, and a link of
// dimension s carries the trees of the 2^s roots that agree with its tail above bit s: the
// top dimension carries N/2, so the ratio is N/2 where the optimum is (N-1)/d (recursive
// doubling is optimal only in seed 000's step model, one dimension per step).
TEST(RoutedBaselines, RecursiveDoublingOnTheHypercube) {
  for (int d : {2, 3, 4}) {
    SCOPED_TRACE(d);
    Topology g = EvaluateTopologyExpression("hypercube(" + std::to_string(d) + ")");
    PipelineCheckReport r = Checked(g, "routed-recursive-doubling", Collective::kAllgather);
    EXPECT_EQ(r.height_hops, d);
    EXPECT_EQ(r.ratio, Rational(1 << (d - 1)));
  }
}

TEST(RoutedBaselines, BadInputNamesTheProblem) {
  Topology star = Star(6, Rational(1));
  RoutedBaselineOptions o;
  o.name = "routed-recursive-doubling";
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);  // 6 is not 2^d
  o.name = "routed-ring";
  o.order = {"g0", "g1", "g2", "g3", "g4", "nope"};
  try {
    BuildRoutedBaseline(star, o, "f.json");
    ADD_FAILURE() << "accepted an unknown node";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--order"), std::string::npos) << e.what();
  }
  o.order = {"g0", "g1", "g2", "g3", "g4", "g4"};
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);
  o.order = {"g0", "g1"};
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);
  // On a torus in id order, 3 -> 4 are not neighbours and no switch joins them.
  Topology torus = EvaluateTopologyExpression("torus(4,4)");
  o.order.clear();
  try {
    BuildRoutedBaseline(torus, o, "t.json");
    ADD_FAILURE() << "a ring over non-adjacent nodes was built";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no route"), std::string::npos) << e.what();
  }
  o.name = "direct";
  o.collective = Collective::kBroadcast;
  EXPECT_THROW(BuildRoutedBaseline(star, o, "f.json"), InputError);
}

}  // namespace
}  // namespace collsynth
