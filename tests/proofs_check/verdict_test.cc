// The checkers' verdicts as enums (docs/formats.md "verify"): each name is the exact spelling that
// `collsynth verify` and `collsynth pipeline` print and write ("verdict" in their JSON), and
// the step verdict follows from the report's ok / bandwidth_optimal / bfb.
#include <gtest/gtest.h>

#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/verify.h"

namespace collsynth {
namespace {

TEST(VerdictTest, PipelineVerdictNames) {
  EXPECT_STREQ(PipelineVerdictName(PipelineVerdict::kInvalid), "invalid");
  EXPECT_STREQ(PipelineVerdictName(PipelineVerdict::kValid), "valid");
  EXPECT_STREQ(PipelineVerdictName(PipelineVerdict::kOptimalCertified), "optimal (certified)");
}

TEST(VerdictTest, StepVerdictNames) {
  EXPECT_STREQ(StepVerdictName(StepVerdict::kInvalid), "invalid");
  EXPECT_STREQ(StepVerdictName(StepVerdict::kValid), "valid");
  EXPECT_STREQ(StepVerdictName(StepVerdict::kBandwidthOptimal), "valid, bandwidth optimal (Thm 7)");
  EXPECT_STREQ(StepVerdictName(StepVerdict::kBfb), "valid, BFB (Def. 15)");
  EXPECT_STREQ(StepVerdictName(StepVerdict::kBandwidthOptimalBfb),
               "valid, bandwidth optimal (Thm 7), BFB (Def. 15)");
}

TEST(VerdictTest, StepVerdictFromTheReport) {
  StepCheckReport r;
  r.ok = false;
  r.bandwidth_optimal = true;  // properties of an invalid schedule do not count
  r.bfb = true;
  EXPECT_EQ(r.verdict(), StepVerdict::kInvalid);
  r.ok = true;
  EXPECT_EQ(r.verdict(), StepVerdict::kBandwidthOptimalBfb);
  r.bfb = false;
  EXPECT_EQ(r.verdict(), StepVerdict::kBandwidthOptimal);
  r.bandwidth_optimal.reset();
  r.bfb = true;
  EXPECT_EQ(r.verdict(), StepVerdict::kBfb);
  r.bfb.reset();
  EXPECT_EQ(r.verdict(), StepVerdict::kValid);
}

TEST(VerdictTest, ScheduleVerdictNamesEitherChecker) {
  EXPECT_STREQ(ScheduleVerdictName(StepVerdict::kBfb), "valid, BFB (Def. 15)");
  EXPECT_STREQ(ScheduleVerdictName(PipelineVerdict::kValid), "valid");
  EXPECT_STREQ(ScheduleVerdictName(VerifyResult().verdict), "invalid");
}

}  // namespace
}  // namespace collsynth
