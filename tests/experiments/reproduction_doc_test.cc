// docs/reproduction.md and docs/errata.md cannot rot. In every table of
// reproduction.md, each row's command column may only name experiments that exist
// (`experiment run NAME` -> experiments/NAME.json) and registered sweeps (`collsynth prove NAME`),
// its command and shipped-output columns may only cite paths under notebooks_data/ that exist,
// and its verdict is one of the seven the page defines. A verdict that claims exactness
// ("reproduced", or the word "exact") must say what was compared: a registered sweep, a named
// test (a tests/ path or a Suite.Name that is a TEST in tests/), or an experiment whose shipped
// results.csv has a comparison column (matches_*, fits_*, paper*, expected*, holds, *_holds,
// within_bound). Rows marked "in progress" (work of other sessions, fixed at merge) are skipped
// for the existence checks. Every experiment definition and every shipped output folder must be
// mentioned somewhere on the page. Every errata.md entry carries the paper's words in quotes,
// our reading, the alternatives, a command, a test that exists and a verdict. Reads files only:
// well under a second.
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

// The page's verdicts: a row's verdict starts with one of these (after bold markers).
const std::vector<std::string>& Verdicts() {
  static const std::vector<std::string> v = {"reproduced", "to the printed digit", "shape only",
                                             "consistent", "not regenerable",      "differs",
                                             "in progress"};
  return v;
}

// A header cell that compares with the paper (or with a stated expectation).
bool IsComparisonColumn(const std::string& column) {
  static const std::regex kCompare(
      "matches_.*|fits_.*|paper.*|expected.*|holds|.*_holds|within_bound|counterexamples");
  return std::regex_match(column, kCompare);
}

