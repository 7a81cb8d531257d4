// Allgather optimum (seed 004 eq. (1), §2.1 Theorem 1, Propositions 2-3).
#include "solvers/pipeline/allgather_optimum.h"

#include <gtest/gtest.h>

#include <random>

#include "graphs/expression.h"
#include "solvers/pipeline/integer_bandwidths.h"
#include "solvers/pipeline_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::BruteForceAllgatherRatio;

void ExpectCertificate(const Topology& g, const AllgatherOptimum& r) {
  std::vector<char> s(g.num_nodes(), 0);
  for (int v : r.bottleneck_cut) s[v] = 1;
  int c = ComputeCount(g, s);
  EXPECT_GT(c, 0);
  EXPECT_LT(c, g.num_compute());  // S does not contain every compute node
  EXPECT_EQ(c, r.cut_compute);
  EXPECT_EQ(OutBandwidthOfSet(g, s), r.cut_bandwidth);
  EXPECT_EQ(Rational(c) / r.cut_bandwidth, r.ratio);
}

void ExpectUk(const Topology& g, const AllgatherOptimum& r) {
  EXPECT_EQ(r.U / Rational(r.k), r.ratio);
  for (const Link& l : g.links()) EXPECT_EQ(Denominator(r.U * l.bandwidth), 1);
  // k is the least such: every smaller k' leaves some k'·ratio·b_e fractional.
  for (BigInt kk = 1; kk < r.k && kk < 200; ++kk) {
    bool all_integral = true;
    for (const Link& l : g.links()) all_integral &= Denominator(r.ratio * kk * l.bandwidth) == 1;
    EXPECT_FALSE(all_integral) << "k' = " << kk;
  }
}

// Brute force over all vertex subsets on >= 200 seeded random Eulerian digraphs
// with switches (<= 12 nodes): both exact methods return the enumerated maximum, and the
// reported cut attains it.
TEST(AllgatherOptimumTest, MatchesBruteForceOnRandomEulerianDigraphs) {
  std::mt19937_64 rng(testing::TestSeed());
  for (int round = 0; round < 220; ++round) {
    int compute = 2 + static_cast<int>(rng() % 7);
    int switches = static_cast<int>(rng() % (12 - compute + 1)) % 5;
    Topology g = testing::RandomEulerianTopology(rng, compute, switches,
                                                 static_cast<int>(rng() % 6), 1 + rng() % 9);
    Rational brute = BruteForceAllgatherRatio(g);
    AllgatherOptimum d = ComputeAllgatherOptimum(g, OptimumMethod::kDinkelbach);
    AllgatherOptimum b = ComputeAllgatherOptimum(g, OptimumMethod::kBinarySearch);
    ASSERT_EQ(d.ratio, brute) << "seed " << testing::TestSeed() << " round " << round;
    ASSERT_EQ(b.ratio, brute) << "seed " << testing::TestSeed() << " round " << round;
    ExpectCertificate(g, d);
    ExpectCertificate(g, b);
    ExpectUk(g, d);
    EXPECT_EQ(AllgatherRatioFeasible(g, brute), true);
    EXPECT_EQ(AllgatherRatioFeasible(g, brute * Rational(999, 1000)), false);  // Theorem 1
  }
}

// Seed 004 Figure 1 / §1.3: bottleneck cut = one cluster with its switch, ratio 4/(4b) = 1
// (b = 1), U = 1/b = 1, k = 1; the switch-free G* of Figure 2b has the same optimum.
TEST(AllgatherOptimumTest, TwoClusterFigure1) {
  Topology g = testing::TwoClusterTopology();
  for (auto method : {OptimumMethod::kDinkelbach, OptimumMethod::kBinarySearch}) {
    AllgatherOptimum r = ComputeAllgatherOptimum(g, method);
    EXPECT_EQ(r.ratio, 1);
    EXPECT_EQ(r.U, 1);
    EXPECT_EQ(r.k, 1);
    EXPECT_EQ(r.cut_compute, 4);
    EXPECT_EQ(r.cut_bandwidth, 4);
    ExpectCertificate(g, r);
  }
  EXPECT_EQ(ComputeAllgatherOptimum(testing::TwoClusterSplitTopology()).ratio, 1);
  EXPECT_EQ(BruteForceAllgatherRatio(testing::TwoClusterSplitTopology()), 1);
}

