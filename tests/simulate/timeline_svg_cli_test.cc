// `collsynth simulate --timeline-svg` (docs/simulate.md "Timeline picture"): the Gantt chart
// has one row per link that carried bytes and one bar per (transfer, link) of the simulation,
// with the exact start and end of the timeline CSV of the same run and an x position and width
// proportional to them; bars of one tree (one step) share a colour, different ones differ.
// The SVG is read here by plain text search, independently of the command's tinyxml2 check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/rational.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::ReadWholeFile;
using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;

const std::string kRing = SourcePath("experiments/topologies/ring8.txt");
const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

// (transfer, from, to, start, end): one bar, exact times as "p/q".
using Bar = std::tuple<int, std::string, std::string, std::string, std::string>;

struct CsvRow {
  Bar bar;
  std::string colour_key;  // the step or tree (with its phase), or the sending gpu of the row
};

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  std::string x;
  while (std::getline(ss, x, ',')) f.push_back(x);
  if (!line.empty() && line.back() == ',') f.push_back("");
  return f;
}

// The rows of a timeline CSV (node names without commas).
std::vector<CsvRow> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header = SplitCsv(line);
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  std::vector<CsvRow> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = SplitCsv(line);
    CsvRow r;
    r.bar = {std::stoi(f[col["transfer"]]), f[col["from"]], f[col["to"]], f[col["start_exact"]],
             f[col["end_exact"]]};
    if (col.count("gpu")) {
      r.colour_key = f[col["gpu"]];  // MSCCL XML
    } else if (col.count("step")) {
      r.colour_key = f[col["phase"]] + "/" + f[col["step"]] + "/" + f[col["tree"]];
    }  // an all-to-all flows timeline has neither: its colours are not compared
    rows.push_back(r);
  }
  return rows;
}

std::string Attr(const std::string& element, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t at = element.find(key);
  if (at == std::string::npos) return "";
  const std::size_t begin = at + key.size();
  return element.substr(begin, element.find('"', begin) - begin);
}

struct SvgBar {
  Bar bar;
  double x, width, row_x, row_width;
  std::string fill;
};

struct Svg {
  std::vector<std::pair<std::string, std::string>> rows;
  std::vector<SvgBar> bars;
};

Svg ReadSvg(const std::string& path) {
  const std::string text = ReadWholeFile(path);
  Svg svg;
  const std::string open = "<g class=\"row\"";
  for (std::size_t at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
    const std::size_t end = text.find("</g>", at);
    const std::string row = text.substr(at, end - at);
    const std::string head = row.substr(0, row.find('>'));
    const std::string from = Attr(head, "data-from"), to = Attr(head, "data-to");
    svg.rows.push_back({from, to});
    const std::size_t bg = row.find("<rect");
    const std::string bg_rect = row.substr(bg, row.find('>', bg) - bg);
    const std::string bar_open = "<rect class=\"bar\"";
    for (std::size_t b = row.find(bar_open); b != std::string::npos;
         b = row.find(bar_open, b + 1)) {
      const std::string r = row.substr(b, row.find('>', b) - b);
      svg.bars.push_back({{std::stoi(Attr(r, "data-transfer")), from, to, Attr(r, "data-start"),
                           Attr(r, "data-end")},
                          std::stod(Attr(r, "x")),
                          std::stod(Attr(r, "width")),
                          std::stod(Attr(bg_rect, "x")),
                          std::stod(Attr(bg_rect, "width")),
                          Attr(r, "fill")});
    }
  }
  return svg;
}

