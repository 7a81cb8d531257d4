// `collsynth pipeline TOPO --from OLD` (docs/cli.md "pipeline --from", docs/repair.md): the
// summary's JSON fields against the files and the `optimum` command, the written file accepted by
// `verify` on the degraded topology, and OLD that does not fit TOPO as exit 2 with one line naming
// OLD and the item.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

struct Files {
  std::string intact, failed, old;
};

Files MakeFiles() {
  Files f{TempPath("repair_ft4.json"), TempPath("repair_ft4_failed.json"),
          TempPath("repair_ft4_old.json")};
  const std::string fails = WriteTempFile("repair_fails.json", R"([["p0a0", "-", "core0"]])");
  EXPECT_EQ(RunCli({"topo", "gen", "fattree(4)", "-o", f.intact}).exit_code, 0);
  EXPECT_EQ(RunCli({"topo", "gen", "fattree(4)", "-o", f.failed, "--fail", fails}).exit_code, 0);
  EXPECT_EQ(RunCli({"pipeline", f.intact, "--no-symmetric", "-o", f.old}).exit_code, 0);
  return f;
}

TEST(PipelineRepairCliTest, JsonSummaryMatchesTheFilesAndTheOptimum) {
  const Files f = MakeFiles();
  const std::string out = TempPath("repair_ft4_new.json");
  auto r = RunCli({"pipeline", f.failed, "--from", f.old, "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json sum = json::parse(r.out);
  const json old = json::parse(testing::ReadWholeFile(f.old));
  const json opt = json::parse(RunCli({"optimum", f.failed, "--json"}).out);
  EXPECT_EQ(sum["ratio"], opt["ratio"]);
  EXPECT_EQ(sum["optimal_ratio"], opt["ratio"]);
  EXPECT_EQ(sum["old_ratio"], old["ratio"]);
  EXPECT_EQ(sum["verdict"], "optimal (certified)");
  EXPECT_EQ(sum["certificate"]["cut_ratio"], sum["ratio"]);
  EXPECT_EQ(sum["output_verified"], true);
  const json& t = sum["trees"];
  EXPECT_EQ(t["old"].get<std::size_t>(), old["trees"].size());
  EXPECT_NE(sum["method"], "unchanged");  // the failed link carried routes of OLD
  EXPECT_GT(sum["routes"]["broken"].get<int>(), 0);
  if (sum["method"] != "fresh") {
    EXPECT_EQ(t["kept"].get<int>() + t["rerouted"].get<int>() + t["replaced"].get<int>(),
              t["old"].get<int>());
  }
  const json written = json::parse(testing::ReadWholeFile(out));
  EXPECT_EQ(t["total"].get<std::size_t>(), written["trees"].size());
  EXPECT_EQ(written["ratio"], sum["ratio"]);
  EXPECT_EQ(RunCli({"verify", f.failed, out}).exit_code, 0);
}

TEST(PipelineRepairCliTest, ALowerOptimumIsReportedWithTheNewCut) {
  // torus(3,3) has no switches: no route can be rerouted, the optimum drops, and the summary's
  // certificate is a cut of the degraded topology whose value is the new ratio.
  const std::string intact = TempPath("repair_t33.json"), failed = TempPath("repair_t33_f.json");
  const std::string old = TempPath("repair_t33_old.json"), out = TempPath("repair_t33_new.json");
  const std::string fails = WriteTempFile("repair_t33_fails.json", R"([["t0_0", "-", "t0_1"]])");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,3)", "-o", intact}).exit_code, 0);
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,3)", "-o", failed, "--fail", fails}).exit_code, 0);
  ASSERT_EQ(RunCli({"pipeline", intact, "--no-symmetric", "-o", old}).exit_code, 0);
  auto r = RunCli({"pipeline", failed, "--from", old, "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json sum = json::parse(r.out);
  const json opt = json::parse(RunCli({"optimum", failed, "--json"}).out);
  EXPECT_EQ(sum["ratio"], opt["ratio"]);
  EXPECT_NE(sum["ratio"], sum["old_ratio"]);
  EXPECT_NE(sum["method"], "rerouted");
  EXPECT_EQ(sum["trees"]["rerouted"], 0);
  const json& c = sum["certificate"];
  EXPECT_EQ(c["cut_ratio"], sum["ratio"]);
  EXPECT_EQ(c["certified_by"], "bound (1)");
  const json written = json::parse(testing::ReadWholeFile(out));
  EXPECT_EQ(written["bottleneck_cut"], c["bottleneck_cut"]);
  EXPECT_EQ(written["repair_old_ratio"], sum["old_ratio"]);
}

TEST(PipelineRepairCliTest, OldThatDoesNotFitIsExit2OnOneLine) {
  const Files f = MakeFiles();
  const std::string out = TempPath("repair_bad_out.json");
  const std::string torus = TempPath("repair_torus.json"),
                    torus_old = TempPath("repair_t_old.json");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,3)", "-o", torus}).exit_code, 0);
  ASSERT_EQ(RunCli({"pipeline", torus, "--no-symmetric", "-o", torus_old}).exit_code, 0);
  json old = json::parse(testing::ReadWholeFile(f.old));
  old["trees"][0]["edges"].erase(old["trees"][0]["edges"].begin() + 1);
  const std::string missing = WriteTempFile("repair_missing_edge.json", old.dump());
  const std::string bcast = TempPath("repair_bcast.json");
  ASSERT_EQ(RunCli({"pipeline", f.intact, "--collective", "broadcast", "-o", bcast}).exit_code, 0);
  struct Case {
    std::vector<std::string> args;
    std::string file, item;
  };
  const std::vector<Case> cases = {
      {{"--from", torus_old}, torus_old, "trees[0].root"},  // nodes of another topology
      {{"--from", f.old, "--collective", "reduce-scatter"}, f.old, "collective"},
      {{"--from", bcast}, bcast, "collective"},
      {{"--from", missing}, missing, "trees[0]"},
      {{"--from", f.old, "--fixed-k", "2"}, "<args>", "--from"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"pipeline", f.failed, "-o", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = RunCli(args);
    SCOPED_TRACE(r.err);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_NE(r.err.find(c.file), std::string::npos);
    EXPECT_NE(r.err.find(c.item), std::string::npos);
  }
}

}  // namespace
}  // namespace collsynth
