// CLI contract of `collsynth bfb` (seed 000 §6, App. D): JSON summary, the written "steps"
// schedule, exit codes 0/2, and stdout staying parseable with CLP/CBC in use.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;
using testing::WriteTempFile;

TEST(BfbCliTest, K22AllgatherFigure1TbThreeHalvesAndScheduleWritten) {
  const std::string out = TempPath("k22_bfb.json");
  auto r = RunCli(
      {"bfb", SourcePath("experiments/topologies/k22.json"), "--json", "--clp-hint", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);  // CLP is silent: stdout is one JSON object
  EXPECT_EQ(j["tl"], 2);
  EXPECT_EQ(j["tb"], "3/2");  // README erratum of Figure 1, shard units
  EXPECT_EQ(j["bandwidth_optimal"], true);
  EXPECT_EQ(j["verified"], true);
  std::ifstream in(out);
  json s = json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  EXPECT_EQ(s["format"], "steps");
  EXPECT_EQ(s["collective"], "allgather");
  EXPECT_FALSE(s["sends"].empty());
}

TEST(BfbCliTest, Ring8UnidirectionalAndAllreduce) {
  // Unidirectional ring: d = 1, T_L = N - 1 = 7 (Thm 15) and T_B = (N-1)/d = 7.
  auto r = RunCli({"bfb", SourcePath("experiments/topologies/ring8.txt"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["tl"], 7);
  EXPECT_EQ(j["tb"], "7");
  auto ar = RunCli({"bfb", SourcePath("experiments/topologies/k22.json"), "--collective",
                    "allreduce", "--json"});
  ASSERT_EQ(ar.exit_code, 0) << ar.err;
  json k = json::parse(ar.out);
  EXPECT_EQ(k["tl"], 4);
  EXPECT_EQ(k["tb"], "3");  // 2 (N-1)/d
  EXPECT_EQ(k["verified"], true);
}

TEST(BfbCliTest, DiscreteChunksReportThm20) {
  auto r =
      RunCli({"bfb", SourcePath("experiments/topologies/k22.json"), "--chunks", "3", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["thm20_holds"], true);
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["tb_lp"], "3/2");
}

// The compact form end to end (docs/formats.md "Schedules"): bfb --compact writes "steps-compact",
// verify accepts it with the same T_L/T_B as the "steps" file, and a mutated compact file is
// rejected.
TEST(BfbCliTest, CompactScheduleVerifiesLikeStepsAndMutationIsRejected) {
  const std::string topo = TempPath("q3.json");
  ASSERT_EQ(RunCli({"topo", "gen", "hypercube(3)", "-o", topo}).exit_code, 0);
  const std::string compact = TempPath("q3.csteps.json"), steps = TempPath("q3.steps.json");
  ASSERT_EQ(RunCli({"bfb", topo, "-o", compact}).exit_code, 0);
  ASSERT_EQ(RunCli({"bfb", topo, "-o", steps}).exit_code, 0);
  std::ifstream in(compact);
  json c = json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  EXPECT_EQ(c["format"], "steps-compact");
  auto vc = RunCli({"verify", "--json", "--bw-optimal", topo, compact});
  auto vs = RunCli({"verify", "--json", "--bw-optimal", topo, steps});
  ASSERT_EQ(vc.exit_code, 0) << vc.out << vc.err;
  ASSERT_EQ(vs.exit_code, 0) << vs.out << vs.err;
  json rc = json::parse(vc.out), rs = json::parse(vs.out);
  EXPECT_EQ(rc["tl"], 3);      // diameter of Q3 (Thm 15)
  EXPECT_EQ(rc["tb"], "7/3");  // (N-1)/d: bandwidth optimal (Thm 7)
  EXPECT_EQ(rc["tl"], rs["tl"]);
  EXPECT_EQ(rc["tb"], rs["tb"]);
  // Drop the last step's first link record: some node then misses data.
  json& last_links = c["steps"].back()["links"];
  ASSERT_FALSE(last_links.empty());
  last_links.erase(last_links.begin());
  const std::string mutated = WriteTempFile("q3_mutated.csteps.json", c.dump());
  auto vm = RunCli({"verify", topo, mutated});
  EXPECT_EQ(vm.exit_code, 1) << vm.out << vm.err;
}

// Theorem 4 from the CLI: identity on a bidirectional torus, negation on a directed
// circulant; same T_B as the transpose method (Cor. 3.1), checked; refused on Kautz.
TEST(BfbCliTest, Thm4ReduceScatterWithKnownIsomorphisms) {
  for (const std::string expr : {"torus(3,4)", "dcirculant(7,1,2)"}) {
    const std::string topo = TempPath("thm4.json");
    ASSERT_EQ(RunCli({"topo", "gen", expr, "-o", topo}).exit_code, 0);
    auto iso = RunCli({"bfb", topo, "--collective", "reduce-scatter", "--thm4", "--json"});
    auto tr = RunCli({"bfb", topo, "--collective", "reduce-scatter", "--json"});
    ASSERT_EQ(iso.exit_code, 0) << expr << iso.err;
    ASSERT_EQ(tr.exit_code, 0) << expr << tr.err;
    json a = json::parse(iso.out), b = json::parse(tr.out);
    EXPECT_EQ(a["reduce_scatter_method"], "isomorphism (Thm 4)") << expr;
    EXPECT_EQ(b["reduce_scatter_method"], "transpose (Cor. 3.1)") << expr;
    EXPECT_EQ(a["tb"], b["tb"]) << expr;
    EXPECT_EQ(a["tl"], b["tl"]) << expr;
    EXPECT_EQ(a["verified"], true) << expr;
  }
  const std::string kautz = TempPath("kautz.json");
  ASSERT_EQ(RunCli({"topo", "gen", "kautz(2,2)", "-o", kautz}).exit_code, 0);
  auto r = RunCli({"bfb", kautz, "--collective", "allreduce", "--thm4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--thm4"), std::string::npos) << r.err;
}

TEST(BfbCliTest, BadInputIsExitTwoWithOneLine) {
  auto sw = RunCli({"bfb", SourcePath("experiments/topologies/two_cluster.json")});
  EXPECT_EQ(sw.exit_code, 2);
  EXPECT_NE(sw.err.find("switch"), std::string::npos) << sw.err;
  auto missing = RunCli({"bfb", "/nonexistent/topology.json"});
  EXPECT_EQ(missing.exit_code, 2);
  // An option value CLI11 rejects: exit 2 and one line with the collsynth prefix (was two
  // lines from CLI11's own printer, without the prefix).
  auto coll =
      RunCli({"bfb", SourcePath("experiments/topologies/k22.json"), "--collective", "broadcast"});
  EXPECT_EQ(coll.exit_code, 2);
  EXPECT_EQ(coll.err.rfind("collsynth: <args>: --collective: ", 0), 0u) << coll.err;
  EXPECT_NE(coll.err.find("broadcast"), std::string::npos) << coll.err;
  EXPECT_EQ(std::count(coll.err.begin(), coll.err.end(), '\n'), 1) << coll.err;
  const std::string alpha =
      WriteTempFile("alpha_bad.json", R"({"links": [{"from": "nope", "to": "x", "alpha": 1}]})");
  auto a = RunCli({"bfb", SourcePath("experiments/topologies/k22.json"), "--alpha-file", alpha});
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_NE(a.err.find("links[0]"), std::string::npos) << a.err;
  auto chunks = RunCli({"bfb", SourcePath("experiments/topologies/k22.json"), "--chunks", "0"});
  EXPECT_EQ(chunks.exit_code, 2);
  EXPECT_EQ(chunks.err.rfind("collsynth: <args>: --chunks: ", 0), 0u) << chunks.err;
  EXPECT_EQ(std::count(chunks.err.begin(), chunks.err.end(), '\n'), 1) << chunks.err;
}

}  // namespace
}  // namespace collsynth