// Runs the simulation with both outputs and compares the picture with the CSV's rows.
void ExpectChartIsTheTimeline(std::vector<std::string> args, const std::string& name,
                              bool compare_colours = true) {
  const std::string csv = TempPath(name + ".csv"), svg_path = TempPath(name + ".svg");
  args.insert(args.begin(), "simulate");
  args.insert(args.end(), {"--timeline", csv, "--timeline-svg", svg_path});
  testing::CliResult r = RunCli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::ifstream(svg_path + ".partial").good());
  const std::vector<CsvRow> rows = ReadCsv(csv);
  const Svg svg = ReadSvg(svg_path);
  ASSERT_FALSE(rows.empty());
  // One bar per CSV row, with the same transfer, link and exact times.
  std::multiset<Bar> want, got;
  for (const CsvRow& row : rows) want.insert(row.bar);
  for (const SvgBar& b : svg.bars) got.insert(b.bar);
  EXPECT_EQ(got, want);
  // Rows: the links used, each once.
  std::set<std::pair<std::string, std::string>> links, row_set(svg.rows.begin(), svg.rows.end());
  for (const CsvRow& row : rows) links.insert({std::get<1>(row.bar), std::get<2>(row.bar)});
  EXPECT_EQ(row_set, links);
  EXPECT_EQ(svg.rows.size(), links.size());
  // Positions: x and width are the exact times scaled by the latest end to the row's width.
  Rational last = 0;
  for (const CsvRow& row : rows) last = std::max(last, ParseRational(std::get<4>(row.bar)));
  ASSERT_GT(last, 0);
  for (const SvgBar& b : svg.bars) {
    const double start = (ParseRational(std::get<3>(b.bar)) / last).convert_to<double>();
    const double end = (ParseRational(std::get<4>(b.bar)) / last).convert_to<double>();
    EXPECT_NEAR(b.x, b.row_x + start * b.row_width, 1e-3) << std::get<0>(b.bar);
    EXPECT_NEAR(b.width, (end - start) * b.row_width, 1e-3) << std::get<0>(b.bar);
  }
  if (!compare_colours) return;
  // Colours: one per step or tree (fewer than the palette's 10 here).
  std::map<int, std::string> key_of_transfer;
  std::set<std::string> keys;
  for (const CsvRow& row : rows) {
    key_of_transfer[std::get<0>(row.bar)] = row.colour_key;
    keys.insert(row.colour_key);
  }
  ASSERT_LE(keys.size(), 10u);
  std::map<std::string, std::string> fill_of_key;
  std::set<std::string> fills;
  for (const SvgBar& b : svg.bars) {
    const std::string& key = key_of_transfer.at(std::get<0>(b.bar));
    auto [it, inserted] = fill_of_key.emplace(key, b.fill);
    EXPECT_EQ(it->second, b.fill) << key;
    fills.insert(b.fill);
  }
  EXPECT_EQ(fills.size(), keys.size());
}

TEST(TimelineSvgCliTest, StepScheduleBarsAreTheCsvRows) {
  const std::string sched = TempPath("tl_ring8_uniring.json");
  ASSERT_EQ(RunCli({"baseline", "uniring", kRing, "-o", sched}).exit_code, 0);
  ExpectChartIsTheTimeline({kRing, sched, "--size", "8000", "--alpha", "1us"}, "tl_ring");
}

TEST(TimelineSvgCliTest, CutThroughPipelineBarsAreTheCsvRows) {
  // Cut-through: a transfer holds every link of its route, one bar on each.
  const std::string sched = TempPath("tl_tc_pipeline.json");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "-o", sched, "--no-symmetric"}).exit_code, 0);
  ExpectChartIsTheTimeline({kTwoCluster, sched, "--size", "1MB", "--chunks", "3", "--alpha", "1us",
                            "--switch-model", "cut-through"},
                           "tl_tc_ct");
  // The legend names each tree by its root, in the schedule's order.
  const nlohmann::json s = nlohmann::json::parse(ReadWholeFile(sched));
  const std::string svg = ReadWholeFile(TempPath("tl_tc_ct.svg"));
  ASSERT_FALSE(s["trees"].empty());
  for (std::size_t i = 0; i < s["trees"].size(); ++i) {
    const std::string key = ">tree " + std::to_string(i) + " (root " +
                            s["trees"][i]["root"].get<std::string>() + ")</text>";
    EXPECT_NE(svg.find(key), std::string::npos) << key;
  }
}

// An all-to-all flows schedule (docs/simulate.md "All-to-all flows"): the certified optimum's
// paths, P = 2 chunks, store-and-forward: every (pair, path, chunk, hop) transfer is one bar.
TEST(TimelineSvgCliTest, AlltoallFlowsBarsAreTheCsvRows) {
  const std::string sched = TempPath("tl_tc_flows.json");
  ASSERT_EQ(RunCli({"optimum", kTwoCluster, "--collective", "alltoall", "-o", sched}).exit_code, 0);
  ExpectChartIsTheTimeline({kTwoCluster, sched, "--size", "1MB", "--chunks", "2", "--alpha", "1us"},
                           "tl_tc_flows", false);
}

