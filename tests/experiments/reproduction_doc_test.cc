// docs/reproduction.md cannot rot: in every table of the page, each row's command
// column may only name experiments that exist (`experiment run NAME` -> experiments/NAME.json)
// and registered sweeps (`collsynth prove NAME`), its command and shipped-output columns may
// only cite paths under notebooks_data/ that exist, and its verdict is one of the five the
// page defines. Rows marked "in progress" (work of other sessions, fixed at merge) are skipped
// for the existence checks. Every experiment definition and every shipped output folder must
// be mentioned somewhere on the page. Reads files only: well under a second.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "experiments/sweeps/sweep.h"
#include "test_util.h"

namespace collsynth::experiments {
namespace {

namespace fs = std::filesystem;
using ::collsynth::testing::SourcePath;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Cells of a Markdown table row "| a | b |" (outer pipes dropped, cells trimmed).
std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cur;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|') {
      cells.push_back(cur);
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  for (auto& c : cells) {
    c.erase(0, c.find_first_not_of(" \t"));
    c.erase(c.find_last_not_of(" \t") + 1);
  }
  return cells;
}

int Column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> Matches(const std::string& text, const std::regex& re) {
  std::vector<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
    out.push_back((*it)[1].str());
  return out;
}

// One line per problem of the page `text`; `root` holds experiments/ and notebooks_data/.
std::vector<std::string> ReproductionProblems(const std::string& text, const fs::path& root,
                                              const std::set<std::string>& sweeps) {
  static const std::regex kExperiment("experiment run ([A-Za-z0-9_-]+)");
  static const std::regex kSweep("collsynth prove ([A-Za-z0-9_-]+)");
  static const std::regex kPath("(notebooks_data/[A-Za-z0-9_./-]+)");
  static const std::vector<std::string> kVerdicts = {"exact", "to the printed digit", "differs",
                                                     "not regenerable", "in progress"};
  std::vector<std::string> problems;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  int line_no = 0, rows = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string where = "line " + std::to_string(line_no) + ": ";
    if (line.empty() || line[0] != '|') {
      header.clear();
      continue;
    }
    std::vector<std::string> cells = Cells(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    if (line.rfind("|---", 0) == 0) continue;
    const int cmd = Column(header, "command"), out = Column(header, "shipped output"),
              verdict = Column(header, "verdict");
    if (cmd < 0 || out < 0 || verdict < 0) continue;  // not a reproduction table
    ++rows;
    if (cells.size() != header.size()) {
      problems.push_back(where + std::to_string(cells.size()) + " cells, the header has " +
                         std::to_string(header.size()) + " (a '|' inside a cell?)");
      continue;
    }
    std::string v = cells[verdict];
    v.erase(0, v.find_first_not_of("* "));
    bool known = false;
    for (const auto& k : kVerdicts) known |= v.rfind(k, 0) == 0;
    if (!known) problems.push_back(where + "verdict \"" + cells[verdict] + "\" is not one of five");
    if (line.find("in progress") != std::string::npos) continue;
    for (const auto& name : Matches(cells[cmd], kExperiment)) {
      if (!fs::exists(root / "experiments" / (name + ".json")))
        problems.push_back(where + "experiment " + name + " has no experiments/" + name + ".json");
    }
    for (const auto& name : Matches(cells[cmd], kSweep)) {
      if (!sweeps.count(name)) problems.push_back(where + "sweep " + name + " is not registered");
    }
    for (const auto& cell : {cells[cmd], cells[out]}) {
      for (std::string path : Matches(cell, kPath)) {
        while (!path.empty() && path.back() == '.') path.pop_back();
        if (!fs::exists(root / path)) problems.push_back(where + path + " does not exist");
      }
    }
  }
  if (rows == 0) problems.push_back("no reproduction table found");
  // Coverage: every definition and every shipped output is mentioned.
  for (const char* dir : {"experiments", "notebooks_data"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& e : fs::directory_iterator(root / dir)) {
      std::string name = e.path().filename().string();
      if (std::string(dir) == "experiments") {
        if (e.path().extension() != ".json") continue;
        name = e.path().stem().string();
      } else if (!e.is_directory()) {
        continue;
      }
      if (!std::regex_search(text, std::regex("(^|[^A-Za-z0-9-])" + name + "($|[^A-Za-z0-9-])")))
        problems.push_back(std::string(dir) + "/" + name + " is not mentioned on the page");
    }
  }
  return problems;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "\n  " + l;
  return s;
}

std::set<std::string> SweepNames() {
  std::set<std::string> names;
  for (const auto& s : sweeps::AllSweeps()) names.insert(s.name);
  return names;
}

TEST(ReproductionDoc, EveryCitedExperimentSweepAndOutputExists) {
  const std::string text = ReadAll(SourcePath("docs/reproduction.md"));
  ASSERT_FALSE(text.empty());
  std::vector<std::string> problems = ReproductionProblems(text, SourcePath(""), SweepNames());
  EXPECT_TRUE(problems.empty()) << "docs/reproduction.md:" << Joined(problems);
}

// The checker itself fails where it should: a missing experiment, sweep and path, a bad
// verdict, a row with a stray '|', an unmentioned definition; "in progress" rows are skipped.
TEST(ReproductionDoc, CheckerCatchesEachKindOfRot) {
  const fs::path root = fs::path(testing::TempPath("repro_root"));
  fs::create_directories(root / "experiments");
  fs::create_directories(root / "notebooks_data" / "alpha");
  std::ofstream(root / "experiments" / "alpha.json") << "{}";
  std::ofstream(root / "notebooks_data" / "alpha" / "results.csv") << "x\n";
  const std::string head =
      "| item | paper | command | shipped output | verdict |\n|---|---|---|---|---|\n";
  const std::string good =
      "| a | 1 | `collsynth experiment run alpha`; `collsynth prove s000-thm1` | "
      "`notebooks_data/alpha/results.csv` | exact |\n";
  EXPECT_EQ(ReproductionProblems(head + good, root, SweepNames()), std::vector<std::string>{});
  auto one = [&](const std::string& row) {
    std::vector<std::string> p = ReproductionProblems(head + good + row, root, SweepNames());
    return p.size() == 1 ? p[0] : "got " + std::to_string(p.size()) + " problems:" + Joined(p);
  };
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run beta` | — | exact |\n"),
            "line 4: experiment beta has no experiments/beta.json");
  EXPECT_EQ(one("| b | 2 | `collsynth prove s999-none` | — | exact |\n"),
            "line 4: sweep s999-none is not registered");
  EXPECT_EQ(one("| b | 2 | — | `notebooks_data/alpha/gone.png` | exact |\n"),
            "line 4: notebooks_data/alpha/gone.png does not exist");
  EXPECT_EQ(one("| b | 2 | — | — | probably fine |\n"),
            "line 4: verdict \"probably fine\" is not one of five");
  EXPECT_EQ(one("| b | a | b | — | — | exact |\n"),
            "line 4: 6 cells, the header has 5 (a '|' inside a cell?)");
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run beta` | `notebooks_data/beta/x.csv` | "
                "in progress: beta |\n"),
            "got 0 problems:");
  std::ofstream(root / "experiments" / "gamma.json") << "{}";
  EXPECT_EQ(ReproductionProblems(head + good, root, SweepNames()),
            std::vector<std::string>{"experiments/gamma is not mentioned on the page"});
}

}  // namespace
}  // namespace collsynth::experiments
