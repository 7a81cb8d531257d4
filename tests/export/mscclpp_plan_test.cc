// Lowering of pipeline and step schedules into MSCCL++ execution plans
// (export/mscclpp_plan.h): the plan's structure as the executor's loader reads it (field names,
// chunk geometry, limits per thread block), channel entries paired as the executor pairs them
// with one signalling and one waiting block each and equal signal / wait counts, semaphores
// released and acquired once each, nops where the kernel needs them, one scratch slot per
// reduction, the start-of-launch handshake (rlxsignal / rlxwait) per segment, exact op counts
// on small cases, and the limit errors; every plan is also accepted
// by the independent replay (proofs_check/mscclpp_replay.h, as the CLI runs it).
#include "export/mscclpp_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "core/input_error.h"
#include "export/msccl_program.h"
#include "fixtures/export_fixtures.h"
#include "graphs/topology_io.h"
#include "proofs_check/mscclpp_replay.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

using ojson = nlohmann::ordered_json;

using testing::Full3;

PipelineSchedule ChainAndStar(const std::string& coll, int m1, int m2) {
  return testing::ChainAndStar(*ParseCollective(coll), m1, m2);
}

PipelineSchedule Allreduce() {
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.phases = {ChainAndStar("reduce-scatter", 1, 1), ChainAndStar("allgather", 1, 2)};
  return ar;
}

StepSchedule TwoStepAllgather() {
  StepSchedule s;
  s.collective = Collective::kAllgather;
  auto send = [&](int src, Rational lo, Rational hi, int from, int to, int step) {
    s.sends.push_back({src, {{lo, hi}}, from, to, step});
  };
  for (int r = 0; r < 3; ++r) {
    int x = (r + 1) % 3, y = (r + 2) % 3;
    send(r, 0, Rational(1, 2), r, x, 1);
    send(r, Rational(1, 2), 1, r, y, 1);
    send(r, 0, Rational(1, 2), x, y, 2);
    send(r, Rational(1, 2), 1, y, x, 2);
  }
  return s;
}

bool IsData(const std::string& name) { return name == "put" || name == "re" || name == "copy"; }

