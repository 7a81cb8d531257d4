// Schedule expansions of seed 000 §5 / App. A, C, F checked by the independent step checker,
// with T_L and T_B compared exactly against Theorems 1, 10, 11, 12, 3 and App. F.
// Unit conversion: the paper states T_B = τ·M/B with B = d·b; the checker reports shard units
// (M/N over link bandwidth b), so T_B[shards] = τ·N/(d·b).
#include "solvers/bfb/schedule_expansion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "core/input_error.h"
#include "graphs/generators/seed000_generators.h"
#include "proofs_check/step_checker.h"
#include "solvers/baseline_test_topologies.h"
#include "solvers/baselines/multitree.h"
#include "solvers/baselines/ring_baselines.h"
#include "solvers/bfb/bfb_schedule.h"

namespace collsynth {
namespace {

using testing::DirectedRing;

Rational ShardUnits(const Rational& tau, int n, int d, const Rational& b = 1) {
  return tau * n / (d * b);
}

// Figure 1 / App. E (K_{d,d}, BFB): step 1 the whole shard to every neighbour; step 2 each of
// the d in-neighbours of a node at distance 2 sends 1/d of the source's shard.
StepSchedule BipartiteBfb(const Topology& g, int d) {
  StepSchedule s;
  for (int v = 0; v < g.num_nodes(); ++v) {
    for (int e : g.OutLinks(v)) s.sends.push_back({v, {{0, 1}}, v, g.link(e).to, 1});
  }
  for (int v = 0; v < g.num_nodes(); ++v) {
    for (int u = 0; u < g.num_nodes(); ++u) {
      if (u == v || g.FindLink(v, u)) continue;  // distance 2: same side
      int k = 0;
      for (int e : g.InLinks(u)) {
        int w = g.link(e).from;
        s.sends.push_back({v, {{Rational(k, d), Rational(k + 1, d)}}, w, u, 2});
        ++k;
      }
    }
  }
  return s;
}

StepCheckReport Check(const Topology& g, const StepSchedule& s) {
  return testing::CheckWithFlags(g, s);
}

std::vector<int> Order(int n) {
  std::vector<int> o(n);
  for (int i = 0; i < n; ++i) o[i] = i;
  return o;
}

TEST(ScheduleExpansionTest, BaseK22MatchesFigure1) {
  Topology k22 = CompleteBipartite(2);
  StepCheckReport r = Check(k22, BipartiteBfb(k22, 2));
  EXPECT_EQ(r.tl, 2);
  EXPECT_EQ(r.tb, Rational(3, 2));  // papers/README: K_{2,2} allgather T_B = 3/2 shards
  EXPECT_TRUE(r.bfb.value_or(false));
}

// Thm 1 (T_L + 1) and Thm 10 (BFB base, |N^+(u)| > 1: T_B = T_B(A_G) + M/B·1/N, and the
// expansion is again BFB), and Cor. 10.1 for L^2.
TEST(ScheduleExpansionTest, LineGraphOfK22FollowsTheorem10AndCorollary10_1) {
  Topology k22 = CompleteBipartite(2);
  StepSchedule a = BipartiteBfb(k22, 2);
  ExpandedSchedule l1 = LineGraphSchedule(k22, a);
  ASSERT_EQ(l1.topology.num_nodes(), 8);
  StepCheckReport r1 = Check(l1.topology, l1.schedule);
  EXPECT_EQ(r1.tl, 3);
  // Cor. 10.1 with τ = 3/4, d = 2, N = 4, n = 1: τ + d/(d-1)·(1/N - 1/(dN)) = 1.
  Rational tau1 = Rational(3, 4) + Rational(2) * (Rational(1, 4) - Rational(1, 8));
  EXPECT_EQ(r1.tb, ShardUnits(tau1, 8, 2));
  EXPECT_TRUE(r1.bfb.value_or(false));

  ExpandedSchedule l2 = LineGraphSchedule(l1.topology, l1.schedule);
  ASSERT_EQ(l2.topology.num_nodes(), 16);
  StepCheckReport r2 = Check(l2.topology, l2.schedule);
  EXPECT_EQ(r2.tl, 4);
  Rational tau2 = Rational(3, 4) + Rational(2) * (Rational(1, 4) - Rational(1, 16));
  EXPECT_EQ(r2.tb, ShardUnits(tau2, 16, 2));
  EXPECT_TRUE(r2.bfb.value_or(false));
}

// Thm 10: the line expansion of the optimal BFB schedule (LP (3), solvers/bfb_schedule) is a
// BFB schedule of L(G) with T_B = d·T_B(A_G) + 1/b (eq. (7)); |N^+(u)| > 1 everywhere. The
// theorem also says it is the OPTIMAL BFB schedule of L(G): that holds on K_3, K_{3,3} and
// dcirculant(7,{1,2}) (equal to LP (3) solved directly on L(G)), but not on dcirculant(8,{1,3}),
// where the direct optimum is strictly smaller; we assert the finding rather than the claim.
TEST(ScheduleExpansionTest, LineExpansionOfOptimalBfbVersusDirectBfbTheorem10) {
  struct Case {
    Topology g;
    bool expansion_optimal;
  };
  std::vector<Case> cases = {{Complete(3), true},
                             {CompleteBipartite(3), true},
                             {Circulant(7, {1, 2}, false), true},
                             {Circulant(8, {1, 3}, false), false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.g.name());
    BfbResult base = GenerateBfbSchedule(c.g, {});
    int d = static_cast<int>(c.g.OutDegree(0));
    ExpandedSchedule l = LineGraphSchedule(c.g, base.schedule);
    StepCheckReport r = Check(l.topology, l.schedule);
    EXPECT_TRUE(r.bfb.value_or(false));
    EXPECT_EQ(r.tb, d * base.tb + 1);  // eq. (7) in shard units
    BfbResult direct = GenerateBfbSchedule(l.topology, {});
    EXPECT_EQ(r.tl, direct.tl);
    if (c.expansion_optimal)
      EXPECT_EQ(r.tb, direct.tb);
    else
      EXPECT_LT(direct.tb, r.tb);
  }
}

// Thm 1 on a non-BFB base (classic bidirectional ring, d = 2): T_L + 1 exactly and the T_B
// inequality (2): T_B <= d·T_B(A_G) + 1/b in shard units.
TEST(ScheduleExpansionTest, LineGraphOfClassicBiRingSatisfiesTheorem1) {
  Topology ring = BiRing(2, 5);
  StepSchedule a = BiRingAllgather(Order(5));
  StepCheckReport base = Check(ring, a);
  ExpandedSchedule l = LineGraphSchedule(ring, a);
  StepCheckReport r = Check(l.topology, l.schedule);
  EXPECT_EQ(r.tl, base.tl + 1);
  EXPECT_LE(r.tb, 2 * base.tb + 1);
  EXPECT_EQ(l.topology.num_nodes(), 10);
}

// Thm 11: T_L + 1 and T_B = T_B(A_G) + M/B·(n-1)/(nN); Cor. 11.1 (BW optimality preserved).
// Figure 4 is the UniRing(1,4) * 2 case.
TEST(ScheduleExpansionTest, DegreeExpansionFollowsTheorem11) {
  struct Case {
    Topology g;
    StepSchedule a;
    int d, n;
  };
  Topology ring4 = DirectedRing(4);
  Topology k22 = CompleteBipartite(2);
  std::vector<Case> cases = {{ring4, UniRingAllgather(Order(4)), 1, 2},
                             {ring4, UniRingAllgather(Order(4)), 1, 3},
                             {k22, BipartiteBfb(k22, 2), 2, 2}};
  for (const Case& c : cases) {
    StepCheckReport base = Check(c.g, c.a);
    int nn = c.g.num_nodes();
    Rational tau = base.tb * c.d / nn;  // back to units of M/B
    ExpandedSchedule x = DegreeExpandedSchedule(c.g, c.a, c.n);
    ASSERT_EQ(x.topology.num_nodes(), c.n * nn);
    StepCheckReport r = Check(x.topology, x.schedule);
    EXPECT_EQ(r.tl, base.tl + 1) << c.g.name() << " * " << c.n;
    Rational tau_x = tau + Rational(c.n - 1, c.n * nn);
    EXPECT_EQ(r.tb, ShardUnits(tau_x, c.n * nn, c.n * c.d)) << c.g.name() << " * " << c.n;
    EXPECT_TRUE(r.bandwidth_optimal.value_or(false)) << "Cor. 11.1: " << c.g.name();
  }
}

// Thm 12: T_L = n·T_L(A_G), T_B = T_B(A_G)·N/(N-1)·(N^n-1)/N^n; Cor. 12.1 BW optimal.
// UniRing(1,4)^{□2} is the 4x4 directed torus of §5.3.
TEST(ScheduleExpansionTest, CartesianPowerFollowsTheorem12) {
  struct Case {
    Topology g;
    StepSchedule a;
    int d, n;
  };
  Topology ring4 = DirectedRing(4), ring3 = DirectedRing(3);
  Topology k22 = CompleteBipartite(2);
  std::vector<Case> cases = {{ring4, UniRingAllgather(Order(4)), 1, 2},
                             {ring3, UniRingAllgather(Order(3)), 1, 3},
                             {k22, BipartiteBfb(k22, 2), 2, 2}};
  for (const Case& c : cases) {
    StepCheckReport base = Check(c.g, c.a);
    int nn = c.g.num_nodes();
    int total = 1;
    for (int k = 0; k < c.n; ++k) total *= nn;
    Rational tau = base.tb * c.d / nn;
    ExpandedSchedule x = CartesianPowerSchedule(c.g, c.a, c.n);
    ASSERT_EQ(x.topology.num_nodes(), total);
    StepCheckReport r = Check(x.topology, x.schedule);
    EXPECT_EQ(r.tl, c.n * base.tl) << c.g.name() << "^" << c.n;
    Rational tau_x = tau * Rational(nn, nn - 1) * Rational(total - 1, total);
    EXPECT_EQ(r.tb, ShardUnits(tau_x, total, c.n * c.d)) << c.g.name() << "^" << c.n;
    EXPECT_TRUE(r.bandwidth_optimal.value_or(false)) << "Cor. 12.1: " << c.g.name();
  }
}

// Def. 7 / Thm 3: A^T is a reduce-scatter on G^T with the same T_L and T_B; reversing twice
// gives back A.
TEST(ScheduleExpansionTest, ReverseScheduleIsReduceScatterOnTransposeTheorem3) {
  Topology g = Circulant(7, {1, 3}, false);  // directed, not symmetric
  MultiTreeResult mt = BuildMultiTree(g, {}, "<test>");
  StepCheckReport ag = Check(g, mt.allgather);
  ExpandedSchedule rs = ReverseSchedule(g, mt.allgather);
  EXPECT_EQ(rs.schedule.collective, Collective::kReduceScatter);
  StepCheckReport r = Check(rs.topology, rs.schedule);
  EXPECT_EQ(r.tl, ag.tl);
  EXPECT_EQ(r.tb, ag.tb);
  // The same sends do not form a reduce-scatter on G itself (links point the other way).
  EXPECT_FALSE(CheckStepSchedule(g, rs.schedule).ok);
  ExpandedSchedule back = ReverseSchedule(rs.topology, rs.schedule);
  auto key = [](const StepSend& s) { return std::tuple(s.source, s.from, s.to, s.step); };
  std::vector<std::tuple<int, int, int, int>> x, y;
  for (const auto& s : mt.allgather.sends) x.push_back(key(s));
  for (const auto& s : back.schedule.sends) y.push_back(key(s));
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  EXPECT_EQ(x, y);
  EXPECT_EQ(back.schedule.collective, Collective::kAllgather);
}

// App. F: a reverse-symmetric unidirectional G becomes G ∪ G^T with the same T_L and, with the
// same link bandwidth, half the T_B in shard units (the paper keeps B = d·b fixed instead).
TEST(ScheduleExpansionTest, BidirectionalConversionAppendixF) {
  struct Case {
    Topology g;
    StepSchedule a;
  };
  Topology ring = DirectedRing(5);
  Topology circ = Circulant(7, {1, 2}, false);
  std::vector<Case> cases = {{ring, UniRingAllgather(Order(5))},
                             {circ, BuildMultiTree(circ, {}, "<test>").allgather}};
  for (const Case& c : cases) {
    StepCheckReport base = Check(c.g, c.a);
    ExpandedSchedule x = BidirectionalSchedule(c.g, c.a);
    EXPECT_EQ(x.topology.num_links(), 2 * c.g.num_links());
    StepCheckReport r = Check(x.topology, x.schedule);
    EXPECT_EQ(r.tl, base.tl) << c.g.name();
    EXPECT_EQ(r.tb, base.tb / 2) << c.g.name();
  }
}

TEST(ScheduleExpansionTest, BadInputIsRejectedWithInputError) {
  Topology k22 = CompleteBipartite(2);
  StepSchedule a = BipartiteBfb(k22, 2);
  // App. F needs a unidirectional topology; K_{2,2} has opposite links.
  EXPECT_THROW(BidirectionalSchedule(k22, a), InputError);
  // Not reverse-symmetric (degree multisets of G and G^T differ).
  Topology asym = testing::NotReverseSymmetric();
  MultiTreeResult mt = BuildMultiTree(asym, {}, "<test>");
  ASSERT_TRUE(CheckStepSchedule(asym, mt.allgather).ok);
  EXPECT_THROW(BidirectionalSchedule(asym, mt.allgather), InputError);
  // Degree expansion: self-loops are excluded by Def. 3.
  Topology loop = DirectedRing(3);
  loop.AddLink(0, 0, 1);
  EXPECT_THROW(DegreeExpandedSchedule(loop, UniRingAllgather(Order(3)), 2), InputError);
  // Line graph of a multi-link topology, a reduce-scatter input, a send over a missing link.
  EXPECT_THROW(LineGraphSchedule(UniRing(2, 4), UniRingAllgather(Order(4))), InputError);
  StepSchedule rs = a;
  rs.collective = Collective::kReduceScatter;
  EXPECT_THROW(LineGraphSchedule(k22, rs), InputError);
  StepSchedule bad = a;
  bad.sends[0].to = bad.sends[0].from;
  EXPECT_THROW(CartesianPowerSchedule(k22, bad, 2), InputError);
  EXPECT_THROW(CartesianPowerSchedule(k22, a, 40), InputError);  // 4^40 nodes
}

// The checker is not fooled: removing one send or moving one earlier breaks the expansion.
TEST(ScheduleExpansionTest, MutatedExpansionsAreRejectedByTheChecker) {
  Topology k22 = CompleteBipartite(2);
  ExpandedSchedule l = LineGraphSchedule(k22, BipartiteBfb(k22, 2));
  StepSchedule dropped = l.schedule;
  dropped.sends.pop_back();
  EXPECT_FALSE(CheckStepSchedule(l.topology, dropped).ok);
  StepSchedule early = l.schedule;
  auto it = std::find_if(early.sends.begin(), early.sends.end(),
                         [](const StepSend& s) { return s.step == 3; });
  ASSERT_NE(it, early.sends.end());
  it->step = 1;  // a relay cannot forward what it has not received
  EXPECT_FALSE(CheckStepSchedule(l.topology, early).ok);
}

}  // namespace
}  // namespace collsynth
