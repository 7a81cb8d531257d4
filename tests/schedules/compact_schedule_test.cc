// The "steps-compact" format (schedules/compact_schedule.h, docs/formats.md): exact round
// trip with the "steps" JSON contract, the checker gives the same report on both forms (valid
// and mutated schedules), and malformed or mutated compact files are rejected.
#include "schedules/compact_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <variant>

#include "core/input_error.h"
#include "core/json_io.h"
#include "fixtures/json_tree_writers.h"
#include "fixtures/schedule_fixtures.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/verify.h"

namespace collsynth {
namespace {

using namespace collsynth::testing;

// Sends as sorted tuples (chunks compared as lists of exact endpoints).
std::vector<std::tuple<int, int, int, int, std::vector<std::string>>> Canonical(
    const StepSchedule& s) {
  std::vector<std::tuple<int, int, int, int, std::vector<std::string>>> out;
  for (const StepSend& e : s.sends) {
    std::vector<std::string> chunk;
    for (const Interval& iv : e.chunk) chunk.push_back(ToString(iv.lo) + "," + ToString(iv.hi));
    out.emplace_back(e.step, e.from, e.to, e.source, chunk);
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Case {
  Topology g;
  StepSchedule s;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  cases.push_back({K22(), K22Figure1()});
  cases.push_back({Ring(7, true), BidirectionalRingBfb(7)});
  cases.push_back({Ring(8, true), BidirectionalRingBfb(8)});
  cases.push_back({Torus(3, 4), TorusDimensionByDimension(3, 4)});
  cases.push_back({Hypercube(4), HypercubeBfb(4)});
  cases.push_back({Hypercube(3), HypercubeRecursiveDoubling(3)});
  StepSchedule rs = Reverse(HypercubeBfb(3));
  rs.collective = Collective::kReduceScatter;
  cases.push_back({Hypercube(3), rs});
  // A multi-interval chunk and claims.
  StepSchedule ring = RingAllgather(4);
  ring.sends[0].chunk = {Part(0, 3), Part(2, 3), Part(1, 3)};
  ring.claimed_tl = 3;
  ring.claimed_tb = Rational(3);
  ring.extra["note"] = "kept";
  cases.push_back({Ring(4, false), ring});
  return cases;
}

void ExpectSameReport(const StepCheckReport& a, const StepCheckReport& b, const std::string& what) {
  EXPECT_EQ(a.ok, b.ok) << what;
  EXPECT_EQ(a.tl, b.tl) << what;
  EXPECT_EQ(a.tb, b.tb) << what;
  EXPECT_EQ(a.num_violations, b.num_violations) << what;
  EXPECT_EQ(a.errors, b.errors) << what;
  EXPECT_EQ(a.bfb, b.bfb) << what;
}

TEST(CompactScheduleTest, RoundTripThroughTextEqualsTheStepsForm) {
  for (const Case& c : Cases()) {
    std::optional<CompactStepSchedule> compact = CompactFromSteps(c.s);
    ASSERT_TRUE(compact.has_value()) << c.g.name();
    EXPECT_EQ(compact->num_sends(), c.s.sends.size());
    const std::string text = CompactStepScheduleToText(*compact, c.g);
    CompactStepSchedule back = CompactStepScheduleFromJson(ParseJsonText(text, "t"), c.g, "t");
    StepSchedule steps = StepsFromCompact(back);
    EXPECT_EQ(Canonical(steps), Canonical(c.s)) << c.g.name();
    EXPECT_EQ(steps.collective, c.s.collective);
    EXPECT_EQ(steps.claimed_tl, c.s.claimed_tl);
    EXPECT_EQ(steps.claimed_tb, c.s.claimed_tb);
    EXPECT_EQ(steps.extra, c.s.extra);
    // The streamed "steps" text is the contract's document.
    nlohmann::json streamed = ParseJsonText(StepsJsonTextFromCompact(back, c.g), "s");
    EXPECT_EQ(Canonical(StepScheduleFromJson(streamed, c.g, "s")), Canonical(c.s)) << c.g.name();
    EXPECT_EQ(streamed, StepScheduleToJson(StepsFromCompact(back), c.g)) << c.g.name();
  }
}

TEST(CompactScheduleTest, CheckerReportIsTheSameOnBothForms) {
  for (const Case& c : Cases()) {
    StepCheckOptions o;
    o.check_bfb = true;
    o.check_no_duplicates = true;
    o.max_errors = 100;
    CompactStepSchedule compact = *CompactFromSteps(c.s);
    // Compare against the steps form in the compact's send order (send_index matches).
    ExpectSameReport(CheckStepSchedule(c.g, compact, o),
                     CheckStepSchedule(c.g, StepsFromCompact(compact), o), c.g.name());
    // Mutations: shrink an interval, drop a send, move a send one step earlier.
    for (std::size_t k = 0; k < compact.steps.size(); ++k) {
      CompactStepSchedule m = compact;
      CompactStep& cs = m.steps[k];
      cs.hi[0] = cs.lo[0] + (cs.hi[0] - cs.lo[0] + 1) / 2;
      if (cs.hi[0] == compact.steps[k].hi[0]) {  // a length-1 numerator interval: refine first
        cs.denominator *= 2;
        for (auto& x : cs.lo) x *= 2;
        for (auto& x : cs.hi) x *= 2;
        cs.hi[0] = cs.lo[0] + 1;
      }
      StepCheckReport r = CheckStepSchedule(c.g, m, o);
      EXPECT_FALSE(r.ok) << c.g.name() << " step record " << k;
      ExpectSameReport(r, CheckStepSchedule(c.g, StepsFromCompact(m), o), c.g.name());
      m = compact;
      m.steps[k].step = std::max(1, m.steps[k].step - 1) == m.steps[k].step ? m.steps[k].step + 100
                                                                            : m.steps[k].step - 1;
      ExpectSameReport(CheckStepSchedule(c.g, m, o), CheckStepSchedule(c.g, StepsFromCompact(m), o),
                       c.g.name() + " moved step");
    }
  }
}

TEST(CompactScheduleTest, MutatedCompactFileIsRejectedByVerify) {
  Topology g = Hypercube(3);
  CompactStepSchedule c = *CompactFromSteps(HypercubeBfb(3));
  nlohmann::json j = ParseJsonText(CompactStepScheduleToText(c, g), "q3");
  VerifyOptions vo;
  vo.check_bfb = true;
  VerifyResult ok = VerifyScheduleJson(g, j, "q3", vo);
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.format, "steps-compact");
  ASSERT_TRUE(std::holds_alternative<StepCheckReport>(ok.report));
  EXPECT_EQ(ToString(std::get<StepCheckReport>(ok.report).tb), "7/3");  // (N-1)/d: Q3 BFB is
                                                                        // bandwidth optimal
  // Point one send of the last step at another source: someone misses a piece.
  nlohmann::json bad = j;
  nlohmann::json& flat = bad["steps"].back()["links"][0][2];
  flat[0] = (flat[0].get<int>() + 1) % 8;
  VerifyResult r = VerifyScheduleJson(g, bad, "q3", vo);
  EXPECT_FALSE(r.ok);
  EXPECT_GT(r.NumViolations(), 0);
  // Malformed: lo >= hi, index out of range, truncated send, den 0.
  for (auto mutate : std::vector<std::function<void(nlohmann::json&)>>{
           [](nlohmann::json& x) {
             x["steps"][0]["links"][0][2][3] = x["steps"][0]["links"][0][2][2];
           },
           [](nlohmann::json& x) { x["steps"][0]["links"][0][0] = 8; },
           [](nlohmann::json& x) { x["steps"][0]["links"][0][2].erase(3); },
           [](nlohmann::json& x) { x["steps"][0]["den"] = 0; },
           [](nlohmann::json& x) { x["nodes"][0] = "nobody"; }}) {
    nlohmann::json m = j;
    mutate(m);
    EXPECT_THROW(VerifyScheduleJson(g, m, "q3", vo), InputError) << m["steps"][0].dump();
  }
}

TEST(CompactScheduleTest, HugeDenominatorsHaveNoCompactForm) {
  Topology g = Ring(3, false);
  StepSchedule s = RingAllgather(3);
  Rational tiny(1);
  for (int k = 0; k < 70; ++k) tiny /= 2;  // 2^-70: no int64 common denominator
  s.sends[0].chunk = {Interval{Rational(0), tiny}, Interval{tiny, Rational(1)}};
  EXPECT_FALSE(CompactFromSteps(s).has_value());
}

}  // namespace
}  // namespace collsynth
