// `collsynth export msccl|mscclpp|chakra` of all-to-all flows schedules (docs/export.md
// "All-to-all flows"): the certified optimum's flows and the three baselines' flows on a ring,
// K_4, a one-switch star and the 3-cube are written, replay-accepted (alltoall postcondition)
// and account exactly the flows' time T (the closed forms for the optimum: ring N²/8, K_4 1,
// star N-1, Q_3 2^{d-1}); real exported files with a swapped chunk or a relay forwarding the
// wrong chunk are rejected by `collsynth replay`; a rounded export reports its larger achieved
// ratio; `simulate` runs the exported XML over its side file's routes no faster than T; bad
// input is exit 2 with one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "core/rational.h"
#include "test_util.h"

namespace collsynth::testing {
namespace {

// The topology file of a test instance, written once per test binary.
std::string Topology(const std::string& name) {
  const std::string path = TempPath("a2a-export-" + name + ".json");
  if (std::filesystem::exists(path)) return path;
  if (name == "star") {
    std::string nodes, links;
    for (int i = 0; i < 4; ++i) {
      nodes += "{\"name\": \"g" + std::to_string(i) + "\"}, ";
      links += std::string(i ? ", " : "") + "{\"from\": \"g" + std::to_string(i) +
               "\", \"to\": \"sw\", \"bandwidth\": 1, \"duplex\": true}";
    }
    WriteTempFile("a2a-export-star.json", "{\"name\": \"star4\", \"nodes\": [" + nodes +
                                              "{\"name\": \"sw\", \"kind\": \"switch\"}], "
                                              "\"links\": [" +
                                              links + "]}");
    return path;
  }
  const std::string expr = name == "ring" ? "biring(2,4)"
                           : name == "k4" ? "complete(4)"
                                          : "hypercube(3)";
  EXPECT_EQ(RunCli({"topo", "gen", expr, "-o", path}).exit_code, 0);
  return path;
}

// The flows of `how` ("optimum" or a baseline) on a topology, written once.
std::string Flows(const std::string& topo_name, const std::string& how) {
  const std::string path = TempPath("a2a-export-" + topo_name + "-" + how + ".flows.json");
  if (std::filesystem::exists(path)) return path;
  const std::string topo = Topology(topo_name);
  const CliResult r =
      how == "optimum"
          ? RunCli({"optimum", topo, "--collective", "alltoall", "-o", path})
          : RunCli({"baseline", how, topo, "--collective", "alltoall", "--no-optimum", "-o", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

Rational TimeOf(const std::string& flows) {
  return ParseRational(nlohmann::json::parse(ReadTextFile(flows))["time"].get<std::string>());
}

nlohmann::json Export(const std::vector<std::string>& args) {
  const CliResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  return nlohmann::json::parse(r.out);
}

// Every schedule of one topology through the three exporters; the optimum's T is `closed`.
void RoundTrips(const std::string& name, const Rational& closed) {
  const std::string topo = Topology(name);
  EXPECT_EQ(TimeOf(Flows(name, "optimum")), closed);
  for (const char* how : {"optimum", "direct", "ecmp", "topoopt-forwarding"}) {
    SCOPED_TRACE(name + " " + how);
    const std::string flows = Flows(name, how);
    const Rational t = TimeOf(flows);
    const std::string base = TempPath("a2a-export-" + name + "-" + how);
    nlohmann::json x = Export({"export", "msccl", topo, flows, "-o", base + ".xml", "--json"});
    EXPECT_EQ(x["replay"], "accepted");
    EXPECT_EQ(x["collective"], "alltoall");
    EXPECT_EQ(x["exact_chunks"], true);
    EXPECT_EQ(ParseRational(x["optimal_ratio"].get<std::string>()), t);
    EXPECT_EQ(ParseRational(x["achieved_ratio"].get<std::string>()), t);
    // nchunksperloop = N blocks of lcm(share denominators) chunks.
    EXPECT_EQ(x["nchunksperloop"].get<std::int64_t>(),
              x["ngpus"].get<std::int64_t>() * x["chunks_per_shard"].get<std::int64_t>());
    const CliResult replay = RunCli({"replay", x["file"].get<std::string>()});
    EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
    // The simulator runs the file over the side file's routes (switch hops included), never
    // faster than T blocks of M/N bytes at the unit bandwidth (10^9 B/s).
    const CliResult sim = RunCli({"simulate", topo, x["file"].get<std::string>(), "--size", "4MB",
                                  "--routes", x["routes_file"].get<std::string>(), "--json"});
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
    const Rational bound = t * Rational(4 << 20) / x["ngpus"].get<int>() / Rational(1000000000);
    EXPECT_GE(ParseRational(nlohmann::json::parse(sim.out)["completion_time"].get<std::string>()),
              bound);

    nlohmann::json p =
        Export({"export", "mscclpp", topo, flows, "-o", base + ".plan.json", "--json"});
    EXPECT_EQ(p["replay"], "accepted");
    EXPECT_EQ(p["collective"], "alltoall");
    EXPECT_EQ(p["input_chunks"], p["output_chunks"]);
    EXPECT_EQ(ParseRational(p["achieved_ratio"].get<std::string>()), t);

    // The whole send buffer: a multiple of nchunksperloop x the 4 default slices.
    const std::int64_t size = x["nchunksperloop"].get<std::int64_t>() * 4 * 1024;
    const CliResult c = RunCli({"export", "chakra", topo, flows, "--size", std::to_string(size),
                                "-o", base + "-et", "--json"});
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const nlohmann::json cj = nlohmann::json::parse(c.out);
    EXPECT_EQ(cj["collective"], "alltoall");
    EXPECT_TRUE(std::filesystem::exists(base + "-et.0.et"));
  }
}

TEST(AlltoallExportCli, RingRoundTrips) { RoundTrips("ring", Rational(2)); }
TEST(AlltoallExportCli, CompleteGraphRoundTrips) { RoundTrips("k4", Rational(1)); }
TEST(AlltoallExportCli, OneSwitchStarRoundTrips) { RoundTrips("star", Rational(3)); }
TEST(AlltoallExportCli, HypercubeRoundTrips) { RoundTrips("q3", Rational(4)); }

// Replaces the n-th (0-based) occurrence of `from` in `s`; false if there is none.
bool ReplaceNth(std::string* s, const std::string& from, const std::string& to, int n) {
  std::size_t at = 0;
  for (int i = 0; i <= n; ++i, at += from.size()) {
    at = s->find(from, i == 0 ? 0 : at);
    if (at == std::string::npos) return false;
    if (i == n) s->replace(at, from.size(), to);
  }
  return true;
}

// Mutants of real exported files: the replay checker must reject every one (exit 1, a
// postcondition violation), in the XML and in the MSCCL++ plan.
TEST(AlltoallExportCli, MutatedExportsAreRejected) {
  const std::string topo = Topology("q3"), flows = Flows("q3", "optimum");
  const std::string xml_path = TempPath("a2a-export-mut.xml");
  nlohmann::json x = Export({"export", "msccl", topo, flows, "-o", xml_path, "--json"});
  ASSERT_EQ(x["replay"], "accepted");
  const std::string xml = ReadTextFile(xml_path);

  // A relay forwards from its output (a block of its own) instead of its scratch slot.
  std::string relay = xml;
  ASSERT_TRUE(ReplaceNth(&relay, "type=\"s\" srcbuf=\"s\"", "type=\"s\" srcbuf=\"o\"", 0));
  CliResult r = RunCli({"replay", WriteTempFile("a2a-mut-relay.xml", relay)});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("postcondition"), std::string::npos) << r.out;

  // Two receives into the output swap their destinations.
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < xml.size();) {
    const std::size_t end = xml.find('\n', at);
    lines.push_back(xml.substr(at, end - at));
    at = end == std::string::npos ? xml.size() : end + 1;
  }
  std::vector<std::size_t> recvs;
  for (std::size_t i = 0; i < lines.size() && recvs.size() < 2; ++i) {
    if (lines[i].find("type=\"r\"") != std::string::npos &&
        lines[i].find("dstbuf=\"o\"") != std::string::npos) {
      recvs.push_back(i);
    }
  }
  ASSERT_EQ(recvs.size(), 2u);
  const auto attr = [](const std::string& line, const std::string& key) {
    const std::size_t a = line.find(" " + key + "=\"") + key.size() + 3;
    return std::make_pair(a, line.find('"', a) - a);
  };
  std::string l0 = lines[recvs[0]], l1 = lines[recvs[1]];
  for (const char* key : {"dstoff", "srcoff"}) {
    const auto [a0, n0] = attr(l0, key);
    const auto [a1, n1] = attr(l1, key);
    const std::string v0 = l0.substr(a0, n0), v1 = l1.substr(a1, n1);
    ASSERT_NE(v0, v1);
    l0.replace(a0, n0, v1);
    l1.replace(a1, n1, v0);
  }
  lines[recvs[0]] = l0;
  lines[recvs[1]] = l1;
  std::string swapped;
  for (const std::string& l : lines) swapped += l + "\n";
  r = RunCli({"replay", WriteTempFile("a2a-mut-swap.xml", swapped)});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("postcondition"), std::string::npos) << r.out;

  // The MSCCL++ plan: the first put into a remote output lands one chunk further.
  const std::string plan_path = TempPath("a2a-export-mut.plan.json");
  nlohmann::json p = Export({"export", "mscclpp", topo, flows, "-o", plan_path, "--json"});
  ASSERT_EQ(p["replay"], "accepted");
  nlohmann::json plan = nlohmann::json::parse(ReadTextFile(plan_path));
  bool mutated = false;
  for (auto& gpu : plan["gpus"]) {
    for (auto& tb : gpu["threadblocks"]) {
      for (auto& op : tb["ops"]) {
        if (mutated || op["name"] != "put") continue;
        auto& dst = op["dst_buff"][0];
        const int ref = dst["buffer_id"].get<int>();
        const int buffer = tb["remote_buffer_refs"][0]["remote_buffer_ids"][ref].get<int>();
        if (gpu["remote_buffers"][buffer]["type"] != "o") continue;
        const int index = dst["index"].get<int>();
        dst["index"] = index == 0 ? 1 : index - 1;
        mutated = true;
      }
    }
  }
  ASSERT_TRUE(mutated);
  r = RunCli({"replay", WriteTempFile("a2a-mut.plan.json", plan.dump())});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("postcondition"), std::string::npos) << r.out;

