// Step-range regressions (docs/formats.md "Schedules"): every send lies in 1..T (T = the claimed
// "tl", else the last step), rs_steps in 0..T, and the checker's memory does not depend on the step
// numbers or the per-step denominators of the compact form (a 1 KB file once asked for 16 GB).
#include <gtest/gtest.h>

#include <climits>

#include "core/input_error.h"
#include "core/json_io.h"
#include "fixtures/schedule_fixtures.h"
#include "proofs_check/step_checker.h"
#include "schedules/compact_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth {
namespace {

using testing::Send;
using testing::Whole;

int CountKind(const StepCheckReport& r, StepViolationKind kind) {
  int n = 0;
  for (const StepViolation& v : r.violations) n += v.kind == kind;
  return n;
}

bool HasSend(const StepCheckReport& r, StepViolationKind kind, int send) {
  for (const StepViolation& v : r.violations)
    if (v.kind == kind && v.send_index == send) return true;
  return false;
}

// The issue's reproducer: K_{2,2} Figure 1 plus one send at step 0 was "valid", BFB and
// duplicate-free as if the send did not exist.
TEST(StepRangeTest, SendAtStepZeroIsRejectedNamingTheSend) {
  Topology g = testing::K22();
  StepSchedule s = testing::K22Figure1();
  ASSERT_TRUE(CheckStepSchedule(g, s).ok);
  s.sends.push_back(Send(0, {Whole()}, 0, 2, 0));  // a -> c at step 0
  const int index = static_cast<int>(s.sends.size()) - 1;
  StepCheckOptions o;
  o.check_bfb = true;
  o.check_no_duplicates = true;
  StepCheckReport r = CheckStepSchedule(g, s, o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.num_violations, 1);
  ASSERT_TRUE(HasSend(r, StepViolationKind::kStepOutOfRange, index));
  EXPECT_NE(r.errors[0].find("sends[16]"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("outside the schedule's steps 1..2"), std::string::npos)
      << r.errors[0];
  EXPECT_EQ(r.tl, 2);  // an out-of-range send neither counts nor carries load
  EXPECT_EQ(r.tb, Rational(3, 2));
}

TEST(StepRangeTest, NegativeStepAndStepAboveClaimedTlAreRejected) {
  Topology g = testing::K22();
  StepSchedule s = testing::K22Figure1();
  s.claimed_tl = 2;
  s.sends.push_back(Send(0, {Whole()}, 0, 2, -5));
  s.sends.push_back(Send(1, {Whole()}, 1, 2, 3));  // T + 1
  StepCheckReport r = CheckStepSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(CountKind(r, StepViolationKind::kStepOutOfRange), 2);
  EXPECT_TRUE(HasSend(r, StepViolationKind::kStepOutOfRange, 16));
  EXPECT_TRUE(HasSend(r, StepViolationKind::kStepOutOfRange, 17));
  EXPECT_EQ(CountKind(r, StepViolationKind::kWrongTl), 1);  // the last step is 3, not the claimed 2
}

// A send at step 2^31 - 1 (no claimed tl): T = 2^31 - 1, the schedule is still a valid
// allgather, and the check needs memory for two distinct steps, not for 2^31.
TEST(StepRangeTest, HugeStepNumbersCostNoMemory) {
  Topology g = testing::K22();
  StepSchedule s = testing::K22Figure1();
  for (StepSend& e : s.sends)
    if (e.step == 2) e.step = INT32_MAX;
  StepCheckReport r = CheckStepSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.tl, INT32_MAX);
  EXPECT_EQ(r.tb, Rational(3, 2));
  StepCheckOptions o;
  o.check_bfb = true;
  StepCheckReport rb = CheckStepSchedule(g, s, o);
  ASSERT_TRUE(rb.bfb.has_value());
  EXPECT_FALSE(*rb.bfb);            // phase step 2^31-1 != d(v, u) = 2
  EXPECT_EQ(rb.num_violations, 8);  // the eight second-hop sends
  // The same through the compact form.
  auto c = CompactFromSteps(s);
  ASSERT_TRUE(c.has_value());
  StepCheckReport rc = CheckStepSchedule(g, *c);
  EXPECT_TRUE(rc.ok);
  EXPECT_EQ(rc.tl, INT32_MAX);
}

// rs_steps outside 0..T; rs_steps = 2^31 - 1 must not overflow rs_steps + 1 (UBSan).
TEST(StepRangeTest, RsStepsOutsideTheScheduleIsRejected) {
  Topology g = testing::K22();
  StepSchedule ag = testing::K22Figure1();
  StepSchedule ar;
  ar.collective = Collective::kAllreduce;
  for (const StepSend& e : testing::Reverse(ag).sends) ar.sends.push_back(e);
  for (StepSend e : ag.sends) {
    e.step += 2;
    ar.sends.push_back(e);
  }
  ar.rs_steps = 2;
  ASSERT_TRUE(CheckStepSchedule(g, ar).ok);
  for (int bad : {-1, 5, INT32_MAX, INT32_MIN}) {
    StepSchedule m = ar;
    m.rs_steps = bad;
    StepCheckReport r = CheckStepSchedule(g, m);
    EXPECT_FALSE(r.ok) << bad;
    ASSERT_EQ(CountKind(r, StepViolationKind::kBadRsSteps), 1) << bad;
    EXPECT_NE(r.errors[0].find("outside the schedule's steps 0..4"), std::string::npos)
        << r.errors[0];
  }
}

// The reader no longer refuses step 0 (exit 2): the checker names the send (exit 1).
TEST(StepRangeTest, ReaderAcceptsAnyIntStepAndRefusesWhatAnIntCannotHold) {
  Topology g = testing::K22();
  auto doc = [](const std::string& step) {
    return ParseJsonText(R"({"format":"steps","collective":"allgather","sends":[
        {"source":"a","chunk":[["0","1"]],"from":"a","to":"c","step":)" +
                             step + "}]}",
                         "s.json");
  };
  EXPECT_EQ(StepScheduleFromJson(doc("0"), g, "s.json").sends[0].step, 0);
  EXPECT_EQ(StepScheduleFromJson(doc("-3"), g, "s.json").sends[0].step, -3);
  EXPECT_EQ(StepScheduleFromJson(doc("2147483647"), g, "s.json").sends[0].step, INT32_MAX);
  EXPECT_THROW(StepScheduleFromJson(doc("2147483648"), g, "s.json"), InputError);
  EXPECT_THROW(StepScheduleFromJson(doc("1.5"), g, "s.json"), InputError);
}

// A steps-compact file with many steps of denominator 2^20 each: the old per-step dense
// table cost 4 MB a step (2,000 steps: 8 GB). Memory is now O(file).
TEST(StepRangeTest, CompactDenominatorsCostNoDenseTables) {
  Topology g = testing::Ring(2, false);  // 0 -> 1 -> 0
  CompactStepSchedule c;
  const std::int64_t den = std::int64_t{1} << 20;
  const int steps = 2000;
  for (int t = 1; t <= steps; ++t) {
    CompactStep cs;
    cs.step = t;
    cs.denominator = den;
    cs.AddRecord(0, 1);
    cs.AddSend(0);
    // Step t carries [(t-1)/steps, t/steps) of node 0's shard, in units of 1/2^20 (rounded
    // so the pieces tile [0, 1)).
    cs.AddInterval(den * (t - 1) / steps, den * t / steps);
    c.steps.push_back(std::move(cs));
  }
  CompactStep back;
  back.step = 1;
  back.denominator = 1;
  back.AddRecord(1, 0);
  back.AddSend(1);
  back.AddInterval(0, 1);
  c.steps.push_back(std::move(back));
  StepCheckReport r = CheckStepSchedule(g, c);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.tl, steps);
  // Step 1 carries 1 shard on 1 -> 0 (the max), steps 2..2000 their pieces.
  Rational tb = 1;
  for (int t = 2; t <= steps; ++t) tb += Rational(den * t / steps - den * (t - 1) / steps, den);
  EXPECT_EQ(r.tb, tb);
}