// The structural invariants every plan of this exporter has; returns the first violation.
std::string CheckStructure(const ojson& plan) {
  const ojson& gpus = plan.at("gpus");
  const int n = static_cast<int>(gpus.size());
  // Flattened memory channel entries per GPU and the executor's pairing.
  std::vector<std::vector<int>> flat(n);
  for (int v = 0; v < n; ++v) {
    if (gpus[v].at("id") != v) return "gpu id";
    for (const ojson& ch : gpus[v].at("channels")) {
      if (ch.at("channel_type") != "memory") return "channel type";
      for (const ojson& p : ch.at("connected_to")) flat[v].push_back(p.get<int>());
    }
  }
  auto count = [&](int v, int p) { return std::count(flat[v].begin(), flat[v].end(), p); };
  for (int v = 0; v < n; ++v) {
    for (int p : flat[v]) {
      if (count(v, p) != count(p, v)) return "unequal entry counts " + std::to_string(v);
    }
  }
  // (gpu, entry) -> blocks that signal / wait on it, and the counts.
  std::map<std::pair<int, int>, std::set<int>> signal_blocks, wait_blocks;
  std::map<std::pair<int, int>, int> signals, waits;
  std::map<std::pair<int, int>, int> releases, acquires;  // (gpu, semaphore)
  std::map<std::pair<int, int>, std::set<int>> release_blocks, acquire_blocks;
  std::map<std::tuple<int, char, std::int64_t>, int> slot_writes;  // remote scratch cells
  for (int v = 0; v < n; ++v) {
    const ojson& gpu = gpus[v];
    const ojson& tbs = gpu.at("threadblocks");
    for (std::size_t b = 0; b < tbs.size(); ++b) {
      const ojson& tb = tbs[b];
      if (tb.at("id") != static_cast<int>(b)) return "block id";
      std::vector<int> chans, rbufs;
      for (const ojson& c : tb.at("channels"))
        for (const ojson& x : c.at("channel_ids")) chans.push_back(x.get<int>());
      for (const ojson& c : tb.at("remote_buffer_refs"))
        for (const ojson& x : c.at("remote_buffer_ids")) rbufs.push_back(x.get<int>());
      if (tb.at("ops").size() > 64 || chans.size() > 16 || rbufs.size() > 16) return "limits";
      bool dirty = false, data = false;  // since the last nop
      for (const ojson& op : tb.at("ops")) {
        const std::string name = op.at("name");
        if (IsData(name) && dirty) return "no nop before a data op";
        if ((name == "signal" || name == "sem_release") && data) return "no nop before " + name;
        if (name == "nop") {
          dirty = data = false;
        } else if (IsData(name)) {
          dirty = data = true;
        } else if (name == "wait" || name == "rlxwait" || name == "sem_acquire") {
          dirty = true;
        }
        const bool is_signal = name == "signal" || name == "rlxsignal";
        if (is_signal || name == "wait" || name == "rlxwait") {
          if (op.at("channel_ids").size() != 1 || op.at("channel_type") != "memory") return "ch";
          const int e = chans.at(op.at("channel_ids")[0].get<int>());
          // The paired entry of the peer: the same ordinal among the peer's entries to v.
          const int p = flat[v].at(e);
          const int k = static_cast<int>(std::count(flat[v].begin(), flat[v].begin() + e, p));
          int e2 = -1;
          for (int x = 0, seen = 0; x < static_cast<int>(flat[p].size()); ++x) {
            if (flat[p][x] == v && seen++ == k) e2 = x;
          }
          if (is_signal) {
            signal_blocks[{v, e}].insert(static_cast<int>(b));
            ++signals[{p, e2}];  // arrives at the peer's paired entry
          } else {
            wait_blocks[{v, e}].insert(static_cast<int>(b));
            ++waits[{v, e}];
          }
        }
        if (name == "sem_release" || name == "sem_acquire") {
          for (const ojson& s : op.at("semaphore_ids")) {
            const std::pair<int, int> key{v, s.get<int>()};
            if (name == "sem_release") {
              ++releases[key];
              release_blocks[key].insert(static_cast<int>(b));
            } else {
              ++acquires[key];
              acquire_blocks[key].insert(static_cast<int>(b));
            }
          }
        }
        if (name == "put") {
          const ojson& d = op.at("dst_buff")[0];
          const ojson& rb = gpu.at("remote_buffers").at(rbufs.at(d.at("buffer_id").get<int>()));
          if (rb.at("type") == "s") {
            for (std::int64_t x = 0; x < d.at("size").get<std::int64_t>(); ++x) {
              ++slot_writes[{rb.at("rank").get<int>(), 's', d.at("index").get<std::int64_t>() + x}];
            }
          }
        }
      }
    }
    if (gpu.at("semaphores").size() !=
        static_cast<std::size_t>(std::count_if(
            releases.begin(), releases.end(), [v](const auto& kv) { return kv.first.first == v; })))
      return "semaphore count";
  }
  for (const auto& [k, blocks] : signal_blocks)
    if (blocks.size() != 1) return "an entry signalled from two blocks";
  for (const auto& [k, blocks] : wait_blocks)
    if (blocks.size() != 1) return "an entry waited on in two blocks";
  if (signals != waits) return "signal and wait counts differ";
  if (releases != acquires) return "semaphore releases and acquires differ";
  for (const auto& [k, c] : releases) {
    if (c != 1) return "a semaphore released twice";
    if (release_blocks[k] == acquire_blocks[k]) return "a semaphore within one block";
  }
  for (const auto& [k, c] : slot_writes)
    if (c != 1) return "a scratch slot written twice";
  return "";
}

