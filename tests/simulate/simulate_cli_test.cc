// `collsynth simulate` end to end (docs/simulate.md): the BFB closed form from the bfb command's
// own T_L and T_B, ring and pipeline runs, per-link latencies from the topology file, the
// timeline CSV, units, and every bad input as exit 2 with one line naming it (exit 1 for a
// schedule the checker rejects).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/rational.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;
using testing::WriteTempFile;

const std::string kRing = SourcePath("experiments/topologies/ring8.txt");
const std::string kK22 = SourcePath("experiments/topologies/k22.json");
const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

std::string RingSchedule() {
  static const std::string path = [] {
    std::string p = TempPath("ring8_uniring.json");
    testing::CliResult r = RunCli({"baseline", "uniring", kRing, "-o", p});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return p;
  }();
  return path;
}

json SimulateJson(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"simulate"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  testing::CliResult r = RunCli(all);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

TEST(SimulateCliTest, BfbScheduleIsTlAlphaPlusTbShardOverBandwidth) {
  const std::string out = TempPath("k22_bfb.json");
  testing::CliResult b = RunCli({"bfb", kK22, "-o", out, "--json"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  json bfb = json::parse(b.out);
  const Rational tl(bfb["tl"].get<int>()), tb = ParseRational(bfb["tb"].get<std::string>());
  json r = SimulateJson({kK22, out, "--size", "1MB", "--alpha", "2us"});
  const Rational expected =
      tl * Rational(2, 1000000) + tb * Rational(1 << 20) / (4 * Rational(1000000000));
  EXPECT_EQ(r["completion_time"], ToString(expected));
  EXPECT_EQ(r["model"]["mode"], "sync");
  EXPECT_EQ(r["model"]["shard_bytes"], "262144");
}

TEST(SimulateCliTest, RingAllgatherTextAndJson) {
  // 8 nodes, unit bandwidth read as 1 GB/s: 7 steps of 1 us + 1000 B / 1 GB/s.
  json r = SimulateJson({kRing, RingSchedule(), "--size", "8000", "--alpha", "1us"});
  EXPECT_EQ(r["completion_time"], "7/500000");
  EXPECT_EQ(r["completion_seconds"], "1.4e-05");
  EXPECT_EQ(r["transfers"], 56);
  ASSERT_EQ(r["links"].size(), 8u);
  EXPECT_EQ(r["links"][0]["bytes"], "7000");
  EXPECT_EQ(r["links"][0]["busy_fraction"], "1/2");
  EXPECT_EQ(r["critical_path"].size(), 7u);
  // The timeline: send 0 (step 1, 0 -> 1) takes its link at 1 us and leaves it at 2 us.
  const std::string csv = TempPath("ring_timeline.csv");
  SimulateJson({kRing, RingSchedule(), "--size", "8000", "--alpha", "1us", "--timeline", csv});
  std::ifstream in(csv);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(row,
            "0,0,1,,,,,,0,1,1000,0,1e-06,2e-06,2e-06,2e-06,0,1/1000000,1/500000,1/500000,"
            "1/500000");
  testing::CliResult text =
      RunCli({"simulate", kRing, RingSchedule(), "--size", "8000", "--alpha", "1us"});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("completion time: 7/500000 s (1.4e-05 s)"), std::string::npos)
      << text.out;
  // The bandwidth unit: MB/s makes the data term 1000 times longer.
  r = SimulateJson({kRing, RingSchedule(), "--size", "8000", "--bandwidth-unit", "MB/s"});
  EXPECT_EQ(r["completion_time"], "7/1000");
}

TEST(SimulateCliTest, LinkLatenciesFromTheTopologyOverrideAlpha) {
  // Two nodes, a -> b with latency 3 s and b -> a without (gets --alpha 1 s); bandwidth 1 with
  // --bandwidth-unit 1 (byte/s). Allgather of M = 2 bytes: one step, both sends 1 byte.
  const std::string topo = WriteTempFile("lat2.json", R"({"nodes": [{"name": "a"}, {"name": "b"}],
    "links": [{"from": "a", "to": "b", "bandwidth": 1, "latency": 3},
              {"from": "b", "to": "a", "bandwidth": 1}]})");
  const std::string sched = WriteTempFile("lat2_s.json", R"({"format": "steps",
    "collective": "allgather", "sends": [
      {"source": "a", "chunk": [["0", "1"]], "from": "a", "to": "b", "step": 1},
      {"source": "b", "chunk": [["0", "1"]], "from": "b", "to": "a", "step": 1}]})");
  json r = SimulateJson({topo, sched, "--size", "2", "--alpha", "1", "--bandwidth-unit", "1"});
  EXPECT_EQ(r["completion_time"], "4");
  ASSERT_EQ(r["critical_path"].size(), 1u);
  EXPECT_EQ(r["critical_path"][0]["link"], "a -> b");
  EXPECT_EQ(r["critical_path"][0]["start"], "3");
}

