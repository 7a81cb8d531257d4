// `collsynth simulate TOPO FILE.xml` (docs/simulate.md "Exported
// MSCCL XML"): files written by `export msccl` simulated through their thread blocks,
// connectors and P iterations of the chunk loop. Closed forms on paths, the bytes per link
// against the export's side file, the bandwidth bound, and exit 1 / 2 for rejected and bad
// input.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/rational.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

// A bidirectional path a - b - c - d, bandwidth 1 (GB/s).
std::string Path4() {
  static const std::string p =
      WriteTempFile("h10_path4.json",
                    R"({"name": "path4", "nodes": [{"name": "a", "kind": "compute"},
 {"name": "b", "kind": "compute"}, {"name": "c", "kind": "compute"},
 {"name": "d", "kind": "compute"}],
 "links": [{"from": "a", "to": "b", "bandwidth": 1}, {"from": "b", "to": "a", "bandwidth": 1},
 {"from": "b", "to": "c", "bandwidth": 1}, {"from": "c", "to": "b", "bandwidth": 1},
 {"from": "c", "to": "d", "bandwidth": 1}, {"from": "d", "to": "c", "bandwidth": 1}]})");
  return p;
}

std::string Path2() {
  static const std::string p =
      WriteTempFile("h10_path2.json",
                    R"({"name": "path2", "nodes": [{"name": "a", "kind": "compute"},
 {"name": "b", "kind": "compute"}],
 "links": [{"from": "a", "to": "b", "bandwidth": 1}, {"from": "b", "to": "a", "bandwidth": 1}]})");
  return p;
}

// pipeline + export msccl; returns the XML path (the side file is PREFIX.routes.json).
std::string Export(const std::string& topo, const std::string& prefix,
                   const std::vector<std::string>& pipeline_args = {},
                   const std::vector<std::string>& export_args = {}) {
  const std::string schedule = TempPath(prefix + ".json");
  std::vector<std::string> p = {"pipeline", topo, "-o", schedule};
  p.insert(p.end(), pipeline_args.begin(), pipeline_args.end());
  testing::CliResult r = RunCli(p);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string xml = TempPath(prefix + ".xml");
  std::vector<std::string> e = {"export", "msccl", topo, schedule, "-o", xml};
  e.insert(e.end(), export_args.begin(), export_args.end());
  r = RunCli(e);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return xml;
}

