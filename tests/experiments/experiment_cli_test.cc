// `collsynth experiment` end to end through the real binary: outputs, byte-identical CSV
// (time columns aside) across runs and --jobs, meta.json contents, plots, bad input.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/json_io.h"
#include "experiments/csv_table.h"
#include "experiments/definition.h"
#include "experiments/shards.h"
#include "test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::RunCli;
using ::collsynth::testing::RunCliIn;
using ::collsynth::testing::SourcePath;
using ::collsynth::testing::TempPath;
using ::collsynth::testing::WriteTempFile;

const char* kDefinition = R"json({
  "name": "tiny-compare",
  "title": "tiny",
  "kind": "collective-compare",
  "params": {
    "collective": "allgather",
    "cases": [
      {"topology": "torus(3,3)", "algorithms": ["bfb", "baseline:torus", "pipeline"]},
      {"topology": "biring(2,6)", "algorithms": ["baseline:biring-bfb", "bfb"]}
    ],
    "workloads": [{"name": "1MB", "alpha_us": "10", "bytes": "1000000", "gbps": "100"}]
  },
  "plots": [{"file": "tb.png", "title": "T_B", "x": "instance", "y": "tb_decimal",
             "group": "algorithm", "style": "boxes"}],
  "readme": ["A tiny comparison."]
})json";

std::string Slurp(const std::string& path) { return ReadTextFile(path); }

TEST(ExperimentCli, RunWritesCheckedReproducibleOutputs) {
  const std::string def = WriteTempFile("tiny-compare.json", kDefinition);
  const std::string out1 = TempPath("run1"), out2 = TempPath("run2");
  auto r1 = RunCli({"experiment", "run", def, "--out", out1});
  ASSERT_EQ(r1.exit_code, 0) << r1.err << r1.out;
  EXPECT_NE(r1.out.find(out1), std::string::npos);  // says where the outputs are
  auto r2 = RunCli({"experiment", "run", def, "--out", out2, "--jobs", "2", "--no-plots"});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;

  const CsvTable t1 = ParseCsv(Slurp(out1 + "/results.csv"), "run1");
  const CsvTable t2 = ParseCsv(Slurp(out2 + "/results.csv"), "run2");
  EXPECT_EQ(FormatCsv(StripTimeColumns(t1)), FormatCsv(StripTimeColumns(t2)));
  ASSERT_EQ(t1.rows.size(), 5u);
  const int alg = t1.Column("algorithm"), tl = t1.Column("tl"), tb = t1.Column("tb"),
            lb = t1.Column("lower_bound"), ver = t1.Column("verified"),
            ratio = t1.Column("ratio_to_bound");
  // torus(3,3): 9 nodes, degree 4; BFB allgather is BW optimal (Thm 13): T_B = (N-1)/d = 2
  // shard units, T_L = diameter = 2; the pipeline optimum equals the cut bound 8/4 = 2.
  EXPECT_EQ(t1.rows[0][alg], "bfb");
  EXPECT_EQ(t1.rows[0][tl], "2");
  EXPECT_EQ(t1.rows[0][tb], "2");
  EXPECT_EQ(t1.rows[0][lb], "2");
  EXPECT_EQ(t1.rows[0][ratio], "1");
  EXPECT_EQ(t1.rows[2][alg], "pipeline");
  EXPECT_EQ(t1.rows[2][tb], "2");
  // Bidirectional ring of 6 with the BFB ring schedule: T_L = floor(6/2) = 3, T_B = 5/2.
  EXPECT_EQ(t1.rows[3][tl], "3");
  EXPECT_EQ(t1.rows[3][tb], "5/2");
  for (const auto& row : t1.rows) EXPECT_EQ(row[ver], "yes");

  const auto meta = ParseJsonText(Slurp(out1 + "/meta.json"), "meta.json");
  EXPECT_TRUE(meta["environment"].contains("git_commit"));
  EXPECT_EQ(meta["environment"]["libraries"]["lemon"], "1.3.1");
  EXPECT_EQ(meta["params"]["collective"], "allgather");
  EXPECT_EQ(meta["rows"], 5);
  // Every run records the hash the provenance test compares with the tree.
  EXPECT_EQ(meta["definition_hash"], DefinitionHash(LoadExperimentDefinition(def)));
  const auto nb = ParseJsonText(Slurp(out1 + "/tiny-compare.ipynb"), "nb");
  EXPECT_EQ(nb["nbformat"], 4);
  EXPECT_NE(Slurp(out1 + "/README.md").find("A tiny comparison."), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out1 + "/tb.gp"));
  EXPECT_TRUE(std::filesystem::exists(out1 + "/tb.png")) << r1.err;  // gnuplot from setup.sh

  // report re-renders from the CSV without recomputing.
  auto rep = RunCli({"experiment", "report", def, "--out", out2, "--no-plots"});
  EXPECT_EQ(rep.exit_code, 0) << rep.err;
  EXPECT_NE(rep.out.find("torus(3,3)"), std::string::npos);
}

