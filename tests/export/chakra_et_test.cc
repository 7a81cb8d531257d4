// Chakra ET export for ASTRA-sim (export/chakra_et.h, export/protobuf_wire.h): the wire
// encoder against the protobuf documentation's examples; the lowering of hand-built MSCCL
// programs node by node; on lowered schedules of every collective (split and fused), the
// written bytes decoded by the test's own decoder (chakra_decode.h) against the program: every
// send matched by a receive with the same tag and size, dependencies acyclic and on existing
// nodes, node counts and bytes per rank and pair equal to the program's; bad input refused;
// the self-check catches broken traces.
#include "export/chakra_et.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "export/chakra_decode.h"
#include "export/protobuf_wire.h"
#include "fixtures/export_fixtures.h"

namespace collsynth {
namespace {

using testing::CheckEtSet;
using testing::DecodeEt;
using testing::EtFile;
using testing::EtNode;

// ---- wire format -------------------------------------------------------------------------

TEST(ProtobufWire, DocumentationExamples) {
  // protobuf.dev "Encoding": field 1 = 150 is 08 96 01; field 2 = "testing" is 12 07 74 65 73
  // 74 69 6e 67; packed field 4 = [3, 270, 86942] is 22 06 03 8e 02 9e a7 05.
  ProtobufWriter a;
  a.VarintField(1, 150);
  EXPECT_EQ(a.bytes(), std::string("\x08\x96\x01"));
  ProtobufWriter b;
  b.BytesField(2, "testing");
  EXPECT_EQ(b.bytes(), std::string("\x12\x07testing"));
  ProtobufWriter c;
  c.PackedVarintField(4, {3, 270, 86942});
  EXPECT_EQ(c.bytes(), std::string("\x22\x06\x03\x8e\x02\x9e\xa7\x05"));
  ProtobufWriter empty;
  empty.PackedVarintField(4, {});
  EXPECT_EQ(empty.bytes(), "");
  // A negative int32/int64 is its 64-bit two's complement: ten bytes.
  ProtobufWriter d;
  d.SignedField(7, -1);
  EXPECT_EQ(d.bytes(), std::string("\x38\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"));
  // Zero is written (oneof members must be present even at 0).
  ProtobufWriter z;
  z.SignedField(7, 0);
  EXPECT_EQ(z.bytes(), std::string("\x38\x00", 2));
  // A field number >= 16 needs a two-byte key: string_val (29) is ea 01.
  ProtobufWriter s;
  s.BytesField(29, "x");
  EXPECT_EQ(s.bytes(), std::string("\xea\x01\x01x"));
  EXPECT_THROW(ProtobufWriter().VarintField(0, 1), std::invalid_argument);
  EXPECT_THROW(ProtobufWriter().VarintField(1 << 29, 1), std::invalid_argument);
}

TEST(ProtobufWire, LengthPrefixIsAVarint) {
  std::string out;
  AppendLengthDelimited(&out, std::string(200, 'a'));
  ASSERT_EQ(out.size(), 202u);
  EXPECT_EQ(out.substr(0, 2), std::string("\xc8\x01"));
  AppendLengthDelimited(&out, "");
  EXPECT_EQ(out.size(), 203u);
  EXPECT_EQ(out.back(), '\0');
}

// ---- hand-built programs -------------------------------------------------------------------

MscclStep Step(const std::string& type, int cnt = 1, int depid = -1, int deps = -1) {
  MscclStep s;
  s.type = type;
  s.cnt = cnt;
  s.depid = depid;
  s.deps = deps;
  return s;
}

MscclBlock Block(int send, int recv, int chan, std::vector<MscclStep> steps) {
  MscclBlock b;
  b.send = send;
  b.recv = recv;
  b.chan = chan;
  b.steps = std::move(steps);
  return b;
}

// 0 -> 1 -> 2: rank 1 forwards with `r` then `s` (the `s` in block 0 depending on the `r` in
// block 1, a forward reference), rank 2 reduces with `rrc`.
MscclProgram Chain3() {
  MscclProgram p;
  p.collective = Collective::kAllgather;
  p.ngpus = 3;
  p.nchunksperloop = 3;
  p.gpus.resize(3);
  p.gpus[0].blocks = {Block(1, -1, 0, {Step("s", 2)})};
  p.gpus[1].blocks = {Block(2, -1, 0, {Step("s", 2, 1, 0)}), Block(-1, 0, 0, {Step("r", 2)})};
  p.gpus[1].blocks[1].steps[0].hasdep = true;
  p.gpus[2].blocks = {Block(-1, 1, 0, {Step("rrc", 2)})};
  return p;
}

std::vector<EtFile> DecodeAll(const ChakraTraces& t) {
  std::vector<EtFile> out;
  for (int r = 0; r < t.ngpus; ++r) out.push_back(DecodeEt(ChakraEtFileBytes(t, r)));
  return out;
}

TEST(ChakraEt, HandBuiltChainNodeByNode) {
  ChakraOptions o;
  o.size_bytes = 3 * 2 * 10;  // nchunksperloop 3, 2 slices: 10 bytes per chunk slice
  o.slices = 2;
  ChakraTraces t = LowerMscclProgramToChakra(Chain3(), o);
  EXPECT_EQ(t.chunk_slice_bytes, 10);
  EXPECT_EQ(CheckChakraTraces(t), std::vector<std::string>{});
  std::vector<EtFile> f = DecodeAll(t);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].metadata.at("schema").text, "1.0.2-chakra.0.0.4");
  EXPECT_EQ(f[0].metadata.at("collective").text, "allgather");