// The independent replay's verdict: "" when accepted, else its first violation.
std::string Replay(const MscclppExportResult& r) {
  const ReplayResult rr = ReplayMscclppPlan(MscclppPlanText(r), "t", MscclppReplayOptions{});
  if (rr.ok) return "";
  return rr.violations.empty() ? "rejected" : rr.violations[0].message;
}

int TotalOps(const MscclppExportResult& r) {
  int total = 0;
  for (const auto& g : r.ops_per_block)
    for (int x : g) total += x;
  return total;
}

TEST(MscclppPlan, TopLevelFieldsAsTheLoaderReadsThem) {
  Topology g = Full3();
  MscclppExportOptions o;
  o.min_bytes = 1024;
  MscclppExportResult r =
      ExportPipelineToMscclppPlan(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), o, "t");
  const ojson& p = r.plan;
  std::vector<std::string> keys;
  for (auto it = p.begin(); it != p.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "collective", "protocol", "inplace",
                                            "reuse_resources", "gpus", "num_threads_per_block",
                                            "use_double_scratch_buffer", "buffer_alignment",
                                            "min_message_size", "max_message_size"}));
  EXPECT_EQ(p["name"], "collsynth-allgather");
  EXPECT_EQ(p["collective"], "allgather");
  EXPECT_EQ(p["protocol"], "Simple");
  EXPECT_EQ(p["inplace"], false);
  EXPECT_EQ(p["buffer_alignment"], 16);
  EXPECT_EQ(p["min_message_size"], 1024u);
  EXPECT_EQ(p["max_message_size"], 18446744073709551615ull);
  ASSERT_EQ(p["gpus"].size(), 3u);
  const ojson& g0 = p["gpus"][0];
  std::vector<std::string> gkeys;
  for (auto it = g0.begin(); it != g0.end(); ++it) gkeys.push_back(it.key());
  EXPECT_EQ(gkeys,
            (std::vector<std::string>{"id", "input_chunks", "output_chunks", "scratch_chunks",
                                      "threadblocks", "channels", "remote_buffers", "semaphores"}));
  // K = 3 (chain 1/3, star 2/3): one chunk size for input (K) and output (N·K).
  EXPECT_EQ(g0["input_chunks"], 3);
  EXPECT_EQ(g0["output_chunks"], 9);
  EXPECT_EQ(g0["scratch_chunks"], 0);
  EXPECT_EQ(r.chunks_per_shard, 3);
  EXPECT_EQ(r.optimal_ratio, Rational(0));  // the test schedule carries no ratio
  EXPECT_EQ(r.achieved_ratio, Rational(4, 3));
  EXPECT_EQ(MscclppFileName(r, o),
            "allgather-n3-Simple-outofplace-00000000000000001024-18446744073709551615.json");
  EXPECT_EQ(CheckStructure(p), "");
  EXPECT_EQ(Replay(r), "");
}

TEST(MscclppPlan, CollectiveSpellingAndBuffersPerCollective) {
  Topology g = Full3();
  EXPECT_EQ(MscclppCollName(Collective::kReduceScatter), "reducescatter");
  MscclppExportResult rs = ExportPipelineToMscclppPlan(g, ChainAndStar("reduce-scatter", 2, 1),
                                                       DefaultRanks(g), {}, "t");
  EXPECT_EQ(rs.plan["collective"], "reducescatter");
  EXPECT_EQ(rs.input_chunks, 9);
  EXPECT_EQ(rs.output_chunks, 3);
  MscclppExportResult ar = ExportPipelineToMscclppPlan(g, Allreduce(), DefaultRanks(g), {}, "t");
  EXPECT_EQ(ar.plan["collective"], "allreduce");
  // K = lcm(2, 3) = 6 (RS weights 1/2, AG weights 1/3, 2/3).
  EXPECT_EQ(ar.input_chunks, 18);
  EXPECT_EQ(ar.output_chunks, 18);
}

