// Baselines (seed 000 App. B Cor. 6.1, App. E.1, §5.3/§8.2, App. I; seed 001 §II; seed 002
// TotientPerms) as checked step schedules, T_L and T_B against the closed forms.
#include "solvers/baselines/baselines.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "graphs/generators/seed000_generators.h"
#include "proofs_check/step_checker.h"
#include "solvers/baseline_test_topologies.h"
#include "solvers/baselines/baseline_structure.h"
#include "solvers/baselines/double_binary_tree.h"

namespace collsynth {
namespace {

using testing::DirectedRing;

// Builds the baseline and checks it: it must be a valid schedule; the report's
// bandwidth_optimal (Thm 7) and bfb (Def. 15) flags come from a second, stricter run.
StepCheckReport CheckBaseline(const Topology& g, const std::string& name,
                              const std::string& collective = "", int chunks = 1) {
  BaselineOptions o;
  o.name = name;
  if (!collective.empty()) o.collective = ParseBaselineCollective(collective);
  o.chunks = chunks;
  SCOPED_TRACE(name);
  return testing::CheckWithFlags(g, BuildBaseline(g, o, "<test>"));
}

// Cor. 6.1: the ring is BW optimal, T_L = N-1 (Table 9 UniRing).
TEST(BaselinesTest, UniRingTable9) {
  for (int n : {2, 3, 6}) {
    StepCheckReport r = CheckBaseline(testing::DirectedRing(n), "uniring");
    EXPECT_EQ(r.tl, n - 1);
    EXPECT_EQ(r.tb, n - 1);
    EXPECT_TRUE(r.bandwidth_optimal.value_or(false));
  }
  StepCheckReport wide = CheckBaseline(testing::DirectedRing(5, 2), "uniring");
  EXPECT_EQ(wide.tb, Rational(4, 2));
  StepCheckReport rs = CheckBaseline(testing::DirectedRing(5), "uniring", "reduce-scatter");
  EXPECT_EQ(rs.tl, 4);
  EXPECT_EQ(rs.tb, 4);
  StepCheckReport ar = CheckBaseline(testing::DirectedRing(5), "uniring", "allreduce");
  EXPECT_EQ(ar.tl, 8);
  EXPECT_EQ(ar.tb, 8);
}

// App. E.1: classic bidirectional ring T_L = N-1; BFB ring T_L = ⌊N/2⌋; both BW optimal,
// T_B = (N-1)/2 shards with two unit links per node.
TEST(BaselinesTest, BidirectionalRingsAppendixE1) {
  for (int n = 3; n <= 9; ++n) {
    Topology g = BiRing(2, n);
    StepCheckReport classic = CheckBaseline(g, "biring");
    EXPECT_EQ(classic.tl, n - 1);
    EXPECT_EQ(classic.tb, Rational(n - 1, 2));
    StepCheckReport bfb = CheckBaseline(g, "biring-bfb");
    EXPECT_EQ(bfb.tl, n / 2) << "N = " << n;
    EXPECT_EQ(bfb.tb, Rational(n - 1, 2)) << "N = " << n;
    EXPECT_TRUE(bfb.bandwidth_optimal.value_or(false));
    EXPECT_TRUE(bfb.bfb.value_or(false)) << "N = " << n;
  }
  // Ring order inferred from the links when ids are scrambled.
  StepCheckReport s = CheckBaseline(testing::ScrambledBiRing(8), "biring-bfb", "allreduce");
  EXPECT_EQ(s.tl, 8);
  EXPECT_EQ(s.tb, 7);
}

// §5.3: the 4x4 torus schedule (rings per dimension, two halves in opposite orders) is the
// Cartesian-power schedule, BW optimal: T_B = (N-1)/d = 15/4, T_L = 2·3.
TEST(BaselinesTest, TraditionalTorusSection5_3) {
  StepCheckReport r = CheckBaseline(Torus({4, 4}), "torus");
  EXPECT_EQ(r.tl, 6);
  EXPECT_EQ(r.tb, Rational(15, 4));
  EXPECT_TRUE(r.bandwidth_optimal.value_or(false));
  StepCheckReport r3 = CheckBaseline(Torus({3, 3, 3}), "torus", "allreduce");
  EXPECT_EQ(r3.tl, 12);
  EXPECT_EQ(r3.tb, 2 * Rational(26, 6));
  StepCheckReport uneven = CheckBaseline(Torus({3, 5}), "torus");
  EXPECT_EQ(uneven.tl, 6);
  EXPECT_GE(uneven.tb, Rational(14, 4));  // Thm 6 lower bound
}

// App. I: recursive halving & doubling uses one of the d = log2 N links per step, so its T_B
// is d times the bound: (N-1) shards for the allgather, the same for the reduce-scatter.
TEST(BaselinesTest, RecursiveHalvingDoublingAppendixI) {
  for (int k : {1, 2, 3, 4}) {
    int n = 1 << k;
    Topology q = Hypercube(k);
    StepCheckReport ag = CheckBaseline(q, "recursive-doubling");
    EXPECT_EQ(ag.tl, k);
    EXPECT_EQ(ag.tb, n - 1);
    StepCheckReport rs = CheckBaseline(q, "recursive-halving");
    EXPECT_EQ(rs.tl, k);
    EXPECT_EQ(rs.tb, n - 1);
    StepCheckReport ar = CheckBaseline(q, "recursive-halving", "allreduce");
    EXPECT_EQ(ar.tl, 2 * k);
    EXPECT_EQ(ar.tb, 2 * (n - 1));
  }
}

// Seed 002 §4.3 TotientPerms: for N = 12 the rings are p ∈ {1, 5, 7, 11}; p and N-p are the
// same ring reversed, so a circulant C(12, {1, 5}) holds the two rings p = 1, 5.
TEST(BaselinesTest, ShiftedRingTotientPerms) {
  Topology g = Circulant(12, {1, 5}, true);
  EXPECT_EQ(CirculantRingShifts(g, {}, "<test>"), (std::vector<int>{1, 5}));
  EXPECT_EQ(CirculantRingShifts(Circulant(12, {1, 2, 3, 4, 5, 6}, true), {}, "<test>"),
            (std::vector<int>{1, 5}));
  StepCheckReport r = CheckBaseline(g, "shiftedring", "allreduce");
  EXPECT_EQ(r.tl, 22);
  EXPECT_EQ(r.tb, 2 * Rational(11, 4));  // BW optimal for d = 4
  StepCheckReport b = CheckBaseline(g, "shiftedbfbring");
  EXPECT_EQ(b.tl, 6);
  EXPECT_EQ(b.tb, Rational(11, 4));
  EXPECT_THROW(CirculantRingShifts(g, {2}, "<test>"), InputError);  // gcd(2, 12) != 1
}

// Double binary tree: T_L = 2(h + P - 1) per phase; the two trees differ (shifted by one).
TEST(BaselinesTest, DoubleBinaryTreePipelined) {
  Topology k7 = Complete(7);
  std::vector<int> order = {0, 1, 2, 3, 4, 5, 6};
  auto trees = DoubleBinaryTrees(order);
  EXPECT_EQ(trees[0].root, 3);
  EXPECT_EQ(trees[1].root, 4);
  int leaves_inner_elsewhere = 0;
  for (int v = 0; v < 7; ++v) {
    bool leaf0 = true;
    for (int w = 0; w < 7; ++w) leaf0 = leaf0 && trees[0].parent[w] != v;
    bool leaf1 = true;
    for (int w = 0; w < 7; ++w) leaf1 = leaf1 && trees[1].parent[w] != v;
    if (leaf0 && !leaf1) ++leaves_inner_elsewhere;
  }
  // Tree 0 (root 3) has leaves 0, 2, 4, 6; tree 1 is tree 0 shifted by one (root 4, inner
  // nodes 2, 4, 6, leaves 1, 3, 5, 0): all leaves but 0 are inner in the other tree.
  EXPECT_EQ(leaves_inner_elsewhere, 3);
  for (int p : {1, 3}) {
    StepCheckReport ag = CheckBaseline(k7, "dbtree", "allgather", p);
    EXPECT_EQ(ag.tl, 2 * (2 + p - 1));
    StepCheckReport ar = CheckBaseline(k7, "dbtree", "allreduce", p);
    EXPECT_EQ(ar.tl, 4 * (2 + p - 1));
  }
}

TEST(BaselinesTest, MultiTreeByName) {
  StepCheckReport r = CheckBaseline(testing::Mesh(2, 2), "multitree");
  EXPECT_EQ(r.tl, 4);
}

TEST(BaselinesTest, TopologiesThatDoNotFitAreInputErrors) {
  BaselineOptions o;
  Topology k22 = CompleteBipartite(2);
  o.name = "uniring";
  // Q_3: three neighbours per node and bit-string names, so no ring order can be inferred.
  EXPECT_THROW(BuildBaseline(Hypercube(3), o, "<test>"), InputError);
  o.order = {"000", "001", "011", "010", "110", "111", "101", "100"};  // a Gray-code cycle
  EXPECT_NO_THROW(BuildBaseline(Hypercube(3), o, "<test>"));
  o.order = {"000", "001", "010", "011", "100", "101", "110", "111"};  // 001 -> 010 missing
  EXPECT_THROW(BuildBaseline(Hypercube(3), o, "<test>"), InputError);
  o.order.clear();
  o.name = "recursive-doubling";
  EXPECT_THROW(BuildBaseline(BiRing(2, 6), o, "<test>"), InputError);  // 6 is not 2^k
  o.name = "torus";
  EXPECT_THROW(BuildBaseline(k22, o, "<test>"), InputError);  // no grid names
  o.dims = {2, 3};
  EXPECT_THROW(BuildBaseline(k22, o, "<test>"), InputError);  // 6 != 4 nodes
  o = {};
  o.name = "dbtree";
  EXPECT_THROW(BuildBaseline(testing::DirectedRing(5), o, "<test>"), InputError);
  o.name = "nope";
  EXPECT_THROW(BuildBaseline(k22, o, "<test>"), InputError);
  o.name = "uniring";
  o.chunks = 4;
  EXPECT_THROW(BuildBaseline(testing::DirectedRing(4), o, "<test>"), InputError);
  o.chunks = 1;
  EXPECT_THROW(ParseBaselineCollective("alltoall"), InputError);
  o.collective = Collective::kBroadcast;  // a collective, but no baseline builds it
  EXPECT_THROW(BuildBaseline(testing::DirectedRing(4), o, "<test>"), InputError);
}

}  // namespace
}  // namespace collsynth
