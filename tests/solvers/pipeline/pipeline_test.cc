// End-to-end pipeline schedules (seed 004 §2, §2.4, Appendices A-B): every produced schedule
// passes the independent checker (proofs_check/pipeline_checker.h) and reaches the optimum
// certified by its cut, on every test topology.
#include <gtest/gtest.h>

#include <random>

#include "fixtures/json_tree_writers.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

PipelineSchedule BuildChecked(const Topology& g, Collective c, int root = -1,
                              std::optional<BigInt> fixed_k = std::nullopt,
                              PipelineBuildResult* out = nullptr) {
  PipelineOptions o;
  o.collective = c;
  o.root = root;
  o.fixed_k = fixed_k;
  PipelineBuildResult r = BuildPipelineSchedule(g, o);
  PipelineCheckReport rep = CheckPipelineSchedule(g, r.schedule);
  EXPECT_TRUE(rep.ok) << g.name() << " " << CollectiveName(c) << ": "
                      << (rep.errors.empty() ? "" : rep.errors[0]);
  EXPECT_EQ(rep.ratio, r.schedule.ratio);
  // The streamed text is the JSON tree's compact dump, byte for byte.
  EXPECT_EQ(PipelineScheduleToJsonText(r.schedule, g),
            PipelineScheduleToJson(r.schedule, g).dump());
  // Round trip through the JSON contract.
  PipelineSchedule back =
      PipelineScheduleFromJson(PipelineScheduleToJson(r.schedule, g), g, "<test>");
  EXPECT_TRUE(CheckPipelineSchedule(g, back).ok);
  if (out) *out = r;
  return r.schedule;
}

// Every collective on one topology: optimal and certified (allgather, reduce-scatter,
// broadcast), allreduce = RS + AG with ratio 2·ratio*.
void ExpectAllCollectivesOptimal(const Topology& g) {
  SCOPED_TRACE(g.name());
  AllgatherOptimum opt = ComputeAllgatherOptimum(g);
  for (auto c : {Collective::kAllgather, Collective::kReduceScatter}) {
    PipelineSchedule s = BuildChecked(g, c);
    EXPECT_EQ(s.ratio, opt.ratio);
    EXPECT_TRUE(CheckPipelineSchedule(g, s).certified_optimal);
  }
  PipelineSchedule ar = BuildChecked(g, Collective::kAllreduce);
  EXPECT_EQ(ar.ratio, 2 * opt.ratio);
  // The allreduce is certified exactly when RS+AG meets max((6), (7)).
  const AllreduceBounds b = ComputeAllreduceBounds(g, opt);
  EXPECT_EQ(CheckPipelineSchedule(g, ar).certified_optimal, ar.ratio == b.lower_bound);
  int root = g.ComputeNodes().back();
  PipelineSchedule bc = BuildChecked(g, Collective::kBroadcast, root);
  EXPECT_EQ(bc.ratio, ComputeBroadcastBound(g, root).ratio);
  EXPECT_TRUE(CheckPipelineSchedule(g, bc).certified_optimal);
}

// On a DGX-1 (V100) RS+AG has ratio 7/3 = bound (7) > bound (6); the experiment
// row once said ratio_to_bound 1 with certified_optimal "no", because only (6) had a certificate.
// The schedule now carries one min cut S_v per GPU and the checker certifies it by (7).
TEST(PipelineTest, Issue14AllreduceCertifiedByBound7OnDgx1) {
  const Topology g = EvaluateTopologyExpression("dgx1(1)");
  const AllreduceBounds b = ComputeAllreduceBounds(g, ComputeAllgatherOptimum(g));
  EXPECT_EQ(b.bound7, Rational(7, 3));
  EXPECT_LT(b.bound6, b.bound7);
  ASSERT_EQ(b.single_cuts.size(), static_cast<std::size_t>(g.num_compute()));
  const CutBound cuts = CheckSingleNodeCutsBound(g, b.single_cuts);
  ASSERT_TRUE(cuts.ok) << cuts.error;
  EXPECT_EQ(cuts.bound, b.bound7);  // the min cuts attain μ_v
  const PipelineSchedule ar = BuildChecked(g, Collective::kAllreduce);
  EXPECT_EQ(ar.ratio, Rational(7, 3));
  ASSERT_TRUE(ar.single_node_cuts.has_value());
  EXPECT_FALSE(ar.bottleneck_cut.has_value());  // (6) is not attained
  const PipelineCheckReport rep = CheckPipelineSchedule(g, ar);
  EXPECT_TRUE(rep.ok);
  EXPECT_TRUE(rep.certified_optimal);
  EXPECT_EQ(rep.certified_by, "bound (7)");
  EXPECT_EQ(*rep.cut_ratio, Rational(7, 3));
}

