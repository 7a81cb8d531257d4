// The independent Chakra trace reader and checker (proofs_check/chakra_trace.h,
// chakra_trace_check.h) on the exporter's files: lowered schedules of every collective (split
// and fused, 1 and 3 slices) read back and accepted, with the bytes per pair the test counts
// in the program itself and those the MSCCL replay checker counts (what export chakra passes
// as the expectation); mutants rejected at the right stage (a dropped RECV, a changed size, a
// dependency cycle across ranks and within one, wrong bytes per pair, a wrong own rank, a
// missing rank); malformed files refused with an InputError naming the file and the item.
#include "proofs_check/chakra_trace_check.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "export/chakra_et.h"
#include "export/msccl_xml.h"
#include "export/protobuf_wire.h"
#include "fixtures/export_fixtures.h"
#include "proofs_check/chakra_trace.h"
#include "proofs_check/msccl_replay.h"

namespace collsynth {
namespace {

using testing::ChainAndStar;
using testing::Full3;

std::vector<PipelineSchedule> EveryCollective() {
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.phases = {ChainAndStar(Collective::kReduceScatter, 1, 1),
               ChainAndStar(Collective::kAllgather, 1, 2)};
  return {ChainAndStar(Collective::kAllgather, 1, 2),
          ChainAndStar(Collective::kReduceScatter, 2, 1), ar};
}

// MSCCL step types that send (docs/export.md, the decomposition table), the test's own list.
bool Sends(const std::string& type) {
  return type == "s" || type == "rcs" || type == "rrs" || type == "rrcs";
}

// Bytes per ordered pair counted in the program: every sending step moves cnt chunks of
// size / nchunksperloop bytes (all slices together).
std::map<std::pair<int, int>, std::int64_t> ProgramBytes(const MscclProgram& p, std::int64_t size) {
  std::map<std::pair<int, int>, std::int64_t> out;
  for (int v = 0; v < p.ngpus; ++v) {
    for (const MscclBlock& b : p.gpus[v].blocks) {
      for (const MscclStep& s : b.steps) {
        if (Sends(s.type)) out[{v, b.send}] += s.cnt * size / p.nchunksperloop;
      }
    }
  }
  return out;
}

std::map<std::pair<int, int>, std::int64_t> AsMap(const std::vector<ChakraPairBytes>& v) {
  std::map<std::pair<int, int>, std::int64_t> out;
  for (const ChakraPairBytes& p : v) out[{p.src, p.dst}] += p.bytes;
  return out;
}

ChakraTraceExpectation Expect(const std::map<std::pair<int, int>, std::int64_t>& bytes) {
  ChakraTraceExpectation e;
  for (const auto& [pair, b] : bytes) e.bytes_per_pair.push_back({pair.first, pair.second, b});
  return e;
}

std::vector<ChakraRankTrace> ReadBack(const ChakraTraces& t) {
  std::vector<ChakraRankTrace> out;
  for (int r = 0; r < t.ngpus; ++r) {
    out.push_back(ParseChakraTrace(ChakraEtFileBytes(t, r), "t." + std::to_string(r) + ".et"));
  }
  return out;
}

TEST(ChakraTraceCheck, ExportedTracesOfEveryCollectiveAreAccepted) {
  const Topology g = Full3();
  for (const PipelineSchedule& sched : EveryCollective()) {
    for (bool fuse : {false, true}) {
      for (int slices : {1, 3}) {
        SCOPED_TRACE(std::string(CollectiveName(sched.collective)) + (fuse ? " fused" : "") +
                     " slices " + std::to_string(slices));
        MscclExportOptions mo;
        mo.fuse = fuse;
        const MscclProgram p =
            ExportPipelineToMscclProgram(g, sched, DefaultRanks(g), mo, "t").program;
        ChakraOptions o;
        o.slices = slices;
        o.size_bytes = p.nchunksperloop * slices * 7;
        const ChakraTraces t = LowerMscclProgramToChakra(p, o);
        const std::vector<ChakraRankTrace> read = ReadBack(t);
        const auto want = ProgramBytes(p, o.size_bytes);
        ASSERT_FALSE(want.empty());
        const ChakraTraceReport report = CheckChakraTraceSet(read, 3, Expect(want));
        EXPECT_TRUE(report.ok) << (report.violations.empty() ? "" : report.violations[0]);
        EXPECT_EQ(AsMap(report.bytes_per_pair), want);
        std::int64_t nodes = 0;
        for (const auto& rank : t.ranks) nodes += static_cast<std::int64_t>(rank.size());
        EXPECT_EQ(report.nodes, nodes);
        // export chakra's expectation: the replay checker's chunks per pair.
        const ReplayResult replay =
            ReplayMscclXml(MscclXmlText(p, MscclExportProfile::kExecutor), "p", {});
        ASSERT_TRUE(replay.ok);
        std::map<std::pair<int, int>, std::int64_t> replayed;
        for (const ReplayPairChunks& c : replay.bytes_per_pair) {
          replayed[{c.src, c.dst}] = c.chunks * (o.size_bytes / p.nchunksperloop);
        }
        EXPECT_EQ(replayed, want);
      }
    }
  }
}

// Rank 0 sends 8 bytes to rank 1 (tag 0); rank 1 receives them and reduces.
ChakraTraces OneTransfer() {
  ChakraTraces t;
  t.collective = Collective::kAllreduce;
  t.ngpus = 2;
  t.step_types = {{{"s"}}, {{"rrc"}}};
  ChakraNode send;
  send.type = ChakraNodeType::kSend;
  send.comm_src = 0;
  send.comm_dst = 1;
  send.comm_size = 8;
  ChakraNode recv = send;
  recv.type = ChakraNodeType::kRecv;
  ChakraNode comp;
  comp.data_deps = {0};
  t.ranks = {{send}, {recv, comp}};
  return t;
}

ChakraTraceReport Check(const ChakraTraces& t, int ranks = -1,
                        std::optional<ChakraTraceExpectation> e = std::nullopt) {
  return CheckChakraTraceSet(ReadBack(t), ranks < 0 ? t.ngpus : ranks, e);
}

TEST(ChakraTraceCheck, MutantsAreRejected) {
  const ChakraTraces good = OneTransfer();
  const ChakraTraceExpectation eight = Expect({{{0, 1}, 8}});
  ASSERT_TRUE(Check(good, 2, eight).ok);

  // A dropped RECV: rank 1 keeps only its COMP (renumbered, without the dependency).
  ChakraTraces dropped = good;
  dropped.ranks[1] = {ChakraNode()};
  ChakraTraceReport r = Check(dropped);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.stage, ChakraTraceStage::kMatching);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0], "t.0.et: node 0 (id 0): SEND 0 -> 1 with tag 0 has no RECV");

  // A changed size on one side.
  ChakraTraces resized = good;
  resized.ranks[1][0].comm_size = 9;
  r = Check(resized);
  EXPECT_EQ(r.stage, ChakraTraceStage::kMatching);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0],
            "t.1.et: node 0 (id 0): RECV of 9 bytes, its SEND (t.0.et: node 0 (id 0)) has 8");

  // A changed tag: both sides unmatched.
  ChakraTraces retagged = good;
  retagged.ranks[1][0].comm_tag = 3;
  r = Check(retagged);
  EXPECT_EQ(r.violations_total, 2);

  // Both sides resized alike: matched, but not the program's bytes.
  ChakraTraces both = good;
  both.ranks[0][0].comm_size = 16;
  both.ranks[1][0].comm_size = 16;
  EXPECT_TRUE(Check(both).ok);  // no expectation: consistent traces
  r = Check(both, 2, eight);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.stage, ChakraTraceStage::kBytes);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0], "rank 0 -> rank 1: the traces send 16 bytes, the program 8");
  // Wrong expectations: a pair the traces do not serve, and a pair missing from the program.
  r = Check(good, 2, Expect({{{0, 1}, 8}, {{1, 0}, 4}}));
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0], "rank 1 -> rank 0: the traces send 0 bytes, the program 4");
  r = Check(good, 2, ChakraTraceExpectation());
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0], "rank 0 -> rank 1: the traces send 8 bytes, the program 0");

  // A cycle across ranks: rank 0's SEND waits for a COMP that waits for rank 0's RECV of what
  // rank 1 sends after receiving rank 0's SEND.
  ChakraTraces crossed = good;
  ChakraNode back_send = good.ranks[0][0];
  back_send.comm_src = 1;
  back_send.comm_dst = 0;
  back_send.data_deps = {0};
  crossed.ranks[1] = {good.ranks[1][0], back_send};
  ChakraNode back_recv = back_send;
  back_recv.type = ChakraNodeType::kRecv;
  back_recv.data_deps = {};
  crossed.step_types[0][0] = {"s", "r"};
  crossed.ranks[0] = {back_recv, good.ranks[0][0]};
  crossed.ranks[0][1].data_deps = {0};
  EXPECT_TRUE(CheckChakraTraces(crossed).size() == 1u);  // the exporter's self-check agrees
  r = Check(crossed);
  EXPECT_EQ(r.stage, ChakraTraceStage::kAcyclic);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0],
            "the dependencies and SEND -> RECV edges form a cycle (4 nodes can never run): "
            "t.0.et: node 1 (id 1) -> t.1.et: node 0 (id 0) -> t.1.et: node 1 (id 1) -> "
            "t.0.et: node 0 (id 0)");
  // The same pair without the dependency on rank 0 runs.
  crossed.ranks[0][1].data_deps = {};
  EXPECT_TRUE(Check(crossed).ok);

  // A cycle within a rank: the COMP depends on itself.
  ChakraTraces self = good;
  self.ranks[1][1].data_deps = {0, 1};
  r = Check(self);
  EXPECT_EQ(r.stage, ChakraTraceStage::kAcyclic);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0],
            "the dependencies and SEND -> RECV edges form a cycle (1 nodes can never run): "
            "t.1.et: node 1 (id 1)");

  // Structure: a SEND that names another rank as its source; a rank without nodes; too few
  // files; a peer out of range; a zero size.
  ChakraTraces own = good;
  own.ranks[0][0].comm_src = 1;
  r = Check(own);
  EXPECT_EQ(r.stage, ChakraTraceStage::kStructure);
  EXPECT_EQ(r.violations.at(0), "t.0.et: node 0 (id 0): SEND with comm_src 1 on rank 0");
  ChakraTraces empty = good;
  empty.ranks[1].clear();
  r = Check(empty);
  EXPECT_EQ(r.violations.at(0), "t.1.et: rank 1 has no node");
  r = Check(good, 3);
  EXPECT_EQ(r.violations.at(0), "2 trace files for 3 ranks");
  ChakraTraces far = good;
  far.ranks[0][0].comm_dst = 2;
  r = Check(far);
  EXPECT_EQ(r.violations.at(0),
            "t.0.et: node 0 (id 0): SEND with peer 2, not another of the 2 ranks");
  ChakraTraces zero = good;
  zero.ranks[0][0].comm_size = 0;
  zero.ranks[1][0].comm_size = 0;
  r = Check(zero);
  EXPECT_EQ(r.violations_total, 2);
}