TEST(MscclppPlan, StructureHoldsForEveryCollectiveModeAndPieces) {
  Topology g = Full3();
  for (bool inplace : {false, true}) {
    for (int pieces : {1, 3}) {
      MscclppExportOptions o;
      o.inplace = inplace;
      o.pieces = pieces;
      for (const PipelineSchedule& s :
           {ChainAndStar("allgather", 1, 2), ChainAndStar("reduce-scatter", 2, 1), Allreduce()}) {
        SCOPED_TRACE(std::string(CollectiveName(s.collective)) + (inplace ? " in-place" : "") +
                     " pieces " + std::to_string(pieces));
        MscclppExportResult r = ExportPipelineToMscclppPlan(g, s, DefaultRanks(g), o, "t");
        EXPECT_EQ(CheckStructure(r.plan), "");
        EXPECT_EQ(Replay(r), "");
        EXPECT_EQ(r.plan["inplace"], inplace);
        EXPECT_LE(r.max_ops_per_block, 64);
      }
      for (const StepSchedule& s : {TwoStepAllgather()}) {
        MscclppExportResult r = ExportStepsToMscclppPlan(g, s, DefaultRanks(g), o, "t");
        EXPECT_EQ(CheckStructure(r.plan), "");
        EXPECT_EQ(Replay(r), "");
      }
    }
  }
}

// Full3 allgather, chain 1/3 + star 2/3 per root (K = 3), rank 0: blocks in (peer, send before
// receive) order after the local copy. Every sender segment starts with the launch handshake
// (rlxwait, nop) and every receiver segment with its rlxsignal. To 1: handshake, the own chain
// and star edges (put, nop, signal each) and rank 2's chain forwarded (sem_acquire, nop, put,
// nop, signal) = 13; from 1: rlxsignal, rank 1's star (wait) = 2; to 2: handshake and the own
// star edge = 5; from 2: rlxsignal, rank 2's chain (wait, nop, sem_release for the forward in
// the block to 1), rank 2's star and rank 1's chain forwarded by 2 (wait, wait) = 6.
TEST(MscclppPlan, ExactOperationsOfASmallAllgather) {
  Topology g = Full3();
  MscclppExportResult r =
      ExportPipelineToMscclppPlan(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), {}, "t");
  EXPECT_EQ(r.ops_per_block[0], (std::vector<int>{1, 13, 2, 5, 6}));
  EXPECT_EQ(r.blocks_per_gpu, 5);
  EXPECT_EQ(r.max_ops_per_block, 13);
  EXPECT_EQ(TotalOps(r), 3 * 27);
  // Three entries per peer: the data pair (both directions share it), then the handshake pair
  // of the segment 0 -> 1 and that of 1 -> 0.
  EXPECT_EQ(r.channels_per_gpu, 6);
  EXPECT_EQ(r.semaphores_per_gpu, 1);
  EXPECT_EQ(r.transfers, 12);  // 3 roots x (chain 2 edges + star 2 edges)
  const ojson& tb1 = r.plan["gpus"][0]["threadblocks"][1];
  std::vector<std::string> names;
  for (const ojson& op : tb1["ops"]) names.push_back(op["name"]);
  EXPECT_EQ(names,
            (std::vector<std::string>{"rlxwait", "nop", "put", "nop", "signal", "put", "nop",
                                      "signal", "sem_acquire", "nop", "put", "nop", "signal"}));
  // The handshake waits on entry 1 (handshake of 0 -> 1), the signals go on entry 0 (data).
  EXPECT_EQ(tb1["channels"].dump(), R"([{"channel_type":"memory","channel_ids":[1,0]}])");
  EXPECT_EQ(tb1["ops"][0].dump(),
            R"({"name":"rlxwait","channel_ids":[0],"channel_type":"memory"})");
  EXPECT_EQ(tb1["ops"][4]["channel_ids"].dump(), "[1]");
  // The receiver from 1 signals on entry 2 (handshake of 1 -> 0) first, then waits on 0.
  EXPECT_EQ(r.plan["gpus"][0]["threadblocks"][2]["ops"].dump(),
            R"([{"name":"rlxsignal","channel_ids":[0],"channel_type":"memory"},)"
            R"({"name":"wait","channel_ids":[1],"channel_type":"memory"}])");
  EXPECT_EQ(r.plan["gpus"][0]["threadblocks"][2]["channels"].dump(),
            R"([{"channel_type":"memory","channel_ids":[2,0]}])");
  // The first put: rank 0's chain chunk from its input into rank 1's output chunk 0.
  EXPECT_EQ(tb1["ops"][2].dump(),
            R"({"name":"put","src_buff":[{"type":"i","index":0,"size":1}],"dst_buff":)"
            R"([{"buffer_id":0,"index":0,"size":1}],"channel_type":"memory"})");
  EXPECT_EQ(tb1["remote_buffer_refs"].dump(),
            R"([{"access_channel_type":"memory","remote_buffer_ids":[0]}])");
  EXPECT_EQ(r.plan["gpus"][0]["remote_buffers"][0].dump(),
            R"({"rank":1,"type":"o","access_channel_types":["memory"]})");
  EXPECT_EQ(r.plan["gpus"][0]["channels"].dump(),
            R"([{"channel_type":"memory","connected_to":[1,1,1,2,2,2]}])");
  // The local copy of the own shard (out-of-place): i[0..3) -> o[0..3).
  EXPECT_EQ(r.plan["gpus"][0]["threadblocks"][0]["ops"].dump(),
            R"([{"name":"copy","src_buff":[{"type":"i","index":0,"size":3}],"dst_buff":)"
            R"([{"type":"o","index":0,"size":3}]}])");
}