TEST(SimulateCliTest, PipelineWithChunksAndTimeline) {
  const std::string sched = TempPath("tc_pipeline.json");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "-o", sched}).exit_code, 0);
  const std::string csv = TempPath("tc_timeline.csv");
  json r = SimulateJson({kTwoCluster, sched, "--size", "1GB", "--chunks", "4", "--timeline", csv});
  EXPECT_EQ(r["model"]["chunks"], 4);
  EXPECT_EQ(r["model"]["switch_model"], "store-and-forward");
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("transfer,phase,step,tree,edge,route,chunk,hop,from,to,bytes,", 0), 0u)
      << header;
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, r["transfers"].get<int>());  // store-and-forward: one link per transfer
  // --chunks-sweep: every P simulated, the best one reported in full.
  json sweep = SimulateJson(
      {kTwoCluster, sched, "--size", "1MB", "--alpha", "5us", "--chunks-sweep", "1,2,4,8,16"});
  ASSERT_EQ(sweep["chunk_sweep"].size(), 5u);
  Rational best_time = ParseRational(sweep["completion_time"].get<std::string>());
  for (const json& row : sweep["chunk_sweep"]) {
    const Rational t = ParseRational(row["completion_time"].get<std::string>());
    EXPECT_GE(t, best_time);
    if (row["chunks"] == sweep["best_chunks"]) {
      EXPECT_EQ(t, best_time);
    }
  }
  EXPECT_EQ(sweep["model"]["chunks"], sweep["best_chunks"]);
  EXPECT_EQ(RunCli({"simulate", kTwoCluster, sched, "--size", "1MB", "--chunks", "2",
                    "--chunks-sweep", "1,2"})
                .exit_code,
            2);
  // Too many chunks: refused before building.
  testing::CliResult big =
      RunCli({"simulate", kTwoCluster, sched, "--size", "1GB", "--chunks", "16000000"});
  EXPECT_EQ(big.exit_code, 2) << big.err;
  EXPECT_NE(big.err.find("above the simulator's limit"), std::string::npos) << big.err;
  // Cut-through: fewer transfers, one row per (transfer, link).
  json ct = SimulateJson(
      {kTwoCluster, sched, "--size", "1GB", "--chunks", "4", "--switch-model", "cut-through"});
  EXPECT_LT(ct["transfers"].get<int>(), r["transfers"].get<int>());
}

TEST(SimulateCliTest, BadInputIsExitTwoWithOneLine) {
  const std::string ring = RingSchedule();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--size", "-5"}, "collsynth: <args>: --size: '-5' must be positive"},
      {{"--size", "0"}, "collsynth: <args>: --size: '0' must be positive"},
      {{"--size", "12XB"}, "collsynth: <args>: --size: unknown unit 'XB'"},
      {{"--size", "1", "--alpha", "-1us"},
       "collsynth: <args>: --alpha: '-1us' must be non-negative"},
      {{"--size", "1", "--gamma", "x"}, "collsynth: <args>: --gamma: 'x': "},
      {{"--size", "1", "--bandwidth-unit", "furlongs/s"},
       "collsynth: <args>: --bandwidth-unit: unknown unit 'furlongs/s'"},
      {{"--size", "1", "--mode", "later"},
       "collsynth: <args>: --mode: 'later' is not sync or async"},
      {{"--size", "1", "--switch-model", "wormhole"},
       "collsynth: <args>: --switch-model: 'wormhole' is not store-and-forward or cut-through"},
      {{"--size", "1", "--chunks", "0"}, "collsynth: <args>: --chunks: '0' must be positive"},
      {{"--size", "1", "--chunks", "3/2"}, "collsynth: <args>: --chunks: '3/2' must be an integer"},
      {{"--size", "1", "--chunks", "2"}, "collsynth: <args>: --chunks: applies to pipeline"},
      {{"--size", "1", "--chunks", "4x"},
       "collsynth: <args>: --chunks: '4x' must be an integer in 1..16777216"},
      {{"--size", "1", "--chunks-sweep", "1,2"},
       "collsynth: <args>: --chunks-sweep: applies to pipeline and flows schedules only"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"simulate", kRing, ring};
    args.insert(args.end(), extra.begin(), extra.end());
    testing::CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << extra[1] << ": " << r.err;
    EXPECT_EQ(r.err.rfind(message, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(SimulateCliTest, BadLatencyFieldIsExitTwoNamingTheLink) {
  const std::string sched = WriteTempFile("two_s.json", R"({"format": "steps",
    "collective": "allgather", "sends": [
      {"source": "a", "chunk": [["0", "1"]], "from": "a", "to": "b", "step": 1},
      {"source": "b", "chunk": [["0", "1"]], "from": "b", "to": "a", "step": 1}]})");
  for (const std::string value : {"-1", "1e-6", "\"soon\""}) {
    const std::string topo = WriteTempFile("badlat.json", R"({"nodes": [{"name": "a"},
      {"name": "b"}], "links": [{"from": "a", "to": "b", "bandwidth": 1, "duplex": true,
      "latency": )" + value + "}]}");
    testing::CliResult r = RunCli({"simulate", topo, sched, "--size", "2"});
    EXPECT_EQ(r.exit_code, 2) << value << ": " << r.err;
    EXPECT_EQ(r.err.rfind("collsynth: " + topo + ": links[0] (a -> b) latency: ", 0), 0u) << r.err;
  }
}

