// The JSON of the checkers' reports (cli/verify_json.h): the members and spellings of
// docs/formats.md "verify" that scripts read. Rationals are strings ("7/3"), optional figures
// absent from the report are null, a symmetric check renames the format, and an allreduce
// report carries its phases' reports.
#include "cli/verify_json.h"

#include <gtest/gtest.h>

#include "core/rational.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

TEST(VerifyJsonTest, StepReport) {
  StepCheckReport r;
  r.ok = true;
  r.tl = 3;
  r.tb = Rational(7, 3);
  r.bfb = true;
  json j = StepCheckReportJson(r);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["format"], "steps");
  EXPECT_EQ(j["tl"], 3);
  EXPECT_EQ(j["tb"], "7/3");
  EXPECT_EQ(j["ratio"], "7/3");
  EXPECT_TRUE(j["bandwidth_lower_bound"].is_null());
  EXPECT_EQ(j["bfb"], true);
  EXPECT_FALSE(j.contains("bandwidth_optimal"));  // not checked: absent, not false
  EXPECT_FALSE(j.contains("no_duplicates"));
  r.ok = false;
  r.errors = {"node 1 lacks shard 0 at step 2"};
  StepViolation missing;
  missing.kind = StepViolationKind::kMissing;
  r.violations.push_back(missing);
  r.num_violations = 5;
  r.bandwidth_lower_bound = Rational(3, 2);
  j = StepCheckReportJson(r);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["errors"], json::array({"node 1 lacks shard 0 at step 2"}));
  EXPECT_EQ(j["num_violations"], 5);
  EXPECT_EQ(j["error_kinds"], json::array({StepViolationKindName(StepViolationKind::kMissing)}));
  EXPECT_EQ(j["bandwidth_lower_bound"], "3/2");
}

TEST(VerifyJsonTest, PipelineReport) {
  PipelineCheckReport r;
  r.ok = true;
  r.ratio = Rational(7, 6);
  r.cut_ratio = Rational(7, 6);
  r.certified_optimal = true;
  r.certified_by = "bound (7)";
  r.verdict = PipelineVerdict::kOptimalCertified;
  r.height_hops = 4;
  r.height_lower_bound_hops = 2;
  json j = PipelineCheckReportJson(r);
  EXPECT_EQ(j["format"], "pipeline");
  EXPECT_FALSE(j.contains("format_checked"));
  EXPECT_EQ(j["verdict"], "optimal (certified)");
  EXPECT_TRUE(j["tl"].is_null());
  EXPECT_EQ(j["tb"], "7/6");
  EXPECT_EQ(j["ratio"], "7/6");
  EXPECT_EQ(j["cut_ratio"], "7/6");
  EXPECT_EQ(j["certified_by"], "bound (7)");
  EXPECT_EQ(j["height_hops"], 4);
  EXPECT_EQ(j["height_lower_bound_hops"], 2);
  EXPECT_FALSE(j.contains("phases"));
  // An invalid schedule has no height, and no certificate is named.
  r.ok = false;
  r.certified_by.clear();
  r.cut_ratio.reset();
  r.verdict = PipelineVerdict::kInvalid;
  j = PipelineCheckReportJson(r);
  EXPECT_TRUE(j["height_hops"].is_null());
  EXPECT_TRUE(j["certified_by"].is_null());
  EXPECT_TRUE(j["cut_ratio"].is_null());
  EXPECT_EQ(j["verdict"], "invalid");
}

TEST(VerifyJsonTest, SymmetricAndAllreduceReports) {
  PipelineCheckReport phase;
  phase.ok = true;
  phase.ratio = Rational(1, 2);
  PipelineSymmetryFacts facts;
  facts.generators = 2;
  facts.representatives = 1;
  facts.group_order = 8;
  phase.symmetric = facts;
  PipelineCheckReport r;
  r.ok = true;
  r.ratio = Rational(1);
  r.phases = {phase, phase};
  facts.link_orbits = 3;
  r.symmetric = facts;
  json j = PipelineCheckReportJson(r);
  EXPECT_EQ(j["format"], "pipeline-symmetric");
  EXPECT_EQ(j["format_checked"], "pipeline-symmetric");
  EXPECT_EQ(j["num_generators"], 2);
  EXPECT_EQ(j["num_representatives"], 1);
  EXPECT_EQ(j["group_order"], 8);
  EXPECT_EQ(j["link_orbits"], 3);
  ASSERT_EQ(j["phases"].size(), 2u);
  EXPECT_EQ(j["phases"][1]["ratio"], "1/2");
  EXPECT_TRUE(j["phases"][1]["link_orbits"].is_null());
}

}  // namespace
}  // namespace collsynth::cli