// The header of notebooks_data/NAME/results.csv under `root` (empty when not shipped).
std::vector<std::string> CsvHeader(const fs::path& root, const std::string& name) {
  std::ifstream in(root / "notebooks_data" / name / "results.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> cells;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      cells.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  if (!line.empty()) cells.push_back(cur);
  return cells;
}

// "Suite.Name" of every TEST / TEST_F / TEST_P under root/tests (recursively).
std::set<std::string> TestNames(const fs::path& root) {
  std::set<std::string> names;
  if (!fs::exists(root / "tests")) return names;
  static const std::regex kTest("TEST(?:_F|_P)?\\(\\s*([A-Za-z0-9_]+),\\s*([A-Za-z0-9_]+)\\)");
  for (const auto& e : fs::recursive_directory_iterator(root / "tests")) {
    if (e.path().extension() != ".cc") continue;
    const std::string text = ReadAll(e.path().string());
    for (std::sregex_iterator it(text.begin(), text.end(), kTest), end; it != end; ++it)
      names.insert((*it)[1].str() + "." + (*it)[2].str());
  }
  return names;
}

struct DocContext {
  fs::path root;                 // holds experiments/, notebooks_data/, tests/
  std::set<std::string> sweeps;  // registered sweep names
  std::set<std::string> tests;   // Suite.Name under root/tests
};

// Test references of a text: `Suite.Name` (or `Suite.*`) in backticks, and tests/ paths.
// Missing ones are problems; returns whether at least one exists.
bool CitesTests(const std::string& text, const DocContext& ctx, const std::string& where,
                std::vector<std::string>& problems) {
  static const std::regex kName("`([A-Z][A-Za-z0-9_]*)\\.([A-Z][A-Za-z0-9_]*|\\*)`");
  static const std::regex kTestPath("(tests/[A-Za-z0-9_./-]+\\.(?:cc|h|json|txt))");
  bool any = false;
  for (std::sregex_iterator it(text.begin(), text.end(), kName), end; it != end; ++it) {
    const std::string suite = (*it)[1].str(), name = (*it)[2].str();
    bool found = false;
    if (name == "*") {
      for (const auto& t : ctx.tests) found |= t.rfind(suite + ".", 0) == 0;
    } else {
      found = ctx.tests.count(suite + "." + name) > 0;
    }
    if (found) {
      any = true;
    } else if (!ctx.tests.empty()) {
      problems.push_back(where + "test " + suite + "." + name + " is not a TEST in tests/");
    }
  }
  for (const auto& path : Matches(text, kTestPath)) {
    if (fs::exists(ctx.root / path)) {
      any = true;
    } else {
      problems.push_back(where + path + " does not exist");
    }
  }
  return any;
}

// One line per problem of the page `text`.
std::vector<std::string> ReproductionProblems(const std::string& text, const DocContext& ctx) {
  static const std::regex kExperiment("experiment run ([A-Za-z0-9_-]+)");
  static const std::regex kSweep("collsynth prove ([A-Za-z0-9_-]+)");
  static const std::regex kPath("(notebooks_data/[A-Za-z0-9_./-]+)");
  static const std::regex kExactWord("(^|[^A-Za-z])exact($|[^A-Za-z])");
  const fs::path& root = ctx.root;
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
    for (const auto& k : Verdicts()) known |= v.rfind(k, 0) == 0;
    if (!known) {
      problems.push_back(where + "verdict \"" + cells[verdict] + "\" is not one of the " +
                         std::to_string(Verdicts().size()) + " defined");
    }
    if (line.find("in progress") != std::string::npos) continue;
    const std::vector<std::string> experiments = Matches(cells[cmd], kExperiment);
    const std::vector<std::string> sweeps = Matches(cells[cmd], kSweep);
    for (const auto& name : experiments) {
      if (!fs::exists(root / "experiments" / (name + ".json")))
        problems.push_back(where + "experiment " + name + " has no experiments/" + name + ".json");
    }
    for (const auto& name : sweeps) {
      if (!ctx.sweeps.count(name))
        problems.push_back(where + "sweep " + name + " is not registered");
    }
    for (const auto& cell : {cells[cmd], cells[out]}) {
      for (std::string path : Matches(cell, kPath)) {
        while (!path.empty() && path.back() == '.') path.pop_back();
        if (!fs::exists(root / path)) problems.push_back(where + path + " does not exist");
      }
    }
    const bool tests = CitesTests(line, ctx, where, problems);
    // A claim of exactness must name what was compared.
    if (v.rfind("reproduced", 0) == 0 || std::regex_search(v, kExactWord)) {
      bool compared = tests || !sweeps.empty();
      for (const auto& name : experiments) {
        for (const auto& column : CsvHeader(root, name)) compared |= IsComparisonColumn(column);
      }
      if (!compared) {
        problems.push_back(where + "\"" + v.substr(0, 40) + "\" claims exactness, but " +
                           (experiments.empty()
                                ? std::string("names no sweep, test or experiment")
                                : "no cited experiment's results.csv has a matches_paper, "
                                  "paper_* or expected* column, and no sweep or test is named"));
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

// errata.md: every level-2 section is an entry titled "Erratum: ", "Withdrawn: ",
// "Convention: " or "Note: ", except the closing pointer to the papers README; each entry has
// the bullets **Paper** (with a quotation), **Our reading**, **Alternatives considered**,
// **Command** (a command in backticks; experiments and sweeps named must exist), **Test** (at
// least one existing test) and **Verdict** (one of the page's verdicts), in this order.
std::vector<std::string> ErrataProblems(const std::string& text, const DocContext& ctx) {
  static const std::vector<std::string> kKinds = {
      "Erratum: ", "Withdrawn: ", "Convention: ", "Note: "};
  static const std::vector<std::string> kFields = {
      "**Paper**",   "**Our reading**", "**Alternatives considered**",
      "**Command**", "**Test**",        "**Verdict**"};
  static const std::string kPointer = "Reading slips kept in the papers README";
  static const std::regex kQuote("\"[^\"]{3,}\"|“[^”]{3,}”");
  static const std::regex kSection("§|Table|App\\.|Fig|Theorem|Thm|Algorithm|Conjecture");
  static const std::regex kExperiment("experiment run ([A-Za-z0-9_-]+)");
  static const std::regex kSweep("collsynth prove ([A-Za-z0-9_-]+)");
  std::vector<std::string> problems;
  // Split into sections at "## ".
  std::vector<std::pair<std::string, std::string>> sections;  // title, body
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      sections.emplace_back(line.substr(3), "");
    } else if (!sections.empty()) {
      sections.back().second += line + "\n";
    }
  }
  int entries = 0;
  for (const auto& [title, body] : sections) {
    if (title == kPointer) continue;
    const std::string where = "\"" + title.substr(0, 60) + "\": ";
    bool kind = false;
    for (const auto& k : kKinds) kind |= title.rfind(k, 0) == 0;
    if (!kind) {
      problems.push_back(where +
                         "title does not start with Erratum:, Withdrawn:, Convention: or Note:");
      continue;
    }
    ++entries;
    // The field texts, in order.
    std::vector<std::size_t> at;
    for (const auto& f : kFields) at.push_back(body.find("- " + f));
    bool all = true;
    for (std::size_t i = 0; i < kFields.size(); ++i) {
      if (at[i] == std::string::npos) {
        problems.push_back(where + "no " + kFields[i] + " bullet");
        all = false;
      } else if (i > 0 && at[i - 1] != std::string::npos && at[i] < at[i - 1]) {
        problems.push_back(where + kFields[i] + " comes before " + kFields[i - 1]);
        all = false;
      }
    }
    if (!all) continue;
    const std::string& text = body;  // a lambda cannot capture a structured binding (C++17)
    auto field = [&](std::size_t i) {
      return text.substr(at[i], (i + 1 < at.size() ? at[i + 1] : text.size()) - at[i]);
    };
    const std::string paper = field(0), command = field(3), test = field(4), verdict = field(5);
    if (!std::regex_search(paper, kQuote))
      problems.push_back(where + "**Paper** quotes nothing (\"...\" or “...”)");
    if (!std::regex_search(paper, kSection))
      problems.push_back(where + "**Paper** names no section, table, figure or theorem");
    if (command.find('`') == std::string::npos)
      problems.push_back(where + "**Command** has no command in backticks");
    for (const auto& name : Matches(command, kExperiment)) {
      if (!fs::exists(ctx.root / "experiments" / (name + ".json")))
        problems.push_back(where + "experiment " + name + " has no experiments/" + name + ".json");
    }
    for (const auto& name : Matches(command, kSweep)) {
      if (!ctx.sweeps.count(name))
        problems.push_back(where + "sweep " + name + " is not registered");
    }
    if (!CitesTests(test, ctx, where, problems))
      problems.push_back(where + "**Test** names no existing test");
    std::string v = verdict.substr(std::string("- **Verdict**").size());
    v.erase(0, v.find_first_not_of(": "));
    v = v.substr(0, v.find('\n'));
    bool known = false;
    for (const auto& k : Verdicts()) known |= v.rfind(k, 0) == 0;
    if (!known) problems.push_back(where + "verdict \"" + v.substr(0, 30) + "\" is not defined");
  }
  if (sections.empty()) problems.push_back("no errata entry found");
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

DocContext TreeContext() {
  DocContext ctx;
  ctx.root = SourcePath("");
  ctx.sweeps = SweepNames();
  ctx.tests = TestNames(ctx.root);
  return ctx;
}

TEST(ReproductionDoc, EveryCitedExperimentSweepAndOutputExists) {
  const std::string text = ReadAll(SourcePath("docs/reproduction.md"));
  ASSERT_FALSE(text.empty());
  const DocContext ctx = TreeContext();
  ASSERT_GT(ctx.tests.size(), 100u);  // the scan of tests/ works
  std::vector<std::string> problems = ReproductionProblems(text, ctx);
  EXPECT_TRUE(problems.empty()) << "docs/reproduction.md:" << Joined(problems);
}

TEST(ReproductionDoc, EveryErratumCarriesQuoteReadingCommandAndTest) {
  const std::string text = ReadAll(SourcePath("docs/errata.md"));
  ASSERT_FALSE(text.empty());
  std::vector<std::string> problems = ErrataProblems(text, TreeContext());
  EXPECT_TRUE(problems.empty()) << "docs/errata.md:" << Joined(problems);
}

// A fake tree for the checker tests: experiments alpha (results.csv with a matches_paper
// column) and delta (no comparison column), one test file with TEST(Suite, Name).
DocContext FakeTree(const std::string& name) {
  DocContext ctx;
  ctx.root = fs::path(testing::TempPath(name));
  fs::create_directories(ctx.root / "experiments");
  fs::create_directories(ctx.root / "notebooks_data" / "alpha");
  fs::create_directories(ctx.root / "notebooks_data" / "delta");
  fs::create_directories(ctx.root / "tests" / "x");
  std::ofstream(ctx.root / "experiments" / "alpha.json") << "{}";
  std::ofstream(ctx.root / "experiments" / "delta.json") << "{}";
  std::ofstream(ctx.root / "notebooks_data" / "alpha" / "results.csv") << "x,matches_paper\n";
  std::ofstream(ctx.root / "notebooks_data" / "delta" / "results.csv") << "x,ratio_to_bound\n";
  std::ofstream(ctx.root / "tests" / "x" / "a_test.cc") << "TEST(Suite, Name) {}\n";
  ctx.sweeps = SweepNames();
  ctx.tests = TestNames(ctx.root);
  return ctx;
}

// The checker itself fails where it should: a missing experiment, sweep and path, a bad
// verdict, a row with a stray '|', an unmentioned definition, "exact" or "reproduced" with
// nothing compared, a test that does not exist; "in progress" rows are skipped.
TEST(ReproductionDoc, CheckerCatchesEachKindOfRot) {
  DocContext ctx = FakeTree("repro_root");
  EXPECT_EQ(ctx.tests, std::set<std::string>{"Suite.Name"});
  const std::string head =
      "| item | paper | command | shipped output | verdict |\n|---|---|---|---|---|\n";
  const std::string good =
      "| a | 1 | `collsynth experiment run alpha`; `collsynth experiment run delta`; "
      "`collsynth prove s000-thm1` | `notebooks_data/alpha/results.csv` | reproduced: 3 = 3 |\n";
  EXPECT_EQ(ReproductionProblems(head + good, ctx), std::vector<std::string>{});
  auto one = [&](const std::string& row) {
    std::vector<std::string> p = ReproductionProblems(head + good + row, ctx);
    return p.size() == 1 ? p[0] : "got " + std::to_string(p.size()) + " problems:" + Joined(p);
  };
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run beta` | — | differs |\n"),
            "line 4: experiment beta has no experiments/beta.json");
  EXPECT_EQ(one("| b | 2 | `collsynth prove s999-none` | — | differs |\n"),
            "line 4: sweep s999-none is not registered");
  EXPECT_EQ(one("| b | 2 | — | `notebooks_data/alpha/gone.png` | consistent |\n"),
            "line 4: notebooks_data/alpha/gone.png does not exist");
  EXPECT_EQ(one("| b | 2 | — | — | probably fine |\n"),
            "line 4: verdict \"probably fine\" is not one of the 7 defined");
  // "exact" was a verdict before; it is not one now.
  EXPECT_EQ(one("| b | 2 | — | — | exact |\n").rfind("got 2 problems:", 0), 0u);
  EXPECT_EQ(one("| b | a | b | — | — | reproduced |\n"),
            "line 4: 6 cells, the header has 5 (a '|' inside a cell?)");
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run beta` | `notebooks_data/beta/x.csv` | "
                "in progress: beta |\n"),
            "got 0 problems:");
  // Exactness claimed on an experiment with no comparison column, or on nothing at all.
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run delta` | — | reproduced: 1 |\n"),
            "line 4: \"reproduced: 1\" claims exactness, but no cited experiment's results.csv "
            "has a matches_paper, paper_* or expected* column, and no sweep or test is named");
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run delta` | — | shape only: exact ratio |\n"),
            "line 4: \"shape only: exact ratio\" claims exactness, but no cited experiment's "
            "results.csv has a matches_paper, paper_* or expected* column, and no sweep or test "
            "is named");
  EXPECT_EQ(one("| b | 2 | `collsynth bfb g.json` | — | reproduced |\n"),
            "line 4: \"reproduced\" claims exactness, but names no sweep, test or experiment");
  // The same claims pass with a comparison column, a sweep or an existing test ...
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run alpha` | — | reproduced: 1 |\n"),
            "got 0 problems:");
  EXPECT_EQ(one("| b | 2 | `collsynth experiment run delta` | — (`Suite.Name`) | reproduced |\n"),
            "got 0 problems:");
  EXPECT_EQ(one("| b | 2 | `collsynth bfb g.json` | — (tests/x/a_test.cc) | reproduced |\n"),
            "got 0 problems:");
  // ... but not with a test that does not exist.
  EXPECT_EQ(one("| b | 2 | `collsynth bfb g.json` | — (`Suite.Gone`) | consistent |\n"),
            "line 4: test Suite.Gone is not a TEST in tests/");
  EXPECT_EQ(one("| b | 2 | `collsynth bfb g.json` | — (tests/x/gone_test.cc) | consistent |\n"),
            "line 4: tests/x/gone_test.cc does not exist");
  std::ofstream(ctx.root / "experiments" / "gamma.json") << "{}";
  EXPECT_EQ(ReproductionProblems(head + good, ctx),
            std::vector<std::string>{"experiments/gamma is not mentioned on the page"});
}

// The errata checker: a complete entry passes; each missing or wrong field is named.
TEST(ReproductionDoc, ErrataCheckerCatchesIncompleteEntries) {
  const DocContext ctx = FakeTree("errata_root");
  const std::string entry =
      "## Erratum: a slip\n"
      "- **Paper** (Table 1): \"the value is 3\".\n"
      "- **Our reading**: 4.\n"
      "- **Alternatives considered**: none gives 3.\n"
      "- **Command**: `collsynth experiment run alpha`.\n"
      "- **Test**: `Suite.Name` (tests/x/a_test.cc).\n"
      "- **Verdict**: differs: 4.\n";
  const std::string pointer = "## Reading slips kept in the papers README\ntext\n";
  EXPECT_EQ(ErrataProblems(entry + pointer, ctx), std::vector<std::string>{});
  auto one = [&](const std::string& from, const std::string& to) {
    std::string e = entry;
    e.replace(e.find(from), from.size(), to);
    std::vector<std::string> p = ErrataProblems(e + pointer, ctx);
    return p.size() == 1 ? p[0] : "got " + std::to_string(p.size()) + " problems:" + Joined(p);
  };
  struct Mutation {
    const char *from, *to, *problem;
  };
  const std::string prefix = "\"Erratum: a slip\": ";
  for (const Mutation& m : std::vector<Mutation>{
           {"Erratum: a slip", "A slip",
            "\"A slip\": title does not start with Erratum:, Withdrawn:, Convention: or Note:"},
           {"\"the value is 3\"", "the value is 3", "**Paper** quotes nothing (\"...\" or “...”)"},
           {"(Table 1)", "", "**Paper** names no section, table, figure or theorem"},
           {"- **Alternatives considered**: none gives 3.\n", "",
            "no **Alternatives considered** bullet"},
           {"`collsynth experiment run alpha`", "none", "**Command** has no command in backticks"},
           {"run alpha", "run beta", "experiment beta has no experiments/beta.json"},
           {"`Suite.Name` (tests/x/a_test.cc)", "none", "**Test** names no existing test"},
           {"differs: 4", "wrong", "verdict \"wrong.\" is not defined"}}) {
    const std::string want = m.problem[0] == '"' ? m.problem : prefix + m.problem;
    EXPECT_EQ(one(m.from, m.to), want) << m.from;
  }
}

}  // namespace
}  // namespace collsynth::experiments