// An all-to-all flows schedule (docs/simulate.md "All-to-all flows") on K_3 with unit links,
// each pair on its own link: P chunks in a row on every link, so the time is P·α + M/(3·b)
// exactly; the timeline names each row's pair; --chunks-sweep picks P = 1, the least latency
// (α + M/(3b) against 4α + M/(3b)); --mode, and --chunks-sweep with --chunks, are exit 2 with
// one line; a wrong claimed time is exit 1, nothing simulated.
TEST(SimulateCliTest, FlowsScheduleClosedFormTimelineAndOptions) {
  const std::string k3 = WriteTempFile("k3_flows_topo.txt",
                                       "name: k3\ncompute: a b c\na b 1\nb a 1\na c 1\nc a 1\n"
                                       "b c 1\nc b 1\n");
  std::string flows =
      R"({"format":"flows","collective":"alltoall","demand":"uniform","time":"1","flows":[)";
  const char* pairs[][2] = {{"a", "b"}, {"a", "c"}, {"b", "a"}, {"b", "c"}, {"c", "a"}, {"c", "b"}};
  for (std::size_t i = 0; i < 6; ++i) {
    flows += std::string(i ? "," : "") + R"({"from":")" + pairs[i][0] + R"(","to":")" +
             pairs[i][1] + R"(","paths":[{"path":[")" + pairs[i][0] + R"(",")" + pairs[i][1] +
             R"("],"share":"1"}]})";
  }
  const std::string file = WriteTempFile("k3_flows.json", flows + "]}");
  const std::string timeline = TempPath("k3_flows_timeline.csv");
  const json r = SimulateJson(
      {k3, file, "--size", "3000", "--chunks", "4", "--alpha", "1us", "--timeline", timeline});
  EXPECT_EQ(r["format"], "flows");
  EXPECT_EQ(r["collective"], "alltoall");
  EXPECT_EQ(r["model"]["chunks"], 4);
  EXPECT_EQ(r["checked_time"], "1");
  EXPECT_EQ(r["bandwidth_bound"], "1/1000000");  // 1000 B at 10^9 B/s
  EXPECT_EQ(r["completion_time"], "1/200000");   // 4 µs + 1 µs
  EXPECT_EQ(r["transfers"], 24);
  EXPECT_EQ(r["critical_path"][0].count("pair"), 1u);
  std::ifstream in(timeline);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header.rfind("transfer,pair,source,destination,path,chunk,hop,from,to,bytes,", 0), 0u);
  EXPECT_EQ(row.rfind("0,0,a,b,0,0,0,a,b,250,", 0), 0u) << row;

  const json sweep =
      SimulateJson({k3, file, "--size", "3000", "--alpha", "1us", "--chunks-sweep", "4,1,2"});
  EXPECT_EQ(sweep["best_chunks"], 1);
  ASSERT_EQ(sweep["chunk_sweep"].size(), 3u);
  EXPECT_EQ(sweep["chunk_sweep"][0]["completion_time"], "1/200000");  // P = 4: 4 µs + 1 µs
  EXPECT_EQ(sweep["completion_time"], "1/500000");                    // P = 1: 1 µs + 1 µs
  for (const auto& [extra, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--mode", "async"}, "--mode: applies to step schedules only"},
           {{"--chunks-sweep", "1,2", "--chunks", "2"}, "--chunks-sweep: replaces --chunks"}}) {
    std::vector<std::string> args = {"simulate", k3, file, "--size", "3000"};
    args.insert(args.end(), extra.begin(), extra.end());
    testing::CliResult bad = RunCli(args);
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_NE(bad.err.find(message), std::string::npos) << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  }
  std::string wrong = flows + "]}";
  wrong.replace(wrong.find(R"("time":"1")"), 10, R"("time":"2")");
  testing::CliResult rejected =
      RunCli({"simulate", k3, WriteTempFile("k3_flows_wrong.json", wrong), "--size", "3000"});
  EXPECT_EQ(rejected.exit_code, 1) << rejected.err;
  EXPECT_NE(rejected.err.find("nothing simulated"), std::string::npos) << rejected.err;
}