// DGX-1 (V100, 6 NVLinks per GPU, unit bandwidth each): ratio 7/6 (S = all GPUs but one).
TEST(AllgatherOptimumTest, Dgx1SevenSixths) {
  Topology g = testing::Dgx1Topology();
  EXPECT_EQ(BruteForceAllgatherRatio(g), Rational(7, 6));
  AllgatherOptimum r = ComputeAllgatherOptimum(g);
  EXPECT_EQ(r.ratio, Rational(7, 6));
  EXPECT_EQ(r.U, 7);
  EXPECT_EQ(r.k, 6);
  ExpectCertificate(g, r);
}

// The 4-node ring alternating 1000003 / 1000033 (a published float
// implementation fails here); ratio (N-1)/min B-(v) = 3/2000036.
TEST(AllgatherOptimumTest, Issue4RingWithCoprimeLargeBandwidths) {
  Topology g = testing::RingTopology(4, {Rational(1000003), Rational(1000033)});
  EXPECT_EQ(BruteForceAllgatherRatio(g), Rational(3, 2000036));
  for (auto method : {OptimumMethod::kDinkelbach, OptimumMethod::kBinarySearch}) {
    AllgatherOptimum r = ComputeAllgatherOptimum(g, method);
    EXPECT_EQ(r.ratio, Rational(3, 2000036));
    ExpectCertificate(g, r);
    ExpectUk(g, r);
  }
}

TEST(AllgatherOptimumTest, Issue4BandwidthsNear1e15AndRational) {
  BigInt big("1000000000000000");
  Topology g = testing::RingTopology(5, {Rational(big + 1), Rational(big - 7), Rational(big)});
  Rational brute = BruteForceAllgatherRatio(g);
  for (auto method : {OptimumMethod::kDinkelbach, OptimumMethod::kBinarySearch}) {
    AllgatherOptimum r = ComputeAllgatherOptimum(g, method);
    EXPECT_EQ(r.ratio, brute);
    ExpectUk(g, r);
  }
  Topology h = testing::RingTopology(4, {Rational(5, 2), Rational(7, 3)});
  AllgatherOptimum r = ComputeAllgatherOptimum(h, OptimumMethod::kBinarySearch);
  EXPECT_EQ(r.ratio, BruteForceAllgatherRatio(h));
  EXPECT_EQ(r.ratio, Rational(3) / (Rational(5, 2) + Rational(7, 3)));
  ExpectUk(h, r);
}

