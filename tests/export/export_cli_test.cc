// `collsynth export msccl` from the command line: bad input is exit 2 naming the item, an
// invalid schedule and unmeetable limits are exit 1 naming the limit and the smallest value
// that works, and nothing is left on disk when the command fails.
#include <gtest/gtest.h>

#include <filesystem>

#include "graphs/topology_io.h"
#include "test_util.h"

namespace collsynth::testing {
namespace {

const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

// The pipeline schedule of two_cluster for a collective, produced once per test binary.
std::string PipelineSchedule(const std::string& coll) {
  const std::string path = TempPath("export-cli-" + coll + ".json");
  if (!std::filesystem::exists(path)) {
    CliResult r = RunCli({"pipeline", kTwoCluster, "--collective", coll, "-o", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return path;
}

bool NothingWritten(const std::string& out) {
  return !std::filesystem::exists(out) && !std::filesystem::exists(out + ".partial");
}

TEST(ExportCli, BadOptionsAreExit2) {
  const std::string s = PipelineSchedule("allgather"), out = TempPath("bad.xml");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--profile", "nccl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: <args>: --profile: 'nccl' is not executor, rccl or legacy\n");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--proto", "ll"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: <args>: --proto: 'll' is not Simple, LL or LL128\n");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--inplace", "--outofplace"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--profile", "rccl", "--max-tbs", "65"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: <args>: --max-tbs: RCCL allows at most 64 thread blocks per GPU\n");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--min-bytes", "10", "--max-bytes", "5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportCli, BroadcastNeedsRootSpecific) {
  const std::string s = PipelineSchedule("broadcast"), out = TempPath("bc.xml");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("collsynth: " + s + ": collective: broadcast is exported only with --root-specific"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportCli, RanksFileErrorsNameTheEntry) {
  const std::string s = PipelineSchedule("allgather"), out = TempPath("ranks.xml");
  const std::string unknown = WriteTempFile("ranks-unknown.json", R"(["c11", "c12", "zz"])");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--ranks", unknown});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + unknown + ": [2]: no node named 'zz' in the topology\n");
  const std::string twice = WriteTempFile("ranks-twice.json", R"({"c11": 0, "c12": 0})");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--ranks", twice});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + twice + ": c12: rank 0 is given twice\n");
  const std::string sw = WriteTempFile("ranks-switch.json", R"(["s1"])");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--ranks", sw});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + sw + ": [0]: 's1' is a switch, not a GPU\n");
  const std::string few = WriteTempFile("ranks-few.json", R"(["c11"])");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--ranks", few});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + few + ": rank 1 has no node\n");
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportCli, InvalidScheduleIsExit1AndNothingIsWritten) {
  std::string text = ReadTextFile(PipelineSchedule("allgather"));
  // Claim a smaller ratio than the schedule has: the checker rejects it.
  const std::string key = "\"ratio\":\"";
  auto at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  auto end = text.find('"', at + key.size());
  text.replace(at + key.size(), end - at - key.size(), "1/1000");
  const std::string bad = WriteTempFile("bad-ratio.json", text), out = TempPath("invalid.xml");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, bad, "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("collsynth: " + bad + ": the schedule does not verify, nothing exported: ", 0), 0u) << r.err;
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportCli, UnmeetableLimitsNameTheSmallestValue) {
  const std::string s = PipelineSchedule("allgather"), out = TempPath("limits.xml");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--max-chunks", "4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "collsynth: export msccl: limit --max-chunks: one chunk per shard and instance needs --max-chunks >= 8\n");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--max-tbs", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("collsynth: export msccl: limit --max-tbs: needs ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("needs --max-tbs >= "), std::string::npos);
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--instances", "4", "--max-channels", "3"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "collsynth: export msccl: limit --max-channels: --instances 4 needs --max-channels >= 4\n");
  EXPECT_TRUE(NothingWritten(out));
}

}  // namespace
}  // namespace collsynth::testing
