// Tests of the step-schedule checker (seed 000 App. A Def. 6/7, Thm 3; App. B Thm 6/7;
// App. D Def. 15 / Thm 14/17) on hand-built schedules from the papers.
#include "proofs_check/step_checker.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "fixtures/json_tree_writers.h"
#include "fixtures/schedule_fixtures.h"
#include "graphs/topology_io.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::Hypercube;
using testing::K22;
using testing::K22Figure1;
using testing::Part;
using testing::Ring;
using testing::Send;
using testing::Whole;

bool HasKind(const StepCheckReport& r, StepViolationKind kind) {
  for (const StepViolation& v : r.violations) {
    if (v.kind == kind) return true;
  }
  return false;
}

StepCheckOptions AllChecks() {
  StepCheckOptions o;
  o.check_bandwidth_optimal = true;
  o.check_bfb = true;
  o.check_no_duplicates = true;
  return o;
}

// Seed 000 Figure 1: T_L = 2, T_B = 3/2 shard units (README errata), BW optimal (Thm 7),
// BFB (Def. 15), no duplicate receipt.
TEST(StepCheckerTest, K22Figure1IsMooreAndBandwidthOptimalBfb) {
  Topology g = K22();
  StepCheckReport r = CheckStepSchedule(g, K22Figure1(), AllChecks());
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.tl, 2);
  EXPECT_EQ(r.tb, Rational(3, 2));
  ASSERT_TRUE(r.bandwidth_lower_bound);
  EXPECT_EQ(*r.bandwidth_lower_bound, Rational(3, 2));  // (N-1)/B = 3/2
  EXPECT_EQ(r.bandwidth_optimal, true);
  EXPECT_EQ(r.bfb, true);
  EXPECT_EQ(r.no_duplicates, true);
}

// The checked-in k22.json is the same topology as the hand-built one.
TEST(StepCheckerTest, K22Figure1OnCheckedInTopologyFile) {
  Topology g = ReadTopologyFile(testing::SourcePath("experiments/topologies/k22.json"));
  StepSchedule s = StepScheduleFromJson(StepScheduleToJson(K22Figure1(), K22()), g, "<k22>");
  StepCheckReport r = CheckStepSchedule(g, s);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.tb, Rational(3, 2));
}

// Unidirectional ring: T_L = N-1, T_B = N-1 = (N-1)/B with B = 1 (Cor. 6.1), not BFB-violating
// (each hop is at distance t from the source).
TEST(StepCheckerTest, UnidirectionalRingAllgather) {
  for (int n : {2, 3, 5, 8}) {
    StepCheckReport r = CheckStepSchedule(Ring(n, false), testing::RingAllgather(n), AllChecks());
    EXPECT_TRUE(r.ok) << n << ": " << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(r.tl, n - 1);
    EXPECT_EQ(r.tb, Rational(n - 1));
    EXPECT_EQ(r.bandwidth_optimal, true);
  }
}

// Seed 000 App. D Figure 11: bidirectional ring BFB, T_L = floor(N/2), T_B = (N-1)/2.
TEST(StepCheckerTest, BidirectionalRingBfbFigure11) {
  for (int n : {3, 4, 5, 6, 7, 8}) {
    StepCheckReport r =
        CheckStepSchedule(Ring(n, true), testing::BidirectionalRingBfb(n), AllChecks());
    EXPECT_TRUE(r.ok) << n << ": " << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(r.tl, n / 2);
    EXPECT_EQ(r.tb, Rational(n - 1, 2));
    EXPECT_EQ(r.bfb, true);
    EXPECT_EQ(r.bandwidth_optimal, true);
  }
}

// Hypercube BFB (Def. 15, Thm 17): T_L = dim = diameter (Thm 15), T_B = (N-1)/dim.
TEST(StepCheckerTest, HypercubeBfbIsBandwidthOptimal) {
  for (int dim : {1, 2, 3, 4}) {
    StepCheckReport r = CheckStepSchedule(Hypercube(dim), testing::HypercubeBfb(dim), AllChecks());
    EXPECT_TRUE(r.ok) << dim << ": " << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(r.tl, dim);
    EXPECT_EQ(r.tb, Rational((1 << dim) - 1, dim));
  }
}

// Recursive doubling is a valid allgather with T_B = N-1 (each step doubles the data on one
// link of B = dim): not BW optimal for dim >= 2, and not BFB (it forwards to nodes that are
// not one hop further from the source at step t).
TEST(StepCheckerTest, HypercubeRecursiveDoublingValidButNotOptimal) {
  StepCheckOptions o = AllChecks();
  o.max_errors = 1000;
  StepCheckReport r = CheckStepSchedule(Hypercube(3), testing::HypercubeRecursiveDoubling(3), o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.tl, 3);
  EXPECT_EQ(r.tb, Rational(7));
  EXPECT_EQ(r.bandwidth_optimal, false);
  EXPECT_EQ(r.bfb, false);
  EXPECT_EQ(r.no_duplicates, true);
  EXPECT_TRUE(HasKind(r, StepViolationKind::kNotBfb));
  EXPECT_TRUE(HasKind(r, StepViolationKind::kNotBandwidthOptimal));
  EXPECT_FALSE(HasKind(r, StepViolationKind::kMissing));
  EXPECT_FALSE(HasKind(r, StepViolationKind::kNotHeld));
  // Without the optional checks it is simply valid.
  EXPECT_TRUE(CheckStepSchedule(Hypercube(3), testing::HypercubeRecursiveDoubling(3)).ok);
}