// STYLE rule 10: scaling every bandwidth by c divides the ratio by c; relabelling (a node
// permutation with new names) changes nothing; the transpose has the same optimum (the
// reduce-scatter twin; equal on Eulerian graphs since B+_{G^T}(S) = B-_G(S) = B+_G(S)).
TEST(AllgatherOptimumTest, MetamorphicScalingRelabellingTranspose) {
  std::mt19937_64 rng(testing::TestSeed() + 1);
  for (int round = 0; round < 40; ++round) {
    Topology g = testing::RandomEulerianTopology(rng, 3 + rng() % 5, rng() % 3, 3, 6);
    Rational base = ComputeAllgatherOptimum(g).ratio;
    Rational c(BigInt(1 + rng() % 13), BigInt(1 + rng() % 7));
    Topology scaled(g.name());
    for (const Node& n : g.nodes()) scaled.AddNode(n.name, n.kind);
    for (const Link& l : g.links()) scaled.AddLink(l.from, l.to, l.bandwidth * c);
    EXPECT_EQ(ComputeAllgatherOptimum(scaled).ratio, base / c);

    std::vector<int> perm(g.num_nodes());
    for (int i = 0; i < g.num_nodes(); ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    Topology relabelled;
    std::vector<int> new_id(g.num_nodes());
    for (int i : perm) new_id[i] = relabelled.AddNode("x" + g.node(i).name, g.node(i).kind);
    for (const Link& l : g.links()) relabelled.AddLink(new_id[l.from], new_id[l.to], l.bandwidth);
    AllgatherOptimum rr = ComputeAllgatherOptimum(relabelled);
    EXPECT_EQ(rr.ratio, base);
    ExpectCertificate(relabelled, rr);

    EXPECT_EQ(ComputeAllgatherOptimum(g.Transpose()).ratio, base);
  }
}

// Tori and hypercubes: every node cut gives (N-1)/d, and these graphs attain it.
TEST(AllgatherOptimumTest, TorusAndHypercube) {
  EXPECT_EQ(ComputeAllgatherOptimum(testing::TorusTopology({4, 4})).ratio, Rational(15, 4));
  EXPECT_EQ(ComputeAllgatherOptimum(testing::TorusTopology({3, 3, 3})).ratio, Rational(26, 6));
  EXPECT_EQ(ComputeAllgatherOptimum(testing::HypercubeTopology(4)).ratio, Rational(15, 4));
  EXPECT_EQ(
      ComputeAllgatherOptimum(testing::TorusTopology({4, 4}), OptimumMethod::kBinarySearch).ratio,
      Rational(15, 4));
}

TEST(AllgatherOptimumTest, RejectsPreconditionViolations) {
  Topology g;
  g.AddCompute("a");
  EXPECT_THROW(ComputeAllgatherOptimum(g), std::invalid_argument);
  g.AddCompute("b");
  g.AddLink(0, 1, 1);
  EXPECT_THROW(ComputeAllgatherOptimum(g), std::invalid_argument);  // not Eulerian
}

// `optimum` on a 10^4-node unidirectional ring took 50 s in N max-flows per
// Theorem-1 test (each paying O(V + E) to initialise: O(N^2)). On a direct-connect topology
// the test is one rooted minimum cut; the answer and its certificate are unchanged, and
// the progress callback sees each test.
TEST(AllgatherOptimumTest, Issue14RingTestIsOneRootedMinCut) {
  Topology g = EvaluateTopologyExpression("uniring(1,2000)");
  for (auto method : {OptimumMethod::kDinkelbach, OptimumMethod::kBinarySearch}) {
    std::vector<std::pair<std::int64_t, std::int64_t>> calls;
    AllgatherOptimum r = ComputeAllgatherOptimum(
        g, method, [&](std::int64_t done, std::int64_t total) { calls.emplace_back(done, total); });
    EXPECT_EQ(r.ratio, 1999);
    EXPECT_EQ(r.cut_compute, 1999);
    EXPECT_EQ(r.cut_bandwidth, 1);
    EXPECT_EQ(r.max_flow_calls, 0);
    EXPECT_EQ(r.rooted_min_cuts, r.tests);
    ASSERT_EQ(calls.size(), static_cast<std::size_t>(r.tests));
    for (const auto& c : calls) {
      EXPECT_EQ(c.first, 2000);
      EXPECT_EQ(c.second, 2000);
    }
    ExpectCertificate(g, r);
  }
  EXPECT_EQ(ComputeAllgatherOptimum(g).tests, 1);
}

// With switch nodes the test stays N max-flows (a cut whose sink side holds only switches
// must not count); progress counts them.
TEST(AllgatherOptimumTest, Issue14SwitchTopologyProgressCountsMaxFlows) {
  Topology g = testing::TwoClusterTopology();
  std::vector<std::pair<std::int64_t, std::int64_t>> calls;
  AllgatherOptimum r = ComputeAllgatherOptimum(
      g, OptimumMethod::kDinkelbach,
      [&](std::int64_t done, std::int64_t total) { calls.emplace_back(done, total); });
  EXPECT_EQ(r.ratio, 1);
  EXPECT_EQ(r.rooted_min_cuts, 0);
  EXPECT_EQ(r.max_flow_calls, 8 * r.tests);
  ASSERT_EQ(calls.size(), static_cast<std::size_t>(8 * r.tests));
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].first, static_cast<std::int64_t>(i % 8 + 1));
    EXPECT_EQ(calls[i].second, 8);
  }
}

}  // namespace
}  // namespace collsynth
