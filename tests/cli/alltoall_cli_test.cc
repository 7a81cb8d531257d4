// `collsynth optimum TOPO --collective alltoall` (docs/cli.md "## optimum"): the JSON contract
// on closed forms, --demand and --no-relay, and bad input (exit 2, one line naming the file
// and the entry).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth::testing {
namespace {

// Bidirectional ring r0..r{n-1} as an edge list, unit links.
std::string Ring(int n) {
  std::string text = "name: ring\ncompute:";
  for (int i = 0; i < n; ++i) text += " r" + std::to_string(i);
  text += "\n";
  for (int i = 0; i < n; ++i) {
    const std::string a = "r" + std::to_string(i), b = "r" + std::to_string((i + 1) % n);
    text += a + " " + b + " 1\n" + b + " " + a + " 1\n";
  }
  return WriteTempFile("ring" + std::to_string(n) + ".txt", text);
}

std::string Triangle() {
  return WriteTempFile("triangle.txt",
                       "name: triangle\ncompute: a b c\n"
                       "a b 1\nb a 1\nb c 1\nc b 1\na c 1\nc a 1\n");
}

std::string Demand(const std::string& name, const std::string& entries) {
  return WriteTempFile(name, "{\"format\": \"demand\", \"demand\": [" + entries + "]}");
}

// Ring of 6: λ* = 8/36 = 2/9, T* = 9/2 (units of M/N per unit bandwidth); ECMP-like routing is
// optimal on the even ring (every link carries N²/8), so its slowdown is exactly 1; the average
// distance is N²/(4(N-1)) = 9/5, and the optimal flow's tax is at least that.
TEST(AlltoallCli, RingJsonContract) {
  CliResult r = RunCli({"optimum", Ring(6), "--collective", "alltoall", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["collective"], "alltoall");
  EXPECT_EQ(j["lambda"], "2/9");
  EXPECT_EQ(j["time"], "9/2");
  EXPECT_EQ(j["certified"], true);
  EXPECT_EQ(j["certificate"]["lower"], j["certificate"]["upper"]);
  EXPECT_EQ(j["average_path_length"], "9/5");
  EXPECT_EQ(j["bandwidth_tax"], "9/5");  // every link saturated: traffic 12 / demand 30·(2/9)
  EXPECT_EQ(j["ecmp"]["lambda"], "2/9");
  EXPECT_EQ(j["ecmp"]["slowdown"], "1");
  EXPECT_EQ(j["relay"], true);
  EXPECT_EQ(j["demand"], "uniform");
}

// One demand a->b of 2 on the unit triangle: the direct link and the detour over c carry 1
// each, so λ* = 1; without relay only the direct link: λ* = 1/2. ECMP uses the direct link only.
TEST(AlltoallCli, DemandFileAndNoRelay) {
  const std::string d = Demand("one_pair.json", R"({"from": "a", "to": "b", "amount": "2"})");
  CliResult r =
      RunCli({"optimum", Triangle(), "--collective", "alltoall", "--demand", d, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["lambda"], "1");
  EXPECT_EQ(j["ecmp"]["lambda"], "1/2");
  EXPECT_EQ(j["ecmp"]["slowdown"], "2");
  EXPECT_EQ(j["bandwidth_tax"], "3/2");  // 1 unit on one hop, 1 unit on two
  r = RunCli(
      {"optimum", Triangle(), "--collective", "alltoall", "--demand", d, "--no-relay", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["lambda"], "1/2");
  EXPECT_EQ(j["relay"], false);
}

TEST(AlltoallCli, TextReportNamesTheUnit) {
  CliResult r = RunCli({"optimum", Ring(4), "--collective", "alltoall"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lambda* = 1/2   T* = 2 · (M/N) per unit bandwidth"), std::string::npos)
      << r.out;
}

void ExpectOneLineError(const std::vector<std::string>& args, const std::string& must_name) {
  CliResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(must_name), std::string::npos) << r.err;
}

// Bad demand files: exit 2 with one line naming the file and the entry.
TEST(AlltoallCli, BadDemandFilesExitTwoNamingTheEntry) {
  const std::string t = Triangle();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"from": "a", "to": "zz", "amount": 1})", "demand[0].to"},
      {R"({"from": "a", "to": "b", "amount": 1}, {"from": "a", "to": "b", "amount": 2})",
       "demand[1]"},
      {R"({"from": "a", "to": "a", "amount": 1})", "demand[0]"},
      {R"({"from": "a", "to": "b", "amount": "0"})", "demand[0].amount"},
      {R"({"from": "a", "to": "b", "amount": "-1/2"})", "demand[0].amount"},
      {R"({"from": "a", "to": "b", "amount": "x"})", "demand[0].amount"},
      {R"({"from": "a", "to": "b", "amount": 1.5})", "demand[0].amount"},
      {R"({"from": "a", "to": "b", "amount": "10000000000"})", "demand[0].amount"},
      {R"({"from": "a", "to": "b"})", "demand[0]"},
      {R"({"from": "a", "to": "b", "amount": 1, "weight": 2})", "demand[0].weight"},
      {R"(7)", "demand[0]"},
      {"", "demand"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string f = Demand("bad" + std::to_string(i) + ".json", cases[i].first);
    ExpectOneLineError({"optimum", t, "--collective", "alltoall", "--demand", f},
                       f + ": " + cases[i].second);
  }
  const std::string not_json = WriteTempFile("not_json.json", "{\"format\": ");
  ExpectOneLineError({"optimum", t, "--collective", "alltoall", "--demand", not_json}, not_json);
  const std::string wrong = WriteTempFile("wrong.json", R"({"format": "steps", "demand": []})");
  ExpectOneLineError({"optimum", t, "--collective", "alltoall", "--demand", wrong},
                     wrong + ": format");
}

TEST(AlltoallCli, BadArgumentsExitTwo) {
  ExpectOneLineError({"optimum", Ring(4), "--collective", "alltoall", "--no-relay"},
                     "no path through switches only");
  ExpectOneLineError({"optimum", Ring(4), "--collective", "gather"}, "--collective");
  ExpectOneLineError({"optimum", Ring(4), "--no-relay"}, "--no-relay");
  ExpectOneLineError({"optimum", Ring(4), "--collective", "alltoall", "--root", "r0"}, "--root");
  ExpectOneLineError(
      {"optimum", Ring(4), "--collective", "alltoall", "--demand", TempPath("missing.json")},
      "missing.json");
}

}  // namespace
}  // namespace collsynth::testing