// ---- malformed files -----------------------------------------------------------------------

std::string Attr(const std::string& name, int field, std::int64_t value) {
  ProtobufWriter a;
  a.BytesField(1, name);
  a.SignedField(field, value);
  return a.Take();
}

struct NodeSpec {
  std::uint64_t id = 0;
  int type = 5;
  std::vector<std::uint64_t> deps;
  std::vector<std::string> attrs = {Attr("comm_size", 9, 8), Attr("comm_src", 7, 0),
                                    Attr("comm_dst", 7, 1), Attr("comm_tag", 7, 0)};
};

std::string File(const std::vector<NodeSpec>& nodes) {
  std::string out;
  ProtobufWriter meta;
  meta.BytesField(1, "0.0.4");
  AppendLengthDelimited(&out, meta.bytes());
  for (const NodeSpec& n : nodes) {
    ProtobufWriter w;
    w.VarintField(1, n.id);
    w.VarintField(3, static_cast<std::uint64_t>(n.type));
    w.PackedVarintField(5, n.deps);
    for (const std::string& a : n.attrs) w.BytesField(10, a);
    AppendLengthDelimited(&out, w.bytes());
  }
  return out;
}

// The InputError's item and problem, or "accepted".
std::string Refusal(const std::string& bytes) {
  try {
    ParseChakraTrace(bytes, "bad.0.et");
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "bad.0.et");
    return e.item() + ": " + e.problem();
  }
  return "accepted";
}