  // The plan's first relay forward puts from the relay's output instead of its scratch slot.
  plan = nlohmann::json::parse(ReadTextFile(plan_path));
  mutated = false;
  for (auto& gpu : plan["gpus"]) {
    for (auto& tb : gpu["threadblocks"]) {
      for (auto& op : tb["ops"]) {
        if (mutated || op["name"] != "put" || op["src_buff"][0]["type"] != "s") continue;
        op["src_buff"][0]["type"] = "o";
        mutated = true;
      }
    }
  }
  ASSERT_TRUE(mutated);
  r = RunCli({"replay", WriteTempFile("a2a-mut-relay.plan.json", plan.dump())});
  EXPECT_EQ(r.exit_code, 1) << r.out;
}

TEST(AlltoallExportCli, RoundingAndLimits) {
  const std::string topo = Topology("q3"), flows = Flows("q3", "ecmp");
  // ECMP on Q_3 splits pairs at distance 2 in halves and at distance 3 in sixths: 6 chunks
  // per block, 48 in all.
  nlohmann::json exact =
      Export({"export", "msccl", topo, flows, "-o", TempPath("a2a-exact.xml"), "--json"});
  EXPECT_EQ(exact["nchunksperloop"], 48);
  EXPECT_EQ(exact["lcm_chunks_per_shard"], "6");
  // --fuse is for trees: ignored, the same file is written.
  nlohmann::json fused =
      Export({"export", "msccl", topo, flows, "-o", TempPath("a2a-fused.xml"), "--json", "--fuse"});
  EXPECT_EQ(fused["lowering"], "split");
  EXPECT_EQ(ReadTextFile(TempPath("a2a-fused.xml")), ReadTextFile(TempPath("a2a-exact.xml")));
  // ECMP on the 4-ring halves the opposite pairs' blocks over both directions (2 chunks per
  // block). With one chunk per block every opposite pair takes its first path: rounded, and
  // dearer than T = 2 (the replay still accepts the file: it moves every block exactly once).
  const std::string ring = Topology("ring"), ring_ecmp = Flows("ring", "ecmp");
  nlohmann::json rounded = Export({"export", "msccl", ring, ring_ecmp, "-o",
                                   TempPath("a2a-rounded.xml"), "--json", "--max-chunks", "4"});
  EXPECT_EQ(rounded["exact_chunks"], false);
  EXPECT_EQ(rounded["lcm_chunks_per_shard"], "2");
  EXPECT_EQ(rounded["nchunksperloop"], 4);
  EXPECT_EQ(rounded["replay"], "accepted");
  EXPECT_EQ(ParseRational(rounded["optimal_ratio"].get<std::string>()), Rational(2));
  EXPECT_GT(ParseRational(rounded["achieved_ratio"].get<std::string>()), Rational(2));
  // Fewer chunks than blocks: exit 1 naming the limit and the value that works.
  const CliResult r =
      RunCli({"export", "msccl", topo, flows, "-o", TempPath("a2a-few.xml"), "--max-chunks", "4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("limit --max-chunks"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(">= 8"), std::string::npos) << r.err;
}

TEST(AlltoallExportCli, BadInputIsExit2WithOneLine) {
  const std::string topo = Topology("k4"), flows = Flows("k4", "optimum");
  const auto one_line = [](const CliResult& r) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  CliResult r = RunCli({"export", "msccl", topo, flows, "-o", TempPath("a2a-ip.xml"), "--inplace"});
  one_line(r);
  EXPECT_NE(r.err.find("--inplace"), std::string::npos) << r.err;
  r = RunCli({"export", "mscclpp", topo, flows, "-o", TempPath("a2a-ip.json"), "--inplace"});
  one_line(r);
  // A skewed demand (alltoallv) is refused, naming the field.
  const std::string demand =
      WriteTempFile("a2a-skew-demand.json",
                    R"({"format": "demand", "demand": [{"from": "0", "to": "1", "amount": 2},)"
                    R"({"from": "1", "to": "0", "amount": 1}]})");
  const std::string skew = TempPath("a2a-skew.flows.json");
  ASSERT_EQ(RunCli({"baseline", "direct", topo, "--collective", "alltoall", "--demand", demand,
                    "--no-optimum", "-o", skew})
                .exit_code,
            0);
  for (const char* target : {"msccl", "mscclpp"}) {
    r = RunCli({"export", target, topo, skew, "-o", TempPath("a2a-skew.out")});
    one_line(r);
    EXPECT_NE(r.err.find(": demand: only the uniform all-to-all"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(TempPath("a2a-skew.out")));
}

}  // namespace
}  // namespace collsynth::testing
