// `collsynth optimum` and `collsynth pipeline` (docs/cli.md): the JSON contracts, the written
// schedule, and bad input (exit 2 with the offending node named).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_util.h"

namespace collsynth::testing {
namespace {

using nlohmann::json;

std::string TwoCluster() { return SourcePath("experiments/topologies/two_cluster.json"); }

// Seed 004 Figure 1 through the CLI: the issue's JSON contract.
TEST(PipelineCliTest, OptimumJsonContract) {
  CliResult r = RunCli({"optimum", TwoCluster(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["collective"], "allgather");
  EXPECT_EQ(j["compute_nodes"], 8);
  EXPECT_EQ(j["ratio"], "1");
  EXPECT_EQ(j["U"], "1");
  EXPECT_EQ(j["k"], 1);
  ASSERT_EQ(j["bottleneck_cut"].size(), 5u);  // one cluster and its switch
  EXPECT_EQ(j["cut_compute"], 4);
  EXPECT_EQ(j["cut_bandwidth"], "4");
  EXPECT_EQ(j["allreduce"]["theorem19_a"], true);  // |S* ∩ V_c| = N/2
  EXPECT_EQ(j["broadcast"]["ratio"], "1/4");       // Appendix B: M/(4b)
  CliResult b = RunCli({"optimum", TwoCluster(), "--json", "--method", "binary-search"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(json::parse(b.out)["ratio"], "1");
  CliResult text = RunCli({"optimum", TwoCluster()});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("U = 1, k = 1"), std::string::npos);
}

TEST(PipelineCliTest, WritesCheckedScheduleForEveryCollective) {
  for (std::string c : {"allgather", "reduce-scatter", "allreduce", "broadcast"}) {
    std::string out = TempPath("sched_" + c + ".json");
    CliResult r =
        RunCli({"pipeline", TwoCluster(), "--collective", c, "--root", "c12", "-o", out, "--json"});
    ASSERT_EQ(r.exit_code, 0) << c << ": " << r.err;
    json summary = json::parse(r.out);
    EXPECT_EQ(summary["verdict"], "optimal (certified)") << c;
    json s = json::parse(ReadWholeFile(out));
    EXPECT_EQ(s["format"], "pipeline");
    EXPECT_EQ(s["collective"], c);
    if (c == "allgather" || c == "reduce-scatter") {
      EXPECT_EQ(s["ratio"], "1");
      EXPECT_EQ(s["U"], "1");
      EXPECT_EQ(s["k"], 1);
      ASSERT_EQ(s["trees"].size(), 8u);
      const json& e = s["trees"][0]["edges"][0];
      EXPECT_TRUE(e.contains("from") && e.contains("to") && e["routes"][0].contains("path"));
      EXPECT_TRUE(s.contains("bottleneck_cut"));
    } else if (c == "allreduce") {
      EXPECT_EQ(s["ratio"], "2");
      ASSERT_EQ(s["phases"].size(), 2u);
      EXPECT_EQ(s["phases"][0]["collective"], "reduce-scatter");
      EXPECT_EQ(s["phases"][1]["collective"], "allgather");
    } else {
      EXPECT_EQ(s["root"], "c12");
      EXPECT_EQ(s["ratio"], "1/4");
    }
  }
}

TEST(PipelineCliTest, FixedKAndExactBandwidths) {
  // Exactness: 4-node ring alternating 1000003 / 1000033.
  std::string ring = WriteTempFile("ring_big.txt",
                                   "a b 1000003\nb a 1000003\nb c 1000033\nc b 1000033\n"
                                   "c d 1000003\nd c 1000003\nd a 1000033\na d 1000033\n");
  CliResult o = RunCli({"optimum", ring, "--json"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(json::parse(o.out)["ratio"], "3/2000036");
  CliResult p = RunCli({"pipeline", ring, "-o", TempPath("ring_big_sched.json"), "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(json::parse(p.out)["ratio"], "3/2000036");
  CliResult f =
      RunCli({"pipeline", ring, "--fixed-k", "1", "-o", TempPath("ring_fk.json"), "--json"});
  ASSERT_EQ(f.exit_code, 0) << f.err;
  json fj = json::parse(f.out);
  EXPECT_EQ(fj["k"], 1);
  EXPECT_EQ(fj["verdict"], "valid");
  // Each node needs N-1 = 3 units in: ⌊U·1000033⌋ + ⌊U·1000003⌋ = 2 + 1 at U = 2/1000033,
  // and any smaller U leaves 1 + 1. The schedule attains this lower bound: certified.
  EXPECT_EQ(fj["U"], "2/1000033");
  EXPECT_EQ(fj["ratio"], "2/1000033");
  EXPECT_EQ(fj["fixed_k_lower_bound"], "2/1000033");
  EXPECT_EQ(fj["fixed_k_certified"], true);
  // k = 2: 3 + 3 = 6 = 2(N-1) at U = 3/1000003; ratio U/k.
  CliResult f2 =
      RunCli({"pipeline", ring, "--fixed-k", "2", "-o", TempPath("ring_fk2.json"), "--json"});
  ASSERT_EQ(f2.exit_code, 0) << f2.err;
  json f2j = json::parse(f2.out);
  EXPECT_EQ(f2j["U"], "3/1000003");
  EXPECT_EQ(f2j["fixed_k_lower_bound"], "3/2000006");
  EXPECT_EQ(f2j["fixed_k_certified"], true);
  CliResult text = RunCli({"pipeline", ring, "--fixed-k", "1", "-o", TempPath("ring_fk.json")});
  EXPECT_NE(text.out.find("best for this k (certified by the fixed-k cut)"), std::string::npos)
      << text.out;
  // The written certificate, verified from disk: X = {a}; below U = 2/1000033 the links into
  // a carry 1 + 1 < 3 trees. Claiming X = every node is a violation (exit 1).
  std::string file = TempPath("ring_fk.json");
  CliResult v = RunCli({"verify", ring, file, "--json"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(json::parse(v.out)["fixed_k_certified"], true);
  json sched = json::parse(std::ifstream(file));
  EXPECT_EQ(sched["fixed_k_cut"], json::array({"a"}));
  sched["fixed_k_cut"] = json::array({"a", "b", "c", "d"});
  std::string forged = WriteTempFile("ring_fk_forged.json", sched.dump());
  CliResult bad = RunCli({"verify", ring, forged, "--json"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(json::parse(bad.out)["error_kinds"][0], "fixed-k-cut");
  sched["fixed_k_cut"] = json::array({"a", "nowhere"});
  CliResult unknown = RunCli({"verify", ring, WriteTempFile("ring_fk_unknown.json", sched.dump())});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("fixed_k_cut[1]"), std::string::npos) << unknown.err;
}

// --fixed-k on a switch topology whose G({⌊U*·b_e⌋}) is not Eulerian used to end
// in an internal error (exit 3: "arc s0 -> c0 could not be split off"), then in the coarse
// Eulerian fallback U' = 1. Relaxed splitting (solvers/pipeline/edge_splitting.h) now isolates s0
// at U* itself: the schedule attains Theorem 14's lower bound, so no fallback is recorded.
TEST(PipelineCliTest, FixedKOnNonEulerianFloorGraphIssue4) {
  std::string topo =
      WriteTempFile("fixed_k_switch.txt",
                    "name: t\ncompute: c0 c1\nswitches: s0\n"
                    "c1 s0 3\ns0 c0 3\nc0 c1 3\nc1 c0 4\nc0 c1 4\nc0 s0 6\ns0 c0 6\n");
  std::string out = TempPath("fixed_k_switch.json");
  CliResult r = RunCli({"pipeline", topo, "--fixed-k", "1", "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json summary = json::parse(r.out);
  EXPECT_EQ(summary["k"], 1);
  EXPECT_EQ(summary["verdict"], "valid");
  std::ifstream in(out);
  json schedule = json::parse(in);
  // U* = 1/4: ⌊U·b_e⌋ is 1 on c0 -> c1 (3 + 4), c1 -> c0 and c0 -> s0, 2 on s0 -> c0 (3 + 6)
  // and 0 on c1 -> s0, so s0 has in 1, out 2 (not Eulerian); U = 1/4 - ε loses c1 -> c0.
  EXPECT_EQ(schedule["U"], "1/4");
  EXPECT_EQ(schedule["ratio"], "1/4");
  EXPECT_FALSE(schedule.contains("fixed_k_least_U"));
  EXPECT_FALSE(schedule.contains("fixed_k_eulerian_fallback"));
  EXPECT_EQ(summary["fixed_k_lower_bound"], "1/4");
  EXPECT_EQ(summary["fixed_k_certified"], true);
  EXPECT_EQ(RunCli({"verify", topo, out}).exit_code, 0);
}

TEST(PipelineCliTest, BadInputExitsTwoNamingTheNode) {
  std::string not_eulerian = WriteTempFile("not_eulerian.txt", "a b 1\nb c 1\nc a 2\n");
  for (std::string cmd : {"optimum", "pipeline"}) {
    std::vector<std::string> args = {cmd, not_eulerian};
    if (cmd == "pipeline") args.insert(args.end(), {"-o", TempPath("x.json")});
    CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << cmd;
    EXPECT_NE(r.err.find("node "), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one clear line
  }
  // Two separate 2-cycles: Eulerian but not strongly connected.
  std::string split = WriteTempFile("disconnected.txt", "a b 1\nb a 1\nc d 1\nd c 1\n");
  CliResult r = RunCli({"pipeline", split, "-o", TempPath("y.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot reach"), std::string::npos) << r.err;
  EXPECT_EQ(RunCli({"pipeline", TwoCluster(), "--collective", "gather", "-o", TempPath("z.json")})
                .exit_code,
            2);
  EXPECT_EQ(
      RunCli({"pipeline", TwoCluster(), "--fixed-k", "-3", "-o", TempPath("z.json")}).exit_code, 2);
  CliResult bad_packing =
      RunCli({"pipeline", TwoCluster(), "--packing", "fast", "-o", TempPath("z.json")});
  EXPECT_EQ(bad_packing.exit_code, 2);
  EXPECT_NE(bad_packing.err.find("--packing"), std::string::npos) << bad_packing.err;
  EXPECT_EQ(RunCli({"optimum", TwoCluster(), "--root", "s0"}).exit_code, 2);
  EXPECT_EQ(RunCli({"optimum", TempPath("missing.json")}).exit_code, 2);
}

// Both variants of Algorithm 2 give a checked optimal schedule of a 5x5 torus (edge list
// written here); the batch variant certifies tree arcs by condition (3), the paper's
// arc-by-arc variant does not, and needs more Theorem-12 flows.
TEST(PipelineCliTest, PackingVariantsAgree) {
  std::string text;
  auto id = [](int x, int y) { return "t" + std::to_string(((x + 5) % 5) * 5 + (y + 5) % 5); };
  for (int x = 0; x < 5; ++x) {
    for (int y = 0; y < 5; ++y) {
      for (auto [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
        text += id(x, y) + " " + id(x + dx, y + dy) + " 1\n";
      }
    }
  }
  std::string topo = WriteTempFile("torus5.txt", text);
  std::map<std::string, json> summary;
  for (std::string mode : {"batch", "arc-by-arc"}) {
    CliResult r = RunCli({"pipeline", topo, "--packing", mode, "-o",
                          TempPath("torus5_" + mode + ".json"), "--json"});
    ASSERT_EQ(r.exit_code, 0) << mode << ": " << r.err;
    summary[mode] = json::parse(r.out);
    EXPECT_EQ(summary[mode]["verdict"], "optimal (certified)") << mode;
    EXPECT_EQ(summary[mode]["ratio"], "6") << mode;  // (25 - 1) / 4
    EXPECT_EQ(summary[mode]["packing"]["mode"], mode);
  }
  // The 25 trees have 24 arcs each (600); condition (3) certifies 576 of them (24 trees' worth)
  // without a Theorem-12 flow.
  EXPECT_EQ(summary["batch"]["trees"].get<long long>(), 25);
  EXPECT_EQ(summary["batch"]["packing"]["certified_arcs"].get<long long>(), 576);
  EXPECT_EQ(summary["arc-by-arc"]["packing"]["certified_arcs"].get<long long>(), 0);
  EXPECT_LT(summary["batch"]["max_flows"]["packing"].get<long long>(),
            summary["arc-by-arc"]["max_flows"]["packing"].get<long long>());
}

// Both variants of Algorithm 1 on the two-cluster example (seed 004 Figure 1): the same
// certified optimum; `whole` splits both switches off whole with no Theorem-8 flows beyond
// the two connectivity checks, `pairwise` none whole. A bad value is exit 2.
TEST(PipelineCliTest, SplittingVariantsAgree) {
  std::map<std::string, json> summary;
  for (std::string mode : {"whole", "pairwise"}) {
    CliResult r = RunCli({"pipeline", TwoCluster(), "--splitting", mode, "-o",
                          TempPath("two_cluster_" + mode + ".json"), "--json"});
    ASSERT_EQ(r.exit_code, 0) << mode << ": " << r.err;
    summary[mode] = json::parse(r.out);
    EXPECT_EQ(summary[mode]["verdict"], "optimal (certified)") << mode;
    EXPECT_EQ(summary[mode]["ratio"], "1") << mode;
    EXPECT_EQ(summary[mode]["splitting"]["mode"], mode);
    for (const char* stage : {"optimum", "splitting", "packing", "check", "write"}) {
      EXPECT_TRUE(summary[mode]["stage_seconds"][stage].is_number_float())
          << stage;  // reported, as a number
    }
    // The schedule file is compact JSON on one line that parses back.
    std::string text = ReadWholeFile(TempPath("two_cluster_" + mode + ".json"));
    EXPECT_EQ(text.find('\n'), text.size() - 1);
    EXPECT_EQ(json::parse(text)["format"], "pipeline");
  }
  EXPECT_EQ(summary["whole"]["splitting"]["whole_switches"].get<long long>(), 2);
  EXPECT_EQ(summary["pairwise"]["splitting"]["whole_switches"].get<long long>(), 0);
  EXPECT_LT(summary["whole"]["max_flows"]["splitting"].get<long long>(),
            summary["pairwise"]["max_flows"]["splitting"].get<long long>());
  CliResult bad =
      RunCli({"pipeline", TwoCluster(), "--splitting", "greedy", "-o", TempPath("x.json")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--splitting"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace collsynth::testing