json Simulate(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"simulate"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  testing::CliResult r = RunCli(all);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

Rational Completion(const json& r) {
  return ParseRational(r["completion_time"].get<std::string>());
}

// Broadcast of M bytes from a down the path (d = 3 links): the runtime's chunk loop pipelines
// the one-chunk program, each iteration one unit of M/P bytes per hop, a forward waiting for
// its receive (flag) and for the previous unit on its link: (P + d - 1)(α + M/(P·b)).
TEST(SimulateMscclTest, BroadcastOnPathIsTheTreePipelineClosedForm) {
  const std::string xml =
      Export(Path4(), "h10_bc", {"--collective", "broadcast"}, {"--root-specific"});
  const Rational alpha(1, 1000000), b(1000000000), M(1000);
  for (int P : {1, 2, 5}) {
    json r =
        Simulate({Path4(), xml, "--size", "1000", "--alpha", "1us", "--chunks", std::to_string(P)});
    EXPECT_EQ(Completion(r), (P + 2) * (alpha + M / (P * b))) << "P = " << P;
    EXPECT_EQ(r["format"], "msccl");
    EXPECT_EQ(r["model"]["iterations"], P);
    EXPECT_EQ(r["model"]["fifo_depth"], 2);  // Simple: 4 of 8 slots per transfer
  }
}

// A broadcast from c (rank 2): the replay checks rank 0 as the root unless --root says
// otherwise (exit 1); with --root 2 the longer branch c -> b -> a (d = 2) gives
// (P + 1)(α + M/(P·b)).
TEST(SimulateMscclTest, BroadcastFromAnotherRootNeedsRoot) {
  const std::string xml = Export(Path4(), "h10_bc_c", {"--collective", "broadcast", "--root", "c"},
                                 {"--root-specific"});
  testing::CliResult r = RunCli({"simulate", Path4(), xml, "--size", "1000"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json ok =
      Simulate({Path4(), xml, "--size", "1000", "--alpha", "1us", "--chunks", "3", "--root", "2"});
  EXPECT_EQ(Completion(ok), 4 * (Rational(1, 1000000) + Rational(1000, 3 * 1000000000LL)));
}

// Two GPUs: each sends its shard M/2 in P units of M/(2P), one after the other (the block
// moves on when a unit has left the link): P·α + M/(2b).
TEST(SimulateMscclTest, AllgatherOnTwoGpusIsPAlphaPlusHalfMessage) {
  const std::string xml = Export(Path2(), "h10_ag2");
  for (int P : {1, 3, 8}) {
    json r =
        Simulate({Path2(), xml, "--size", "6000", "--alpha", "2us", "--chunks", std::to_string(P)});
    EXPECT_EQ(Completion(r), P * Rational(2, 1000000) + Rational(3000, 1000000000)) << "P = " << P;
  }
}

// Path of 4 without latency: the busiest links (c -> d, b -> a) carry 3 shards and are never
// idle (each GPU's own shard is ready at 0, forwards arrive while the link is busy), so the
// time is the bandwidth bound T_B*·M/N = 3·M/(4b) for every P.
TEST(SimulateMscclTest, AllgatherOnPathWithoutLatencyIsTheBandwidthBound) {
  const std::string xml = Export(Path4(), "h10_ag4");
  for (int P : {1, 3, 8}) {
    json r = Simulate({Path4(), xml, "--size", "4000", "--chunks", std::to_string(P)});
    EXPECT_EQ(Completion(r), Rational(3 * 4000, 4 * 1000000000LL)) << "P = " << P;
  }
}

// Per link: the simulated bytes equal the side file's loads (shard units) times the shard,
// with the side file's routes through the fat-tree's switches; the shortest paths put the
// bytes elsewhere. Both times are at least the bandwidth bound ratio·(M/N)/b.
TEST(SimulateMscclTest, BytesPerLinkEqualTheSideFileLoadsAndTimeIsAboveTheBound) {
  const std::string topo = TempPath("h10_ft4.json");
  ASSERT_EQ(RunCli({"topo", "gen", "fattree(4)", "-o", topo}).exit_code, 0);
  // The plain path's routes (edge splitting) are not shortest paths; the symmetric path's star
  // of routes happens to be exactly the simulator's shortest paths, so it cannot show the
  // difference this test is about.
  const std::string xml = Export(topo, "h10_ft", {"--no-symmetric"});
  const std::string routes = TempPath("h10_ft.routes.json");
  std::ifstream in(routes);
  ASSERT_TRUE(in.good()) << routes;
  const json side = json::parse(in);
  std::map<std::pair<std::string, std::string>, Rational> want;
  for (const json& l : side["link_loads"]) {
    want[{l["from"], l["to"]}] += ParseRational(l["load"].get<std::string>());
  }
  const Rational ratio = ParseRational(side["optimal_ratio"].get<std::string>());
  for (bool with_routes : {true, false}) {
    std::vector<std::string> args = {topo,       xml, "--size",  "16MB",
                                     "--chunks", "4", "--alpha", "1us"};
    if (with_routes) {
      args.push_back("--routes");
      args.push_back(routes);
    }
    json r = Simulate(args);
    const Rational shard = ParseRational(r["model"]["shard_bytes"].get<std::string>());
    std::map<std::pair<std::string, std::string>, Rational> got;
    for (const json& l : r["links"]) {
      got[{l["from"], l["to"]}] = ParseRational(l["bytes"].get<std::string>()) / shard;
    }
    EXPECT_EQ(got == want, with_routes);
    EXPECT_EQ(r["model"]["routes"], with_routes ? "side-file" : "shortest-path");
    EXPECT_GE(Completion(r), ratio * shard / Rational(1000000000));
  }
}

// The simulated time of the file is never below the bandwidth bound of the schedule it came
// from, T_B*·M/N (the export's optimal_ratio in shard units per bandwidth unit), nor below the
// schedule's own simulation with as many chunks (which approaches the bound from above).
TEST(SimulateMscclTest, XmlTimeIsAtLeastTheSchedulesBandwidthBound) {
  const std::string topo = TempPath("h10_gb_topo.json");
  ASSERT_EQ(RunCli({"topo", "gen", "gpuboxes(2,2,4,1,1)", "-o", topo}).exit_code, 0);
  const std::string xml = Export(topo, "h10_gb");
  const std::string routes = TempPath("h10_gb.routes.json");
  std::ifstream in(routes);
  const Rational ratio = ParseRational(json::parse(in)["optimal_ratio"].get<std::string>());
  const Rational bound = ratio * Rational(1 << 20) / 4 / Rational(1000000000);
  for (int P : {1, 4, 16}) {
    json r =
        Simulate({topo, xml, "--size", "1MB", "--chunks", std::to_string(P), "--routes", routes});
    json s =
        Simulate({topo, TempPath("h10_gb.json"), "--size", "1MB", "--chunks", std::to_string(P)});
    EXPECT_GE(Completion(r), bound) << P;
    EXPECT_GE(Completion(s), bound) << P;
  }
}

// Connector slots bind when a receiver is late: in a reduce-scatter the rrc steps of one
// chunk are chained by dependencies, so a sender may find the connector full. One slot per
// connector (--fifo-depth 1, replayed at that depth first) is slower than the kernel's two
// (Simple); LL files get eight.
TEST(SimulateMscclTest, ConnectorSlotsDelaySenders) {
  const std::string topo = TempPath("h10_gb_topo_rs.json");
  ASSERT_EQ(RunCli({"topo", "gen", "gpuboxes(2,2,4,1,1)", "-o", topo}).exit_code, 0);
  const std::string xml = Export(topo, "h10_gbrs", {"--collective", "reduce-scatter"});
  json one = Simulate(
      {topo, xml, "--size", "1MB", "--alpha", "1us", "--chunks", "4", "--fifo-depth", "1"});
  json two = Simulate({topo, xml, "--size", "1MB", "--alpha", "1us", "--chunks", "4"});
  EXPECT_EQ(one["model"]["fifo_depth"], 1);
  EXPECT_EQ(two["model"]["fifo_depth"], 2);
  EXPECT_GT(Completion(one), Completion(two));
  const std::string ll =
      Export(topo, "h10_gbrs_ll", {"--collective", "reduce-scatter"}, {"--proto", "LL"});
  json eight = Simulate({topo, ll, "--size", "1MB", "--alpha", "1us", "--chunks", "4"});
  EXPECT_EQ(eight["model"]["fifo_depth"], 8);
  EXPECT_EQ(eight["model"]["proto"], "LL");
}

// The side file lists transfers in lowering order, not in the blocks' order: on the path with
// one channel, connector c -> d carries c's own shard first (level 0), then b's, then a's
// (chunk 0), while the side file lists chunks 0, 1, 2. Sending a's shard (chunk 0) through a
// detour switch s in the side file must put exactly that unit on c -> s -> d: matched by
// chunk, not by row position, and independent of the rows' order.
TEST(SimulateMscclTest, SideFileRowsAreMatchedByChunkNotByOrder) {
  const std::string xml = Export(Path4(), "h10_ag4c", {}, {"--max-channels", "1"});
  const std::string topo =
      WriteTempFile("h10_path4s.json",
                    R"({"name": "path4s", "nodes": [{"name": "a", "kind": "compute"},
 {"name": "b", "kind": "compute"}, {"name": "c", "kind": "compute"},
 {"name": "d", "kind": "compute"}, {"name": "s", "kind": "switch"}],
 "links": [{"from": "a", "to": "b", "bandwidth": 1}, {"from": "b", "to": "a", "bandwidth": 1},
 {"from": "b", "to": "c", "bandwidth": 1}, {"from": "c", "to": "b", "bandwidth": 1},
 {"from": "c", "to": "d", "bandwidth": 1}, {"from": "d", "to": "c", "bandwidth": 1},
 {"from": "c", "to": "s", "bandwidth": 1}, {"from": "s", "to": "c", "bandwidth": 1},
 {"from": "s", "to": "d", "bandwidth": 1}, {"from": "d", "to": "s", "bandwidth": 1}]})");
  std::ifstream in(TempPath("h10_ag4c.routes.json"));
  json side = json::parse(in);
  side["routes"].push_back(json::array({{{"path", {"c", "s", "d"}}, {"share", "1"}}}));
  const int detour = static_cast<int>(side["routes"].size()) - 1;
  int changed = 0;
  for (json& row : side["transfers"]) {
    if (row[0] == 2 && row[1] == 3 && row[3] == 0) {
      row[6] = detour;
      ++changed;
    }
  }
  ASSERT_EQ(changed, 1);
  const std::string forward = WriteTempFile("h10_ag4c_fwd.routes.json", side.dump());
  std::reverse(side["transfers"].begin(), side["transfers"].end());
  const std::string backward = WriteTempFile("h10_ag4c_bwd.routes.json", side.dump());
  const std::string csv = TempPath("h10_ag4c.csv");
  json a = Simulate(
      {topo, xml, "--size", "4000", "--alpha", "1us", "--routes", forward, "--timeline", csv});
  json b = Simulate({topo, xml, "--size", "4000", "--alpha", "1us", "--routes", backward});
  EXPECT_EQ(a["completion_time"], b["completion_time"]);
  EXPECT_EQ(a["links"], b["links"]);
  std::ifstream t(csv);
  std::string line;
  std::vector<std::string> detour_rows;
  while (std::getline(t, line)) {
    if (line.find(",c,s,") != std::string::npos) detour_rows.push_back(line);
  }
  ASSERT_EQ(detour_rows.size(), 1u);
  // transfer,gpu,tb,step,...: gpu 2's sending block, its third step (a's shard).
  std::stringstream ss(detour_rows[0]);
  std::string transfer, gpu, tb, step;
  std::getline(ss, transfer, ',');
  std::getline(ss, gpu, ',');
  std::getline(ss, tb, ',');
  std::getline(ss, step, ',');
  EXPECT_EQ(gpu, "2");
  EXPECT_EQ(step, "2");
}

// A hand-written two-GPU allgather (4 chunks per rank, one step of cnt 4 per direction) whose
// receiver on GPU 1 first waits for GPU 1's own send (a dependency): GPU 0's units 0..D-1 fill
// the connector by D·(α + τ); unit k >= D waits until GPU 1 takes unit k - D, which happens
// from 4·(α + τ) on (when GPU 1's send is done), one unit per α + τ. So the time is
// (8 - min(D, 4))·(α + τ): 7, 6, 5, 4 units of α + τ for D = 1, 2, 3, 8 (τ = 1000 B / b).
TEST(SimulateMscclTest, ConnectorSlotsClosedForm) {
  const std::string xml = WriteTempFile(
      "h10_slots.xml",
      R"(<algo name="slots" proto="Simple" nchannels="1" nchunksperloop="8" ngpus="2" coll="allgather" inplace="0" outofplace="1" minBytes="0" maxBytes="0">
  <gpu id="0" i_chunks="4" o_chunks="8" s_chunks="0">
    <tb id="0" send="1" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="4" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="1" send="-1" recv="1" chan="0">
      <step s="0" type="r" srcbuf="o" srcoff="4" dstbuf="o" dstoff="4" cnt="4" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="2" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="4" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
  <gpu id="1" i_chunks="4" o_chunks="8" s_chunks="0">
    <tb id="0" send="0" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="4" cnt="4" depid="-1" deps="-1" hasdep="1"/>
    </tb>
    <tb id="1" send="-1" recv="0" chan="0">
      <step s="0" type="r" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="4" depid="0" deps="0" hasdep="0"/>
    </tb>
    <tb id="2" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="4" cnt="4" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
</algo>
)");
  const Rational unit = Rational(1, 1000000) + Rational(1000, 1000000000);  // α + τ
  const std::vector<std::pair<std::string, int>> cases = {{"1", 7}, {"2", 6}, {"3", 5}, {"8", 4}};
  for (const auto& [depth, units] : cases) {
    json r = Simulate({Path2(), xml, "--size", "8000", "--alpha", "1us", "--fifo-depth", depth});
    EXPECT_EQ(Completion(r), units * unit) << "depth " << depth;
  }
  // The default is the kernel's depth on Simple: 2.
  EXPECT_EQ(Completion(Simulate({Path2(), xml, "--size", "8000", "--alpha", "1us"})), 6 * unit);
}

TEST(SimulateMscclTest, FileTheReplayRejectsIsExitOne) {
  const std::string xml = Export(Path4(), "h10_ag4r");
  std::ifstream in(xml);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  const std::size_t last = s.rfind("<step ");
  s.erase(last, s.find('\n', last) - last + 1);  // one receive or send loses its partner
  const std::string bad = WriteTempFile("h10_bad.xml", s);
  testing::CliResult r = RunCli({"simulate", Path4(), bad, "--size", "4000"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the replay checker rejects the MSCCL XML, nothing simulated"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(SimulateMscclTest, BadInputIsExitTwoWithOneLine) {
  const std::string xml = Export(Path4(), "h10_ag4b");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::string bad_routes = WriteTempFile("h10_bad_routes.json", R"({"format": "x"})");
  const std::string bad_ranks = WriteTempFile("h10_bad_ranks.json", R"(["a", "b", "c", "zz"])");
  Export(Path2(), "h10_ag2b");
  const std::string other_gpus = TempPath("h10_ag2b.routes.json");
  Export(Path4(), "h10_ag4b1", {}, {"--max-channels", "1"});  // same GPUs, other channels
  const std::string other_channels = TempPath("h10_ag4b1.routes.json");
  const std::string no_transfers = WriteTempFile(
      "h10_no_transfers.json", R"({"format": "msccl-routes", "ngpus": 4, "routes": []})");
  const std::vector<Case> cases = {
      {{Path2(), xml, "--size", "1000"}, "4 GPUs, but the topology has 2 compute nodes"},
      {{Path4(), xml, "--size", "1000", "--routes", bad_routes}, "not an msccl-routes side file"},
      {{Path4(), xml, "--size", "1000", "--ranks", bad_ranks}, "no node named 'zz'"},
      {{Path4(), xml, "--size", "1000", "--mode", "async"}, "is an MSCCL XML file"},
      {{Path4(), xml, "--size", "1000", "--profile", "nccl"}, "not executor, rccl or legacy"},
      {{Path4(), TempPath("h10_ag4b.json"), "--size", "1000", "--routes", bad_routes},
       "applies to MSCCL XML files only"},
      {{Path4(), xml, "--size", "1000", "--routes", other_gpus}, "the side file is for 2 GPUs"},
      {{Path4(), xml, "--size", "1000", "--routes", other_channels},
       "(not the side file of this XML?)"},
      {{Path4(), xml, "--size", "1000", "--routes", no_transfers}, "malformed side file"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> all = {"simulate"};
    all.insert(all.end(), c.args.begin(), c.args.end());
    testing::CliResult r = RunCli(all);
    EXPECT_EQ(r.exit_code, 2) << c.message << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// The ranks of the side file (or --ranks) place the GPUs: reversing them on the path moves
// rank 0's bytes to the other end, and the timeline has one row per unit and link.
TEST(SimulateMscclTest, RanksAndTimeline) {
  const std::string xml = Export(Path2(), "h10_ag2t");
  const std::string ranks = WriteTempFile("h10_ranks2.json", R"(["b", "a"])");
  const std::string csv = TempPath("h10_timeline.csv");
  json r = Simulate(
      {Path2(), xml, "--size", "6000", "--chunks", "3", "--ranks", ranks, "--timeline", csv});
  EXPECT_EQ(r["transfers"], 6);
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header,
            "transfer,gpu,tb,step,iteration,unit,share,hop,from,to,bytes,issued,start,end,"
            "arrived,done,issued_exact,start_exact,end_exact,arrived_exact,done_exact");
  int rows = 0;
  bool rank0_from_b = false;
  while (std::getline(in, line)) {
    ++rows;
    std::stringstream ss(line);
    std::string t, gpu, tb, step, it, unit, share, hop, from;
    std::getline(ss, t, ',');
    std::getline(ss, gpu, ',');
    for (std::string* f : {&tb, &step, &it, &unit, &share, &hop, &from}) std::getline(ss, *f, ',');
    if (gpu == "0" && from == "b") rank0_from_b = true;
  }
  EXPECT_EQ(rows, 6);
  EXPECT_TRUE(rank0_from_b);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// `simulate --profile legacy` reads the file with the legacy runtime's rules, as `replay
// --profile legacy` does (`reduce_scatter`, an optional `outofplace`). It used to read with
// the executor's rules after the legacy replay accepted, and refuse legacy reduce-scatters.
TEST(SimulateMscclLegacy, LegacyFilesAreSimulatedWithTheLegacyRules) {
  for (const std::string coll : {"allgather", "reduce-scatter"}) {
    SCOPED_TRACE(coll);
    const std::string prefix = "legacy_sim_" + coll;
    const std::string xml = Export(Path4(), prefix, {"--collective", coll},
                                   {"--profile", "legacy", "--max-bytes", "1048576"});
    const std::string executor = Export(Path4(), prefix + "_x", {"--collective", coll});
    ASSERT_EQ(RunCli({"replay", xml, "--profile", "legacy"}).exit_code, 0);
    const json legacy =
        Simulate({Path4(), xml, "--size", "4000", "--alpha", "1us", "--profile", "legacy"});
    // The same program in the executor's spelling takes the same time.
    const json same = Simulate({Path4(), executor, "--size", "4000", "--alpha", "1us"});
    EXPECT_EQ(Completion(legacy), Completion(same));
    // The executor's rules refuse the legacy spelling of reduce-scatter.
    testing::CliResult r = RunCli({"simulate", Path4(), xml, "--size", "4000"});
    EXPECT_EQ(r.exit_code, coll == "reduce-scatter" ? 1 : 0) << r.err;
  }
}

// A 94 KB file nested 13,400 levels deep under a valid header overflowed the stack of the
// XML reader (SIGSEGV) in `replay` and `simulate`; the reader now refuses nesting past 256
// levels: the file is rejected, exit 1.
TEST(SimulateMscclDeepXml, DeepNestingIsARejectionNotACrash) {
  std::string x =
      "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"4\" "
      "coll=\"allgather\" inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n"
      "  <gpu id=\"0\" i_chunks=\"1\" o_chunks=\"4\" s_chunks=\"0\">\n";
  for (int i = 0; i < 13400; ++i) x += "<tb id=\"0\" send=\"1\" recv=\"3\" chan=\"0\">";
  for (int i = 0; i < 13400; ++i) x += "</tb>";
  x += "\n  </gpu>\n</algo>\n";
  const std::string deep = WriteTempFile("deep_nesting.xml", x);
  testing::CliResult replay = RunCli({"replay", deep});
  EXPECT_EQ(replay.exit_code, 1) << replay.err;
  EXPECT_NE(replay.out.find("nested more than 256 levels deep"), std::string::npos) << replay.out;
  testing::CliResult sim = RunCli({"simulate", Path4(), deep, "--size", "1000"});
  EXPECT_EQ(sim.exit_code, 1) << sim.err;
  EXPECT_NE(sim.err.find("nested more than 256 levels deep"), std::string::npos) << sim.err;
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// An MSCCL XML run keeps about 220 bytes per transfer, so its limit is 2^23 transfers (about
// 2 GB), checked before building: --chunks 109 on a large export (16.7 M transfers, under the
// old 2^24) ran out of memory after 31 s.
TEST(SimulateMscclLimits, TransfersAboveTwoToThe23AreRefusedBeforeBuilding) {
  const std::string xml = Export(Path4(), "h10_limit");
  const json one = Simulate({Path4(), xml, "--size", "4000", "--chunks", "1"});
  const std::int64_t per_p = one["transfers"].get<std::int64_t>();
  ASSERT_GT(per_p, 0);
  const std::int64_t over = (std::int64_t{1} << 23) / per_p + 1;
  testing::CliResult r =
      RunCli({"simulate", Path4(), xml, "--size", "4000", "--chunks", std::to_string(over)});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "collsynth: <args>: --chunks: P = " + std::to_string(over) +
                       " gives more than 8388608 transfers (units x P x hops), above the "
                       "simulator's limit for MSCCL XML files (about 220 bytes each)\n");
}

}  // namespace
}  // namespace collsynth
