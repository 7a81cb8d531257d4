// `collsynth export mscclpp` from the command line: bad options and unsupported input are exit
// 2 naming the item, unmeetable limits exit 1 naming the limit and the value that works, a
// writer bug is caught by the replay of the written plan (exit 1, nothing on disk), and
// pipeline and step schedules of every collective and mode are written, replay-accepted and
// accounted in the side file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/json_io.h"
#include "core/rational.h"
#include "test_util.h"

namespace collsynth::testing {
namespace {

const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

// The pipeline schedule of two_cluster for a collective, produced once per test binary.
std::string Schedule(const std::string& coll) {
  const std::string path = TempPath("mscclpp-cli-" + coll + ".json");
  if (!std::filesystem::exists(path)) {
    CliResult r = RunCli({"pipeline", kTwoCluster, "--collective", coll, "-o", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return path;
}

bool NothingWritten(const std::string& out) {
  return !std::filesystem::exists(out) && !std::filesystem::exists(out + ".partial");
}

nlohmann::json Export(const std::string& topo, const std::string& schedule, const std::string& out,
                      std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"export", "mscclpp", topo, schedule, "-o", out, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  CliResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["replay"], "accepted");
  EXPECT_TRUE(std::filesystem::exists(j["file"].get<std::string>()));
  EXPECT_FALSE(std::filesystem::exists(j["file"].get<std::string>() + ".partial"));
  EXPECT_TRUE(std::filesystem::exists(j["routes_file"].get<std::string>()));
  return j;
}

TEST(ExportMscclppCli, BadOptionsAndUnsupportedInputAreExit2) {
  const std::string s = Schedule("allgather"), out = TempPath("pp-bad.json");
  CliResult r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", out, "--proto", "LL"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "collsynth: <args>: --proto: LL is not supported for MSCCL++ plans yet; use Simple\n");
  r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", out, "--proto", "LL128"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: <args>: --proto: 'LL128' is not Simple\n");
  r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", out, "--inplace", "--outofplace"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", out, "--pieces", "0"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", out, "--pieces", "65"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli(
      {"export", "mscclpp", kTwoCluster, s, "-o", out, "--min-bytes", "10", "--max-bytes", "5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: <args>: --max-bytes: below --min-bytes\n");
  r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  const std::string bc = Schedule("broadcast");
  r = RunCli({"export", "mscclpp", kTwoCluster, bc, "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("collsynth: " + bc +
                            ": collective: 'broadcast' cannot be exported to "
                            "MSCCL++",
                        0),
            0u)
      << r.err;
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportMscclppCli, InvalidScheduleIsExit1) {
  std::string text = ReadTextFile(Schedule("allgather"));
  const std::string key = "\"ratio\":\"";
  auto at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  auto end = text.find('"', at + key.size());
  text.replace(at + key.size(), end - at - key.size(), "1/1000");
  const std::string bad = WriteTempFile("pp-bad-ratio.json", text), out = TempPath("pp-inv.json");
  CliResult r = RunCli({"export", "mscclpp", kTwoCluster, bad, "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err.rfind("collsynth: " + bad + ": the schedule does not verify, nothing exported: ", 0),
      0u)
      << r.err;
  EXPECT_TRUE(NothingWritten(out));
}

TEST(ExportMscclppCli, TooFewBlocksIsExit1NamingTheCountThatWorks) {
  const std::string s = Schedule("allreduce"), out = TempPath("pp-limit.json");
  CliResult r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", out, "--max-tbs", "1"});
  EXPECT_EQ(r.exit_code, 1);
  const std::string prefix = "collsynth: export mscclpp: limit --max-tbs: rank ";
  ASSERT_EQ(r.err.rfind(prefix, 0), 0u) << r.err;
  const std::string key = "needs --max-tbs >= ";
  const auto at = r.err.find(key);
  ASSERT_NE(at, std::string::npos) << r.err;
  const int needed = std::stoi(r.err.substr(at + key.size()));
  EXPECT_EQ(needed, 3);
  EXPECT_TRUE(NothingWritten(out));
  nlohmann::json j = Export(kTwoCluster, s, out, {"--max-tbs", std::to_string(needed)});
  EXPECT_EQ(j["blocks_per_gpu"], needed);
  r = RunCli({"export", "mscclpp", kTwoCluster, s, "-o", out, "--max-chunks", "4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "collsynth: export mscclpp: limit --max-chunks: one chunk per shard and instance needs "
            "--max-chunks >= 8\n");
}

TEST(ExportMscclppCli, AWriterBugIsCaughtByTheReplayOfTheWrittenPlan) {
  const std::string out = TempPath("pp-corrupt.json");
  const std::string schedule = Schedule("allgather");  // before the fault is injected
  setenv("COLLSYNTH_FAULT_INJECT", "corrupt-output", 1);
  CliResult r = RunCli({"export", "mscclpp", kTwoCluster, schedule, "-o", out});
  unsetenv("COLLSYNTH_FAULT_INJECT");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err.rfind("collsynth: export mscclpp: the replay checker did not accept " + out + ": ", 0),
      0u)
      << r.err;
  EXPECT_NE(r.err.find("; nothing written\n"), std::string::npos) << r.err;
  EXPECT_TRUE(NothingWritten(out));
  EXPECT_FALSE(std::filesystem::exists(TempPath("pp-corrupt.routes.json")));
}

TEST(ExportMscclppCli, EveryCollectiveAndModeIsReplayAccepted) {
  for (const std::string coll : {"allgather", "reduce-scatter", "allreduce"}) {
    const std::string s = Schedule(coll);
    for (const std::string mode : {"--inplace", "--outofplace"}) {
      for (const std::string pieces : {"1", "2"}) {
        SCOPED_TRACE(coll + " " + mode + " pieces " + pieces);
        nlohmann::json j =
            Export(kTwoCluster, s, TempPath("pp-tc-" + coll + ".json"), {mode, "--pieces", pieces});
        EXPECT_EQ(j["collective"], coll);
        EXPECT_EQ(j["format"], "mscclpp");
        EXPECT_EQ(j["ngpus"], 8);
        EXPECT_EQ(j["inplace"], mode == "--inplace");
        EXPECT_EQ(j["exact_chunks"], true);
        EXPECT_EQ(j["achieved_ratio"], j["optimal_ratio"]);
        const nlohmann::json plan = nlohmann::json::parse(ReadTextFile(j["file"]));
        EXPECT_EQ(plan["gpus"].size(), 8u);
        EXPECT_EQ(plan["inplace"], mode == "--inplace");
        EXPECT_EQ(plan["gpus"][0]["input_chunks"], j["input_chunks"]);
        EXPECT_LE(j["max_ops_per_block"].get<int>(), 64);
      }
    }
  }
}

TEST(ExportMscclppCli, StepSchedulesAndDirectoryOutput) {
  const std::string t = SourcePath("experiments/topologies/k22.json");
  for (const std::string coll : {"allgather", "reduce-scatter", "allreduce"}) {
    SCOPED_TRACE(coll);
    const std::string b = TempPath("pp-k22-bfb-" + coll + ".json"),
                      c = TempPath("pp-k22-bfb-" + coll + ".csteps.json");
    ASSERT_EQ(RunCli({"bfb", t, "--collective", coll, "-o", b}).exit_code, 0);
    ASSERT_EQ(RunCli({"bfb", t, "--collective", coll, "-o", c}).exit_code, 0);
    nlohmann::json steps = Export(t, b, TempPath("pp-b.json"));
    nlohmann::json compact = Export(t, c, TempPath("pp-c.json"));
    EXPECT_EQ(steps["achieved_ratio"], steps["optimal_ratio"]);
    EXPECT_EQ(compact["output_chunks"], steps["output_chunks"]);
  }
  const std::string dir = TempPath("plans") + "/";
  std::filesystem::create_directories(dir);
  nlohmann::json j = Export(kTwoCluster, Schedule("allgather"), dir,
                            {"--min-bytes", "1024", "--max-bytes", "1048576", "--inplace"});
  EXPECT_EQ(j["file"],
            dir + "allgather-n8-Simple-inplace-00000000000000001024-00000000000001048576.json");
  EXPECT_EQ(j["routes_file"], dir +
                                  "allgather-n8-Simple-inplace-00000000000000001024-"
                                  "00000000000001048576.routes.json");
  const nlohmann::json plan = nlohmann::json::parse(ReadTextFile(j["file"]));
  EXPECT_EQ(plan["min_message_size"], 1024);
  EXPECT_EQ(plan["max_message_size"], 1048576);
}

// Regression (found by fuzz/export_options_fuzzer.cc): --pieces P cuts a transfer and the
// receive it forwards into P parts each and makes part j wait for part j. K_{2,2}'s BFB
// allgather forwards half of a receive's chunks, so with --pieces 2 a part read slices that
// another part writes: the plan was written, its replay found reads of unwritten data, and the
// command failed with the replay's message. It is now refused before anything is built, naming
// --pieces and the value that works; the schedules whose forwards send what they received
// (BFB reduce-scatter and allreduce here) still export in pieces.
TEST(ExportMscclppCli, PiecesOfAStepScheduleThatForwardsPartOfAReceiveAreRefused) {
  const std::string t = SourcePath("experiments/topologies/k22.json");
  for (const std::string coll : {"allgather", "reduce-scatter", "allreduce"}) {
    SCOPED_TRACE(coll);
    const std::string b = TempPath("pp-pieces-k22-bfb-" + coll + ".json");
    const std::string out = TempPath("pp-pieces-" + coll + ".json");
    ASSERT_EQ(RunCli({"bfb", t, "--collective", coll, "-o", b}).exit_code, 0);
    const CliResult r = RunCli({"export", "mscclpp", t, b, "-o", out, "--pieces", "2"});
    if (coll != "allgather") {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      continue;
    }
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.rfind("collsynth: export mscclpp: limit --pieces: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("exported with --pieces 1 only"), std::string::npos) << r.err;
    EXPECT_TRUE(NothingWritten(out));
    Export(t, b, out, {"--pieces", "1"});
  }
}

// The side file accounts the plan's transfers: per physical link the loads of the schedule,
// and its worst link is the achieved ratio (here rounded: two_cluster's broadcast-free
// allgather with a small chunk budget).
TEST(ExportMscclppCli, RoundedChunksAndTheSideFile) {
  nlohmann::json j = Export(kTwoCluster, Schedule("allgather"), TempPath("pp-rounded.json"),
                            {"--max-chunks", "8", "--pieces", "3"});
  const Rational optimal = ParseRational(j["optimal_ratio"].get<std::string>());
  const Rational achieved = ParseRational(j["achieved_ratio"].get<std::string>());
  EXPECT_EQ(j["chunks_per_shard"], 3);
  nlohmann::json routes = nlohmann::json::parse(ReadTextFile(j["routes_file"].get<std::string>()));
  EXPECT_EQ(routes["achieved_ratio"], j["achieved_ratio"]);
  EXPECT_EQ(routes["chunks_per_shard"], 3);
  Rational worst = 0;
  for (const auto& l : routes["link_loads"]) {
    worst = std::max(worst, Rational(ParseRational(l["load"].get<std::string>()) /
                                     ParseRational(l["bandwidth"].get<std::string>())));
  }
  EXPECT_EQ(worst, achieved);
  if (j["exact_chunks"].get<bool>()) {
    EXPECT_EQ(achieved, optimal);
  } else {
    EXPECT_GT(achieved, optimal);
  }
  // Every transfer of the side file is one put in the plan.
  EXPECT_EQ(routes["transfers"].size(), j["transfers"].get<std::size_t>());
}

// Step schedules with reductions over several steps (baselines): in place, replay-accepted,
// the achieved ratio the schedule's.
TEST(ExportMscclppCli, BaselineStepSchedules) {
  const std::string cube = TempPath("pp-hypercube3.json");
  ASSERT_EQ(RunCli({"topo", "gen", "hypercube(3)", "-o", cube}).exit_code, 0);
  struct Case {
    std::string baseline, topo, coll;
  };
  for (const Case& c : {Case{"biring", SourcePath("experiments/topologies/k22.json"), "allreduce"},
                        Case{"recursive-halving", cube, "reduce-scatter"},
                        Case{"recursive-doubling", cube, "allreduce"}}) {
    SCOPED_TRACE(c.baseline + " " + c.coll);
    const std::string s = TempPath("pp-baseline-" + c.baseline + ".json");
    ASSERT_EQ(RunCli({"baseline", c.baseline, c.topo, "--collective", c.coll, "-o", s}).exit_code,
              0);
    nlohmann::json j = Export(c.topo, s, TempPath("pp-baseline.json"), {"--inplace"});
    EXPECT_EQ(j["achieved_ratio"], j["optimal_ratio"]);
  }
}

}  // namespace
}  // namespace collsynth::testing

namespace collsynth::testing {
namespace {

// The plan replay's memory grows with the square of the blocks (fattree(10) allgather, 7,500
// blocks: 4.4 GB, out of memory under a 4 GB cap): export mscclpp refuses a plan above the
// replay's 6,656-block limit before writing it, exit 1 naming the limit.
TEST(MscclppCli, PlansAboveTheReplaysBlockLimitAreRefusedBeforeWriting) {
  const std::string topo = TempPath("mscclpp_ft10.json");
  ASSERT_EQ(RunCli({"topo", "gen", "fattree(10)", "-o", topo}).exit_code, 0);
  const std::string sched = TempPath("mscclpp_ft10_ag.json");
  ASSERT_EQ(RunCli({"pipeline", topo, "-o", sched}).exit_code, 0);
  const std::string plan = TempPath("mscclpp_ft10.plan.json");
  CliResult r = RunCli({"export", "mscclpp", topo, sched, "-o", plan});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("collsynth: export mscclpp: limit blocks: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" thread blocks in all, above the plan replay's limit of 6656"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(plan));
  EXPECT_FALSE(std::filesystem::exists(plan + ".partial"));
}

}  // namespace
}  // namespace collsynth::testing
