// `collsynth pareto` and `collsynth pipeline --min-height | --height H` (docs/cli.md): the JSON
// contract, every written point verified again by `collsynth verify`, and the exit codes (1 when
// no schedule is low enough, 2 for bad input with one line on stderr).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;

std::string Topo(const std::string& expr, const std::string& name) {
  const std::string path = testing::TempPath(name);
  EXPECT_EQ(RunCli({"topo", "gen", expr, "-o", path}).exit_code, 0);
  return path;
}

TEST(ParetoCli, PointsAreWrittenAndVerify) {
  const std::string topo = Topo("torus(3,3)", "pareto_torus33.json");
  const std::string dir = testing::TempPath("pareto_torus33_points");
  testing::CliResult r = RunCli({"pareto", topo, "--json", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_FALSE(j["points"].empty());
  std::int64_t last_height = -1;
  for (const json& p : j["points"]) {
    for (const char* key : {"height_hops", "ratio", "ratio_decimal", "algorithm", "height_minimal",
                            "ratio_optimal", "schedule"})
      EXPECT_TRUE(p.contains(key)) << key;
    EXPECT_GT(p["height_hops"].get<std::int64_t>(), last_height);
    last_height = p["height_hops"].get<std::int64_t>();
    testing::CliResult v = RunCli({"verify", topo, p["schedule"].get<std::string>(), "--json"});
    ASSERT_EQ(v.exit_code, 0) << v.err;
    json vr = json::parse(v.out);
    EXPECT_EQ(vr["ratio"], p["ratio"]);
    EXPECT_EQ(vr["height_hops"], p["height_hops"]);
  }
  // torus(3,3): the DAG family reaches ratio* = 2 at height 2 = the eccentricity bound.
  EXPECT_EQ(j["points"][0]["height_hops"], j["height_lower_bound_hops"]);
  EXPECT_EQ(j["points"].back()["ratio"], j["ratio_lower_bound"]);
}

TEST(ParetoCli, MinHeightAndHeightOptions) {
  const std::string topo = Topo("hypercube(3)", "pareto_q3.json");
  const std::string out = testing::TempPath("pareto_q3_min.json");
  testing::CliResult r = RunCli({"pipeline", topo, "--min-height", "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["height_hops"], 3);
  EXPECT_EQ(j["height_minimal"], true);
  EXPECT_EQ(j["ratio_optimal"], true);
  EXPECT_EQ(j["ratio"], "7/3");
  testing::CliResult h = RunCli({"pipeline", topo, "--height", "3", "-o", out, "--json"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_EQ(json::parse(h.out)["ratio"], "7/3");
  testing::CliResult low = RunCli({"pipeline", topo, "--height", "2", "-o", out});
  EXPECT_EQ(low.exit_code, 1) << low.err;
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"pipeline", topo, "--height", "x", "-o", out},
        {"pipeline", topo, "--height", "1.5", "-o", out},
        {"pipeline", topo, "--height", "3", "--min-height", "-o", out},
        {"pipeline", topo, "--min-height", "--fixed-k", "2", "-o", out},
        {"pipeline", topo, "--min-height", "--collective", "broadcast", "-o", out},
        {"pareto", topo, "--collective", "broadcast"},
        {"pareto", testing::TempPath("no_such_topology.json")}}) {
    testing::CliResult b = RunCli(bad);
    EXPECT_EQ(b.exit_code, 2) << b.err;
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
}

}  // namespace
}  // namespace collsynth
