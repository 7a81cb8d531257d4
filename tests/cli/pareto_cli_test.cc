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

// DGX-1 (ratio* 7/6, diameter 2): the column generation at height 2 reaches 7/6
// (docs/min_height.md "Column generation at a height"), so --min-height returns a schedule
// certified minimal in height and optimal in ratio, --height 2 meets the bound at that height,
// and `verify` accepts the written file with the same figures.
TEST(ParetoCli, Dgx1MinHeightIsCertifiedAtHeightTwo) {
  const std::string topo = Topo("dgx1(1)", "pareto_dgx1.json");
  const std::string out = testing::TempPath("pareto_dgx1_min.json");
  testing::CliResult m = RunCli({"pipeline", topo, "--min-height", "-o", out, "--json"});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  json mj = json::parse(m.out);
  EXPECT_EQ(mj["algorithm"], "height-column-generation");
  EXPECT_EQ(mj["ratio"], "7/6");
  EXPECT_EQ(mj["height_hops"], 2);
  EXPECT_EQ(mj["height_minimal"], true);
  EXPECT_EQ(mj["ratio_optimal"], true);
  testing::CliResult v = RunCli({"verify", topo, out, "--json"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  json vj = json::parse(v.out);
  EXPECT_EQ(vj["ratio"], "7/6");
  EXPECT_EQ(vj["height_hops"], 2);
  testing::CliResult h = RunCli({"pipeline", topo, "--height", "2", "-o", out, "--json"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  json hj = json::parse(h.out);
  EXPECT_EQ(hj["ratio"], "7/6");
  EXPECT_EQ(hj["ratio_optimal_at_height"], true);
}

// kautz(2,1) (ratio* 5/2, diameter 2): at height 2 no schedule beats ratio 3, which the
// hop-bounded relaxation certifies (docs/min_height.md "A ratio bound at each height"), so
// ratio* needs height >= 3 and a height-2 point of ratio 3 is optimal for its height.
TEST(ParetoCli, KautzPaysForHeightCertified) {
  const std::string topo = Topo("kautz(2,1)", "pareto_kautz21.json");
  const std::string out = testing::TempPath("pareto_kautz21_schedule.json");
  testing::CliResult h = RunCli({"pipeline", topo, "--height", "2", "-o", out, "--json"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  json hj = json::parse(h.out);
  EXPECT_EQ(hj["ratio"], "3");
  EXPECT_EQ(hj["ratio_lower_bound_at_height"], "3");
  EXPECT_EQ(hj["ratio_optimal_at_height"], true);
  testing::CliResult m = RunCli({"pipeline", topo, "--min-height", "-o", out, "--json"});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  json mj = json::parse(m.out);
  EXPECT_EQ(mj["ratio"], "5/2");
  EXPECT_EQ(mj["height_lower_bound_hops"], 2);
  EXPECT_EQ(mj["height_lower_bound_at_ratio_hops"], 3);
  EXPECT_EQ(mj["height_minimal"], mj["height_hops"] == 3);
  testing::CliResult p = RunCli({"pareto", topo, "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const json points = json::parse(p.out)["points"];
  ASSERT_FALSE(points.empty());
  EXPECT_EQ(points[0]["height_hops"], 2);
  EXPECT_EQ(points[0]["ratio_lower_bound_at_height"], "3");
  EXPECT_EQ(points.back()["ratio_lower_bound_at_height"], "5/2");
}

}  // namespace
}  // namespace collsynth