  // Rank 0: one send per slice, program order between the slices; tags 0 and 1.
  ASSERT_EQ(f[0].nodes.size(), 2u);
  const EtNode& s0 = f[0].nodes[0];
  EXPECT_EQ(s0.id, 0u);
  EXPECT_EQ(s0.type, testing::kEtSend);
  EXPECT_EQ(s0.name, "s.tb0.s0.slice0.send");
  EXPECT_TRUE(s0.data_deps.empty());
  EXPECT_EQ(s0.Int("comm_src"), 0);
  EXPECT_EQ(s0.Int("comm_dst"), 1);
  EXPECT_EQ(s0.Int("comm_size"), 20);  // cnt 2 x 10 bytes
  EXPECT_EQ(s0.Int("comm_tag"), 0);
  EXPECT_EQ(s0.Int("comm_type"), 2);  // ALL_GATHER
  // Attribute types as in astra-sim's example traces: int64 sizes, int32 ranks and tags.
  EXPECT_EQ(s0.attr.at("comm_type").value_field, 9);
  EXPECT_EQ(s0.attr.at("comm_size").value_field, 9);
  EXPECT_EQ(s0.attr.at("comm_src").value_field, 7);
  EXPECT_EQ(s0.attr.at("comm_dst").value_field, 7);
  EXPECT_EQ(s0.attr.at("comm_tag").value_field, 7);
  EXPECT_EQ(f[0].nodes[1].id, 1u);
  EXPECT_EQ(f[0].nodes[1].data_deps, std::vector<std::uint64_t>{0});
  EXPECT_EQ(f[0].nodes[1].Int("comm_tag"), 1);