TEST(ChakraTraceReader, MalformedFilesNameTheItem) {
  NodeSpec send;
  NodeSpec comp;
  comp.id = 1;
  comp.type = 4;
  comp.deps = {0};
  comp.attrs = {};
  ASSERT_EQ(Refusal(File({send, comp})), "accepted");
  const ChakraRankTrace ok = ParseChakraTrace(File({send, comp}), "ok.et");
  EXPECT_EQ(ok.version, "0.0.4");
  ASSERT_EQ(ok.nodes.size(), 2u);
  EXPECT_EQ(ok.nodes[0].comm_size, 8);
  EXPECT_EQ(ok.nodes[0].comm_dst, 1);
  ASSERT_EQ(ok.nodes[1].deps_end - ok.nodes[1].deps_begin, 1u);
  EXPECT_EQ(ok.deps[ok.nodes[1].deps_begin], 0u);

  EXPECT_EQ(Refusal(""), "message 0: no GlobalMetadata: the file is empty");
  const std::string good = File({send, comp});
  EXPECT_EQ(Refusal(good.substr(0, good.size() - 1)).substr(0, 31),
            "message 2: the length prefix at");
  EXPECT_EQ(Refusal(std::string("\xff\xff", 2)),
            "message 0: the length prefix at byte 0 is truncated or longer than 10 bytes");
  // A Node whose id varint is cut off inside its message.
  EXPECT_EQ(Refusal(good + std::string("\x01\x08", 2)),
            "node 2 (message 3): does not decode as a Chakra Node");
  NodeSpec coll = send;
  coll.type = 7;
  EXPECT_EQ(Refusal(File({coll})),
            "node 0 (id 0): node type 7 is not COMP_NODE (4), COMM_SEND_NODE (5) or "
            "COMM_RECV_NODE (6)");
  NodeSpec no_tag = send;
  no_tag.attrs.pop_back();
  EXPECT_EQ(Refusal(File({no_tag})), "node 0 (id 0): a SEND node without the attribute comm_tag");
  NodeSpec narrow = send;
  narrow.attrs[0] = Attr("comm_size", 7, 8);
  EXPECT_EQ(Refusal(File({narrow})),
            "node 0 (id 0) attr comm_size: is int32_val, not int64_val (what Chakra's feeder "
            "reads)");
  NodeSpec twice = send;
  twice.attrs.push_back(Attr("comm_src", 7, 0));
  EXPECT_EQ(Refusal(File({twice})), "node 0 (id 0) attr comm_src: appears twice");
  NodeSpec same_id = comp;
  same_id.id = 5;
  NodeSpec other = comp;
  other.id = 5;
  other.deps = {};
  EXPECT_EQ(Refusal(File({same_id, other})), "node 1 (id 5): repeats the id of node 0");
  NodeSpec dangling = comp;
  dangling.deps = {9};
  EXPECT_EQ(Refusal(File({send, dangling})),
            "node 1 (id 1): depends on id 9, which no node of the file has");
  // Ids need not be dense: dependencies go by id.
  NodeSpec a = comp, b = comp;
  a.id = 10;
  a.deps = {};
  b.id = 3;
  b.deps = {10};
  const ChakraRankTrace sparse = ParseChakraTrace(File({a, b}), "sparse.et");
  EXPECT_EQ(sparse.deps[sparse.nodes[1].deps_begin], 0u);
}

// Names are bytes to the reader: a name that is not UTF-8 is read without a word on stderr
// (proto3 strings would make libprotobuf log; the library never prints).
TEST(ChakraTraceReader, NamesThatAreNotUtf8AreReadSilently) {
  std::string out;
  ProtobufWriter meta;
  meta.BytesField(1, "\xff\xfe");
  AppendLengthDelimited(&out, meta.bytes());
  ProtobufWriter node;
  node.BytesField(2, "\xc3\x28");
  node.VarintField(3, 4);
  AppendLengthDelimited(&out, node.bytes());
  ::testing::internal::CaptureStderr();
  const ChakraRankTrace t = ParseChakraTrace(out, "names.et");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(t.version, "\xff\xfe");
  ASSERT_EQ(t.nodes.size(), 1u);
}

TEST(ChakraTraceReader, MissingFileIsAnInputErrorNamingIt) {
  try {
    ReadChakraTraceFile("/nonexistent/x.0.et");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/x.0.et");
  }
}

}  // namespace
}  // namespace collsynth