// A 3x4 torus dimension by dimension: T_L = 2 + 3, T_B = (3-1) + 3(4-1) = 11.
TEST(StepCheckerTest, TorusDimensionByDimension) {
  StepCheckReport r =
      CheckStepSchedule(testing::Torus(3, 4), testing::TorusDimensionByDimension(3, 4));
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.tl, 5);
  EXPECT_EQ(r.tb, Rational(11));
}

// Def. 7 / Thm 3: the reverse of an allgather on G^T is a reduce-scatter on G. On a
// unidirectional ring G^T is the opposite ring.
TEST(StepCheckerTest, ReduceScatterIsReversedAllgatherOnTranspose) {
  const int n = 5;
  Topology g = Ring(n, false);
  Topology gt = g.Transpose();
  StepSchedule ag_on_gt;
  for (int t = 1; t < n; ++t) {
    for (int i = 0; i < n; ++i)
      ag_on_gt.sends.push_back(Send(((i + t - 1) % n), {Whole()}, i, (i - 1 + n) % n, t));
  }
  ASSERT_TRUE(CheckStepSchedule(gt, ag_on_gt).ok);
  StepSchedule rs = testing::Reverse(ag_on_gt);
  rs.collective = Collective::kReduceScatter;
  StepCheckReport r = CheckStepSchedule(g, rs, AllChecks());
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.tl, n - 1);
  EXPECT_EQ(r.tb, Rational(n - 1));
  // The allgather itself read as a reduce-scatter on G is not one: its chains lead away from
  // the shard's owner.
  StepSchedule wrong = testing::RingAllgather(n);
  wrong.collective = Collective::kReduceScatter;
  StepCheckReport bad = CheckStepSchedule(g, wrong);
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(HasKind(bad, StepViolationKind::kMissing));
}

// Reduce-scatter duplicate: a node that sends the same partial twice would be reduced twice.
TEST(StepCheckerTest, ReduceScatterDuplicateSendFlagged) {
  Topology g = K22();
  StepSchedule rs = testing::Reverse(K22Figure1());  // K22 is its own transpose
  rs.collective = Collective::kReduceScatter;
  StepCheckOptions o;
  o.check_no_duplicates = true;
  ASSERT_TRUE(CheckStepSchedule(g, rs, o).ok);
  // c already sends all of shard a to a at step 2; a second send of its first half is a
  // second copy of c's contribution.
  StepSchedule dup = rs;
  dup.sends.push_back(Send(0, {Part(0, 2)}, 2, 0, 2));
  StepCheckReport r = CheckStepSchedule(g, dup, o);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(HasKind(r, StepViolationKind::kDuplicate));
  EXPECT_EQ(r.no_duplicates, false);
}

// Allreduce = reduce-scatter (steps 1..rs_steps) then allgather (seed 000 App. B.3).
TEST(StepCheckerTest, AllreduceOnK22) {
  Topology g = K22();
  StepSchedule s = testing::Reverse(K22Figure1());
  for (const StepSend& e : K22Figure1().sends) {
    StepSend shifted = e;
    shifted.step += 2;
    s.sends.push_back(shifted);
  }
  s.collective = Collective::kAllreduce;
  s.rs_steps = 2;
  StepCheckReport r = CheckStepSchedule(g, s, AllChecks());
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.tl, 4);
  EXPECT_EQ(r.tb, Rational(3));
  EXPECT_EQ(r.bandwidth_optimal, true);  // 2 (N-1)/B
  // With the phases swapped the split is wrong.
  s.rs_steps = 1;
  EXPECT_FALSE(CheckStepSchedule(g, s).ok);
}

// Broadcast from a on K22: a sends S to c and d, they send the halves to b.
TEST(StepCheckerTest, BroadcastFromRoot) {
  Topology g = K22();
  StepSchedule s;
  s.collective = Collective::kBroadcast;
  s.root = 0;
  s.sends = {Send(0, {Whole()}, 0, 2, 1), Send(0, {Whole()}, 0, 3, 1),
             Send(0, {Part(0, 2)}, 2, 1, 2), Send(0, {Part(1, 2)}, 3, 1, 2)};
  StepCheckReport r = CheckStepSchedule(g, s);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.tb, Rational(3, 2));
  s.sends.pop_back();
  r = CheckStepSchedule(g, s);
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].kind, StepViolationKind::kMissing);
  EXPECT_EQ(r.violations[0].node, 1);
  ASSERT_TRUE(r.violations[0].interval);
  EXPECT_EQ(r.violations[0].interval->lo, Rational(1, 2));
  EXPECT_EQ(r.violations[0].interval->hi, Rational(1));
  // Data of another node in a broadcast is a bad source.
  s.sends.push_back(Send(1, {Whole()}, 1, 2, 1));
  EXPECT_TRUE(HasKind(CheckStepSchedule(g, s), StepViolationKind::kBadSource));
}