  // Rank 1: emission order is (slice, block, step) = s, r, s, r; the send depends on the
  // receive of a later block, so the topological numbering puts every receive first.
  ASSERT_EQ(f[1].nodes.size(), 4u);
  std::vector<std::string> names;
  for (const EtNode& x : f[1].nodes) names.push_back(x.name);
  EXPECT_EQ(names, (std::vector<std::string>{"r.tb1.s0.slice0.recv", "s.tb0.s0.slice0.send",
                                             "r.tb1.s0.slice1.recv", "s.tb0.s0.slice1.send"}));
  EXPECT_TRUE(f[1].nodes[0].data_deps.empty());
  EXPECT_EQ(f[1].nodes[1].data_deps, std::vector<std::uint64_t>{0});
  EXPECT_EQ(f[1].nodes[2].data_deps, std::vector<std::uint64_t>{0});  // program order, block 1
  EXPECT_EQ(f[1].nodes[3].data_deps, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(f[1].nodes[0].Int("comm_src"), 0);
  EXPECT_EQ(f[1].nodes[2].Int("comm_tag"), 1);
  EXPECT_EQ(f[1].nodes[3].Int("comm_dst"), 2);

  // Rank 2: rrc is RECV then COMP, per slice; the COMP has no comm attributes.
  ASSERT_EQ(f[2].nodes.size(), 4u);
  EXPECT_EQ(f[2].nodes[0].type, testing::kEtRecv);
  EXPECT_EQ(f[2].nodes[1].type, testing::kEtComp);
  EXPECT_TRUE(f[2].nodes[1].attr.empty());
  EXPECT_EQ(f[2].nodes[1].data_deps, std::vector<std::uint64_t>{0});
  EXPECT_EQ(f[2].nodes[2].data_deps, std::vector<std::uint64_t>{1});
  EXPECT_EQ(CheckEtSet(f), "");
}

// ---- lowered schedules ---------------------------------------------------------------------

using testing::Full3;

PipelineSchedule ChainAndStar(const std::string& coll, int m1, int m2) {
  return testing::ChainAndStar(*ParseCollective(coll), m1, m2);
}

// Nodes per step type, from the decomposition in docs/export.md "ASTRA-sim (Chakra ET)"
// (independent table).
int NodesOf(const std::string& type) {
  static const std::map<std::string, int> kNodes = {{"s", 1},   {"r", 1},   {"rcs", 2},
                                                    {"rrc", 2}, {"rrs", 3}, {"rrcs", 3},
                                                    {"cpy", 1}, {"re", 1},  {"nop", 1}};
  return kNodes.at(type);
}

bool IsSend(const std::string& type) {
  return type == "s" || type == "rcs" || type == "rrs" || type == "rrcs";
}

TEST(ChakraEt, EveryCollectiveSplitAndFusedMatchesTheProgram) {
  Topology g = Full3();
  std::vector<std::pair<std::string, PipelineSchedule>> cases;
  cases.push_back({"allgather", ChainAndStar("allgather", 1, 2)});
  cases.push_back({"reduce-scatter", ChainAndStar("reduce-scatter", 2, 1)});
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.phases = {ChainAndStar("reduce-scatter", 1, 1), ChainAndStar("allgather", 1, 2)};
  cases.push_back({"allreduce", ar});
  int fused_forwards = 0;
  for (const auto& [coll, sched] : cases) {
    for (bool fuse : {false, true}) {
      for (int slices : {1, 3}) {
        SCOPED_TRACE(coll + (fuse ? " fused" : " split") + " slices " + std::to_string(slices));
        MscclExportOptions mo;
        mo.fuse = fuse;
        MscclExportResult r = ExportPipelineToMscclProgram(g, sched, DefaultRanks(g), mo, "t");
        const MscclProgram& p = r.program;
        ChakraOptions o;
        o.slices = slices;
        o.size_bytes = p.nchunksperloop * slices * 7;
        ChakraTraces t = LowerMscclProgramToChakra(p, o);
        EXPECT_EQ(t.chunk_slice_bytes, 7);
        EXPECT_EQ(CheckChakraTraces(t), std::vector<std::string>{});
        std::vector<EtFile> f = DecodeAll(t);
        EXPECT_EQ(CheckEtSet(f), "");
        std::map<std::pair<int, int>, std::int64_t> program_pair_bytes;
        for (int v = 0; v < p.ngpus; ++v) {
          std::int64_t nodes = 0, sent_chunks = 0;
          for (const MscclBlock& b : p.gpus[v].blocks) {
            for (const MscclStep& s : b.steps) {
              nodes += NodesOf(s.type);
              fused_forwards += fuse && (s.type == "rcs" || s.type == "rrs");
              if (IsSend(s.type)) {
                sent_chunks += s.cnt;
                program_pair_bytes[{v, b.send}] += s.cnt * o.size_bytes / p.nchunksperloop;
              }
            }
          }
          EXPECT_EQ(static_cast<std::int64_t>(f[v].nodes.size()), nodes * slices);
          std::int64_t sent = 0;
          for (const EtNode& x : f[v].nodes) {
            if (x.type == testing::kEtSend) sent += x.Int("comm_size");
          }
          EXPECT_EQ(sent, sent_chunks * o.size_bytes / p.nchunksperloop);
          EXPECT_EQ(f[v].metadata.at("collective").text, coll);
        }
        EXPECT_EQ(testing::EtBytesPerPair(f), program_pair_bytes);
      }
    }
  }
  EXPECT_GT(fused_forwards, 0);  // the fused lowering's rcs/rrs were exercised
}

TEST(ChakraEt, BadInputIsRefused) {
  ChakraOptions o;
  o.size_bytes = 60;
  o.slices = 2;
  MscclProgram p = Chain3();
  EXPECT_NO_THROW(LowerMscclProgramToChakra(p, o));
  o.size_bytes = 61;  // not a multiple of 3 x 2
  EXPECT_THROW(LowerMscclProgramToChakra(p, o), std::invalid_argument);
  o.size_bytes = 0;
  EXPECT_THROW(LowerMscclProgramToChakra(p, o), std::invalid_argument);
  o.size_bytes = 60;
  o.slices = 0;
  EXPECT_THROW(LowerMscclProgramToChakra(p, o), std::invalid_argument);
  o.slices = 2;
  MscclProgram bc = p;
  bc.collective = Collective::kBroadcast;
  EXPECT_THROW(LowerMscclProgramToChakra(bc, o), std::invalid_argument);
  MscclProgram unmatched = p;  // rank 2 receives twice, rank 1 sends once
  unmatched.gpus[2].blocks[0].steps.push_back(Step("r", 2));
  EXPECT_THROW(LowerMscclProgramToChakra(unmatched, o), std::invalid_argument);
  MscclProgram other_cnt = p;
  other_cnt.gpus[2].blocks[0].steps[0].cnt = 1;
  EXPECT_THROW(LowerMscclProgramToChakra(other_cnt, o), std::invalid_argument);
  MscclProgram unknown = p;
  unknown.gpus[0].blocks[0].steps.push_back(Step("xyz"));
  EXPECT_THROW(LowerMscclProgramToChakra(unknown, o), std::invalid_argument);
  MscclProgram dangling = p;
  dangling.gpus[1].blocks[0].steps[0].deps = 5;
  EXPECT_THROW(LowerMscclProgramToChakra(dangling, o), std::invalid_argument);
}

// Two ranks whose receives each wait (through program order) for the other's send.
ChakraTraces CrossedPair() {
  ChakraTraces t;
  t.ngpus = 2;
  t.slices = 1;
  t.step_types = {{{"rcs"}}, {{"rcs"}}};
  for (int r = 0; r < 2; ++r) {
    ChakraNode recv;
    recv.type = ChakraNodeType::kRecv;
    recv.comm_src = 1 - r;
    recv.comm_dst = r;
    recv.comm_size = 8;
    ChakraNode send = recv;
    send.type = ChakraNodeType::kSend;
    send.comm_src = r;
    send.comm_dst = 1 - r;
    send.data_deps = {0};
    t.ranks.push_back({recv, send});
  }
  return t;
}

TEST(ChakraEt, SelfCheckAndDecoderCatchBrokenTraces) {
  ChakraTraces crossed = CrossedPair();
  std::vector<std::string> v = CheckChakraTraces(crossed);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("form a cycle (4 nodes"), std::string::npos) << v[0];
  EXPECT_EQ(CheckEtSet(DecodeAll(crossed)), "a cycle through 4 nodes");

