// CLI contract of `collsynth finder` (seed 000 §5.4) and `collsynth prove`: JSON frontier with
// `topo gen` expressions, Table 4's best choice, exit codes 0/1/2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;

TEST(FinderCliTest, Table4JsonFrontierAndBestChoice) {
  auto r = RunCli({"finder", "--nodes", "1024", "--degree", "4", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_GE(j["frontier"].size(), 3u);
  EXPECT_EQ(j["frontier"][0]["topology"], "genkautz(4,1024)");
  EXPECT_EQ(j["frontier"][0]["tl"], 5);
  EXPECT_EQ(j["frontier"][0]["tb"], "341/256");  // Table 4: 2.664 M/B for allreduce
  EXPECT_EQ(j["frontier"].back()["bw_optimal"], true);
  // Table 4's last column at α = 10 µs, M/B = 1 MB / 100 Gbps: L^3(C(16,{3,4})) is best, 291.0 µs.
  EXPECT_EQ(j["best"]["tl"], 6);
  EXPECT_EQ(j["best"]["tb"], "261/256");
  EXPECT_EQ(j["best"]["allreduce_us"], "291.049");
  // Every frontier topology is a valid `topo gen` expression with the claimed size.
  for (const auto& c : j["frontier"]) {
    if (c["nodes"].get<int>() > 1024) continue;
    auto g = RunCli(
        {"topo", "gen", c["topology"].get<std::string>(), "-o", testing::TempPath("f.json")});
    EXPECT_EQ(g.exit_code, 0) << c["topology"] << g.err;
  }
}

TEST(FinderCliTest, Table5RowAndWorkloadOptions) {
  auto r = RunCli({"finder", "--nodes", "10", "--degree", "4", "--alpha", "10us", "--bandwidth",
                   "100Gbps", "--size", "1KB", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["frontier"].size(), 1u);
  EXPECT_EQ(j["best"]["tl"], 2);  // Table 5: 4α allreduce
  EXPECT_EQ(j["best"]["tb"], "9/10");
  EXPECT_EQ(j["best"]["bw_optimal"], true);
  auto text = RunCli({"finder", "--nodes", "10", "--degree", "4"});
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("BW optimal"), std::string::npos);
}

TEST(FinderCliTest, BadInputExitTwo) {
  EXPECT_EQ(RunCli({"finder", "--nodes", "1", "--degree", "4"}).exit_code, 2);
  EXPECT_EQ(RunCli({"finder", "--nodes", "10", "--degree", "0"}).exit_code, 2);
  auto r = RunCli({"finder", "--nodes", "10", "--degree", "4", "--alpha", "3parsecs"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--alpha"), std::string::npos);
  // Above the finder's size limit: the library's check, reported as the user's --nodes.
  auto big = RunCli({"finder", "--nodes", "20000000", "--degree", "2"});
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_EQ(big.err, "collsynth: <args>: --nodes: N = 20000000 is not in 2..10000000\n");
}

TEST(ProveCliTest, ListRunAndUnknown) {
  auto l = RunCli({"prove", "--list", "--json"});
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_GE(json::parse(l.out).size(), 20u);
  auto r = RunCli({"prove", "s000-thm22", "--range", "7..20", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["instances"], 14);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(RunCli({"prove", "no-such-theorem"}).exit_code, 2);
  EXPECT_EQ(RunCli({"prove", "s000-thm22", "--range", "9..3"}).exit_code, 2);
}

}  // namespace
}  // namespace collsynth
