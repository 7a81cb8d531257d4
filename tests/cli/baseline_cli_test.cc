// CLI contract of `collsynth baseline` and `collsynth schedule expand` (issue 6 §2-§3): checked
// outputs that `collsynth verify` accepts independently, T_L/T_B from the theorems, exit codes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

// Directed ring 0 -> 1 -> ... -> n-1 -> 0 as an edge list.
std::string DirectedRingText(int n) {
  std::string s = "name: ring" + std::to_string(n) + "\n";
  for (int i = 0; i < n; ++i) s += std::to_string(i) + " " + std::to_string((i + 1) % n) + " 1\n";
  return s;
}

// 2x2 mesh (seed 001 Fig. 3) with the generator's grid names.
std::string Mesh22Text() {
  return "name: mesh22\n"
         "t0_0 t0_1 1\nt0_1 t0_0 1\nt1_0 t1_1 1\nt1_1 t1_0 1\n"
         "t0_0 t1_0 1\nt1_0 t0_0 1\nt0_1 t1_1 1\nt1_1 t0_1 1\n";
}

TEST(BaselineCliTest, MultiTreeOnMeshTwoStepsPerPhaseAndVerifies) {
  std::string topo = WriteTempFile("mesh22.txt", Mesh22Text());
  std::string out = TempPath("mesh22_multitree.json");
  auto r = RunCli({"baseline", "multitree", topo, "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["tl"], 4);  // 2 steps per phase (seed 001 Fig. 3, papers/README)
  auto v = RunCli({"verify", topo, out});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST(BaselineCliTest, RingBaselinesAndAllreduce) {
  std::string topo = WriteTempFile("ring6.txt", DirectedRingText(6));
  std::string out = TempPath("ring6.json");
  auto r = RunCli({"baseline", "uniring", topo, "-o", out, "--collective", "allreduce", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["tl"], 10);  // 2(N-1), Table 9 UniRing
  EXPECT_EQ(j["tb"], "10");
  EXPECT_EQ(RunCli({"verify", topo, out}).exit_code, 0);
  // The written schedule carries the checker's claims.
  auto s = RunCli({"baseline", "uniring", topo, "-o", "-"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  json sched = json::parse(s.out);
  EXPECT_EQ(sched["format"], "steps");
  EXPECT_EQ(sched["tl"], 5);
}

TEST(BaselineCliTest, TopologyThatDoesNotFitIsExit2WithOneLine) {
  std::string topo = WriteTempFile("ring5.txt", DirectedRingText(5));
  auto r = RunCli({"baseline", "recursive-doubling", topo, "-o", TempPath("x.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("2^k nodes"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  auto bad = RunCli({"baseline", "torus", topo, "-o", TempPath("x.json"), "--dims", "2,2"});
  EXPECT_EQ(bad.exit_code, 2);
  auto unknown = RunCli({"baseline", "hyperring", topo, "-o", TempPath("x.json")});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("multitree"), std::string::npos);  // lists the names
}

// Thm 11 through the CLI: UniRing(1,4) * 2 (Figure 4) is BW optimal with T_L = 4.
TEST(ScheduleExpandCliTest, DegreeExpansionOfRingFigure4) {
  std::string topo = WriteTempFile("ring4.txt", DirectedRingText(4));
  std::string base = TempPath("ring4_ag.json");
  ASSERT_EQ(RunCli({"baseline", "uniring", topo, "-o", base}).exit_code, 0);
  std::string out = TempPath("ring4x2.json"), out_topo = TempPath("ring4x2_topo.json");
  auto r = RunCli({"schedule", "expand", "--degree", "2", topo, base, "-o", out, "--topology-out",
                   out_topo, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["tl"], 4);
  EXPECT_EQ(j["tb"], "7/2");  // 7/8 · M/B with M = 8 shards, B = 2 links · 1
  EXPECT_EQ(j["nodes"], 8);
  auto v = RunCli({"verify", out_topo, out, "--bw-optimal"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST(ScheduleExpandCliTest, ReverseAndBadRequests) {
  std::string topo = WriteTempFile("ring5b.txt", DirectedRingText(5));
  std::string base = TempPath("ring5_ag.json");
  ASSERT_EQ(RunCli({"baseline", "uniring", topo, "-o", base}).exit_code, 0);
  std::string out = TempPath("ring5_rs.json"), out_topo = TempPath("ring5_t.txt");
  auto r = RunCli({"schedule", "expand", "--reverse", topo, base, "-o", out, "--topology-out",
                   out_topo, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["tl"], 4);  // Thm 3: same T_L
  EXPECT_EQ(RunCli({"verify", out_topo, out}).exit_code, 0);
  // The reduce-scatter cannot be line-expanded (Def. 2 expands allgathers): exit 2.
  auto bad = RunCli({"schedule", "expand", "--line", out_topo, out, "-o", TempPath("y.json")});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  // No transformation chosen, or two: bad input.
  EXPECT_EQ(RunCli({"schedule", "expand", topo, base, "-o", TempPath("z.json")}).exit_code, 2);
  EXPECT_EQ(
      RunCli({"schedule", "expand", "--line", "--reverse", topo, base, "-o", TempPath("z.json")})
          .exit_code,
      2);
  // A schedule for another topology: exit 2 naming the node.
  std::string other = WriteTempFile("ring3.txt", DirectedRingText(3));
  auto mismatch = RunCli({"schedule", "expand", "--line", other, base, "-o", TempPath("w.json")});
  EXPECT_EQ(mismatch.exit_code, 2) << mismatch.err;
}

}  // namespace
}  // namespace collsynth