// In place, the own shard already is in the output: no copy block, the roots put from `o`.
TEST(MscclppPlan, InPlaceAllgatherReadsTheOutput) {
  Topology g = Full3();
  MscclppExportOptions o;
  o.inplace = true;
  MscclppExportResult r =
      ExportPipelineToMscclppPlan(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), o, "t");
  EXPECT_EQ(r.ops_per_block[0], (std::vector<int>{13, 2, 5, 6}));
  EXPECT_EQ(r.plan["gpus"][1]["threadblocks"][0]["ops"][2]["src_buff"].dump(),
            R"([{"type":"o","index":4,"size":2}])");  // rank 1's star part of its shard
  EXPECT_EQ(r.input_chunks, 3);                       // never 0: the loader divides by it
}

// Reduce-scatter (chain 2/3 + star 1/3), rank 0: every reduction it receives gets its own
// scratch slot after the 9 partial-sum chunks: 1 + 2 + 2 (from 1) and 1 (from 2) = 6 slots.
TEST(MscclppPlan, ReductionsGetOneScratchSlotEach) {
  Topology g = Full3();
  MscclppExportResult r = ExportPipelineToMscclppPlan(g, ChainAndStar("reduce-scatter", 2, 1),
                                                      DefaultRanks(g), {}, "t");
  EXPECT_EQ(r.plan["gpus"][0]["scratch_chunks"], 15);
  EXPECT_EQ(r.max_scratch_chunks, 15);
  EXPECT_EQ(r.ops_per_block[0], (std::vector<int>{5, 14, 13, 5}));
  EXPECT_EQ(r.semaphores_per_gpu, 2);
  // The root's last reduction of its chain chunks: own input + slot into the output.
  const ojson& last = r.plan["gpus"][0]["threadblocks"][1]["ops"].back();
  EXPECT_EQ(last.dump(), R"({"name":"re","src_buff":[{"type":"i","index":0,"size":2},)"
                         R"({"type":"s","index":13,"size":2}],"dst_buff":)"
                         R"([{"type":"o","index":0,"size":2}]})");
  EXPECT_EQ(CheckStructure(r.plan), "");
  EXPECT_EQ(Replay(r), "");
}