// Seed 004 Figures 1-2: the two-cluster example (ratio 1, U = 1, k = 1) and its G*.
TEST(PipelineTest, TwoClusterFigure1And2) {
  Topology g = testing::TwoClusterTopology();
  PipelineBuildResult r;
  PipelineSchedule s = BuildChecked(g, Collective::kAllgather, -1, std::nullopt, &r);
  EXPECT_EQ(s.ratio, 1);
  EXPECT_EQ(s.U, 1);
  EXPECT_EQ(s.k, 1);
  EXPECT_EQ(s.trees.size(), 8u);  // one tree per compute node (k = 1)
  // Appendix B / Theorem 19(a): |S* ∩ V_c| = N/2, so RS+AG is an optimal allreduce.
  AllreduceBounds b = ComputeAllreduceBounds(g, ComputeAllgatherOptimum(g));
  EXPECT_TRUE(b.theorem19_a);
  EXPECT_EQ(b.rs_ag_ratio, b.lower_bound);
  // Appendix B: broadcast optimum M/(4b) is twice the allgather optimum (M/N)(4/4b), N = 8.
  EXPECT_EQ(ComputeBroadcastBound(g, 0).ratio * 8, 2 * s.ratio);
  ExpectAllCollectivesOptimal(g);
  ExpectAllCollectivesOptimal(testing::TwoClusterSplitTopology());
}

TEST(PipelineTest, DirectConnectAndSwitchTopologies) {
  ExpectAllCollectivesOptimal(testing::Dgx1Topology());
  ExpectAllCollectivesOptimal(testing::TorusTopology({3, 4}));
  ExpectAllCollectivesOptimal(testing::TorusTopology({3, 3, 3}));
  ExpectAllCollectivesOptimal(testing::HypercubeTopology(4));
  ExpectAllCollectivesOptimal(testing::GpuClusterTopology(2, 4, 12, 2, 2));
  ExpectAllCollectivesOptimal(testing::FatTreeTopology(4));
  ExpectAllCollectivesOptimal(testing::TwoClusterTopology(3, 3, Rational(5, 2), Rational(2, 3)));
}

// Exactness on large and rational bandwidths.
TEST(PipelineTest, Issue4ExactBandwidths) {
  ExpectAllCollectivesOptimal(testing::RingTopology(4, {Rational(1000003), Rational(1000033)}));
  BigInt big("1000000000000000");
  ExpectAllCollectivesOptimal(testing::RingTopology(5, {Rational(big + 1), Rational(big - 7)}));
  ExpectAllCollectivesOptimal(testing::RingTopology(4, {Rational(5, 2), Rational(7, 3)}));
  ExpectAllCollectivesOptimal(testing::GpuClusterTopology(2, 2, Rational(big), Rational(3, 2), 1));
}

// Names that JSON must escape (quote, backslash, control character, non-ASCII) and
// multiplicities beyond int64 (written as strings) in the streamed text.
TEST(PipelineTest, StreamedScheduleTextEscapesNamesAndBigMultiplicities) {
  Topology base = testing::TwoClusterTopology();
  Topology g("escapes");
  const std::vector<std::string> odd = {"q\"", "b\\s", "t ab", "\xc3\xbc", "ls\xe2\x80\xa8"};
  for (int v = 0; v < base.num_nodes(); ++v) {
    g.AddNode(base.node(v).name + odd[v % odd.size()], base.node(v).kind);
  }
  for (const Link& l : base.links()) g.AddLink(l.from, l.to, l.bandwidth);
  for (auto c : {Collective::kAllgather, Collective::kAllreduce}) {
    PipelineOptions o;
    o.collective = c;
    PipelineSchedule s = BuildPipelineSchedule(g, o).schedule;
    std::string text = PipelineScheduleToJsonText(s, g);
    EXPECT_EQ(text, PipelineScheduleToJson(s, g).dump());
    EXPECT_TRUE(
        CheckPipelineSchedule(g, PipelineScheduleFromJson(nlohmann::json::parse(text), g, "<t>"))
            .ok);
  }
  PipelineSchedule s = BuildPipelineSchedule(g, PipelineOptions{}).schedule;
  s.trees[0].multiplicity = BigInt(1) << 70;
  s.trees[0].edges[0].routes[0].multiplicity = (BigInt(1) << 64) + 3;
  std::string text = PipelineScheduleToJsonText(s, g);
  EXPECT_EQ(text, PipelineScheduleToJson(s, g).dump());
  EXPECT_NE(text.find("\"1180591620717411303424\""), std::string::npos);  // 2^70, as a string
}

