// `collsynth replay` on MSCCL++ execution plans (docs/export.md "Replay of MSCCL++ plans"):
// detection (a .json name or text starting with '{'), exit 0 accepted / 1 rejected / 2 unreadable,
// the --json fields, the notes for the XML-only options, and the DSL's own plan in
// tests/data/mscclpp/.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fixtures/mscclpp_plan_fixtures.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::AllgatherPlan;
using testing::AllreducePlan;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

TEST(ReplayMscclppCliTest, AcceptedPlanJson) {
  const std::string f = WriteTempFile("ar3.json", AllreducePlan(3, false).dump(2));
  auto r = RunCli({"replay", f, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["format"], "mscclpp-plan");
  EXPECT_EQ(j["profile"], "mscclpp");
  EXPECT_EQ(j["coll"], "allreduce");
  EXPECT_EQ(j["ngpus"], 3);
  EXPECT_EQ(j["nchunksperloop"], 3);
  EXPECT_EQ(j["proto"], "Simple");
  EXPECT_EQ(j["modes"], json::array({"outofplace"}));
  EXPECT_EQ(j["violations_total"], 0);
  ASSERT_EQ(j["bytes_per_pair"].size(), 6u);
  EXPECT_EQ(j["bytes_per_pair"][5], (json{{"src", 2}, {"dst", 1}, {"chunks", 2}}));
}

TEST(ReplayMscclppCliTest, DetectedByContentAndTextOutput) {
  // Not a .json name: the leading '{' (after whitespace) selects the plan checker.
  const std::string f = WriteTempFile("ag2.plan", "\n  " + AllgatherPlan(2, true).dump());
  auto r = RunCli({"replay", f});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "accepted: MSCCL++ plan, allgather, 2 gpus, 1 chunks per buffer, Simple, checked "
            "inplace\nchunks moved per launch (src -> dst: chunks): 0->1:1 1->0:1\n");
  // From stdin too.
  auto s = RunCli({"replay", "-"}, AllgatherPlan(2, true).dump());
  EXPECT_EQ(s.exit_code, 0) << s.out << s.err;
}

TEST(ReplayMscclppCliTest, RejectedPlanIsExitOne) {
  json plan = AllgatherPlan(2, false);
  auto& ops = plan["gpus"][1]["threadblocks"][0]["ops"];
  ops.erase(7);  // gpu 1's signal: gpu 0's second wait never returns
  const std::string f = WriteTempFile("hang.json", plan.dump());
  auto r = RunCli({"replay", f});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("rejected at stage 2 (fifo): 1 violation\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fifo-mismatch: channel gpu 1 memory channel entry 0 -> gpu 0 memory "
                       "channel entry 0: 1 signal but 2 waits (a sure hang"),
            std::string::npos)
      << r.out;
  auto j = RunCli({"replay", f, "--json"});
  EXPECT_EQ(j.exit_code, 1);
  const json v = json::parse(j.out)["violations"][0];
  EXPECT_EQ(v["stage"], 2);
  EXPECT_EQ(v["kind"], "fifo-mismatch");
  EXPECT_EQ(v["gpu"], 0);
  // A .json name with text that is not JSON: stage 0, still exit 1.
  auto x = RunCli({"replay", WriteTempFile("x.json", "<algo/>"), "--json"});
  EXPECT_EQ(x.exit_code, 1) << x.out << x.err;
  EXPECT_EQ(json::parse(x.out)["violations"][0]["stage_name"], "lexical");
}

TEST(ReplayMscclppCliTest, UnreadableIsExitTwo) {
  auto r = RunCli({"replay", TempPath("missing.json")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(ReplayMscclppCliTest, XmlOnlyOptionsAreNotedAndIgnored) {
  const std::string f = WriteTempFile("ag3.json", AllgatherPlan(3, false).dump());
  auto r = RunCli({"replay", f, "--fifo", "8", "--profile", "rccl", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["notes"], json::array({"--profile applies to MSCCL XML files only; ignored for an "
                                     "MSCCL++ plan",
                                     "--fifo applies to MSCCL XML files only; ignored for an "
                                     "MSCCL++ plan"}));
  EXPECT_EQ(j["fifo_depth"], 0);
}

TEST(ReplayMscclppCliTest, DslPlanFromMscclpp) {
  auto r =
      RunCli({"replay", std::string(COLLSYNTH_SOURCE_DIR) + "/tests/data/mscclpp/reduce.json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "accepted: MSCCL++ plan, allreduce, 2 gpus, 4 chunks per buffer, Simple, checked "
            "inplace\nchunks moved per launch (src -> dst: chunks): 0->1:4 1->0:4\n");
}

}  // namespace
}  // namespace collsynth