// --pieces P: every transfer in P parts (a P times smaller chunk), parts ordered piece-major so
// a forward of part 0 can start while part 1 arrives.
TEST(MscclppPlan, PiecesCutEveryTransfer) {
  Topology g = Full3();
  MscclppExportOptions o;
  o.pieces = 2;
  MscclppExportResult r =
      ExportPipelineToMscclppPlan(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), o, "t");
  EXPECT_EQ(r.chunks_per_shard, 6);
  EXPECT_EQ(r.input_chunks, 6);
  EXPECT_EQ(r.output_chunks, 18);
  EXPECT_EQ(r.transfers, 24);
  EXPECT_EQ(r.achieved_ratio, Rational(4, 3));
  const ojson& ops = r.plan["gpus"][0]["threadblocks"][1]["ops"];
  // After the handshake (rlxwait, nop): part 0 of the chain edge (chunk 0), part 0 of the star
  // edge (chunks 2..3), the forward of part 0 of rank 2's chain, then the parts 1.
  EXPECT_EQ(ops[0]["name"], "rlxwait");
  EXPECT_EQ(ops[2]["src_buff"][0]["index"], 0);
  EXPECT_EQ(ops[5]["src_buff"][0]["index"], 2);
  EXPECT_EQ(ops[5]["src_buff"][0]["size"], 2);
  EXPECT_EQ(ops[8]["name"], "sem_acquire");
  EXPECT_EQ(ops[10]["src_buff"][0].dump(), R"({"type":"o","index":12,"size":1})");
  EXPECT_EQ(ops[13]["src_buff"][0]["index"], 1);
  EXPECT_EQ(CheckStructure(r.plan), "");
  EXPECT_EQ(Replay(r), "");
}

// A stream longer than 64 operations is cut into segments on further channel entries of the
// pair, both ends with the same number of entries.
TEST(MscclppPlan, LongStreamsUseMoreChannelEntries) {
  Topology g = Full3();
  MscclppExportOptions o;
  o.pieces = 32;
  MscclppExportResult r =
      ExportPipelineToMscclppPlan(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), o, "t");
  EXPECT_EQ(CheckStructure(r.plan), "");
  EXPECT_EQ(Replay(r), "");
  EXPECT_LE(r.max_ops_per_block, 64);
  // 0 -> 1 (and 2 -> 0): 96 transfers, 32 with a dependency: 64·3 + 32·5 = 352 estimated
  // sender operations plus 2 (handshake) per segment, greedily cut into 6 segments of at most
  // 64; the other direction (rank 2's chain forwarded by 1: 32 receptions and forwards) needs
  // 2; so 6 data entries and 6 + 2 handshake entries per peer.
  int handshakes = 0;
  for (const ojson& tb : r.plan["gpus"][0]["threadblocks"])
    for (const ojson& op : tb["ops"]) handshakes += op["name"] == "rlxwait" ? 1 : 0;
  EXPECT_EQ(handshakes, 8);  // one per sender segment: 6 to rank 1, 2 to rank 2
  EXPECT_EQ(r.channels_per_gpu, 28);
  EXPECT_EQ(r.plan["gpus"][0]["channels"][0]["connected_to"].dump(),
            "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,2]");
}

