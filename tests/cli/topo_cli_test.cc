// CLI contract of `collsynth topo info` / `topo convert` (foundation issue): JSON fields,
// exit codes and the clear one-line error for every kind of bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/progress.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::SourcePath;
using testing::WriteTempFile;

TEST(TopoInfoCliTest, TwoClusterJsonContract) {
  auto r =
      RunCli({"topo", "info", SourcePath("experiments/topologies/two_cluster.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["compute_nodes"], 8);
  EXPECT_EQ(j["switch_nodes"], 3);
  EXPECT_EQ(j["links"], 32);
  EXPECT_EQ(j["regular"], false);
  EXPECT_TRUE(j["degree"].is_null());
  EXPECT_EQ(j["eulerian"], true);
  EXPECT_EQ(j["strongly_connected"], true);
  EXPECT_EQ(j["diameter"], 2);  // c -> switch -> c
  EXPECT_TRUE(j["moore_optimal_steps"].is_null());
  EXPECT_EQ(j["distance_distribution"], json({0, 0, 56}));
}

TEST(TopoInfoCliTest, K22IsMooreOptimalWithBandwidthBound) {
  // seed 000 Figure 1: K_{2,2}, degree 2, diameter 2 = T_L*(4,2); T_B* = 3/4 · M/B.
  auto r = RunCli({"topo", "info", SourcePath("experiments/topologies/k22.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["regular"], true);
  EXPECT_EQ(j["degree"], 2);
  EXPECT_EQ(j["diameter"], 2);
  EXPECT_EQ(j["moore_optimal_steps"], 2);
  EXPECT_EQ(j["moore_optimal"], true);
  EXPECT_EQ(j["bandwidth_lower_bound"]["coefficient_of_M_over_B"], "3/4");
  EXPECT_EQ(j["average_distance"], "4/3");
}

TEST(TopoInfoCliTest, TextOutputAndEdgeListInput) {
  auto r = RunCli({"topo", "info", SourcePath("experiments/topologies/ring8.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("diameter            7"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("T_L*(N,d) = 7"), std::string::npos) << r.out;
}

TEST(TopoInfoCliTest, DisconnectedGraphReportsNullDiameter) {
  std::string f = WriteTempFile("oneway.json", R"({"nodes": [{"name": "a"}, {"name": "b"}],
      "links": [{"from": "a", "to": "b", "bandwidth": 1}]})");
  auto r = RunCli({"topo", "info", f, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["strongly_connected"], false);
  EXPECT_EQ(j["eulerian"], false);
  EXPECT_TRUE(j["diameter"].is_null());
  EXPECT_EQ(j["unreachable_pairs"], 1);
}

struct BadCase {
  const char* name;
  const char* content;
  const char* expected;  // substring of the one-line message
};

TEST(TopoInfoCliTest, BadInputExitsTwoWithOneClearLine) {
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)";
  std::string huge(1000001, '7');
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> cases = {
      {"malformed.json", {"{\"nodes\": [{\"name\": \"a\"}", "malformed JSON"}},
      {"missing_field.json", {R"({"links": []})", "missing field 'nodes'"}},
      {"mistyped.json", {R"({"nodes": [{"name": 3}]})", "must be a string"}},
      {"unknown_node.json",
       {two + R"({"from": "a", "to": "q", "bandwidth": 1}]})", "unknown node 'q'"}},
      {"duplicate.json",
       {R"({"nodes": [{"name": "a"}, {"name": "a"}]})", "duplicate node name 'a'"}},
      {"zero_bw.json",
       {two + R"({"from": "a", "to": "b", "bandwidth": 0}]})",
        "bandwidth must be positive, got 0"}},
      {"negative_bw.json",
       {two + R"({"from": "a", "to": "b", "bandwidth": "-5/2"}]})", "got -5/2"}},
      {"text_bw.json",
       {two + R"({"from": "a", "to": "b", "bandwidth": "ten"}]})", "not an exact number"}},
      {"float_bw.json", {two + R"({"from": "a", "to": "b", "bandwidth": 0.25}]})", "not exact"}},
      {"absurd_bw.json",
       {two + R"({"from": "a", "to": "b", "bandwidth": ")" + huge + "\"}]}",
        "more than 1000000 digits"}},
      {"no_compute.json", {R"({"nodes": [{"name": "s", "kind": "switch"}]})", "no compute nodes"}},
  };
  for (const auto& [name, c] : cases) {
    std::string f = WriteTempFile(name, c.first);
    auto r = RunCli({"topo", "info", f});
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_NE(r.err.find(f), std::string::npos) << name << " names the file: " << r.err;
    EXPECT_NE(r.err.find(c.second), std::string::npos) << name << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << name << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << name;
  }
  auto r = RunCli({"topo", "info", "/no/such/file.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/file.json: cannot open file"), std::string::npos) << r.err;
}

TEST(TopoInfoCliTest, UsageErrorsExitTwo) {
  // CLI11's own argument errors: one line "collsynth: <args>: ..." (was two lines, no prefix).
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"topo", "info"},
                                             {"no-such-command"},
                                             {},
                                             {"topo", "info", "x.json", "--threads", "many"}}) {
    auto r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("collsynth: <args>: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_EQ(RunCli({"topo", "info"}).err, "collsynth: <args>: file is required\n");
  // Help and version are unchanged: stdout, exit 0.
  auto help = RunCli({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out.rfind("collsynth: exact, verified", 0), 0u) << help.out;
  EXPECT_TRUE(help.err.empty());
  auto version = RunCli({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out, "collsynth 0.1\n");
}

// Names in messages cannot forge lines: control characters and invalid UTF-8 are escaped.
TEST(TopoInfoCliTest, ErrorMessagesAreOneLineWhateverTheNames) {
  const std::string forged = WriteTempFile(
      "forged.json", R"({"nodes": [{"name": "x\ncollsynth: ok"}, {"name": "x\ncollsynth: ok"}]})");
  auto r = RunCli({"topo", "info", forged});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(
      r.err.rfind("collsynth: " + forged + ": nodes[0]: node name contains a control character", 0),
      0u)
      << r.err;  // names are refused at read time, so no message can quote them
  // A file name with a newline, an escape byte and a byte that is not UTF-8.
  auto bad = RunCli({"topo", "info", "/no/such/a\nb\x1B\xFF.json"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("collsynth: /no/such/a\\nb\\x1B\\xFF.json: cannot open file", 0), 0u)
      << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

TEST(TopoConvertCliTest, JsonToEdgeListAndBackIsLossless) {
  std::string src = SourcePath("experiments/topologies/two_cluster.json");
  std::string txt = testing::TempPath("tc.txt"), back = testing::TempPath("tc.json");
  ASSERT_EQ(RunCli({"topo", "convert", src, txt}).exit_code, 0);
  ASSERT_EQ(RunCli({"topo", "convert", txt, back}).exit_code, 0);
  auto a = RunCli({"topo", "convert", src, "-"});
  auto b = RunCli({"topo", "convert", back, "-"});
  ASSERT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
  json j = json::parse(a.out);
  EXPECT_EQ(j["links"].size(), 32u);
  EXPECT_EQ(j["nodes"][8]["kind"], "switch");
}

// --- hostile input through the real binary (docs/formats.md "Limits")
// ---------------------------------

// Exit 2, one line naming the file and containing `problem`, nothing on stdout.
void ExpectRefused(const std::vector<std::string>& args, const std::string& file,
                   const std::string& problem) {
  auto r = RunCli(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("collsynth: " + file + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(TopoHostileInputCliTest, DeepNestingHugeNumbersAndBadNamesExitTwo) {
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)";
  std::string deep =
      WriteTempFile("deep.json", R"({"nodes": [{"name": "a"}], "x": )" + std::string(200000, '[') +
                                     std::string(200000, ']') + "}");
  ExpectRefused({"topo", "info", deep}, deep, "JSON nested deeper than 64 levels");
  std::string inf =
      WriteTempFile("inf.json", two + R"({"from": "a", "to": "b", "bandwidth": 1e400}]})");
  ExpectRefused({"topo", "info", inf}, inf, "number 1e400 is out of range");
  std::string utf = WriteTempFile("bad_utf8.txt", "a b 1\nb c\xff 1\n");
  ExpectRefused({"topo", "info", utf}, utf + ": line 2", "node name is not valid UTF-8");
  std::string ctl = WriteTempFile("ctl.json", R"({"nodes": [{"name": "x\ncollsynth: fake"}]})");
  ExpectRefused({"topo", "info", ctl}, ctl + ": nodes[0]",
                "node name contains a control character");
  std::string dup = WriteTempFile("overflow.txt", "a b 1 9223372036854775807\na b 1\nb a 1\n");
  ExpectRefused({"topo", "info", dup}, dup + ": line 2 (a -> b)", "add up past 2^63-1");
  std::string dir = deep.substr(0, deep.rfind('/'));
  ExpectRefused({"topo", "info", dir}, dir, "is a directory, not a file");
}

TEST(TopoHostileInputCliTest, IntegerBandwidthBeyondInt64IsReadExactly) {
  std::string f =
      WriteTempFile("big_bw.json", R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [
      {"from": "a", "to": "b", "bandwidth": 123456789012345678901234567890, "duplex": true}]})");
  auto r = RunCli({"topo", "convert", f, "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["links"][0]["bandwidth"], "123456789012345678901234567890");
  EXPECT_EQ(j["links"][1]["bandwidth"], "123456789012345678901234567890");
}

TEST(TopoConvertCliTest, EdgeListRoundTripKeepsNastyNames) {
  // Names that were taken for header lines, split at blanks or cut at '#'.
  std::string src = WriteTempFile("nasty.json", R"({"name": "my topo #1",
      "nodes": [{"name": "compute:"}, {"name": "name:"}, {"name": "a b"}, {"name": "x#y", "kind": "switch"},
                {"name": "q\"\\"}],
      "links": [{"from": "compute:", "to": "name:", "bandwidth": 1, "duplex": true},
                {"from": "a b", "to": "x#y", "bandwidth": "5/2", "multiplicity": 3},
                {"from": "x#y", "to": "q\"\\", "bandwidth": 2}]})");
  std::string txt = testing::TempPath("nasty.txt"), back = testing::TempPath("nasty_back.json");
  ASSERT_EQ(RunCli({"topo", "convert", src, txt}).exit_code, 0);
  auto r = RunCli({"topo", "convert", txt, back});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto a = RunCli({"topo", "convert", src, "-"});
  auto b = RunCli({"topo", "convert", back, "-"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(json::parse(b.out)["name"], "my topo #1");
}

TEST(TopoHostileInputCliTest, SchedulesGoThroughTheSameJsonLimits) {
  // ParseJsonText is the one JSON entry point: a schedule gets the same refusals.
  const std::string k22 = SourcePath("experiments/topologies/k22.json");
  std::string deep =
      WriteTempFile("deep_schedule.json", R"({"format": "steps", "collective": "allgather",
      "sends": [], "producer": )" + std::string(200000, '[') +
                                              std::string(200000, ']') + "}");
  ExpectRefused({"verify", k22, deep}, deep, "JSON nested deeper than 64 levels");
  std::string inf =
      WriteTempFile("inf_schedule.json", R"({"format": "steps", "collective": "allgather",
      "sends": [], "tb": 1e400})");
  ExpectRefused({"verify", k22, inf}, inf, "number 1e400 is out of range");
}

// Progress (docs/cli.md "Progress") goes to stderr, only after COLLSYNTH_PROGRESS_AFTER_MS (default
// 2 s), and never changes stdout. With the delay at 0 a small ring shows the lines; with the
// default a fast run prints nothing on stderr.
class ProgressEnv {
 public:
  explicit ProgressEnv(const char* ms) { setenv("COLLSYNTH_PROGRESS_AFTER_MS", ms, 1); }
  ~ProgressEnv() { unsetenv("COLLSYNTH_PROGRESS_AFTER_MS"); }
};

TEST(TopoInfoCliTest, Issue14ProgressOnStderrOnlyAndStdoutUnchanged) {
  std::string ring = testing::TempPath("ring64.json");
  ASSERT_EQ(RunCli({"topo", "gen", "biring(2,64)", "-o", ring}).exit_code, 0);
  auto quiet = RunCli({"topo", "info", ring, "--json"});
  ASSERT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err, "");
  ProgressEnv env("0");
  auto loud = RunCli({"topo", "info", ring, "--json", "--threads", "1"});
  ASSERT_EQ(loud.exit_code, 0);
  EXPECT_EQ(loud.out, quiet.out);
  // The first source prints at once (delay 0); then at most one line per 0.5 s and the
  // final 64/64.
  EXPECT_EQ(loud.err.rfind("collsynth: topo info: distances 1/64 sources\n", 0), 0u) << loud.err;
  const std::string last = "collsynth: topo info: distances 64/64 sources\n";
  ASSERT_GE(loud.err.size(), last.size());
  EXPECT_EQ(loud.err.substr(loud.err.size() - last.size()), last) << loud.err;
}

TEST(OptimumCliTest, Issue14ProgressOnStderrOnlyAndStdoutUnchanged) {
  std::string ring = testing::TempPath("uniring16.json");
  ASSERT_EQ(RunCli({"topo", "gen", "uniring(1,16)", "-o", ring}).exit_code, 0);
  auto quiet = RunCli({"optimum", ring, "--json"});
  ASSERT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err, "");
  json j = json::parse(quiet.out);
  EXPECT_EQ(j["ratio"], "15");
  EXPECT_EQ(j["rooted_min_cuts"], 1);
  EXPECT_EQ(j["max_flow_calls"], 0);
  ProgressEnv env("0");
  auto loud = RunCli({"optimum", ring, "--json"});
  ASSERT_EQ(loud.exit_code, 0);
  EXPECT_EQ(loud.out, quiet.out);
  EXPECT_EQ(loud.err,
            "collsynth: optimum: Theorem-1 test 16/16 sinks\n"
            "collsynth: optimum: allreduce bounds (6)/(7)\n"
            "collsynth: optimum: broadcast bound (5)\n");
}

// The printer itself: nothing before the delay; after it, the first count at once, then at
// most one line per 0.5 s, and every DONE = TOTAL line.
TEST(TopoInfoCliTest, Issue14ProgressPrinterThrottles) {
  std::ostringstream captured;
  std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
  {
    ProgressEnv env("0");
    cli::ProgressPrinter p("x");
    ProgressCallback cb = p.Counter("units", "step ");
    for (int i = 1; i <= 100; ++i) cb(i, 100);
    p.Stage("done");
  }
  {
    cli::ProgressPrinter late("y");  // default 2 s delay: a fast task prints nothing
    ProgressCallback cb = late.Counter("units");
    for (int i = 1; i <= 100; ++i) cb(i, 100);
    late.Stage("done");
  }
  std::cerr.rdbuf(old);
  EXPECT_EQ(captured.str(),
            "collsynth: x: step 1/100 units\n"
            "collsynth: x: step 100/100 units\n"
            "collsynth: x: done\n");
}

}  // namespace
}  // namespace collsynth