TEST(ExperimentCli, BadInputIsExit2NamingFileAndItem) {
  auto unknown = RunCli({"experiment", "run", "no-such-experiment"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no-such-experiment"), std::string::npos);

  std::string bad = kDefinition;
  bad.replace(bad.find("\"bfb\""), 5, "\"magic\"");
  const std::string path = WriteTempFile("tiny-compare.json", bad);
  auto r = RunCli({"experiment", "run", path, "--out", TempPath("bad")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("magic"), std::string::npos) << r.err;

  const std::string malformed = WriteTempFile("broken.json", "{\"name\": \"broken\", ");
  EXPECT_EQ(RunCli({"experiment", "run", malformed}).exit_code, 2);
  auto no_results = RunCli({"experiment", "report", WriteTempFile("tiny-compare.json", kDefinition),
                            "--out", TempPath("never-run")});
  EXPECT_EQ(no_results.exit_code, 2);
  EXPECT_NE(no_results.err.find("no results yet"), std::string::npos);
}

// A mistyped parameter is exit 2 naming the definition file and the key (it was an nlohmann
// type_error, exit 3); a bad topology expression names the key that holds it (it named only
// "<expr>"), and both are reported before anything runs or is written.
TEST(ExperimentCli, BadParameterIsExit2NamingTheDefinitionAndTheKey) {
  struct Case {
    std::string from, to, line_prefix;
  };
  const std::vector<Case> cases = {
      {R"("collective": "allgather")", R"("collective": [])",
       "params.collective: expected a string, got an array"},
      {R"j("topology": "torus(3,3)")j", R"j("topology": "torus(2,2")j",
       "params.cases[0].topology: 'torus(2,2' column 10: "},
      {R"j("topology": "biring(2,6)")j", R"j("topology": "nosuchfamily(3)")j",
       "params.cases[1].topology: "},
      {R"("alpha_us": "10")", R"("alpha_us": true)",
       "params.workloads[0].alpha_us: expected an integer or a \"p/q\" / decimal string, got a "
       "boolean"},
  };
  for (const auto& c : cases) {
    std::string text = kDefinition;
    text.replace(text.find(c.from), c.from.size(), c.to);
    const std::string path = WriteTempFile("tiny-compare.json", text);
    const std::string out = TempPath("bad-param-out");
    std::filesystem::remove_all(out);
    const auto r = RunCli({"experiment", "run", path, "--out", out, "--no-plots"});
    EXPECT_EQ(r.exit_code, 2) << c.to << ": " << r.err;
    EXPECT_EQ(r.err.rfind("collsynth: " + path + ": " + c.line_prefix, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out + "/results.csv")) << c.to;
  }
}

// A plot naming a column the kind's CSV cannot have is exit 2 when the definition is read:
// before anything runs or is written, with or without --no-plots (it was reported only after
// the whole run had written its files).
TEST(ExperimentCli, PlotNamingAnUnknownColumnIsExit2BeforeRunning) {
  for (const std::string& bad : {std::string(R"("y": "tb_decimals")"),
                                 std::string(R"("y": "tb_decimal", "where": {"colective": "x"})"),
                                 std::string(R"("y": "tb_decimal", "panels": "instanse")")}) {
    std::string text = kDefinition;
    text.replace(text.find(R"("y": "tb_decimal")"), 17, bad);
    const std::string path = WriteTempFile("tiny-compare.json", text);
    for (const bool no_plots : {true, false}) {
      const std::string out = TempPath("bad-plot-out");
      std::filesystem::remove_all(out);
      std::vector<std::string> args = {"experiment", "run", path, "--out", out};
      if (no_plots) args.push_back("--no-plots");
      const auto r = RunCli(args);
      EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
      const std::string item = bad.find("where") != std::string::npos
                                   ? "plots[0].where.colective: no CSV column 'colective'"
                                   : (bad.find("panels") != std::string::npos
                                          ? "plots[0].panels: no CSV column 'instanse'"
                                          : "plots[0].y: no CSV column 'tb_decimals'");
      EXPECT_EQ(r.err.rfind("collsynth: " + path + ": " + item +
                                " in an experiment of kind collective-compare (columns: instance, ",
                            0),
                0u)
          << r.err;
      EXPECT_FALSE(std::filesystem::exists(out)) << "something was written";
      EXPECT_TRUE(r.out.empty()) << r.out;
    }
  }
  // Columns named from the parameters (time_us_<workload>) are known before the run.
  std::string ok = kDefinition;
  ok.replace(ok.find(R"("y": "tb_decimal")"), 17, R"("y": "time_us_1MB")");
  const std::string out = TempPath("workload-plot-out");
  std::filesystem::remove_all(out);
  EXPECT_EQ(RunCli({"experiment", "run", WriteTempFile("tiny-compare.json", ok), "--out", out,
                    "--no-plots"})
                .exit_code,
            0);
}

// The columns each kind declares cover every column of every committed result of the shipped
// definitions (the declarations are what plots are checked against before a run).
TEST(ExperimentCli, DeclaredColumnsCoverEveryCommittedCsv) {
  int checked = 0;
  for (const auto& def : LoadExperimentDefinitions(SourcePath("experiments"))) {
    const std::string csv = SourcePath("notebooks_data/" + def.name + "/results.csv");
    if (!std::filesystem::exists(csv)) continue;
    const CsvTable t = ParseCsv(Slurp(csv), csv);
    const auto& fixed = FixedColumns();
    const std::vector<std::string>* declared = ExperimentKindColumns(def.kind);
    ASSERT_NE(declared, nullptr) << def.kind;
    for (const auto& h : t.header) {
      const bool known =
          std::find(fixed.begin(), fixed.end(), h) != fixed.end() || IsDeclaredColumn(*declared, h);
      EXPECT_TRUE(known) << def.name << " (" << def.kind << "): column " << h;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500);
}

// `experiment report` reads meta.json back for the README: a mistyped field is exit 2 naming
// it (git_dirty as a string was an nlohmann type_error, exit 3).
TEST(ExperimentCli, ReportOnAMistypedMetaIsExit2NamingTheField) {
  const std::string path = WriteTempFile("tiny-compare.json", kDefinition);
  const std::string out = TempPath("report-meta-out");
  std::filesystem::remove_all(out);
  ASSERT_EQ(RunCli({"experiment", "run", path, "--out", out, "--no-plots"}).exit_code, 0);
  const std::string meta_path = out + "/meta.json";
  const auto good = ParseJsonText(Slurp(meta_path), meta_path);
  auto dirty = good;
  dirty["environment"]["git_commit"] = "abc";
  dirty["environment"]["git_dirty"] = "yes";
  std::ofstream(meta_path) << dirty.dump();
  auto r = RunCli({"experiment", "report", path, "--out", out, "--no-plots"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "collsynth: " + meta_path +
                       ": environment.git_dirty: expected true or false, got a string\n");
  std::ofstream(meta_path) << "[1]";
  r = RunCli({"experiment", "report", path, "--out", out, "--no-plots"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "collsynth: " + meta_path + ": expected an object, got an array\n");
  std::ofstream(meta_path) << good.dump();
  EXPECT_EQ(RunCli({"experiment", "report", path, "--out", out, "--no-plots"}).exit_code, 0);
}

// Input a task finds bad only when it runs (here: tree:dbtree on a switched topology) names
// the definition file and the task (it named only "<input>").
TEST(ExperimentCli, TaskInputErrorNamesTheDefinitionAndTheTask) {
  const std::string path = WriteTempFile("tvs.json", R"j({"name": "tvs", "kind": "time-vs-size",
    "params": {"collective": "allreduce", "sizes": ["1KB"],
               "cases": [{"topology": "torus(3,3)", "algorithms": ["bfb"]},
                         {"topology": "twocluster(2,2,10,1)", "algorithms": ["tree:dbtree"]}]}})j");
  const auto r = RunCli({"experiment", "run", path, "--out", TempPath("tvs-out"), "--no-plots"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "collsynth: " + path +
                       ": task 1 (twocluster(2,2,10,1) allreduce): <input>: algorithms: "
                       "tree:dbtree needs a direct-connect topology\n");
}

TEST(ExperimentCli, ListShowsTheShippedDefinitions) {
  auto r = RunCli({"experiment", "list", "--dir", SourcePath("experiments")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("quick-start"), std::string::npos);
}

// The entries of a folder (empty when it does not exist).
std::set<std::string> Entries(const std::string& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    names.insert(e.path().filename().string());
  }
  return names;
}

// The binary once had the source root compiled in, so `experiment run NAME` from a
// copy of the tree read the original's experiments/ and wrote into the original's
// notebooks_data/. Definitions and outputs are now relative to the current directory.
TEST(ExperimentCli, Issue15DefinitionsAndOutputsAreRelativeToTheCurrentDirectory) {
  namespace fs = std::filesystem;
  const std::string name = "cwd-probe-" + std::to_string(getpid());
  std::string text = kDefinition;
  text.replace(text.find("tiny-compare"), 12, name);
  const fs::path copy = TempPath("copy-of-tree");
  fs::remove_all(copy);
  fs::create_directories(copy / "experiments");
  std::ofstream(copy / "experiments" / (name + ".json")) << text;
  const std::set<std::string> source_outputs = Entries(SourcePath("notebooks_data"));

  auto run = RunCliIn(copy.string(), {"experiment", "run", name, "--no-plots"});
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("notebooks_data/" + name), std::string::npos) << run.out;
  EXPECT_EQ(
      ParseCsv(Slurp((copy / "notebooks_data" / name / "results.csv").string()), "csv").rows.size(),
      5u);
  EXPECT_TRUE(fs::exists(copy / "notebooks_data" / name / "meta.json"));

  auto list = RunCliIn(copy.string(), {"experiment", "list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find(name), std::string::npos);
  EXPECT_EQ(list.out.find("quick-start"), std::string::npos) << "listed the source tree's";

  auto report = RunCliIn(copy.string(), {"experiment", "report", name, "--no-plots"});
  EXPECT_EQ(report.exit_code, 0) << report.err;

  // --dir and --out are relative to the current directory too.
  fs::create_directories(copy / "defs");
  fs::copy_file(copy / "experiments" / (name + ".json"), copy / "defs" / (name + ".json"));
  auto flags = RunCliIn(
      copy.string(), {"experiment", "run", name, "--dir", "defs", "--out", "mine", "--no-plots"});
  ASSERT_EQ(flags.exit_code, 0) << flags.err;
  EXPECT_TRUE(fs::exists(copy / "mine" / "results.csv"));

  // Nothing was written into the source tree's notebooks_data/.
  EXPECT_EQ(Entries(SourcePath("notebooks_data")), source_outputs);
  EXPECT_FALSE(fs::exists(SourcePath("notebooks_data/" + name)));

  // A folder without experiments/ does not fall back to the source tree.
  const fs::path empty = TempPath("no-definitions");
  fs::remove_all(empty);
  fs::create_directories(empty);
  auto missing = RunCliIn(empty.string(), {"experiment", "run", "quick-start"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err.rfind("collsynth: experiments/quick-start.json: ", 0), 0u) << missing.err;
  EXPECT_FALSE(fs::exists(empty / "notebooks_data"));
}

// One quick case and one plot (a category x axis: instance labels go into the script).
std::string OnePlotDefinition(const std::string& title, const std::string& label) {
  nlohmann::json d = {
      {"name", "one-plot"},
      {"title", "one plot"},
      {"kind", "collective-compare"},
      {"params",
       {{"collective", "allgather"},
        {"cases", {{{"topology", "torus(3,3)"}, {"label", label}, {"algorithms", {"bfb"}}}}}}},
      {"plots",
       {{{"file", "tb.png"},
         {"title", title},
         {"x", "instance"},
         {"y", "tb_decimal"},
         {"group", "algorithm"}}}},
      {"readme", {"One plot."}}};
  return WriteTempFile("one-plot.json", d.dump());
}

bool NonEmptyFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > 0;
}

// The output folder used to be pasted into `cd '<dir>' && gnuplot ...` for sh:
// a quote gave "sh: Syntax error", no plot and exit 0, and $(...) ran a command.
TEST(ExperimentCliIssue14, OutputFolderWithQuoteAndCommandSubstitutionRunsNoShell) {
  const std::string base = TempPath("noshell");
  const std::string pwned = base + "/PWNED";
  const std::string out = base + "/q'$(touch " + pwned + ")'\"`touch " + pwned + "2`\"x";
  auto r = RunCli({"experiment", "run", OnePlotDefinition("T_B", "torus"), "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(NonEmptyFile(out + "/tb.png")) << r.err;
  EXPECT_NE(r.out.find("tb.png"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(pwned));
  EXPECT_FALSE(std::filesystem::exists(pwned + "2"));
  EXPECT_FALSE(std::filesystem::exists("PWNED"));
  EXPECT_EQ(r.err.find("Syntax error"), std::string::npos) << r.err;
}

// gnuplot runs `backquoted` text inside double-quoted strings as a shell command; titles and
// CSV cells (here an instance label on the category axis) must not reach a shell either.
TEST(ExperimentCliIssue14, BackquotesInTitlesAndCellsRunNothing) {
  const std::string out = TempPath("backquotes");
  const std::string pwned = TempPath("PWNED-bq");
  auto r =
      RunCli({"experiment", "run",
              OnePlotDefinition("it's `touch " + pwned + "1`", "a \"b\" `touch " + pwned + "2`"),
              "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(NonEmptyFile(out + "/tb.png")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(pwned + "1"));
  EXPECT_FALSE(std::filesystem::exists(pwned + "2"));
}

// A plot asked for that is not produced is exit 1 naming the script; it used to be exit 0.
TEST(ExperimentCliIssue14, UnwritablePngIsExit1) {
  const std::string def = OnePlotDefinition("T_B", "torus");
  const std::string out = TempPath("unwritable-png");
  ASSERT_EQ(RunCli({"experiment", "run", def, "--out", out, "--no-plots"}).exit_code, 0);
  std::filesystem::create_directories(out + "/tb.png/keep");  // gnuplot cannot write it
  auto r = RunCli({"experiment", "report", def, "--out", out});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_NE(r.err.find("tb.gp: plot not produced"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("tb.png"), std::string::npos) << r.out;  // not claimed
}

// Runs `body` with PATH set to a folder holding only the given fake gnuplot (or nothing).
template <typename F>
void WithFakeGnuplot(const std::string& folder, const std::string& script, F body) {
  std::filesystem::create_directories(folder);
  if (!script.empty()) {
    const std::string path = folder + "/gnuplot";
    std::ofstream(path) << script;
    chmod(path.c_str(), 0755);
  }
  const std::string old = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", folder.c_str(), 1);
  body();
  setenv("PATH", old.c_str(), 1);
}

TEST(ExperimentCliIssue14, GnuplotThatFailsOrWritesNothingIsExit1) {
  const std::string def = OnePlotDefinition("T_B", "torus");
  const std::string out = TempPath("fake-gnuplot");
  ASSERT_EQ(RunCli({"experiment", "run", def, "--out", out, "--no-plots"}).exit_code, 0);
  WithFakeGnuplot(TempPath("bin-silent"), "#!/bin/sh\nexit 0\n", [&] {
    auto r = RunCli({"experiment", "report", def, "--out", out});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("left no non-empty"), std::string::npos) << r.err;
  });
  WithFakeGnuplot(
      TempPath("bin-broken"),
      "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\necho 'line 3: broken' >&2\nexit 1\n", [&] {
        auto r = RunCli({"experiment", "report", def, "--out", out});
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_NE(r.err.find("line 3: broken"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("status 1"), std::string::npos) << r.err;
      });
}

// Documented choice: without gnuplot the command warns, exits 0 and lists no PNG.
TEST(ExperimentCliIssue14, MissingGnuplotWarnsAndClaimsNoPng) {
  const std::string def = OnePlotDefinition("T_B", "torus");
  const std::string out = TempPath("no-gnuplot");
  WithFakeGnuplot(TempPath("bin-empty"), "", [&] {
    auto r = RunCli({"experiment", "run", def, "--out", out});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("gnuplot not found"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("tb.png"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("tb.gp"), std::string::npos) << r.out;
  });
  EXPECT_FALSE(std::filesystem::exists(out + "/tb.png"));
}

}  // namespace
}  // namespace collsynth::experiments