// The start-of-launch handshake is what orders a put of the next launch after the receiver's
// previous launch: without it, the replay's second launch of the plan on the same buffers
// finds rank 1 writing rank 0's output in launch 2 while rank 0 may still forward it (or its
// caller read it) from launch 1. Two GPUs, allgather, each root straight to the other.
TEST(MscclppPlan, TheLaunchHandshakeOrdersTheNextLaunchsPuts) {
  Topology g;
  const int a = g.AddCompute("a"), b = g.AddCompute("b");
  g.AddDuplexLink(a, b, 1);
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  s.k = 1;
  for (int r = 0; r < 2; ++r) {
    PipelineTree t;
    t.root = r;
    t.multiplicity = 1;
    PipelineTreeEdge e;
    e.from = r;
    e.to = 1 - r;
    e.routes.push_back({{r, 1 - r}, BigInt(1)});
    t.edges = {e};
    s.trees.push_back(t);
  }
  MscclppExportResult r = ExportPipelineToMscclppPlan(g, s, DefaultRanks(g), {}, "t");
  EXPECT_EQ(CheckStructure(r.plan), "");
  EXPECT_EQ(Replay(r), "");
  // Rank 0: the copy, the sender (rlxwait, nop, put, nop, signal), the receiver (rlxsignal,
  // wait); entries to 1: data, handshake of 0 -> 1, handshake of 1 -> 0.
  EXPECT_EQ(r.ops_per_block[0], (std::vector<int>{1, 5, 2}));
  EXPECT_EQ(r.plan["gpus"][0]["channels"][0]["connected_to"].dump(), "[1,1,1]");
  // Without the handshake operations (counts stay paired, the nops stay).
  for (ojson& gpu : r.plan["gpus"]) {
    for (ojson& tb : gpu["threadblocks"]) {
      ojson kept = ojson::array();
      for (ojson& op : tb["ops"]) {
        if (op["name"] != "rlxwait" && op["name"] != "rlxsignal") kept.push_back(op);
      }
      tb["ops"] = kept;
    }
  }
  const ReplayResult rr = ReplayMscclppPlan(MscclppPlanText(r), "t", MscclppReplayOptions{});
  EXPECT_FALSE(rr.ok);
  ASSERT_FALSE(rr.violations.empty());
  EXPECT_EQ(rr.violations[0].message,
            "[outofplace] gpu 1 tb 1 step 1 (put): write of gpu 0 o[1] is not ordered with the "
            "access by the caller of gpu 0 after launch 1 (no nop / signal-wait / semaphore / "
            "barrier chain orders them)");
}

TEST(MscclppPlan, TooFewBlocksNameTheCountThatWorks) {
  Topology g = Full3();
  MscclppExportOptions o;
  o.pieces = 3;
  o.max_tbs = 2;
  try {
    ExportPipelineToMscclppPlan(g, Allreduce(), DefaultRanks(g), o, "t");
    FAIL() << "no limit error";
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "--max-tbs");
    EXPECT_EQ(e.needed(), 5);
    o.max_tbs = static_cast<int>(e.needed());
    MscclppExportResult r = ExportPipelineToMscclppPlan(g, Allreduce(), DefaultRanks(g), o, "t");
    EXPECT_EQ(r.blocks_per_gpu, 5);
    EXPECT_EQ(CheckStructure(r.plan), "");
    EXPECT_EQ(Replay(r), "");
  }
  o.max_tbs = 4;
  EXPECT_THROW(ExportPipelineToMscclppPlan(g, Allreduce(), DefaultRanks(g), o, "t"),
               ExportLimitError);
}

