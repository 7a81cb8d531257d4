// `collsynth export chakra` from the command line: the written PREFIX.<rank>.et files, decoded
// by the test's own decoder (chakra_decode.h), are consistent (matched sends and receives,
// acyclic dependencies) and move exactly the bytes per (src, dst) that the independent replay
// checker counts in the MSCCL program of the same schedule; bad input is exit 2 with one
// clear line and nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/json_io.h"
#include "export/chakra_decode.h"
#include "test_util.h"

namespace collsynth::testing {
namespace {

const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

// Step schedules need a direct-connect topology: BFB runs on the 3-cube.
std::string Hypercube() {
  const std::string path = TempPath("chakra-cli-cube.json");
  if (!std::filesystem::exists(path)) {
    CliResult r = RunCli({"topo", "gen", "hypercube(3)", "-o", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return path;
}

std::string TopologyFor(const std::string& producer) {
  return producer == "bfb" ? Hypercube() : kTwoCluster;
}

std::string Schedule(const std::string& producer, const std::string& coll) {
  const std::string path = TempPath("chakra-cli-" + producer + "-" + coll + ".json");
  if (!std::filesystem::exists(path)) {
    CliResult r = RunCli({producer, TopologyFor(producer), "--collective", coll, "-o", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return path;
}

std::vector<EtFile> ReadSet(const std::string& prefix, int n) {
  std::vector<EtFile> out;
  for (int r = 0; r < n; ++r)
    out.push_back(DecodeEt(ReadTextFile(prefix + "." + std::to_string(r) + ".et")));
  return out;
}

// Bytes per (src, dst) of the MSCCL program the chakra export starts from, counted by the
// replay checker (chunks per pair) and scaled to `size` bytes.
std::map<std::pair<int, int>, std::int64_t> ReplayedBytesPerPair(const std::string& topology,
                                                                 const std::string& schedule,
                                                                 std::int64_t size,
                                                                 const std::string& extra) {
  const std::string xml = TempPath("chakra-cli-program.xml");
  std::vector<std::string> args = {"export", "msccl", topology, schedule, "-o", xml};
  if (!extra.empty()) args.push_back(extra);
  CliResult e = RunCli(args);
  EXPECT_EQ(e.exit_code, 0) << e.err;
  CliResult r = RunCli({"replay", xml, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  const std::int64_t nck = j["nchunksperloop"].get<std::int64_t>();
  std::map<std::pair<int, int>, std::int64_t> out;
  for (const auto& x : j["bytes_per_pair"]) {
    out[{x["src"].get<int>(), x["dst"].get<int>()}] = x["chunks"].get<std::int64_t>() * size / nck;
  }
  return out;
}

TEST(ExportChakraCli, EveryCollectiveMatchesTheReplayedProgram) {
  struct Case {
    std::string producer, coll, extra;
  };
  const std::vector<Case> cases = {
      {"pipeline", "allgather", ""}, {"pipeline", "reduce-scatter", ""},
      {"pipeline", "allreduce", ""}, {"pipeline", "allreduce", "--fuse"},
      {"bfb", "allgather", ""},      {"bfb", "allreduce", ""}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.producer + " " + c.coll + " " + c.extra);
    const std::string schedule = Schedule(c.producer, c.coll);
    const std::string prefix = TempPath("chakra-" + c.producer + "-" + c.coll + c.extra);
    const std::int64_t size = 3 << 20;  // 3 MiB
    const std::string topology = TopologyFor(c.producer);
    std::vector<std::string> args = {"export", "chakra", topology,
                                     schedule, "--size", std::to_string(size),
                                     "-o",     prefix,   "--json"};
    if (!c.extra.empty()) args.push_back(c.extra);
    CliResult r = RunCli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["files"], 8);
    EXPECT_EQ(j["slices"], 4);
    EXPECT_EQ(j["replay"], "accepted");
    const std::string key = c.coll == "allgather"        ? "all-gather-implementation-custom"
                            : c.coll == "reduce-scatter" ? "reduce-scatter-implementation-custom"
                                                         : "all-reduce-implementation-custom";
    EXPECT_EQ(j["system_json_key"], key);
    EXPECT_EQ(
        j["chunk_slice_bytes"].get<std::int64_t>() * j["nchunksperloop"].get<std::int64_t>() * 4,
        size);
    std::vector<EtFile> f = ReadSet(prefix, 8);
    EXPECT_EQ(CheckEtSet(f), "");
    std::int64_t nodes = 0;
    for (std::size_t v = 0; v < f.size(); ++v) {
      nodes += static_cast<std::int64_t>(f[v].nodes.size());
      std::int64_t sent = 0;
      for (const EtNode& x : f[v].nodes) {
        if (x.type == kEtSend) sent += x.Int("comm_size");
      }
      EXPECT_EQ(sent, j["sent_bytes_per_rank"][v].get<std::int64_t>());
    }
    EXPECT_EQ(nodes, j["nodes"].get<std::int64_t>());
    EXPECT_EQ(EtBytesPerPair(f), ReplayedBytesPerPair(topology, schedule, size, c.extra));
  }
}

TEST(ExportChakraCli, NodesGrowLinearlyWithSlices) {
  const std::string schedule = Schedule("pipeline", "allgather");
  std::int64_t nodes[2];
  for (int k = 0; k < 2; ++k) {
    const std::string slices = k == 0 ? "1" : "3";
    CliResult r = RunCli({"export", "chakra", kTwoCluster, schedule, "--size", "4800", "--slices",
                          slices, "-o", TempPath("chakra-slices-" + slices), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nodes[k] = nlohmann::json::parse(r.out)["nodes"].get<std::int64_t>();
  }
  EXPECT_GT(nodes[0], 0);
  EXPECT_EQ(nodes[1], 3 * nodes[0]);
}

TEST(ExportChakraCli, BadInputIsExit2AndNothingIsWritten) {
  const std::string ag = Schedule("pipeline", "allgather");
  const std::string prefix = TempPath("chakra-bad");
  // two_cluster's allgather has nchunksperloop 8: with 4 slices the size must be a multiple of 32.
  CliResult r = RunCli({"export", "chakra", kTwoCluster, ag, "--size", "1000", "-o", prefix});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "collsynth: <args>: --size: 1000 bytes is not a multiple of nchunksperloop x slices = "
            "8 x 4 = 32 (every slice of a chunk is a whole number of bytes); use 992 or 1024\n");
  r = RunCli({"export", "chakra", kTwoCluster, ag, "--size", "0", "-o", prefix});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: <args>: --size: must be a positive number of bytes (got 0)\n");
  r = RunCli({"export", "chakra", kTwoCluster, ag, "--size", "16", "-o", prefix});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("use 32\n"), std::string::npos) << r.err;
  r = RunCli(
      {"export", "chakra", kTwoCluster, ag, "--size", "1024", "--slices", "0", "-o", prefix});
  EXPECT_EQ(r.exit_code, 2);
  const std::string bc = TempPath("chakra-cli-broadcast.json");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "--collective", "broadcast", "-o", bc}).exit_code, 0);
  r = RunCli({"export", "chakra", kTwoCluster, bc, "--size", "1024", "-o", prefix});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + bc +
                       ": collective: broadcast has no ASTRA-sim custom collective; export chakra "
                       "takes allgather, reduce-scatter, allreduce and all-to-all flows\n");
  EXPECT_FALSE(std::filesystem::exists(prefix + ".0.et"));
  EXPECT_FALSE(std::filesystem::exists(prefix + ".0.et.partial"));
  // An unwritable prefix is exit 2 naming the file.
  const std::string nodir = TempPath("no-such-dir") + "/ag";
  r = RunCli({"export", "chakra", kTwoCluster, ag, "--size", "1024", "-o", nodir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + nodir + ".0.et.partial: cannot open file for writing\n");
}

TEST(ExportChakraCli, InvalidScheduleIsExit1) {
  nlohmann::json j = nlohmann::json::parse(ReadTextFile(Schedule("pipeline", "allgather")));
  j["ratio"] = "1/1000";  // claims a smaller ratio than the trees have: the checker rejects it
  const std::string bad = WriteTempFile("chakra-invalid.json", j.dump());
  const std::string prefix = TempPath("chakra-invalid");
  CliResult r = RunCli({"export", "chakra", kTwoCluster, bad, "--size", "1024", "-o", prefix});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(
      r.err.rfind("collsynth: " + bad + ": the schedule does not verify, nothing exported: ", 0),
      0u)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(prefix + ".0.et"));
}

}  // namespace
}  // namespace collsynth::testing

namespace collsynth::testing {
namespace {

// The traces' node count (program steps' parts x slices) is bounded before anything is built:
// --slices 4096 on fattree(8) ran out of memory, 65536 on a 9-node torus wrote 2.1 GB.
TEST(ExportChakraCli, TraceNodesAboveTheLimitAreRefusedBeforeBuilding) {
  const std::string ag = Schedule("pipeline", "allreduce");
  const std::string prefix = TempPath("chakra_nodes_limit");
  CliResult one = RunCli({"export", "chakra", kTwoCluster, ag, "--size", "4800", "--slices", "1",
                          "-o", prefix + "_one", "--json"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const std::int64_t per_slice = nlohmann::json::parse(one.out)["nodes"].get<std::int64_t>();
  ASSERT_GT(per_slice, 0);
  const std::int64_t slices = (std::int64_t{1} << 23) / per_slice + 1;
  ASSERT_LE(slices, 65536);  // --slices takes 1..65536
  CliResult r = RunCli({"export", "chakra", kTwoCluster, ag, "--size", "4800", "--slices",
                        std::to_string(slices), "-o", prefix});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "collsynth: <args>: --slices: " + std::to_string(slices) + " slices give " +
                       std::to_string(per_slice * slices) +
                       " trace nodes, more than 8388608 (about 150 bytes each in memory, 100 on "
                       "disk): use fewer slices\n");
  EXPECT_FALSE(std::filesystem::exists(prefix + ".0.et"));
  EXPECT_FALSE(std::filesystem::exists(prefix + ".0.et.partial"));
}

}  // namespace
}  // namespace collsynth::testing