  ChakraOptions o;
  o.size_bytes = 60;
  o.slices = 2;
  const ChakraTraces good = LowerMscclProgramToChakra(Chain3(), o);
  ChakraTraces bad = good;
  bad.ranks[2][0].comm_tag = 99;
  v = CheckChakraTraces(bad);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], "rank 2 node 0: no send from rank 1 with tag 99");
  EXPECT_EQ(v[1], "rank 1: the send with tag 0 to rank 2 has no receive");
  EXPECT_EQ(CheckEtSet(DecodeAll(bad)), "rank 2 receive rrc.tb0.s0.slice0.recv: no matching send");

  bad = good;
  bad.ranks[1].clear();
  v = CheckChakraTraces(bad);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0], "rank 1 has no nodes");

  bad = good;
  bad.ranks[2][2].comm_size = 19;
  v = CheckChakraTraces(bad);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0], "rank 2 node 2: receives 19 bytes, the send has 20");

  bad = good;
  bad.ranks[0][0].data_deps = {1};
  v = CheckChakraTraces(bad);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0], "rank 0 node 0: data dependency on node 1, not earlier");
  bad.ranks[0][0].data_deps = {7};
  EXPECT_EQ(CheckEtSet(DecodeAll(bad)),
            "rank 0 node s.tb0.s0.slice0.send: dependency on missing id 7");
}

}  // namespace
}  // namespace collsynth