TEST(TimelineSvgCliTest, MscclXmlBarsAreTheCsvRowsColouredByGpu) {
  const std::string sched = TempPath("tl_tc_msccl.json"), xml = TempPath("tl_tc_msccl.xml");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "-o", sched, "--no-symmetric"}).exit_code, 0);
  ASSERT_EQ(RunCli({"export", "msccl", kTwoCluster, sched, "-o", xml}).exit_code, 0);
  ExpectChartIsTheTimeline({kTwoCluster, xml, "--size", "1MB", "--chunks", "2", "--routes",
                            TempPath("tl_tc_msccl.routes.json")},
                           "tl_tc_msccl");
}

// The picture as a person's SVG viewer sees it: librsvg (through gdk-pixbuf's thumbnailer, when
// installed) renders it to a PNG whose height follows the SVG's aspect ratio.
TEST(TimelineSvgCliTest, LibrsvgRendersThePicture) {
  if (std::system("command -v gdk-pixbuf-thumbnailer > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "gdk-pixbuf-thumbnailer (librsvg) is not installed";
  }
  const std::string sched = TempPath("tl_ring8_render.json");
  ASSERT_EQ(RunCli({"baseline", "uniring", kRing, "-o", sched}).exit_code, 0);
  const std::string svg = TempPath("tl_render.svg"), png = TempPath("tl_render.png");
  ASSERT_EQ(RunCli({"simulate", kRing, sched, "--size", "8000", "--timeline-svg", svg}).exit_code,
            0);
  std::remove(png.c_str());
  ASSERT_EQ(std::system(("gdk-pixbuf-thumbnailer -s 800 '" + svg + "' '" + png + "'").c_str()), 0);
  const std::string bytes = ReadWholeFile(png);
  ASSERT_GE(bytes.size(), 24u);
  ASSERT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  const std::string text = ReadWholeFile(svg);
  const double width = std::stod(Attr(text.substr(text.find("<svg")), "width"));
  const double height = std::stod(Attr(text.substr(text.find("<svg")), "height"));
  EXPECT_EQ(be32(16), 800u);  // IHDR width: the longer side
  EXPECT_NEAR(be32(20), 800 * height / width, 1.5);
}

// The written picture is read back and compared with the simulation before it is renamed: a
// writer that drops a bar (COLLSYNTH_FAULT_INJECT=corrupt-output) is exit 1 and leaves no file;
// a write that fails as a full disk would is exit 1 too.
TEST(TimelineSvgCliTest, APictureThatDiffersFromTheSimulationIsNotWritten) {
  const std::string sched = TempPath("tl_ring8_corrupt.json");
  ASSERT_EQ(RunCli({"baseline", "uniring", kRing, "-o", sched}).exit_code, 0);
  for (const char* fault : {"corrupt-output", "write-error"}) {
    const std::string out = TempPath(std::string("tl_") + fault + ".svg");
    setenv("COLLSYNTH_FAULT_INJECT", fault, 1);
    testing::CliResult r =
        RunCli({"simulate", kRing, sched, "--size", "8000", "--timeline-svg", out});
    unsetenv("COLLSYNTH_FAULT_INJECT");
    EXPECT_EQ(r.exit_code, 1) << fault << ": " << r.err;
    EXPECT_NE(r.err.find(out + ".partial: "), std::string::npos) << r.err;
    if (std::string(fault) == "corrupt-output") {
      EXPECT_NE(r.err.find("misses bars"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::ifstream(out).good()) << fault;
    EXPECT_FALSE(std::ifstream(out + ".partial").good()) << fault;
  }
}

TEST(TimelineSvgCliTest, BadOutputNameIsExit2WithOneLine) {
  const std::string sched = TempPath("tl_ring8_bad.json");
  ASSERT_EQ(RunCli({"baseline", "uniring", kRing, "-o", sched}).exit_code, 0);
  const std::string out = TempPath("tl_bad.png");
  testing::CliResult r =
      RunCli({"simulate", kRing, sched, "--size", "8000", "--timeline-svg", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--timeline-svg"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::ifstream(out).good());
}

}  // namespace
}  // namespace collsynth