// The hold table's size is bounded by a multiple of the input: a schedule cutting one shard
// into more elementary intervals than that on many nodes is refused as input, not run out
// of memory.
TEST(StepRangeTest, FragmentedShardBeyondTheLimitIsAnInputError) {
  Topology g("wide");
  const int n = 5000;
  for (int v = 0; v < n; ++v) g.AddCompute("v" + std::to_string(v));
  for (int v = 0; v < n; ++v) g.AddLink(v, (v + 1) % n, Rational(1));
  StepSchedule s;
  StepSend e = Send(0, {}, 0, 1, 1);
  const int pieces = 4000;  // 8001 breakpoints · 5000 nodes > 2^24 and > 64 · input
  for (int k = 0; k < pieces; ++k)
    e.chunk.push_back({Rational(2 * k, 2 * pieces), Rational(2 * k + 1, 2 * pieces)});
  s.sends.push_back(e);
  try {
    CheckStepSchedule(g, s);
    FAIL() << "expected InputError";
  } catch (const InputError& err) {
    EXPECT_NE(err.problem().find("above the checker's limit"), std::string::npos) << err.what();
    EXPECT_EQ(err.item(), "the sends of shard 'v0'");
  }
}

// With max_errors = 1 only one message is built however many violations there are (verify
// of "sends": [] on a big ring took 81 s building messages it threw away); the count is exact.
TEST(StepRangeTest, ViolationsPastTheLimitAreCountedNotDescribed) {
  Topology g = testing::Ring(300, false);
  StepSchedule s;
  StepCheckOptions o;
  o.max_errors = 1;
  StepCheckReport r = CheckStepSchedule(g, s, o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.num_violations, 300 * 299);
  EXPECT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.violations.size(), 1u);
}

}  // namespace
}  // namespace collsynth