// Claimed T_L / T_B are compared exactly.
TEST(StepCheckerTest, WrongClaimsRejected) {
  Topology g = K22();
  StepSchedule s = K22Figure1();
  s.claimed_tl = 2;
  s.claimed_tb = Rational(3, 2);
  EXPECT_TRUE(CheckStepSchedule(g, s).ok);
  s.claimed_tb = Rational(3, 4);  // Figure 1's caption value in M/B units, not shard units
  EXPECT_TRUE(HasKind(CheckStepSchedule(g, s), StepViolationKind::kWrongTb));
  s.claimed_tb = Rational(3, 2);
  s.claimed_tl = 1;  // then the step-2 sends also lie outside the claimed steps
  StepCheckOptions all;
  all.max_errors = 1000;
  StepCheckReport r = CheckStepSchedule(g, s, all);
  EXPECT_TRUE(HasKind(r, StepViolationKind::kWrongTl));
  EXPECT_TRUE(HasKind(r, StepViolationKind::kStepOutOfRange));
}

// Chunks given as several intervals, unsorted and overlapping, are their union.
TEST(StepCheckerTest, ChunkUnionOfIntervals) {
  Topology g = Ring(2, false);
  StepSchedule s;
  s.sends = {Send(0, {Interval{Rational(1, 3), Rational(1)}, Interval{Rational(0), Rational(1, 2)}},
                  0, 1, 1),
             Send(1, {Part(0, 2)}, 1, 0, 1), Send(1, {Part(1, 2)}, 1, 0, 2)};
  StepCheckReport r = CheckStepSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.tl, 2);
  EXPECT_EQ(r.tb, Rational(1) + Rational(1, 2));
}

// Steps schedule JSON: round trip and InputError items.
TEST(StepScheduleJsonTest, RoundTripAndErrors) {
  Topology g = K22();
  StepSchedule s = K22Figure1();
  s.claimed_tb = Rational(3, 2);
  s.extra["producer"] = "test";
  nlohmann::json j = StepScheduleToJson(s, g);
  EXPECT_EQ(j["format"], "steps");
  EXPECT_EQ(j["sends"][2]["chunk"][0][1], "1/2");
  StepSchedule back = StepScheduleFromJson(j, g, "f.json");
  ASSERT_EQ(back.sends.size(), s.sends.size());
  EXPECT_EQ(back.sends[3].chunk[0].lo, Rational(1, 2));
  EXPECT_EQ(back.sends[3].from, s.sends[3].from);
  EXPECT_EQ(*back.claimed_tb, Rational(3, 2));
  EXPECT_EQ(back.extra["producer"], "test");
  EXPECT_EQ(StepScheduleToJson(back, g), j);

  auto expect_error = [&](nlohmann::json bad, const std::string& item, const std::string& what) {
    try {
      StepScheduleFromJson(bad, g, "f.json");
      ADD_FAILURE() << "accepted: " << bad.dump();
    } catch (const InputError& e) {
      EXPECT_EQ(e.item(), item) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  // Step 0 reads (an int); the checker names it (step_range_test.cc). What an int
  // cannot hold is a reader error.
  nlohmann::json bad = j;
  bad["sends"][1]["step"] = 0;
  EXPECT_EQ(StepScheduleFromJson(bad, g, "f.json").sends[1].step, 0);
  bad["sends"][1]["step"] = 4294967296LL;
  expect_error(bad, "sends[1]", "step");
  bad = j;
  bad["sends"][1]["step"] = 1.5;
  expect_error(bad, "sends[1]", "non-integer");
  bad = j;
  bad["sends"][2]["chunk"][0] = {"1/2", "1/2"};
  expect_error(bad, "sends[2].chunk[0]", "lo < hi");
  bad = j;
  bad["sends"][2]["chunk"][0] = {"0", "3/2"};
  expect_error(bad, "sends[2].chunk[0]", "hi <= 1");
  bad = j;
  bad["sends"][2]["chunk"][0] = {"0", 0.5};
  expect_error(bad, "sends[2].chunk[0]", "floating-point");
  bad = j;
  bad["sends"][0]["from"] = "zz";
  expect_error(bad, "sends[0]", "unknown node 'zz'");
  bad = j;
  bad["sends"][0].erase("source");
  expect_error(bad, "sends[0]", "missing field 'source'");
  bad = j;
  bad["collective"] = "gather";
  expect_error(bad, "collective", "allgather");
  bad = j;
  bad["collective"] = "allreduce";
  expect_error(bad, "top level", "rs_steps");
  bad = j;
  bad["format"] = "pipeline";
  expect_error(bad, "format", "steps");
}

}  // namespace
}  // namespace collsynth