// Regression (found by fuzz/export_options_fuzzer.cc): the packing counted a GPU's local copies
// (one per instance) as one copy, so K_{2,2} allgather with --instances 3 --max-tbs 4 packed a
// block of more than 64 operations and the exporter stopped on its own internal check (exit 3).
// Every combination of instances and a small --max-tbs must now give a plan within the limits
// that the replay accepts, or name the limit.
TEST(MscclppPlan, PackedLocalCopiesCountEveryCopy) {
  const Topology g = ReadTopologyFile(COLLSYNTH_SOURCE_DIR "/experiments/topologies/k22.json");
  PipelineOptions po;
  po.collective = Collective::kAllgather;
  const PipelineSchedule ag = BuildPipelineSchedule(g, po).schedule;
  int plans = 0;
  for (int instances = 1; instances <= 32; instances += (instances < 8 ? 1 : 8)) {
    for (int max_tbs = 1; max_tbs <= 8; ++max_tbs) {
      SCOPED_TRACE("--instances " + std::to_string(instances) + " --max-tbs " +
                   std::to_string(max_tbs));
      MscclppExportOptions o;
      o.instances = instances;
      o.max_tbs = max_tbs;
      MscclppExportResult r;
      try {
        r = ExportPipelineToMscclppPlan(g, ag, DefaultRanks(g), o, "k22");
      } catch (const ExportLimitError& e) {
        EXPECT_EQ(e.limit(), "--max-tbs");
        EXPECT_GT(e.needed(), max_tbs);
        continue;
      }
      ++plans;
      EXPECT_LE(r.blocks_per_gpu, max_tbs);
      EXPECT_LE(r.max_ops_per_block, kMscclppMaxOperations);
      EXPECT_EQ(CheckStructure(r.plan), "");
      EXPECT_EQ(Replay(r), "");
    }
  }
  EXPECT_GT(plans, 0);
}

TEST(MscclppPlan, BadOptionsAndUnsupportedInput) {
  Topology g = Full3();
  const PipelineSchedule ag = ChainAndStar("allgather", 1, 2);
  MscclppExportOptions o;
  o.proto = "LL";
  EXPECT_THROW(ExportPipelineToMscclppPlan(g, ag, DefaultRanks(g), o, "t"), std::invalid_argument);
  o = {};
  o.pieces = 0;
  EXPECT_THROW(ExportPipelineToMscclppPlan(g, ag, DefaultRanks(g), o, "t"), std::invalid_argument);
  o = {};
  PipelineSchedule bc = ChainAndStar("broadcast", 3, 1);
  bc.root = 0;
  try {
    ExportPipelineToMscclppPlan(g, bc, DefaultRanks(g), o, "t");
    FAIL() << "broadcast exported";
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "collective");
  }
}

// A GPU that forwards one receive to 17 children in 17 other blocks releases 17 semaphores:
// one sem_release of 16 ids (the kernel's MAX_DEVICE_SEMAPHORES per operation) and one of 1.
TEST(MscclppPlan, ManyConsumersNeedSeveralReleaseOperations) {
  constexpr int n = 19;
  Topology g;
  for (int v = 0; v < n; ++v) g.AddCompute("g" + std::to_string(v));
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) g.AddDuplexLink(a, b, 1);
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  s.k = 1;
  for (int r = 0; r < n; ++r) {  // r -> r+1 -> everyone else
    PipelineTree t;
    t.root = r;
    t.multiplicity = 1;
    const int x = (r + 1) % n;
    auto edge = [](int from, int to) {
      PipelineTreeEdge e;
      e.from = from;
      e.to = to;
      e.routes.push_back({{from, to}, BigInt(1)});
      return e;
    };
    t.edges.push_back(edge(r, x));
    for (int c = 0; c < n; ++c) {
      if (c != r && c != x) t.edges.push_back(edge(x, c));
    }
    s.trees.push_back(t);
  }
  MscclppExportResult r = ExportPipelineToMscclppPlan(g, s, DefaultRanks(g), {}, "t");
  std::vector<std::size_t> release_sizes;
  for (const ojson& tb : r.plan["gpus"][1]["threadblocks"]) {
    for (const ojson& op : tb["ops"]) {
      if (op["name"] == "sem_release") release_sizes.push_back(op["semaphore_ids"].size());
    }
  }
  EXPECT_EQ(release_sizes, (std::vector<std::size_t>{16, 1}));
  EXPECT_EQ(r.semaphores_per_gpu, 17);
  EXPECT_EQ(CheckStructure(r.plan), "");
  EXPECT_EQ(Replay(r), "");
}

}  // namespace
}  // namespace collsynth
