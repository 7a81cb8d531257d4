// CLI contract of `collsynth draw` (docs/draw.md): the rendered SVG has one node per topology
// node and one edge per drawn link, the marked nodes are exactly the bottleneck cut, the heat
// map's bottleneck links are the links of load ratio* (value 1), `--tree` highlights exactly the
// links of that tree's routes, and bad input exits 2 with one line. The SVG is counted here by
// plain text search, independently of the command's own tinyxml2 check.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::ReadWholeFile;
using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;

std::size_t Count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

TEST(DrawCliTest, OneSvgNodePerNodeAndOneEdgePerLinkPair) {
  const std::string out = TempPath("draw_topology.svg");
  auto r = RunCli({"draw", kTwoCluster, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json info = json::parse(RunCli({"topo", "info", kTwoCluster, "--json"}).out);
  const std::string svg = ReadWholeFile(out);
  EXPECT_EQ(Count(svg, "class=\"node\""),
            info["compute_nodes"].get<std::size_t>() + info["switch_nodes"].get<std::size_t>());
  // two_cluster's links are all duplex pairs of equal bandwidth: one edge per pair
  EXPECT_EQ(Count(svg, "class=\"edge\""), info["links"].get<std::size_t>() / 2);
  EXPECT_FALSE(std::ifstream(out + ".partial").good());
}

TEST(DrawCliTest, CutMarksExactlyTheBottleneckCutOfOptimum) {
  const std::string dot = TempPath("draw_cut.dot");
  ASSERT_EQ(RunCli({"draw", kTwoCluster, "-o", dot, "--cut"}).exit_code, 0);
  const json opt = json::parse(RunCli({"optimum", kTwoCluster, "--json"}).out);
  const std::string text = ReadWholeFile(dot);
  EXPECT_EQ(Count(text, "fillcolor=\"#f4a582\""), opt["bottleneck_cut"].size());
  EXPECT_NE(text.find("ratio* = " + opt["ratio"].get<std::string>()), std::string::npos);
}

TEST(DrawCliTest, HeatMapAndTreeOfACheckedSchedule) {
  const std::string schedule = TempPath("draw_schedule.json");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "-o", schedule, "--no-symmetric"}).exit_code, 0);
  const json s = json::parse(ReadWholeFile(schedule));
  // Heat map: the most loaded links carry utilisation 1, drawn red; S* is filled.
  const std::string loads = TempPath("draw_loads.dot");
  auto r = RunCli({"draw", kTwoCluster, schedule, "-o", loads});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string heat = ReadWholeFile(loads);
  EXPECT_GE(Count(heat, " (1)\""), 1u);  // red is u >= 4/5, so at least the links of u = 1
  EXPECT_GE(Count(heat, "color=\"#d73027\""), Count(heat, " (1)\""));
  EXPECT_EQ(Count(heat, "fillcolor=\"#f4a582\""), s["bottleneck_cut"].size());
  // Tree 0 of the first root: every hop of its routes is a highlighted edge, no other is.
  const std::string root = s["trees"][0]["root"];
  std::set<std::pair<std::string, std::string>> hops;
  for (const json& t : s["trees"]) {
    if (t["root"] != root) continue;
    for (const json& e : t["edges"]) {
      for (const json& route : e["routes"]) {
        for (std::size_t i = 0; i + 1 < route["path"].size(); ++i) {
          hops.insert(
              {route["path"][i].get<std::string>(), route["path"][i + 1].get<std::string>()});
        }
      }
    }
    break;
  }
  const std::string tree = TempPath("draw_tree.dot");
  r = RunCli({"draw", kTwoCluster, schedule, "-o", tree, "--tree", root + ":0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = ReadWholeFile(tree);
  std::size_t merged = 0;  // hop pairs drawn as one two-arrow edge
  for (const auto& [u, v] : hops) merged += (u < v && hops.count({v, u})) ? 1 : 0;
  EXPECT_EQ(Count(text, "penwidth=3"), hops.size() - merged);
  EXPECT_EQ(Count(text, "peripheries=2"), 1u);
  // and an SVG and a PNG render
  EXPECT_EQ(RunCli({"draw", kTwoCluster, schedule, "-o", TempPath("draw_tree.svg"), "--tree", root})
                .exit_code,
            0);
  auto png = RunCli({"draw", kTwoCluster, schedule, "-o", TempPath("draw_tree.png")});
  ASSERT_EQ(png.exit_code, 0) << png.err;
  EXPECT_EQ(ReadWholeFile(TempPath("draw_tree.png")).substr(0, 4), "\x89PNG");
}

TEST(DrawCliTest, BadInputIsOneLineAndExit2) {
  const std::string schedule = TempPath("draw_bad_schedule.json");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "-o", schedule}).exit_code, 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"draw", kTwoCluster, "-o", TempPath("x.pdf")}, "must end in .svg, .png or .dot"},
      {{"draw", kTwoCluster, "-o", TempPath("x.svg"), "--tree", "c11"}, "--tree: needs a schedule"},
      {{"draw", kTwoCluster, schedule, "-o", TempPath("x.svg"), "--tree", "nowhere"},
       "'nowhere' is not a compute node"},
      {{"draw", kTwoCluster, schedule, "-o", TempPath("x.svg"), "--tree", "c11:99"},
       "no tree 99 rooted at c11"},
      {{"draw", kTwoCluster, schedule, "-o", TempPath("x.svg"), "--cut"}, "--cut"},
  };
  for (const auto& [args, message] : cases) {
    auto r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(Count(r.err, "\n"), 1u) << r.err;
  }
}

}  // namespace
}  // namespace collsynth
