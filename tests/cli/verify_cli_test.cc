// `collsynth verify` end to end (docs/cli.md "schedule", docs/formats.md "verify"): exit codes 0
// valid / 1 invalid / 2 bad input, the --json fields, and the text verdicts, on seed 000 Figure 1
// (K_{2,2}) and the seed 004 two-cluster pipeline. Schedules are written here as JSON text,
// independent of the library.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::SourcePath;
using testing::WriteTempFile;

// One interval [lo, hi) as a chunk (built explicitly: a braced pair would become an object).
json Send(const std::string& src, const std::string& lo, const std::string& hi,
          const std::string& from, const std::string& to, int step) {
  json chunk = json::array({json::array({lo, hi})});
  return {{"source", src}, {"chunk", chunk}, {"from", from}, {"to", to}, {"step", step}};
}

// Seed 000 Figure 1 on k22.json: T_L = 2, T_B = 3/2.
json K22Figure1() {
  json sends = json::array();
  struct Row {
    const char *src, *n1, *n2, *o;
  };
  for (Row r : {Row{"a", "c", "d", "b"}, Row{"b", "c", "d", "a"}, Row{"c", "a", "b", "d"},
                Row{"d", "a", "b", "c"}}) {
    sends.push_back(Send(r.src, "0", "1", r.src, r.n1, 1));
    sends.push_back(Send(r.src, "0", "1", r.src, r.n2, 1));
    sends.push_back(Send(r.src, "0", "1/2", r.n1, r.o, 2));
    sends.push_back(Send(r.src, "1/2", "1", r.n2, r.o, 2));
  }
  return {{"format", "steps"}, {"collective", "allgather"}, {"sends", sends}};
}

// Seed 004 Figure 1 / §2: U = 1, k = 1, ratio 1, cut {s1, c11..c14}.
json TwoClusterPipeline() {
  json trees = json::array();
  for (int side = 1; side <= 2; ++side) {
    const int other = 3 - side;
    const std::string sw = "s" + std::to_string(side), osw = "s" + std::to_string(other);
    for (int r = 1; r <= 4; ++r) {
      std::string root = "c" + std::to_string(side) + std::to_string(r);
      std::string far = "c" + std::to_string(other) + std::to_string(r);
      json edges = json::array();
      auto edge = [](const std::string& a, const std::string& via, const std::string& b) {
        return json{
            {"from", a}, {"to", b}, {"routes", {{{"path", {a, via, b}}, {"multiplicity", 1}}}}};
      };
      edges.push_back(edge(root, "s0", far));
      for (int q = 1; q <= 4; ++q) {
        if (q == r) continue;
        edges.push_back(edge(root, sw, "c" + std::to_string(side) + std::to_string(q)));
        edges.push_back(edge(far, osw, "c" + std::to_string(other) + std::to_string(q)));
      }
      trees.push_back({{"root", root}, {"multiplicity", 1}, {"edges", edges}});
    }
  }
  return {{"format", "pipeline"},
          {"collective", "allgather"},
          {"ratio", "1"},
          {"U", "1"},
          {"k", 1},
          {"bottleneck_cut", {"s1", "c11", "c12", "c13", "c14"}},
          {"trees", trees}};
}

TEST(VerifyCliTest, ValidStepScheduleExitsZeroWithFigure1Values) {
  std::string sched = WriteTempFile("k22_fig1.json", K22Figure1().dump());
  auto r = RunCli({"verify", SourcePath("experiments/topologies/k22.json"), sched, "--json",
                   "--bw-optimal", "--bfb", "--no-duplicates"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["tl"], 2);
  EXPECT_EQ(j["tb"], "3/2");
  EXPECT_EQ(j["ratio"], "3/2");
  EXPECT_TRUE(j["errors"].empty());
  EXPECT_EQ(j["bandwidth_optimal"], true);
  EXPECT_EQ(j["bfb"], true);
  auto text = RunCli({"verify", SourcePath("experiments/topologies/k22.json"), sched});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("valid"), std::string::npos);
  EXPECT_NE(text.out.find("3/2"), std::string::npos);
}

TEST(VerifyCliTest, InvalidStepScheduleExitsOneNamingTheViolation) {
  json s = K22Figure1();
  s["sends"].erase(s["sends"].size() - 1);  // b no longer forwards d's second half to c
  s["tb"] = "3/2";  // still right: every step-2 link keeps a load of 1/2 or less
  std::string sched = WriteTempFile("k22_bad.json", s.dump());
  auto r = RunCli({"verify", SourcePath("experiments/topologies/k22.json"), sched});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("invalid"), std::string::npos);
  EXPECT_NE(r.out.find("node c never receives [1/2, 1) of d's shard"), std::string::npos) << r.out;
  auto rj = RunCli({"verify", SourcePath("experiments/topologies/k22.json"), sched, "--json"});
  EXPECT_EQ(rj.exit_code, 1);
  json j = json::parse(rj.out);
  EXPECT_EQ(j["ok"], false);
  EXPECT_FALSE(j["errors"].empty());
  // A wrong claimed T_B (Figure 1's caption value in M/B units) fails.
  s = K22Figure1();
  s["tb"] = "3/4";
  auto rc = RunCli({"verify", SourcePath("experiments/topologies/k22.json"),
                    WriteTempFile("k22_claim.json", s.dump()), "--json"});
  EXPECT_EQ(rc.exit_code, 1);
  EXPECT_NE(json::parse(rc.out)["errors"][0].get<std::string>().find("claimed tb = 3/4"),
            std::string::npos);
}

