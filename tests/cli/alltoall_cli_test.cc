// `collsynth optimum TOPO --collective alltoall` (docs/cli.md "## optimum"): the JSON contract
// on closed forms, --demand and --no-relay, and bad input (exit 2, one line naming the file
// and the entry).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "core/rational.h"
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

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// -o writes the certified flow as a "flows" schedule (checked from disk); `verify` reads it
// back and recomputes T = 1/λ* = 9/2 on the 6-ring; a wrong claimed time, a share sum off and a
// path over a missing link are rejected (exit 1, naming the item); a bad node name is exit 2
// naming the item; `simulate` reads it (never faster than T*·shard/b), the exporters, which do
// not read flows yet, refuse it with exit 2.
TEST(AlltoallCli, OptimumWritesFlowsThatVerify) {
  const std::string ring = Ring(6), out = TempPath("ring6_flows.json");
  CliResult r = RunCli({"optimum", ring, "--collective", "alltoall", "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["output_verified"], true);
  EXPECT_EQ(summary["output_pairs"], 30);
  r = RunCli({"verify", ring, out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto v = nlohmann::json::parse(r.out);
  EXPECT_EQ(v["format"], "flows");
  EXPECT_EQ(v["collective"], "alltoall");
  EXPECT_EQ(v["verdict"], "valid");
  EXPECT_EQ(v["time"], "9/2");
  EXPECT_EQ(v["claimed_time"], "9/2");
  // The file carries the dual lengths, and verify certifies T optimal with them alone.
  EXPECT_EQ(v["time_lower_bound"], "9/2");
  EXPECT_EQ(v["optimal"], true);

  nlohmann::json doc = nlohmann::json::parse(Slurp(out));
  EXPECT_EQ(doc["time"], "9/2");
  ASSERT_TRUE(doc["lengths"].is_array() && !doc["lengths"].empty()) << doc.dump();
  // One length doubled: still a valid bound, below T, so no longer a proof (exit 0, optimal
  // false); a negative one is a broken certificate (exit 1, naming the link).
  nlohmann::json loose = doc;
  loose["lengths"][0]["length"] =
      ToString(2 * ParseRational(loose["lengths"][0]["length"].get<std::string>()));
  r = RunCli({"verify", ring, WriteTempFile("loose_lengths.json", loose.dump()), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto lv = nlohmann::json::parse(r.out);
  EXPECT_EQ(lv["optimal"], false);
  EXPECT_LT(ParseRational(lv["time_lower_bound"].get<std::string>()), Rational(9, 2));
  nlohmann::json negative = doc;
  negative["lengths"][0]["length"] = "-1";
  r = RunCli({"verify", ring, WriteTempFile("negative_lengths.json", negative.dump())});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("lengths: length of link"), std::string::npos) << r.out;
  nlohmann::json wrong_time = doc;
  wrong_time["time"] = "4";
  r = RunCli({"verify", ring, WriteTempFile("wrong_time.json", wrong_time.dump())});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("time: the schedule claims 4, its link loads give 9/2"), std::string::npos)
      << r.out;

  nlohmann::json short_share = doc;
  short_share["flows"][0]["paths"][0]["share"] = "1/1000";
  r = RunCli({"verify", ring, WriteTempFile("short_share.json", short_share.dump())});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("flows[0]: the shares of"), std::string::npos) << r.out;

  nlohmann::json broken = doc;
  broken["flows"][0]["paths"][0]["path"] = {broken["flows"][0]["from"], "r3",
                                            broken["flows"][0]["to"]};
  r = RunCli({"verify", ring, WriteTempFile("broken.json", broken.dump())});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("flows[0].paths[0].path[1]: no link"), std::string::npos) << r.out;

  nlohmann::json unknown = doc;
  unknown["flows"][3]["paths"][0]["path"][1] = "x";
  r = RunCli({"verify", ring, WriteTempFile("unknown_node.json", unknown.dump())});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("flows[3].paths[0].path[1]: unknown node 'x'"), std::string::npos) << r.err;

  r = RunCli({"simulate", ring, out, "--size", "6MB", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto sim = nlohmann::json::parse(r.out);
  EXPECT_EQ(sim["format"], "flows");
  EXPECT_EQ(sim["checked_time"], "9/2");
  // T*·shard/b = 9/2 · 2^20 B / 10^9 B/s.
  EXPECT_EQ(sim["bandwidth_bound"], "9216/1953125");
  EXPECT_GE(ParseRational(sim["completion_time"].get<std::string>()), Rational(9216, 1953125));

  // Exported as an MSCCL alltoall, replay-checked, with the flows' exact T (tests/export/
  // alltoall_export_cli_test.cc has the rest).
  r = RunCli({"export", "msccl", ring, out, "-o", TempPath("ring6_flows.xml"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto xml = nlohmann::json::parse(r.out);
  EXPECT_EQ(xml["collective"], "alltoall");
  EXPECT_EQ(xml["replay"], "accepted");
  EXPECT_EQ(xml["achieved_ratio"], "9/2");
}

// The writer's output is checked from disk: a dropped pair (the fault-injection hook) is exit 1
// and leaves no file.
TEST(AlltoallCli, CorruptedFlowsOutputIsNotWritten) {
  const std::string out = TempPath("ring4_corrupt_flows.json");
  const std::string ring = Ring(4);
  setenv("COLLSYNTH_FAULT_INJECT", "corrupt-output", 1);
  CliResult r = RunCli({"optimum", ring, "--collective", "alltoall", "-o", out});
  unsetenv("COLLSYNTH_FAULT_INJECT");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("no entry in flows"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(out).good());
}

// Closed forms through the written file and `verify`'s own recomputation: on K_4 (unit links)
// λ* = 1, every pair direct, T = 1; on the bidirectional 8-ring λ* = 8/N² = 1/8, T = 8.
TEST(AlltoallCli, FlowsTimeMatchesClosedForms) {
  std::string k4 = "name: k4\ncompute: a b c d\n";
  for (const char* u : {"a", "b", "c", "d"}) {
    for (const char* v : {"a", "b", "c", "d"}) {
      if (std::string(u) != v) k4 += std::string(u) + " " + v + " 1\n";
    }
  }
  const std::vector<std::tuple<std::string, std::string, int>> cases = {
      {WriteTempFile("k4.txt", k4), "1", 12}, {Ring(8), "8", 56}};
  for (const auto& [topo, time, pairs] : cases) {
    const std::string out = TempPath("closed_form_flows.json");
    CliResult r = RunCli({"optimum", topo, "--collective", "alltoall", "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = RunCli({"verify", topo, out, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto v = nlohmann::json::parse(r.out);
    EXPECT_EQ(v["time"], time) << topo;
    EXPECT_EQ(v["pairs"], pairs);
    if (time == "1") {
      EXPECT_EQ(v["paths"], pairs);  // K_4: one direct path per pair
    }
  }
}

}  // namespace
}  // namespace collsynth::testing
