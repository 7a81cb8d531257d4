// `collsynth export msccl` from the command line: bad input is exit 2 naming the item, an
// invalid schedule and unmeetable limits are exit 1 naming the limit and the smallest value
// that works, and nothing is left on disk when the command fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/json_io.h"
#include "core/rational.h"
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
  r = RunCli(
      {"export", "msccl", kTwoCluster, s, "-o", out, "--profile", "rccl", "--max-tbs", "65"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: <args>: --max-tbs: RCCL allows at most 64 thread blocks per GPU\n");
  r = RunCli(
      {"export", "msccl", kTwoCluster, s, "-o", out, "--min-bytes", "10", "--max-bytes", "5"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportCli, BroadcastNeedsRootSpecific) {
  const std::string s = PipelineSchedule("broadcast"), out = TempPath("bc.xml");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("collsynth: " + s +
                       ": collective: broadcast is exported only with --root-specific"),
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
  EXPECT_EQ(
      r.err.rfind("collsynth: " + bad + ": the schedule does not verify, nothing exported: ", 0),
      0u)
      << r.err;
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportCli, UnmeetableLimitsNameTheSmallestValue) {
  const std::string s = PipelineSchedule("allgather"), out = TempPath("limits.xml");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--max-chunks", "4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "collsynth: export msccl: limit --max-chunks: one chunk per shard and instance needs "
            "--max-chunks >= 8\n");
  r = RunCli({"export", "msccl", kTwoCluster, s, "-o", out, "--max-tbs", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("collsynth: export msccl: limit --max-tbs: needs ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("needs --max-tbs >= "), std::string::npos);
  r = RunCli(
      {"export", "msccl", kTwoCluster, s, "-o", out, "--instances", "4", "--max-channels", "3"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err,
      "collsynth: export msccl: limit --max-channels: --instances 4 needs --max-channels >= 4\n");
  EXPECT_TRUE(NothingWritten(out));
}

}  // namespace
}  // namespace collsynth::testing

namespace collsynth::testing {
namespace {

// Exports, then replays the written file again through `collsynth replay` (a second,
// separate run of the independent checker on the bytes on disk).
nlohmann::json ExportAndReplay(const std::string& topo, const std::string& schedule,
                               const std::string& out, std::vector<std::string> extra,
                               const std::string& profile = "executor") {
  std::vector<std::string> args = {"export", "msccl",  topo,        schedule, "-o",
                                   out,      "--json", "--profile", profile};
  args.insert(args.end(), extra.begin(), extra.end());
  CliResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  nlohmann::json summary = nlohmann::json::parse(r.out);
  const std::string file = summary["file"];
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_FALSE(std::filesystem::exists(file + ".partial"));
  EXPECT_TRUE(std::filesystem::exists(summary["routes_file"].get<std::string>()));
  CliResult replay = RunCli({"replay", file, "--profile", profile, "--json"});
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  return summary;
}

TEST(ExportCli, EveryCollectiveProfileAndModeIsReplayAccepted) {
  for (const std::string coll : {"allgather", "reduce-scatter", "allreduce", "broadcast"}) {
    const std::string s = PipelineSchedule(coll);
    for (const std::string profile : {"executor", "rccl", "legacy"}) {
      for (const std::string mode : {"--inplace", "--outofplace"}) {
        SCOPED_TRACE(coll + " " + profile + " " + mode);
        // The legacy runtime needs a finite maxBytes for its scratch buffer (export.md).
        std::vector<std::string> extra = {mode, "--root-specific"};
        if (profile == "legacy") extra.insert(extra.end(), {"--max-bytes", "134217728"});
        nlohmann::json j =
            ExportAndReplay(kTwoCluster, s, TempPath("tc-" + coll + ".xml"), extra, profile);
        EXPECT_EQ(j["collective"], coll);
        EXPECT_EQ(j["ngpus"], 8);
        EXPECT_EQ(j["exact_chunks"], true);
        EXPECT_EQ(j["achieved_ratio"], j["optimal_ratio"]);
        EXPECT_EQ(j["max_bytes"], profile == "legacy" ? 134217728 : 0);
      }
    }
  }
}

// microsoft/msccl reads minBytes/maxBytes on <algo>, selects a file for bytes < maxBytes and
// allocates maxBytes * s_chunks / nchunksperloop bytes of scratch (src/graph/topo.cc,
// src/init.cc): "unbounded" is a finite 2^40 when the program has no scratch, and a program
// with scratch needs --max-bytes.
TEST(ExportCli, LegacyByteRangeIsCamelCaseAndScratchNeedsMaxBytes) {
  const std::string ag = PipelineSchedule("allgather");
  nlohmann::json j =
      ExportAndReplay(kTwoCluster, ag, TempPath("tc-legacy-ag.xml"), {"--root-specific"}, "legacy");
  EXPECT_EQ(j["max_bytes"], 1099511627776);
  const std::string xml = ReadTextFile(j["file"].get<std::string>());
  EXPECT_NE(xml.find(" minBytes=\"0\" maxBytes=\"1099511627776\">"), std::string::npos);
  EXPECT_EQ(xml.find("maxbytes"), std::string::npos);
  const std::string rs = PipelineSchedule("reduce-scatter");
  const std::string out = TempPath("tc-legacy-rs.xml");
  CliResult r = RunCli({"export", "msccl", kTwoCluster, rs, "-o", out, "--profile", "legacy"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("collsynth: <args>: --max-bytes: the legacy runtime allocates maxBytes * "
                       "s_chunks / nchunksperloop bytes of scratch"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(NothingWritten(out));
  j = ExportAndReplay(kTwoCluster, rs, out, {"--min-bytes", "4096", "--max-bytes", "65536"},
                      "legacy");
  EXPECT_EQ(j["min_bytes"], 4096);
  EXPECT_EQ(j["max_bytes"], 65536);
}

// Every runtime keeps the block a step waits for in an int8_t: more than 128 blocks per GPU
// could write dependencies the runtime truncates.
TEST(ExportCli, MaxTbsIsCappedAtTheRuntimesDependencyWidth) {
  const std::string ag = PipelineSchedule("allgather");
  for (const std::string profile : {"executor", "legacy"}) {
    CliResult r = RunCli({"export", "msccl", kTwoCluster, ag, "-o", TempPath("tbs.xml"),
                          "--profile", profile, "--max-tbs", "129"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err,
              "collsynth: <args>: --max-tbs: 129 thread blocks per GPU: the runtimes store a "
              "dependency's block id in int8_t, so at most 128 blocks are exported\n");
  }
  ExportAndReplay(kTwoCluster, ag, TempPath("tbs128.xml"), {"--max-tbs", "128"});
}

TEST(ExportCli, ExampleTopologiesPipelineAndStepSchedules) {
  for (const std::string topo : {"k22.json", "ring8.txt"}) {
    const std::string t = SourcePath("experiments/topologies/" + topo);
    for (const std::string coll : {"allgather", "reduce-scatter", "allreduce"}) {
      SCOPED_TRACE(topo + " " + coll);
      const std::string p = TempPath(topo + "-pipe-" + coll + ".json"),
                        b = TempPath(topo + "-bfb-" + coll + ".json"),
                        c = TempPath(topo + "-bfb-" + coll + ".csteps.json");
      ASSERT_EQ(RunCli({"pipeline", t, "--collective", coll, "-o", p}).exit_code, 0);
      ASSERT_EQ(RunCli({"bfb", t, "--collective", coll, "-o", b}).exit_code, 0);
      ASSERT_EQ(RunCli({"bfb", t, "--collective", coll, "-o", c}).exit_code, 0);
      ExportAndReplay(t, p, TempPath("p.xml"), {"--proto", "LL"});
      nlohmann::json steps = ExportAndReplay(t, b, TempPath("b.xml"), {});
      nlohmann::json compact = ExportAndReplay(t, c, TempPath("c.xml"), {});
      EXPECT_EQ(steps["achieved_ratio"], steps["optimal_ratio"]);
      EXPECT_EQ(compact["nchunksperloop"], steps["nchunksperloop"]);
    }
  }
}

TEST(ExportCli, RoundedChunksReportBothRatiosAndTheSideFileAccountsTheLoads) {
  // two_cluster's broadcast needs 4 chunks (tree weights in quarters); 3 forces rounding.
  nlohmann::json j =
      ExportAndReplay(kTwoCluster, PipelineSchedule("broadcast"), TempPath("bc-rounded.xml"),
                      {"--root-specific", "--max-chunks", "3"});
  EXPECT_EQ(j["exact_chunks"], false);
  EXPECT_EQ(j["lcm_chunks_per_shard"], "4");
  EXPECT_EQ(j["nchunksperloop"], 3);
  const Rational optimal = ParseRational(j["optimal_ratio"].get<std::string>());
  const Rational achieved = ParseRational(j["achieved_ratio"].get<std::string>());
  EXPECT_GT(achieved, optimal);
  // Load accounting from the side file: max over links of load / bandwidth is the achieved ratio.
  nlohmann::json routes = nlohmann::json::parse(ReadTextFile(j["routes_file"].get<std::string>()));
  EXPECT_EQ(routes["format"], "msccl-routes");
  Rational worst = 0;
  for (const auto& l : routes["link_loads"]) {
    worst = std::max(worst, Rational(ParseRational(l["load"].get<std::string>()) /
                                     ParseRational(l["bandwidth"].get<std::string>())));
  }
  EXPECT_EQ(worst, achieved);
  EXPECT_EQ(routes["achieved_ratio"], j["achieved_ratio"]);
  // The side file's transfers move what the independent replay counts per GPU pair.
  std::map<std::pair<int, int>, std::int64_t> side;
  for (const auto& t : routes["transfers"])
    side[{t[0].get<int>(), t[1].get<int>()}] += t[4].get<std::int64_t>();
  CliResult replay = RunCli({"replay", j["file"].get<std::string>(), "--json"});
  ASSERT_EQ(replay.exit_code, 0);
  std::map<std::pair<int, int>, std::int64_t> replayed;
  const nlohmann::json report = nlohmann::json::parse(replay.out);
  for (const auto& b : report["bytes_per_pair"]) {
    replayed[{b["src"].get<int>(), b["dst"].get<int>()}] = b["chunks"].get<std::int64_t>();
  }
  EXPECT_EQ(side, replayed);
}

TEST(ExportCli, DirectoryOutputNamesTheFileBySizeRange) {
  const std::string dir = TempPath("algos") + "/";
  std::filesystem::create_directories(dir);
  nlohmann::json j =
      ExportAndReplay(kTwoCluster, PipelineSchedule("allgather"), dir,
                      {"--min-bytes", "1024", "--max-bytes", "1048575", "--proto", "LL"});
  EXPECT_EQ(j["file"],
            dir + "allgather-n8-LL-outofplace-00000000000000001024-00000000000001048575.xml");
  EXPECT_EQ(
      j["routes_file"],
      dir + "allgather-n8-LL-outofplace-00000000000000001024-00000000000001048575.routes.json");
}

TEST(ExportCli, AWriterBugIsCaughtByTheReplayOfTheWrittenFile) {
  const std::string out = TempPath("corrupt.xml");
  const std::string schedule = PipelineSchedule("allgather");  // before the fault is injected
  setenv("COLLSYNTH_FAULT_INJECT", "corrupt-output", 1);
  CliResult r = RunCli({"export", "msccl", kTwoCluster, schedule, "-o", out});
  unsetenv("COLLSYNTH_FAULT_INJECT");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind(
                "collsynth: export msccl: the replay checker did not accept " + out + ": fifo ", 0),
            0u)
      << r.err;
  EXPECT_TRUE(NothingWritten(out));
  EXPECT_FALSE(std::filesystem::exists(TempPath("corrupt.routes.json")));
}

}  // namespace
}  // namespace collsynth::testing

namespace collsynth::testing {
namespace {

TEST(ExportCli, RanksPermutationAndInstances) {
  const std::string ranks = WriteTempFile(
      "ranks-reversed.json", R"(["c24", "c23", "c22", "c21", "c14", "c13", "c12", "c11"])");
  nlohmann::json j =
      ExportAndReplay(kTwoCluster, PipelineSchedule("allreduce"), TempPath("ar-ranks.xml"),
                      {"--ranks", ranks, "--instances", "2"});
  EXPECT_EQ(j["instances"], 2);
  EXPECT_EQ(j["nchunksperloop"], 16);  // 8 shards x 1 chunk x 2 instances
  nlohmann::json routes = nlohmann::json::parse(ReadTextFile(j["routes_file"].get<std::string>()));
  EXPECT_EQ(routes["ranks"][0], "c24");
  EXPECT_EQ(routes["ranks"][7], "c11");
}

}  // namespace
}  // namespace collsynth::testing

namespace collsynth::testing {
namespace {

TEST(ExportCli, FusedLoweringIsReplayAccepted) {
  for (const std::string coll : {"allgather", "reduce-scatter", "allreduce", "broadcast"}) {
    SCOPED_TRACE(coll);
    nlohmann::json j =
        ExportAndReplay(kTwoCluster, PipelineSchedule(coll), TempPath("fused-" + coll + ".xml"),
                        {"--fuse", "--root-specific", "--proto", "LL128"});
    EXPECT_EQ(j["lowering"], "fused");
    EXPECT_EQ(j["achieved_ratio"], j["optimal_ratio"]);
  }
  // A fused file of a chain tree has rcs steps (two_cluster's allgather trees are paths).
  const std::string xml = ReadTextFile(TempPath("fused-allgather.xml"));
  EXPECT_NE(xml.find("type=\"rcs\""), std::string::npos);
  EXPECT_NE(ReadTextFile(TempPath("fused-reduce-scatter.xml")).find("type=\"rrs\""),
            std::string::npos);
}

}  // namespace
}  // namespace collsynth::testing

namespace collsynth::testing {
namespace {

TEST(ExportCli, BaselineStepSchedulesAreReplayAccepted) {
  const std::string torus = TempPath("torus33.json"), cube = TempPath("hypercube3.json");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,3)", "-o", torus}).exit_code, 0);
  ASSERT_EQ(RunCli({"topo", "gen", "hypercube(3)", "-o", cube}).exit_code, 0);
  struct Case {
    std::string baseline, topo, coll;
  };
  for (const Case& c :
       {Case{"biring", SourcePath("experiments/topologies/k22.json"), "allreduce"},
        Case{"recursive-halving", cube, "reduce-scatter"}, Case{"torus", torus, "allreduce"}}) {
    SCOPED_TRACE(c.baseline + " " + c.coll);
    const std::string s = TempPath("baseline-" + c.baseline + ".json");
    ASSERT_EQ(RunCli({"baseline", c.baseline, c.topo, "--collective", c.coll, "-o", s}).exit_code,
              0);
    nlohmann::json j =
        ExportAndReplay(c.topo, s, TempPath("baseline-" + c.baseline + ".xml"), {"--inplace"});
    EXPECT_EQ(j["achieved_ratio"], j["optimal_ratio"]);
  }
}

}  // namespace
}  // namespace collsynth::testing

namespace collsynth::testing {
namespace {

// One failure policy for every written file (core/checked_output.h): a write that fails as a
// full disk does is exit 1 naming the file and the OS error, never an internal error, and
// leaves neither the file nor OUT.partial.
TEST(ExportCli, AFailedWriteIsExitOneWithTheOsErrorAndLeavesNoFile) {
  const std::string ag = PipelineSchedule("allgather");
  const std::string xml = TempPath("enospc.xml"), plan = TempPath("enospc.plan.json"),
                    traces = TempPath("enospc_chakra");
  setenv("COLLSYNTH_FAULT_INJECT", "write-error", 1);
  const CliResult m = RunCli({"export", "msccl", kTwoCluster, ag, "-o", xml});
  const CliResult p = RunCli({"export", "mscclpp", kTwoCluster, ag, "-o", plan});
  const CliResult c = RunCli(
      {"export", "chakra", kTwoCluster, ag, "-o", traces, "--size", "4800", "--slices", "1"});
  unsetenv("COLLSYNTH_FAULT_INJECT");
  for (const auto& [r, out, what] : {std::tuple{m, xml, "msccl"}, std::tuple{p, plan, "mscclpp"},
                                     std::tuple{c, traces + ".0.et", "chakra"}}) {
    EXPECT_EQ(r.exit_code, 1) << what << ": " << r.err;
    EXPECT_EQ(r.err.rfind(std::string("collsynth: export ") + what + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(".partial: cannot write: No space left on device; nothing written"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_TRUE(NothingWritten(out)) << what;
    EXPECT_FALSE(std::filesystem::exists(out + ".partial")) << what;
  }
}

}  // namespace
}  // namespace collsynth::testing