TEST(SimulateCliTest, AScheduleTheCheckerRejectsIsExitOne) {
  const std::string sched = WriteTempFile("half.json", R"({"format": "steps",
    "collective": "allgather", "sends": [
      {"source": "0", "chunk": [["0", "1"]], "from": "0", "to": "1", "step": 1}]})");
  testing::CliResult r = RunCli({"simulate", kRing, sched, "--size", "8"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("the schedule does not verify, nothing simulated"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// Every time is a sum of latencies, transfer durations and reduction times, so their size in
// bits bounds the work of the exact arithmetic: 50,000-digit latencies took 78 s. Inputs whose
// least common denominator and largest numerator need more than 2048 bits are refused before
// anything runs (exit 2, naming the topology), below the bound the run is exact as always.
TEST(SimulateCliTest, LatenciesWithHugeDigitCountsAreRefusedBeforeRunning) {
  const std::string sched = WriteTempFile("huge_lat_s.json", R"({"format": "steps",
    "collective": "allgather", "sends": [
      {"source": "a", "chunk": [["0", "1"]], "from": "a", "to": "b", "step": 1},
      {"source": "b", "chunk": [["0", "1"]], "from": "b", "to": "a", "step": 1}]})");
  auto topo_with = [](const std::string& name, const std::string& latency) {
    return WriteTempFile(name, R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [
      {"from": "a", "to": "b", "bandwidth": 1, "duplex": true, "latency": ")" +
                                   latency + R"("}]})");
  };
  // 1/3^k seconds: 3^1000 has 1585 bits, 3^1300 has 2061.
  std::string three_1000 = "1", three_1300;
  {
    BigInt p = 1;
    for (int i = 0; i < 1300; ++i) {
      p *= 3;
      if (i + 1 == 1000) three_1000 = p.str();
    }
    three_1300 = p.str();
  }
  const std::string fits = topo_with("lat_1000.json", "1/" + three_1000);
  json ok = SimulateJson({fits, sched, "--size", "2", "--bandwidth-unit", "1"});
  // One step: latency 1/3^1000 plus 1 byte at 1 byte/s.
  EXPECT_EQ(ParseRational(ok["completion_time"].get<std::string>()),
            Rational(1) + ParseRational("1/" + three_1000));
  const std::string huge = topo_with("lat_1300.json", "1/" + three_1300);
  testing::CliResult r = RunCli({"simulate", huge, sched, "--size", "2"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("collsynth: " + huge + ": exact time resolution: the exact times need ", 0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("above the simulator's limit of 2048 bits"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// --chunks-sweep: a repeated P is simulated once, and the whole sweep's work is bounded like
// one simulation's (2^24 transfers in all), checked before anything runs.
TEST(SimulateCliTest, ChunkSweepDropsRepeatsAndBoundsItsTotalWork) {
  const std::string sched = TempPath("tc_pipeline_sweep.json");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "-o", sched}).exit_code, 0);
  json sweep = SimulateJson(
      {kTwoCluster, sched, "--size", "1MB", "--alpha", "5us", "--chunks-sweep", "4,1,4,2,1"});
  ASSERT_EQ(sweep["chunk_sweep"].size(), 3u);
  EXPECT_EQ(sweep["chunk_sweep"][0]["chunks"], 4);
  EXPECT_EQ(sweep["chunk_sweep"][1]["chunks"], 1);
  EXPECT_EQ(sweep["chunk_sweep"][2]["chunks"], 2);
  // Transfers grow linearly in P: one P at 60 % of the limit passes alone, two do not.
  const json one = SimulateJson({kTwoCluster, sched, "--size", "1MB", "--chunks", "1"});
  const std::int64_t per_p = one["transfers"].get<std::int64_t>();
  const std::int64_t p = (std::int64_t{1} << 24) * 6 / 10 / per_p;
  const std::int64_t q = p - 1;
  testing::CliResult r = RunCli({"simulate", kTwoCluster, sched, "--size", "1MB", "--chunks-sweep",
                                 std::to_string(p) + "," + std::to_string(q)});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--chunks-sweep: the sweep's simulations up to P = " + std::to_string(q) +
                       " move more than 16777216 transfers in all"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace collsynth
