// `collsynth replay` end to end (docs/export.md "Replay checker"): exit 0 accepted / 1 rejected at
// any stage (also text the runtime's lexer refuses) / 2 unreadable file or bad arguments, the
// --json fields, the deadlock cycle in the text output, and --fifo / --profile changing the
// verdict.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "fixtures/msccl_xml_fixtures.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RingAllgather;
using testing::RingReduceScatter;
using testing::RunCli;
using testing::TempPath;
using testing::ToXml;
using testing::WriteTempFile;

TEST(ReplayCliTest, AcceptedRingAllgatherJson) {
  const std::string f = WriteTempFile("ring4.xml", ToXml(RingAllgather(4, 1, false)));
  auto r = RunCli({"replay", f, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["coll"], "allgather");
  EXPECT_EQ(j["ngpus"], 4);
  EXPECT_EQ(j["nchunksperloop"], 4);
  EXPECT_EQ(j["fifo_depth"], 2);
  EXPECT_EQ(j["profile"], "executor");
  EXPECT_TRUE(j["violations"].empty());
  ASSERT_EQ(j["bytes_per_pair"].size(), 4u);
  EXPECT_EQ(j["bytes_per_pair"][3], (json{{"src", 3}, {"dst", 0}, {"chunks", 3}}));
  auto text = RunCli({"replay", f});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("accepted: allgather, 4 gpus, 4 chunks per loop, Simple, checked "
                          "outofplace with 2 transfers per connector"),
            std::string::npos)
      << text.out;
}

TEST(ReplayCliTest, DeadlockPrintsCycleAndFifo8Accepts) {
  const std::string f = WriteTempFile("ring4k2.xml", ToXml(RingAllgather(4, 2, false)));
  auto r = RunCli({"replay", f});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("rejected at stage 3 (execute): 1 violation\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stage 3 execute, deadlock: [outofplace] deadlock: wait-for cycle: gpu 0 "
                       "tb 0 step 2 (rcs, round 0) waits for a free slot"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    gpu 3 tb 0 step 2 round 0\n"), std::string::npos) << r.out;
  auto j = RunCli({"replay", f, "--json"});
  EXPECT_EQ(j.exit_code, 1);
  const json v = json::parse(j.out)["violations"][0];
  EXPECT_EQ(v["stage"], 3);
  EXPECT_EQ(v["kind"], "deadlock");
  EXPECT_EQ(v["cycle"].size(), 4u);
  EXPECT_EQ(RunCli({"replay", f, "--fifo", "8"}).exit_code, 0);
  EXPECT_EQ(RunCli({"replay", WriteTempFile("ring4k1.xml", ToXml(RingAllgather(4, 1, false))),
                    "--fifo", "1"})
                .exit_code,
            1);
}

TEST(ReplayCliTest, LexicalRejectionIsExitOneNotTwo) {
  std::string xml = ToXml(RingAllgather(2, 1, false));
  const std::string f = WriteTempFile("tab.xml", "\t" + xml);
  auto r = RunCli({"replay", f, "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["violations"][0]["stage"], 0);
  EXPECT_EQ(j["violations"][0]["stage_name"], "lexical");
  EXPECT_EQ(j["violations"][0]["message"],
            "the runtime's XML lexer rejects the file: line 1 column 1: expecting '<', got '\\t'");
  // Binary junk is a rejection too.
  EXPECT_EQ(RunCli({"replay", WriteTempFile("junk.xml", std::string("\x01\x02<", 3))}).exit_code,
            1);
}

TEST(ReplayCliTest, ProfileChangesCollSpellingVerdict) {
  const std::string f = WriteTempFile("rs.xml", ToXml(RingReduceScatter(4, "reduce_scatter")));
  auto r = RunCli({"replay", f});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("rejected at stage 1 (schema)"), std::string::npos) << r.out;
  // In the executor's spelling maxBytes="0" means "no bound"; the legacy runtime selects a
  // file for bytes < maxBytes, so there it is never selected.
  auto never = RunCli({"replay", f, "--profile", "legacy"});
  EXPECT_EQ(never.exit_code, 1);
  EXPECT_NE(never.out.find("never selected"), std::string::npos) << never.out;
  testing::XAlgo legacy = RingReduceScatter(4, "reduce_scatter");
  legacy.legacy = true;
  legacy.inplace = 0;
  const std::string lf = WriteTempFile("rs_legacy.xml", ToXml(legacy));
  EXPECT_EQ(RunCli({"replay", lf, "--profile", "legacy"}).exit_code, 0);
  EXPECT_EQ(RunCli({"replay", f, "--profile", "msccl"}).exit_code, 2);
}

TEST(ReplayCliTest, UnreadableFileIsExitTwo) {
  auto missing = RunCli({"replay", TempPath("does_not_exist.xml")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot open file"), std::string::npos) << missing.err;
  auto dir = RunCli({"replay", TempPath("")});
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_EQ(RunCli({"replay", "/dev/null"}).exit_code, 2);  // a device
  EXPECT_EQ(RunCli({"replay", WriteTempFile("x.xml", "<algo/>"), "--fifo", "0"}).exit_code, 2);
}

TEST(ReplayCliTest, FileOver256MiBIsExitTwo) {
  const std::string f = WriteTempFile("huge.xml", "");
  std::filesystem::resize_file(f, (std::uintmax_t{256} << 20) + 1);  // sparse
  auto r = RunCli({"replay", f});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("larger than 256 MiB"), std::string::npos) << r.err;
  std::filesystem::remove(f);
}

TEST(ReplayCliTest, InvalidUtf8InFileStillGivesJson) {
  std::string xml = ToXml(RingAllgather(2, 1, false));
  xml.replace(xml.find("allgather"), 9, "all\xffgather");
  auto r = RunCli({"replay", WriteTempFile("utf8.xml", xml), "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["violations"][0]["kind"], "bad-value");
}

TEST(ReplayCliTest, StdinAccepted) {
  auto r = RunCli({"replay", "-"}, ToXml(RingAllgather(3, 1, true)));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace collsynth