TEST(VerifyCliTest, PipelineCertifiedOptimal) {
  std::string sched = WriteTempFile("two_cluster_pipe.json", TwoClusterPipeline().dump());
  auto r = RunCli({"verify", SourcePath("experiments/topologies/two_cluster.json"), sched});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("optimal (certified)"), std::string::npos) << r.out;
  auto rj =
      RunCli({"verify", SourcePath("experiments/topologies/two_cluster.json"), sched, "--json"});
  json j = json::parse(rj.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["ratio"], "1");
  EXPECT_EQ(j["tb"], "1");
  EXPECT_TRUE(j["tl"].is_null());
  EXPECT_EQ(j["verdict"], "optimal (certified)");
  // Overloaded: U = 1/2.
  json bad = TwoClusterPipeline();
  bad["U"] = "1/2";
  auto rb = RunCli({"verify", SourcePath("experiments/topologies/two_cluster.json"),
                    WriteTempFile("two_cluster_bad.json", bad.dump())});
  EXPECT_EQ(rb.exit_code, 1);
  EXPECT_NE(rb.out.find("exceeds U"), std::string::npos) << rb.out;
}

TEST(VerifyCliTest, BadInputExitsTwoWithOneLine) {
  const std::string topo = SourcePath("experiments/topologies/k22.json");
  auto expect_bad = [&](const std::string& content, const std::string& needle) {
    auto r = RunCli({"verify", topo, WriteTempFile("bad.json", content)});
    EXPECT_EQ(r.exit_code, 2) << content << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  expect_bad("{\"format\": \"steps\", ", "malformed JSON");
  expect_bad("{\"collective\": \"allgather\", \"sends\": []}", "format");
  expect_bad("{\"format\": \"gantt\"}", "unknown schedule format");
  // A format that is not a string is named as such (it was reported as missing).
  auto one = RunCli({"verify", topo, WriteTempFile("format1.json", "{\"format\": 1}")});
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_EQ(one.err, "collsynth: " + testing::TempPath("format1.json") +
                         ": format: must be a string (\"steps\", \"steps-compact\", \"pipeline\", "
                         "\"pipeline-symmetric\", \"flows\" or \"flows-symmetric\"), got 1\n");
  json s = K22Figure1();
  s["sends"][3]["chunk"] = json::array({json::array({"1/2", "1/3"})});
  expect_bad(s.dump(), "sends[3].chunk[0]");
  s = K22Figure1();
  s["sends"][5]["to"] = "zz";
  expect_bad(s.dump(), "unknown node 'zz'");
  auto missing = RunCli({"verify", topo, "/nonexistent/schedule.json"});
  EXPECT_EQ(missing.exit_code, 2);
  auto missing_topo =
      RunCli({"verify", "/nonexistent/topo.json", WriteTempFile("ok.json", K22Figure1().dump())});
  EXPECT_EQ(missing_topo.exit_code, 2);
  // An option value CLI11 rejects: one line with the prefix, exit 2 (was CLI11's two lines).
  auto zero =
      RunCli({"verify", topo, WriteTempFile("ok.json", K22Figure1().dump()), "--max-errors", "0"});
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_EQ(zero.err.rfind("collsynth: <args>: --max-errors: ", 0), 0u) << zero.err;
  EXPECT_EQ(std::count(zero.err.begin(), zero.err.end(), '\n'), 1) << zero.err;
  EXPECT_TRUE(zero.out.empty());
}

// A node name cannot forge lines of the text report: names with control characters are
// refused when the topology is read (exit 2, one line), before any report could quote them.
TEST(VerifyCliTest, ForgingNodeNamesAreRefusedAtReadTime) {
  const std::string topo =
      WriteTempFile("forged_topo.json",
                    R"({"nodes": [{"name": "a"}, {"name": "x\ncollsynth: valid"}],
          "links": [{"from": "a", "to": "x\ncollsynth: valid", "bandwidth": 1, "duplex": true}]})");
  const std::string empty = WriteTempFile(
      "empty_steps.json", R"({"format": "steps", "collective": "allgather", "sends": []})");
  auto r = RunCli({"verify", topo, empty});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err,
            "collsynth: " + topo +
                ": nodes[1]: node name contains a control character (byte 0x0a at offset 1)\n");
}

// K_{2,2} Figure 1 plus a send at step 0 once was "valid", BFB and duplicate-free; it is
// exit 1 naming the send.
TEST(VerifyCliTest, SendAtStepZeroIsExitOneNamingTheSend) {
  json doc = K22Figure1();
  doc["sends"].push_back(Send("a", "0", "1", "a", "c", 0));
  const std::string file = WriteTempFile("verify_step0.json", doc.dump());
  auto r = RunCli({"verify", SourcePath("experiments/topologies/k22.json"), file, "--bfb",
                   "--no-duplicates", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["ok"], false);
  ASSERT_EQ(j["error_kinds"].size(), 1u);
  EXPECT_EQ(j["error_kinds"][0], "step-out-of-range");
  EXPECT_NE(j["errors"][0].get<std::string>().find("sends[16]"), std::string::npos);
}

}  // namespace
}  // namespace collsynth
