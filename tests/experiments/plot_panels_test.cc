// Figures with one panel per topology (experiments/outputs.h MakePlotFiles, docs/experiments.md
// "Definition format", `panels`): no line of the gnuplot script joins rows of different panels.
// The data blocks are split by (panel, group) and each panel's plot command draws its own
// blocks only; without `panels` the script is one plot with one block per group.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "experiments/outputs.h"

namespace collsynth::experiments {
namespace {

// Two topologies, two algorithms each, three sizes; the same algorithm name on both.
CsvTable Table() {
  CsvTable t;
  t.header = {"instance", "algorithm", "size_bytes", "time_us"};
  for (const std::string topo : {"torus(4,4)", "hypercube(4)", "ring(3)"}) {
    for (const std::string alg : {"bfb", "pipeline"}) {
      for (int size : {1024, 16384, 262144}) {
        const int us = static_cast<int>(topo.size()) * 100 + (alg == "bfb" ? 1 : 2) * size / 1024;
        t.rows.push_back({topo, alg, std::to_string(size), std::to_string(us)});
      }
    }
  }
  return t;
}

PlotSpec Spec(const std::string& panels) {
  PlotSpec p;
  p.file = "time.png";
  p.title = "time";
  p.x = "size_bytes";
  p.y = "time_us";
  p.group = "algorithm";
  p.panels = panels;
  return p;
}

// The "# header" line of each data block.
std::vector<std::string> BlockHeaders(const std::string& data) {
  std::vector<std::string> headers;
  std::istringstream in(data);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) headers.push_back(line.substr(2));
  }
  return headers;
}

// The block indices each `plot` command of the script draws, in order.
std::vector<std::vector<int>> PlotCommands(const std::string& script) {
  std::vector<std::vector<int>> commands;
  std::istringstream in(script);
  std::string line;
  const std::regex index(" index ([0-9]+)");
  while (std::getline(in, line)) {
    if (line.rfind("plot ", 0) == 0) commands.emplace_back();
    for (std::sregex_iterator m(line.begin(), line.end(), index), end; m != end; ++m) {
      commands.back().push_back(std::stoi((*m)[1]));
    }
  }
  return commands;
}

TEST(PlotPanelsTest, OnePanelPerInstanceAndNoLineAcrossThem) {
  const CsvTable t = Table();
  const PlotFiles f = MakePlotFiles(Spec("instance"), t);
  const std::vector<std::string> headers = BlockHeaders(f.data);
  ASSERT_EQ(headers.size(), 6u);  // 3 panels x 2 algorithms
  EXPECT_NE(f.script.find("set multiplot layout 2,2"), std::string::npos) << f.script;
  EXPECT_NE(f.script.find("unset multiplot"), std::string::npos);
  const std::vector<std::vector<int>> commands = PlotCommands(f.script);
  ASSERT_EQ(commands.size(), 3u);
  std::set<int> drawn;
  for (std::size_t p = 0; p < commands.size(); ++p) {
    std::set<std::string> panels;
    for (int i : commands[p]) {
      ASSERT_LT(i, static_cast<int>(headers.size()));
      panels.insert(headers[i].substr(0, headers[i].find(" / ")));
      EXPECT_TRUE(drawn.insert(i).second) << "block " << i << " drawn twice";
    }
    EXPECT_EQ(panels.size(), 1u) << "plot " << p << " joins panels";
  }
  EXPECT_EQ(drawn.size(), headers.size());
  // Each block holds exactly its (instance, algorithm) rows: three sizes.
  std::map<std::string, int> points;
  std::string current;
  std::istringstream in(f.data);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) {
      current = line.substr(2);
    } else if (!line.empty()) {
      ++points[current];
    }
  }
  for (const std::string& h : headers) EXPECT_EQ(points[h], 3) << h;
  EXPECT_EQ(headers[0], "torus(4,4) / bfb");
  EXPECT_EQ(headers[5], "ring(3) / pipeline");
}

TEST(PlotPanelsTest, WithoutPanelsOneBlockPerGroupAcrossInstances) {
  const PlotFiles f = MakePlotFiles(Spec(""), Table());
  EXPECT_EQ(BlockHeaders(f.data), (std::vector<std::string>{"bfb", "pipeline"}));
  EXPECT_EQ(f.script.find("multiplot"), std::string::npos);
  ASSERT_EQ(PlotCommands(f.script).size(), 1u);
  EXPECT_EQ(PlotCommands(f.script)[0], (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace collsynth::experiments