TEST(PipelineTest, RandomEulerianWithSwitchesPassChecker) {
  std::mt19937_64 rng(testing::TestSeed() + 7);
  for (int round = 0; round < 40; ++round) {
    Topology g = testing::RandomEulerianTopology(rng, 2 + rng() % 5, rng() % 4, 1 + rng() % 4,
                                                 1 + rng() % 5);
    SCOPED_TRACE("seed " + std::to_string(testing::TestSeed()) + " round " + std::to_string(round));
    ExpectAllCollectivesOptimal(g);
  }
}

// §2.4 Theorems 13-15: with exactly k trees per root the ratio U*/k is at least ratio* and
// within Theorem 15's bound ratio* + 1/(k·min b_e); U* is the least feasible U.
TEST(PipelineTest, FixedKWithinTheorem15Bound) {
  std::vector<Topology> gs = {testing::Dgx1Topology(), testing::TwoClusterTopology(),
                              testing::TorusTopology({3, 4}),
                              testing::RingTopology(5, {Rational(3), Rational(5)})};
  for (const Topology& g : gs) {
    SCOPED_TRACE(g.name());
    Rational opt = ComputeAllgatherOptimum(g).ratio;
    for (int k = 1; k <= 3; ++k) {
      PipelineBuildResult r;
      PipelineSchedule s = BuildChecked(g, Collective::kAllgather, -1, BigInt(k), &r);
      EXPECT_EQ(s.k, k);
      EXPECT_GE(s.ratio, opt);
      ASSERT_TRUE(r.fixed_k.has_value());
      EXPECT_LE(s.ratio, r.fixed_k->theorem15_bound);
      // Minimality of U* (Theorem 14): any smaller U that changes some ⌊U·b_e⌋ fails.
      Rational u = s.U;
      Rational below = 0;
      for (const Link& l : g.links()) {
        Rational prev = Rational(Ceil(u * l.bandwidth) - 1) / l.bandwidth;  // last breakpoint < U*
        if (prev > below) below = prev;
      }
      EXPECT_GT(FixedKMinimalU(g, BigInt(k)), below);
    }
  }
  // DGX-1: ratio* = 7/6 needs k = 6. With k = 1, U = 1 leaves each GPU 6 < N-1 = 7 units of
  // in-capacity (Theorem 5 fails); the next breakpoint of ⌊U·b_e⌋ is U = 3/2, where each
  // doubled pair carries 3 trees (in-capacity 8), and it is feasible: U* = 3/2.
  EXPECT_FALSE(AllgatherRatioFeasible(testing::Dgx1Topology(), 1));  // 1 < 7/6
  EXPECT_EQ(FixedKMinimalU(testing::Dgx1Topology(), 1), Rational(3, 2));
}

TEST(PipelineTest, RejectsBadOptions) {
  Topology g = testing::TwoClusterTopology();
  PipelineOptions o;
  o.collective = Collective::kBroadcast;
  o.root = g.num_nodes() - 1;  // a switch
  EXPECT_THROW(BuildPipelineSchedule(g, o), std::invalid_argument);
  EXPECT_EQ(ParseCollective("gather"), std::nullopt);
}

// The least U >= u with every U·b_e integral, for integer bandwidths: U is then a multiple
// of 1/gcd(b_e) (test-side re-derivation of the builder's Eulerian fallback).
Rational EulerianUAbove(const Topology& g, const Rational& u) {
  BigInt gcd = 0;
  for (const Link& l : g.links()) gcd = boost::multiprecision::gcd(gcd, Numerator(l.bandwidth));
  Rational step(BigInt(1), gcd);
  return Rational(Ceil(u / step)) * step;
}

bool IsFloorBreakpoint(const Topology& g, const Rational& u) {
  for (const Link& l : g.links()) {
    if (l.from != l.to && Denominator(u * l.bandwidth) == 1) return true;
  }
  return false;
}

// Fixed k on switch topologies (docs/performance.md "Fixed k on switch topologies"): G({⌊U*·b_e⌋})
// need not be Eulerian and then Algorithm 1 may fail to isolate a switch. The builder must still
// return a checked schedule with exactly k trees per root, at the least U it can certify: U* itself
// (within Theorem 15's bound), else a breakpoint of ⌊U·b_e⌋ strictly between U* and the Eulerian U'
// = least U >= U* with every U·b_e integral, else U' (flagged). Random switch topologies with mixed
// integer bandwidths, k = 1..3. (Whether that U is the true optimum is fixed_k_test.cc's
// brute-force comparison.)
TEST(PipelineTest, FixedKOnSwitchTopologiesIssue4) {
  std::mt19937_64 rng(testing::TestSeed() + 11);
  int direct = 0, raised = 0, fallbacks = 0, non_eulerian = 0;
  for (int round = 0; round < 60; ++round) {
    Topology g = testing::RandomEulerianTopology(
        rng, 2 + static_cast<int>(rng() % 4), 1 + static_cast<int>(rng() % 3),
        static_cast<int>(rng() % 5), 2 + static_cast<int>(rng() % 6));
    SCOPED_TRACE("seed " + std::to_string(testing::TestSeed()) + " round " + std::to_string(round));
    Rational opt = ComputeAllgatherOptimum(g).ratio;
    for (int k = 1; k <= 3; ++k) {
      PipelineBuildResult r;
      PipelineSchedule s = BuildChecked(g, Collective::kAllgather, -1, BigInt(k), &r);
      EXPECT_EQ(s.k, k);
      EXPECT_GE(s.ratio, opt);
      Rational least = FixedKMinimalU(g, BigInt(k));
      Rational eulerian = EulerianUAbove(g, least);
      if (s.U == least) {
        ++direct;
        std::vector<BigInt> balance(g.num_nodes(), 0);
        for (const Link& l : g.links()) {
          BigInt c = Floor(least * l.bandwidth);
          balance[l.from] += c;
          balance[l.to] -= c;
        }
        non_eulerian +=
            std::any_of(balance.begin(), balance.end(), [](const BigInt& b) { return b != 0; });
        // At U* some link carries exactly U*·b_e: a schedule with ratio < U*/k would fit in
        // G({⌊U·b_e⌋}) for U = k·ratio < U*, which passes Theorem 5's (necessary) flow test.
        EXPECT_EQ(s.ratio, s.U / k);
        EXPECT_FALSE(s.extra.contains("fixed_k_least_U"));
        ASSERT_TRUE(r.fixed_k.has_value());
        EXPECT_FALSE(r.fixed_k->searches.at(0).has_value());
        EXPECT_LE(s.ratio, r.fixed_k->theorem15_bound);
        continue;
      }
      ASSERT_TRUE(s.extra.contains("fixed_k_least_U"));
      EXPECT_EQ(s.extra["fixed_k_least_U"].get<std::string>(), ToString(least));
      EXPECT_GT(s.U, least);
      EXPECT_GE(s.extra["fixed_k_breakpoints_tried"].get<int>(), 1);
      // The typed search says the same as the file's metadata.
      ASSERT_TRUE(r.fixed_k.has_value() && r.fixed_k->searches.at(0).has_value());
      const FixedKSearch& search = *r.fixed_k->searches[0];
      EXPECT_EQ(search.least_u, least);
      EXPECT_EQ(search.breakpoints_tried, s.extra["fixed_k_breakpoints_tried"].get<int>());
      EXPECT_EQ(search.eulerian_fallback, s.extra.contains("fixed_k_eulerian_fallback"));
      if (s.extra.contains("fixed_k_eulerian_fallback")) {
        ++fallbacks;
        EXPECT_EQ(s.U, eulerian);
        for (const Link& l : g.links()) EXPECT_EQ(Denominator(s.U * l.bandwidth), 1);
      } else {
        ++raised;
        EXPECT_LT(s.U, eulerian);
        EXPECT_TRUE(IsFloorBreakpoint(g, s.U));  // G({⌊U·b_e⌋}) only changes there
      }
    }
  }
  EXPECT_GT(direct, 0);
  EXPECT_GT(non_eulerian, 0);  // the relaxed splitting path is really exercised
  std::printf(
      "fixed k on switch topologies: %d at U* (%d of them with a non-Eulerian "
      "G({⌊U*·b_e⌋})), %d at a higher breakpoint, %d Eulerian fallbacks\n",
      direct, non_eulerian, raised, fallbacks);
}

}  // namespace
}  // namespace collsynth
