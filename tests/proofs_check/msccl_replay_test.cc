// The MSCCL XML replay checker (proofs_check/msccl_replay.h; docs/export.md "Replay checker"):
// correct schedules of every supported collective are accepted with their exact chunks per pair,
// and every corruption class of docs/export.md "Runtime facts" is rejected at the stage the design
// (docs/export.md "Replay checker") names. Test vectors: tests/fixtures/msccl_xml_fixtures.h.
#include "proofs_check/msccl_replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fixtures/msccl_xml_fixtures.h"

namespace collsynth {
namespace {

using testing::Allreduce2;
using testing::ChainBroadcast;
using testing::Nop;
using testing::RingAllgather;
using testing::RingAlltoall3;
using testing::RingReduceScatter;
using testing::St;
using testing::StarReduceScatter3;
using testing::ToXml;
using testing::XAlgo;
using testing::XStep;

ReplayResult Replay(const std::string& xml, MscclProfile profile = MscclProfile::kExecutor,
                    int fifo = 0) {
  ReplayOptions o;
  o.profile = profile;
  o.fifo_depth = fifo;
  return ReplayMscclXml(xml, "t.xml", o);
}

std::string Dump(const ReplayResult& r) {
  std::string s;
  for (const ReplayViolation& v : r.violations) {
    s += std::string(ReplayStageName(v.stage)) + "/" + ReplayViolationKindName(v.kind) + ": " +
         v.message + "\n";
  }
  return s;
}

// True if some violation has this stage and kind and its message contains `text`.
bool Has(const ReplayResult& r, ReplayStage stage, ReplayViolationKind kind,
         const std::string& text = "") {
  for (const ReplayViolation& v : r.violations) {
    if (v.stage == stage && v.kind == kind && v.message.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// Every violation is of `stage` (the first failing stage ends the check).
void ExpectRejectedAt(const ReplayResult& r, ReplayStage stage, ReplayViolationKind kind,
                      const std::string& text = "") {
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.violations.empty());
  for (const ReplayViolation& v : r.violations) EXPECT_EQ(v.stage, stage) << Dump(r);
  EXPECT_TRUE(Has(r, stage, kind, text)) << Dump(r);
}

std::vector<std::tuple<int, int, std::int64_t>> Pairs(const ReplayResult& r) {
  std::vector<std::tuple<int, int, std::int64_t>> v;
  for (const ReplayPairChunks& p : r.bytes_per_pair) v.emplace_back(p.src, p.dst, p.chunks);
  return v;
}

// Replaces the first occurrence of `from` in `s` (which must occur).
std::string Replace(std::string s, const std::string& from, const std::string& to) {
  const std::size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  if (p != std::string::npos) s.replace(p, from.size(), to);
  return s;
}

// ---------------------------------------------------------------- accepted files

TEST(MscclReplayTest, RingAllgatherFourGpusOutOfPlaceAccepted) {
  const ReplayResult r = Replay(ToXml(RingAllgather(4, 1, false)));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.coll, "allgather");
  EXPECT_EQ(r.ngpus, 4);
  EXPECT_EQ(r.nchunksperloop, 4);
  EXPECT_EQ(r.fifo_depth, 2);  // Simple: 8 slots / 4 per transfer
  EXPECT_EQ(r.modes, std::vector<std::string>{"outofplace"});
  using T = std::tuple<int, int, std::int64_t>;
  EXPECT_EQ(Pairs(r), (std::vector<T>{{0, 1, 3}, {1, 2, 3}, {2, 3, 3}, {3, 0, 3}}));
}

TEST(MscclReplayTest, RingAllgatherInPlaceAccepted) {
  const ReplayResult r = Replay(ToXml(RingAllgather(4, 1, true)));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.modes, std::vector<std::string>{"inplace"});
  ASSERT_EQ(r.bytes_per_pair.size(), 4u);
  EXPECT_EQ(r.bytes_per_pair[0].chunks, 3);
}

TEST(MscclReplayTest, InPlaceAllgatherFileFailsOutOfPlace) {
  // The same steps claimed out of place: nothing copies the input into o.
  XAlgo a = RingAllgather(4, 1, true);
  a.inplace = 0;
  a.outofplace = 1;
  for (auto& g : a.gpus) g.i_chunks = 1;
  const ReplayResult r = Replay(ToXml(a));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kUninitializedRead,
                   "[outofplace] gpu 0 tb 0 step 0");
}

TEST(MscclReplayTest, AllreduceTwoGpusBothModesAccepted) {
  const ReplayResult r = Replay(ToXml(Allreduce2()));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.modes, (std::vector<std::string>{"inplace", "outofplace"}));
  using T = std::tuple<int, int, std::int64_t>;
  EXPECT_EQ(Pairs(r), (std::vector<T>{{0, 1, 2}, {1, 0, 2}}));
}

TEST(MscclReplayTest, RingAllreduceFourGpusBothModesAccepted) {
  const ReplayResult r = Replay(ToXml(testing::RingAllreduce(4)));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.modes, (std::vector<std::string>{"inplace", "outofplace"}));
  using T = std::tuple<int, int, std::int64_t>;
  EXPECT_EQ(Pairs(r), (std::vector<T>{{0, 1, 6}, {1, 2, 6}, {2, 3, 6}, {3, 0, 6}}));
}

TEST(MscclReplayTest, ScratchAndFusedReduceAcceptedButNotWithoutTheNop) {
  testing::XAlgo a = testing::ScratchReduceScatter3();
  const ReplayResult r = Replay(ToXml(a));
  ASSERT_TRUE(r.ok) << Dump(r);
  // Without the nop nothing orders tb 1's receive into s[1] before the second re reads it.
  for (auto& g : a.gpus) g.tbs[2].steps.erase(g.tbs[2].steps.begin() + 1);
  const ReplayResult bad = Replay(ToXml(a));
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(Has(bad, ReplayStage::kExecute, ReplayViolationKind::kRace, "s[1]") ||
              Has(bad, ReplayStage::kExecute, ReplayViolationKind::kUninitializedRead, "s[1]"))
      << Dump(bad);
}

TEST(MscclReplayTest, BlocksPerGpuLimitPerProfile) {
  XAlgo a = RingAllgather(2, 1, false);
  for (int t = 1; t <= 64; ++t) {
    testing::XTb empty;
    empty.id = t;
    a.gpus[0].tbs.push_back(empty);
  }
  EXPECT_TRUE(Replay(ToXml(a)).ok);
  ExpectRejectedAt(Replay(ToXml(a), MscclProfile::kRccl), ReplayStage::kSchema,
                   ReplayViolationKind::kLimit,
                   "gpu 0 tb 64: id not below MSCCL_MAX_NUM_THREAD_BLOCKS = 64");
}

TEST(MscclReplayTest, RingReduceScatterTwoAndFourGpusAccepted) {
  for (int n : {2, 4}) {
    const ReplayResult r = Replay(ToXml(RingReduceScatter(n)));
    ASSERT_TRUE(r.ok) << n << "\n" << Dump(r);
    EXPECT_EQ(r.modes, (std::vector<std::string>{"inplace", "outofplace"}));
    ASSERT_EQ(r.bytes_per_pair.size(), static_cast<std::size_t>(n));
    for (const ReplayPairChunks& p : r.bytes_per_pair) {
      EXPECT_EQ(p.dst, (p.src + 1) % n);
      EXPECT_EQ(p.chunks, n - 1);
    }
  }
}

TEST(MscclReplayTest, StarReduceScatterWithOrderedReductionsAccepted) {
  const ReplayResult r = Replay(ToXml(StarReduceScatter3()));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.bytes_per_pair.size(), 6u);
}

TEST(MscclReplayTest, ChainBroadcastAcceptedForItsRootOnly) {
  const std::string xml = ToXml(ChainBroadcast(4, 2));
  const ReplayResult r = Replay(xml);
  ASSERT_TRUE(r.ok) << Dump(r);
  using T = std::tuple<int, int, std::int64_t>;
  EXPECT_EQ(Pairs(r), (std::vector<T>{{0, 1, 2}, {1, 2, 2}, {2, 3, 2}}));
  ReplayOptions o;
  o.root = 2;
  const ReplayResult other = ReplayMscclXml(xml, "t.xml", o);
  ExpectRejectedAt(other, ReplayStage::kExecute, ReplayViolationKind::kPostcondition,
                   "gpu 0 o[0] (round 0) ends without (rank 2, chunk 0)");
}

// Alltoall (docs/export.md "Replay checker", postcondition): output chunk s of rank r must hold
// exactly input chunk r of rank s. The relayed ring is accepted by every profile at both
// connector depths; a swapped chunk, a missing send (with and without its receive) and a relay
// that forwards the wrong chunk are rejected.
TEST(MscclReplayTest, RelayedRingAlltoallAcceptedAndItsMutantsRejected) {
  const XAlgo ring = RingAlltoall3();
  for (int fifo : {0, 1}) {
    const ReplayResult r = Replay(ToXml(ring), MscclProfile::kExecutor, fifo);
    ASSERT_TRUE(r.ok) << Dump(r);
    using T = std::tuple<int, int, std::int64_t>;
    std::vector<T> pairs = Pairs(r);
    std::sort(pairs.begin(), pairs.end());
    EXPECT_EQ(pairs, (std::vector<T>{{0, 1, 3}, {1, 2, 3}, {2, 0, 3}}));
  }
  XAlgo legacy = ring;
  legacy.legacy = true;
  EXPECT_TRUE(Replay(ToXml(legacy), MscclProfile::kLegacy).ok);
  EXPECT_TRUE(Replay(ToXml(ring), MscclProfile::kRccl).ok);

  XAlgo swapped = ring;  // gpu 1 receives 0's block into o[2] and the relayed 2's into o[0]
  std::swap(swapped.gpus[1].tbs[0].steps[2].dstoff, swapped.gpus[1].tbs[0].steps[6].dstoff);
  ExpectRejectedAt(Replay(ToXml(swapped)), ReplayStage::kExecute,
                   ReplayViolationKind::kPostcondition,
                   "gpu 1 o[0] (round 0) ends without (rank 0, chunk 1), with (rank 2, chunk 1) "
                   "that does not belong there");

  XAlgo missing = ring;  // gpu 0 never sends its block for 1, and gpu 1 never receives it
  auto& s0 = missing.gpus[0].tbs[0].steps;
  s0.erase(s0.begin() + 1);
  auto& s1 = missing.gpus[1].tbs[0].steps;
  s1.erase(s1.begin() + 2);
  ExpectRejectedAt(Replay(ToXml(missing)), ReplayStage::kExecute,
                   ReplayViolationKind::kPostcondition,
                   "missing chunk: gpu 1 o[0] is never written (round 0)");
  XAlgo unmatched = ring;  // the send alone is missing: the connector's counts differ
  unmatched.gpus[0].tbs[0].steps.erase(unmatched.gpus[0].tbs[0].steps.begin() + 1);
  ExpectRejectedAt(Replay(ToXml(unmatched)), ReplayStage::kFifo,
                   ReplayViolationKind::kFifoMismatch);

  XAlgo wrong_relay = ring;  // gpu 1 forwards the block 0 sent it instead of the one to relay
  wrong_relay.gpus[1].tbs[0].steps[5].srcbuf = "o";
  ExpectRejectedAt(Replay(ToXml(wrong_relay)), ReplayStage::kExecute,
                   ReplayViolationKind::kPostcondition,
                   "gpu 2 o[0] (round 0) ends without (rank 0, chunk 2), with (rank 0, chunk 1) "
                   "that does not belong there");

  XAlgo ragged = ring;  // 4 chunks cannot be 3 whole blocks
  ragged.nchunksperloop = 4;
  ExpectRejectedAt(Replay(ToXml(ragged)), ReplayStage::kSchema, ReplayViolationKind::kBadValue,
                   "is not a multiple of ngpus=3");
}

TEST(MscclReplayTest, CrlfCommentsAndSeventeenAttributesAccepted) {
  std::string xml = ToXml(RingAllgather(2, 1, false));
  std::string crlf;
  for (char c : xml) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  crlf = "<!-- before -->\r\n" + crlf;
  crlf = Replace(crlf, "    <tb", "    <!-- inside -->\r\n    <tb");
  crlf = Replace(crlf, "maxBytes=\"0\">",
                 "maxBytes=\"0\" redop=\"sum\" nthreads=\"256\" "
                 "a=\"1\" b=\"2\" c=\"3\" d=\"4\" e=\"5\">");
  const ReplayResult r = Replay(crlf);
  ASSERT_TRUE(r.ok) << Dump(r);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("attribute 'e' ignored (more than 16 attributes)"), std::string::npos)
      << r.notes[0];
}

TEST(MscclReplayTest, SixtyFourStepsAcceptedCnt71Accepted) {
  XAlgo a = Allreduce2();
  while (a.gpus[0].tbs[0].steps.size() < 64)
    a.gpus[0].tbs[0].steps.insert(a.gpus[0].tbs[0].steps.begin(), Nop());
  EXPECT_TRUE(Replay(ToXml(a)).ok);
  // cnt 71: a broadcast of 71 chunks (a chain: an exchange of 71 chunks in one block would
  // deadlock on the connector depth).
  const ReplayResult r = Replay(ToXml(ChainBroadcast(2, 71)));
  EXPECT_TRUE(r.ok) << Dump(r);
}

// ---------------------------------------------------------------- stage 0

TEST(MscclReplayTest, TabIndentationRejectedAtStage0) {
  const std::string xml = Replace(ToXml(RingAllgather(2, 1, false)), "  <gpu", "\t<gpu");
  const ReplayResult r = Replay(xml);
  ExpectRejectedAt(r, ReplayStage::kLexical, ReplayViolationKind::kLexical,
                   "line 2 column 1: expecting '<', got '\\t'");
}

TEST(MscclReplayTest, XmlDeclarationRejectedAtStage0) {
  const ReplayResult r = Replay("<?xml version=\"1.0\"?>\n" + ToXml(RingAllgather(2, 1, false)));
  ExpectRejectedAt(r, ReplayStage::kLexical, ReplayViolationKind::kLexical, "expected >, got '?'");
}

TEST(MscclReplayTest, AttributesSplitAcrossLinesRejectedAtStage0) {
  const std::string xml =
      Replace(ToXml(RingAllgather(2, 1, false)), " nchannels=", "\n      nchannels=");
  ExpectRejectedAt(Replay(xml), ReplayStage::kLexical, ReplayViolationKind::kLexical,
                   "line 1 column 33: expected >, got '\\n'");
}

TEST(MscclReplayTest, SingleQuotesRejectedAtStage0) {
  std::string xml = ToXml(RingAllgather(2, 1, false));
  for (char& c : xml) {
    if (c == '"') c = '\'';
  }
  ExpectRejectedAt(Replay(xml), ReplayStage::kLexical, ReplayViolationKind::kLexical);
}

TEST(MscclReplayTest, LexerLimitsRejectedAtStage0) {
  const std::string longname(255, 'x');
  ExpectRejectedAt(Replay("<algo name=\"" + longname + "\"/>"), ReplayStage::kLexical,
                   ReplayViolationKind::kLexical, "longer than 254 characters");
  std::string many = "<algo>\n";
  for (int i = 0; i < 1025; ++i) many += "  <gpu/>\n";
  ExpectRejectedAt(Replay(many + "</algo>\n"), ReplayStage::kLexical, ReplayViolationKind::kLexical,
                   "more than 1024 children (MAX_SUBS)");
  // MAX_NODES per loading rank: gpu 4 counts 1 + 5 + 4 tbs + 4 x 1022 steps = 4098.
  std::string nodes = "<algo>\n";
  for (int g = 0; g < 5; ++g) {
    nodes += "<gpu id=\"" + std::to_string(g) + "\">\n";
    for (int t = 0; t < (g == 4 ? 4 : 0); ++t) {
      nodes += "<tb>\n";
      for (int i = 0; i < 1022; ++i) nodes += "<step/>\n";
      nodes += "</tb>\n";
    }
    nodes += "</gpu>\n";
  }
  ExpectRejectedAt(Replay(nodes + "</algo>\n"), ReplayStage::kLexical,
                   ReplayViolationKind::kLexical,
                   "rank 4 counts 4098 elements (<algo>, 5 <gpu>, 4092 <tb>/<step> of its own "
                   "<gpu>), the runtime's parser allows at most 4095 (MAX_NODES)");
  ExpectRejectedAt(Replay(""), ReplayStage::kLexical, ReplayViolationKind::kLexical,
                   "holds no element");
  ExpectRejectedAt(Replay("<algo>\n"), ReplayStage::kLexical, ReplayViolationKind::kLexical,
                   "is not closed");
}

// ---------------------------------------------------------------- stage 1

TEST(MscclReplayTest, SeventeenthAttributeMissingMinBytesRejectedAtStage1) {
  // minBytes pushed to position 17 is ignored by the lexer, hence missing.
  std::string xml = ToXml(RingAllgather(2, 1, false));
  xml = Replace(xml, " minBytes=\"0\"", "");
  xml = Replace(xml, "maxBytes=\"0\">",
                "maxBytes=\"0\" a=\"1\" b=\"2\" c=\"3\" d=\"4\" e=\"5\" f=\"6\" g=\"7\" "
                "minBytes=\"0\">");
  const ReplayResult r = Replay(xml);
  ExpectRejectedAt(r, ReplayStage::kSchema, ReplayViolationKind::kMissingAttribute,
                   "attribute minBytes of node algo not found");
  EXPECT_EQ(r.notes.size(), 1u);
}

TEST(MscclReplayTest, MissingMinBytesRejectedAtStage1) {
  const std::string xml = Replace(ToXml(RingAllgather(2, 1, false)), " minBytes=\"0\"", "");
  ExpectRejectedAt(Replay(xml), ReplayStage::kSchema, ReplayViolationKind::kMissingAttribute,
                   "attribute minBytes of node algo not found");
}

TEST(MscclReplayTest, CollSpellingPerProfile) {
  XAlgo a = RingReduceScatter(2, "reduce_scatter");
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kBadValue,
                   "coll=\"reduce_scatter\" (the legacy spelling)");
  ExpectRejectedAt(Replay(ToXml(a), MscclProfile::kRccl), ReplayStage::kSchema,
                   ReplayViolationKind::kBadValue, "write reducescatter");
  a.legacy = true;
  a.inplace = 0;
  const ReplayResult legacy = Replay(ToXml(a), MscclProfile::kLegacy);
  EXPECT_TRUE(legacy.ok) << Dump(legacy);
  EXPECT_EQ(legacy.modes, std::vector<std::string>{"outofplace"});
  a.coll = "reducescatter";
  ExpectRejectedAt(Replay(ToXml(a), MscclProfile::kLegacy), ReplayStage::kSchema,
                   ReplayViolationKind::kBadValue, "write reduce_scatter for --profile legacy");
  // The legacy runtime requires name.
  ExpectRejectedAt(
      Replay(Replace(ToXml(RingReduceScatter(2, "reduce_scatter")), "name=\"test\" ", ""),
             MscclProfile::kLegacy),
      ReplayStage::kSchema, ReplayViolationKind::kMissingAttribute, "name");
}

TEST(MscclReplayTest, SixtyFiveStepsRejectedAtStage1ButNotLegacy) {
  XAlgo a = Allreduce2();
  while (a.gpus[0].tbs[0].steps.size() < 65)
    a.gpus[0].tbs[0].steps.insert(a.gpus[0].tbs[0].steps.begin(), Nop());
  const std::string xml = ToXml(a);
  ExpectRejectedAt(Replay(xml), ReplayStage::kSchema, ReplayViolationKind::kLimit,
                   "gpu 0 tb 0: 65 steps, more than MSCCL_MAX_NUM_STEPS = 64");
  ExpectRejectedAt(Replay(xml, MscclProfile::kRccl), ReplayStage::kSchema,
                   ReplayViolationKind::kLimit, "65 steps");
  a.legacy = true;
  a.inplace = 0;
  const ReplayResult legacy = Replay(ToXml(a), MscclProfile::kLegacy);
  EXPECT_TRUE(legacy.ok) << Dump(legacy);
}

TEST(MscclReplayTest, Cnt72RejectedAtStage1) {
  ExpectRejectedAt(Replay(ToXml(RingAllgather(2, 72, false))), ReplayStage::kSchema,
                   ReplayViolationKind::kLimit, "count (72) must be positive and less than 72");
}

TEST(MscclReplayTest, MissingBlockZeroRejectedAtStage1) {
  XAlgo a = RingAllgather(2, 1, false);
  a.gpus[1].tbs[0].id = 1;
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kStructure,
                   "gpu 1: thread block 0 is missing");
}

TEST(MscclReplayTest, DependencyOnMissingBlockRejectedAtStage1) {
  XAlgo a = RingAllgather(2, 1, false);
  a.gpus[0].tbs[0].steps[1].depid = 7;
  a.gpus[0].tbs[0].steps[1].deps = 3;
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kDependency,
                   "gpu 0 tb 0 step 1: depends on tb 7, which does not exist");
}

TEST(MscclReplayTest, DependencyOnStepWithoutHasdepRejectedAtStage1) {
  XAlgo a = StarReduceScatter3();
  a.gpus[2].tbs[0].steps[1].hasdep = 0;
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kDependency,
                   "gpu 2 tb 1 step 1: depends on tb 0 step 1, which has hasdep=0 and no later "
                   "step of that block has hasdep=1");
  // A later hasdep step of the same block publishes a flag >= deps: released late, with a
  // note (docs/export.md "Step types, dependencies and flags").
  XStep publish = Nop();
  publish.hasdep = 1;
  a.gpus[2].tbs[0].steps.push_back(publish);
  const ReplayResult late = Replay(ToXml(a));
  EXPECT_TRUE(late.ok) << Dump(late);
  ASSERT_EQ(late.notes.size(), 1u);
  EXPECT_EQ(late.notes[0],
            "gpu 2 tb 1 step 1: depends on tb 0 step 1, which has hasdep=0; it is released only "
            "when step 2 publishes");
}

TEST(MscclReplayTest, NopChainEndingWithoutDependencyRejectedAtStage1) {
  XAlgo a = StarReduceScatter3();
  XStep nop = Nop();
  nop.depid = 0;
  nop.deps = 1;
  auto& steps = a.gpus[0].tbs[1].steps;
  steps[1].depid = steps[1].deps = -1;
  steps.insert(steps.begin() + 1, nop);
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kDependency,
                   "nop dependency chain");
}

TEST(MscclReplayTest, ChannelNotBelowNchannelsRejectedAtStage1) {
  XAlgo a = RingAllgather(2, 1, false);
  a.gpus[0].tbs[0].chan = 5;
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kBadValue,
                   "gpu 0 tb 0: chan=5 is not below nchannels=1");
}

TEST(MscclReplayTest, TwoBlocksOnOneConnectorRejectedAtStage1) {
  XAlgo a = RingAllgather(3, 1, false);
  testing::XTb extra;
  extra.id = 1;
  extra.send = 1;
  a.gpus[0].tbs.push_back(extra);
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kConnector,
                   "gpu 0 tb 1: tb 0 and tb 1 both send to gpu 1 on channel 0");
}

TEST(MscclReplayTest, UnsupportedStepTypeRejectedAtStage1) {
  const std::string xml =
      Replace(ToXml(RingAllgather(2, 1, false)), "type=\"cpy\"", "type=\"rres\"");
  ExpectRejectedAt(Replay(xml), ReplayStage::kSchema, ReplayViolationKind::kUnsupported,
                   "unsupported step type \"rres\"");
}

TEST(MscclReplayTest, OffsetOutsideBufferAndStepNumberingRejectedAtStage1) {
  XAlgo a = RingAllgather(2, 1, false);
  a.gpus[1].tbs[0].steps[2].dstoff = 2;  // o has 2 chunks
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kSchema, ReplayViolationKind::kBadValue,
                   "gpu 1 tb 0 step 2: destination o[2..3) is outside the output buffer");
  const std::string xml =
      Replace(ToXml(RingAllgather(2, 1, false)), "<step s=\"1\"", "<step s=\"2\"");
  ExpectRejectedAt(Replay(xml), ReplayStage::kSchema, ReplayViolationKind::kBadValue,
                   "s=2 but it is step 1");
}

// ---------------------------------------------------------------- stage 2

TEST(MscclReplayTest, MismatchedCntSequencesRejectedAtStage2) {
  XAlgo a = RingAllgather(2, 2, false);
  // gpu 1 receives the two chunks of rank 0 as two steps of one chunk.
  auto& steps = a.gpus[1].tbs[0].steps;
  steps.back() = St("r", "o", 0, "o", 0, 1);
  steps.push_back(St("r", "o", 1, "o", 1, 1));
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kFifo, ReplayViolationKind::kFifoMismatch,
                   "connector gpu 0 -> gpu 1 channel 0: transfer 0 is sent with cnt=2 by gpu 0 "
                   "tb 0 step 1 but received with cnt=1 by gpu 1 tb 0 step 2");
}

// ---------------------------------------------------------------- stage 3

TEST(MscclReplayTest, ReceiveBeforeSendDeadlockReportsCycle) {
  XAlgo a = RingAllgather(2, 1, false);
  for (auto& g : a.gpus) std::swap(g.tbs[0].steps[1], g.tbs[0].steps[2]);  // r before s
  const ReplayResult r = Replay(ToXml(a));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kDeadlock,
                   "deadlock: wait-for cycle: gpu 0 tb 0 step 1 (r, round 0) waits for data from "
                   "gpu 1 tb 0 on channel 0 -> gpu 1 tb 0 step 1 (r, round 0) waits for data "
                   "from gpu 0 tb 0 on channel 0 -> back to gpu 0 tb 0");
  ASSERT_EQ(r.violations[0].cycle.size(), 2u);
  EXPECT_EQ(r.violations[0].cycle[1].gpu, 1);
  EXPECT_EQ(r.violations[0].cycle[1].step, 1);
}

TEST(MscclReplayTest, ConnectorDepthDeadlockOnSimpleFixedByFifo8) {
  // Ring allgather forwarding 2-chunk steps: on Simple a connector holds 2 one-chunk
  // transfers, the s fills it and every rcs needs data in and a free slot out together.
  const std::string xml = ToXml(RingAllgather(4, 2, false));
  const ReplayResult r = Replay(xml);
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kDeadlock,
                   "waits for a free slot (2 transfers in flight)");
  ASSERT_EQ(r.violations.size(), 1u) << Dump(r);
  EXPECT_EQ(r.violations[0].cycle.size(), 4u);
  const ReplayResult deep = Replay(xml, MscclProfile::kExecutor, 8);
  EXPECT_TRUE(deep.ok) << Dump(deep);
  EXPECT_EQ(deep.fifo_depth, 8);
  // The same file on LL (depth 8) is accepted; one chunk per step is fine on Simple.
  EXPECT_TRUE(Replay(ToXml(RingAllgather(4, 2, false, "LL"))).ok);
  EXPECT_TRUE(Replay(ToXml(RingAllgather(4, 1, false))).ok);
  // --fifo 1 deadlocks even the one-chunk ring.
  ExpectRejectedAt(Replay(ToXml(RingAllgather(4, 1, false)), MscclProfile::kExecutor, 1),
                   ReplayStage::kExecute, ReplayViolationKind::kDeadlock, "free slot");
}

TEST(MscclReplayTest, CycleOfFlagWaitsDeadlocks) {
  // tb 0 starts only after tb 1's rrc, which waits for tb 0's rrc: a cycle of flag waits.
  XAlgo a = StarReduceScatter3();
  for (auto& g : a.gpus) {
    g.tbs[1].steps[1].hasdep = 1;
    g.tbs[0].steps[0].depid = 1;
    g.tbs[0].steps[0].deps = 1;
  }
  const ReplayResult r = Replay(ToXml(a));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kDeadlock, "wait-for cycle");
}

TEST(MscclReplayTest, DoubleCountedReductionRejectedAtStage3) {
  XAlgo a = Allreduce2();
  a.gpus[0].tbs[0].steps.insert(a.gpus[0].tbs[0].steps.begin() + 2, St("re", "i", 0, "o", 0));
  const ReplayResult r = Replay(ToXml(a));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kDoubleCount,
                   "gpu 0 tb 0 step 2 (re, round 0): reduces two values that both contain "
                   "(rank 0, chunk 0) (double counting)");
}

TEST(MscclReplayTest, MissingChunkRejectedAtStage3) {
  // gpu 0 sends its chunk straight from the input and never copies it to o[0].
  XAlgo a = RingAllgather(2, 1, false);
  auto& steps = a.gpus[0].tbs[0].steps;
  steps.erase(steps.begin());
  steps[0] = St("s", "i", 0, "o", 0);
  const ReplayResult r = Replay(ToXml(a));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kPostcondition,
                   "[outofplace] missing chunk: gpu 0 o[0] is never written (round 0)");
  EXPECT_EQ(r.violations_total, 2);  // rounds 0 and 1
}

TEST(MscclReplayTest, UnorderedReductionsIntoOneCellAreARace) {
  XAlgo a = StarReduceScatter3();
  for (auto& g : a.gpus) g.tbs[1].steps[1].depid = g.tbs[1].steps[1].deps = -1;
  const ReplayResult r = Replay(ToXml(a));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kRace, "o[0] is not ordered");
}

TEST(MscclReplayTest, SendOfUnwrittenCellWithoutDependencyIsARace) {
  // Broadcast where gpu 1 forwards from a second block that does not wait for the receive.
  XAlgo a = ChainBroadcast(3, 1);
  auto& g1 = a.gpus[1];
  g1.tbs[0].send = -1;
  g1.tbs[0].steps = {St("r", "o", 0, "o", 0)};
  testing::XTb fwd;
  fwd.id = 1;
  fwd.send = 2;
  fwd.steps = {St("s", "o", 0, "o", 0)};
  g1.tbs.push_back(fwd);
  const ReplayResult r = Replay(ToXml(a));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r, ReplayStage::kExecute, ReplayViolationKind::kRace) ||
              Has(r, ReplayStage::kExecute, ReplayViolationKind::kUninitializedRead))
      << Dump(r);
  // With the dependency (and hasdep) it is correct.
  g1.tbs[0].steps[0].hasdep = 1;
  g1.tbs[1].steps[0].depid = 0;
  g1.tbs[1].steps[0].deps = 0;
  const ReplayResult fixed = Replay(ToXml(a));
  EXPECT_TRUE(fixed.ok) << Dump(fixed);
}

TEST(MscclReplayTest, OrderingThroughAnotherGpuIsNotARace) {
  // Broadcast 0 -> 1 -> 2 where gpu 2 echoes the chunk back and gpu 1's second block writes
  // o[0] again: its write is ordered after tb 0's only through gpu 2 (send -> receive chain).
  XAlgo a = ChainBroadcast(3, 1);
  a.gpus[2].tbs[0].send = 1;
  a.gpus[2].tbs[0].steps = {St("rcs", "o", 0, "o", 0)};
  testing::XTb echo;
  echo.id = 1;
  echo.recv = 2;
  echo.steps = {St("r", "o", 0, "o", 0)};
  a.gpus[1].tbs.push_back(echo);
  const ReplayResult r = Replay(ToXml(a));
  EXPECT_TRUE(r.ok) << Dump(r);
  // The same second write without the chain (tb 1 copies from i) races with tb 0's receive.
  a.gpus[2].tbs[0].send = -1;
  a.gpus[2].tbs[0].steps = {St("r", "o", 0, "o", 0)};
  a.gpus[1].tbs[1].recv = -1;
  a.gpus[1].tbs[1].steps = {St("cpy", "o", 0, "o", 0)};
  ExpectRejectedAt(Replay(ToXml(a)), ReplayStage::kExecute, ReplayViolationKind::kRace,
                   "gpu 1 o[0] is not ordered");
}

// Broadcast from gpu 0 (1 chunk, out of place) in which gpu 1 writes o[0] twice, from two
// blocks with no dependency between them: tb 0 receives from gpu 0 and forwards to gpu 2;
// tb 1 receives from gpu 3. With `through_gpu1` the data reaches gpu 3 along 1 -> 2 -> 3, so
// tb 1's write is ordered after tb 0's, but only through other GPUs (gpu 2's forward waits for
// its receive on a flag of gpu 2). Otherwise gpu 3 gets it straight from gpu 0 and the two
// writes on gpu 1 race although both blocks lie downstream of gpu 0.
testing::XAlgo EchoBroadcast4(bool through_gpu1) {
  XAlgo a;
  a.coll = "broadcast";
  a.ngpus = 4;
  a.nchunksperloop = 1;
  for (int r = 0; r < 4; ++r) {
    testing::XGpu g;
    g.id = r;
    g.i_chunks = g.o_chunks = 1;
    a.gpus.push_back(g);
  }
  auto tb = [](int id, int send, int recv, std::vector<XStep> steps) {
    testing::XTb t;
    t.id = id;
    t.send = send;
    t.recv = recv;
    t.steps = std::move(steps);
    return t;
  };
  XStep cpy = St("cpy", "i", 0, "o", 0);
  cpy.hasdep = 1;
  XStep after_cpy = St("s", "o", 0, "o", 0);
  after_cpy.depid = 0;
  after_cpy.deps = 0;
  a.gpus[0].tbs = {tb(0, -1, -1, {cpy}), tb(1, 1, -1, {after_cpy})};
  if (through_gpu1) {
    XStep recv = St("r", "o", 0, "o", 0);
    recv.hasdep = 1;
    XStep fwd = St("s", "o", 0, "o", 0);
    fwd.depid = 0;
    fwd.deps = 0;
    a.gpus[1].tbs = {tb(0, 2, 0, {St("rcs", "o", 0, "o", 0)}),
                     tb(1, -1, 3, {St("r", "o", 0, "o", 0)})};
    a.gpus[2].tbs = {tb(0, -1, 1, {recv}), tb(1, 3, -1, {fwd})};
    a.gpus[3].tbs = {tb(0, 1, 2, {St("rcs", "o", 0, "o", 0)})};
  } else {
    a.gpus[0].tbs.push_back(tb(2, 3, -1, {after_cpy}));
    a.gpus[1].tbs = {tb(0, 2, 0, {St("rcs", "o", 0, "o", 0)}),
                     tb(1, -1, 3, {St("r", "o", 0, "o", 0)})};
    a.gpus[2].tbs = {tb(0, -1, 1, {St("r", "o", 0, "o", 0)})};
    a.gpus[3].tbs = {tb(0, 1, 0, {St("rcs", "o", 0, "o", 0)})};
  }
  return a;
}

TEST(MscclReplayTest, OrderingThroughTwoGpusAndTheirFlagIsNotARace) {
  // The two writes of gpu 1 o[0] are not ordered by anything on gpu 1 (the per-GPU clocks
  // alone would call it a race); the exact query finds the path 1 -> 2 (flag) -> 3 -> 1.
  const ReplayResult r = Replay(ToXml(EchoBroadcast4(true)));
  EXPECT_TRUE(r.ok) << Dump(r);
}

TEST(MscclReplayTest, WritesReachedFromOneRootOnDisjointPathsRace) {
  // Both blocks of gpu 1 are downstream of gpu 0's copy, but no path leads from tb 0's write
  // to tb 1's: the exact query must answer no (one race, in both rounds' first report).
  const ReplayResult r = Replay(ToXml(EchoBroadcast4(false)));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kRace,
                   "write of gpu 1 o[0] is not ordered with the access by gpu 1 tb ");
  EXPECT_EQ(r.violations_total, 1) << Dump(r);
}

TEST(MscclReplayTest, OrderingRelayedByANopIsNotARace) {
  // Broadcast 0 -> 1 -> 2 -> 1 (gpu 2 echoes into gpu 1's scratch). On gpu 1, tb 3 overwrites
  // o[0] from the echo; its order after tb 0's write passes through gpu 2 and then through a
  // nop of tb 2 that only waits for tb 1's receive and publishes. The nop's satisfied
  // dependency must count as an event of tb 2, or the relayed knowledge is lost.
  XAlgo a;
  a.coll = "broadcast";
  a.ngpus = 3;
  a.nchunksperloop = 1;
  for (int r = 0; r < 3; ++r) {
    testing::XGpu g;
    g.id = r;
    g.i_chunks = g.o_chunks = 1;
    g.s_chunks = r == 1 ? 1 : 0;
    a.gpus.push_back(g);
  }
  auto tb = [](int id, int send, int recv, std::vector<XStep> steps) {
    testing::XTb t;
    t.id = id;
    t.send = send;
    t.recv = recv;
    t.steps = std::move(steps);
    return t;
  };
  auto with = [](XStep st, int depid, int deps, int hasdep) {
    st.depid = depid;
    st.deps = deps;
    st.hasdep = hasdep;
    return st;
  };
  a.gpus[0].tbs = {tb(0, -1, -1, {with(St("cpy", "i", 0, "o", 0), -1, -1, 1)}),
                   tb(1, 1, -1, {with(St("s", "o", 0, "o", 0), 0, 0, 0)})};
  a.gpus[1].tbs = {tb(0, 2, 0, {St("rcs", "o", 0, "o", 0)}),
                   tb(1, -1, 2, {with(St("r", "s", 0, "s", 0), -1, -1, 1)}),
                   tb(2, -1, -1, {with(Nop(), 1, 0, 1)}),
                   tb(3, -1, -1, {with(St("cpy", "s", 0, "o", 0), 2, 0, 0)})};
  a.gpus[2].tbs = {tb(0, 1, 1, {St("rcs", "o", 0, "o", 0)})};
  const ReplayResult r = Replay(ToXml(a));
  EXPECT_TRUE(r.ok) << Dump(r);
  // Without the nop's dependency tb 3 no longer waits for the echo: a race on gpu 1.
  a.gpus[1].tbs[2].steps[0].depid = a.gpus[1].tbs[2].steps[0].deps = -1;
  const ReplayResult bad = Replay(ToXml(a));
  EXPECT_TRUE(Has(bad, ReplayStage::kExecute, ReplayViolationKind::kRace, "gpu 1 ")) << Dump(bad);
}

// Its speed is measured by bench/export_bench.cc (docs/performance.md), not timed here: wall
// time in a test measures the machine's load as much as the code.
TEST(MscclReplayTest, SixteenThousandBlocksReplayInLittleMemory) {
  // 128 GPUs x 127 blocks = 16,256 blocks. Clocks over all blocks need 16,256^2 entries
  // (> 1 GB, more than the sanitizer build's test may allocate without a report); clocks over
  // the 127 blocks of each GPU (msccl_execution.h) need 8 MB.
  XAlgo a = testing::DirectAllgather(128);
  a.nchannels = 4;  // at most 32 blocks of one direction per channel
  for (auto& g : a.gpus) {
    for (auto& t : g.tbs) t.chan = (g.id + t.send) % 4;
  }
  const ReplayResult r = Replay(ToXml(a));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.bytes_per_pair.size(), 128u * 127u);
}

TEST(MscclReplayTest, OutOfPlaceWriteToInputRejected) {
  XAlgo a = Allreduce2();
  a.inplace = 0;
  a.gpus[1].tbs[0].steps[1].dstbuf = "i";  // rrc into i[1]: legal in place only
  a.gpus[1].tbs[0].steps[2].srcbuf = "i";
  a.gpus[1].tbs[0].steps.push_back(St("cpy", "i", 1, "o", 1));
  const ReplayResult r = Replay(ToXml(a));
  ExpectRejectedAt(r, ReplayStage::kExecute, ReplayViolationKind::kInputWritten,
                   "gpu 1 tb 0 step 1 (rrc, round 0): writes gpu 1 i[1]");
  a.inplace = 1;
  a.outofplace = 0;
  EXPECT_TRUE(Replay(ToXml(a)).ok) << Dump(Replay(ToXml(a)));
}

TEST(MscclReplayTest, SixtyFourGpuRingAboveFourThousandElementsIsAccepted) {
  // 64 GPUs x 64 steps = 4225 elements in the file, 130 counted per rank: MAX_NODES is a
  // limit per loading rank, so the runtime loads it.
  const ReplayResult r = Replay(ToXml(RingAllgather(64, 1, true)));
  ASSERT_TRUE(r.ok) << Dump(r);
}

TEST(MscclReplayTest, ThousandBlocksAreAccepted) {
  // 32 GPUs x 31 blocks = 992 blocks, 1984 steps.
  const ReplayResult r = Replay(ToXml(testing::DirectAllgather(32)));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.bytes_per_pair.size(), 32u * 31u);
}

TEST(MscclReplayTest, CheckerSizeLimitIsAViolation) {
  XAlgo a = RingAllgather(2, 1, false);
  std::string xml = ToXml(a);
  xml = Replace(xml, "nchunksperloop=\"2\" ngpus=\"2\"", "nchunksperloop=\"2048\" ngpus=\"1024\"");
  ExpectRejectedAt(Replay(xml), ReplayStage::kSchema, ReplayViolationKind::kLimit,
                   "ngpus*nchunksperloop too large for this checker (limit 1048576)");
  // A 1,024-GPU allgather with one chunk per rank (the exported fattree(16) file) is within
  // the limit: this header is rejected only for its missing <gpu>s.
  const ReplayResult r = Replay(Replace(ToXml(a), "nchunksperloop=\"2\" ngpus=\"2\"",
                                        "nchunksperloop=\"1024\" ngpus=\"1024\""));
  EXPECT_FALSE(Has(r, ReplayStage::kSchema, ReplayViolationKind::kLimit)) << Dump(r);
  EXPECT_TRUE(Has(r, ReplayStage::kSchema, ReplayViolationKind::kStructure)) << Dump(r);
}

TEST(MscclReplayTest, SetElementBudgetIsAViolation) {
  // Allreduce2 builds 2 x 2 elements per mode in its rrc steps: a budget of 3 stops it.
  ReplayOptions o;
  o.max_set_elements = 3;
  ExpectRejectedAt(ReplayMscclXml(ToXml(Allreduce2()), "t.xml", o), ReplayStage::kExecute,
                   ReplayViolationKind::kLimit, "[inplace] the contribution sets grew beyond 3");
  o.max_set_elements = 8;  // 2 rounds x 2 gpus x 2 elements per mode
  EXPECT_TRUE(ReplayMscclXml(ToXml(Allreduce2()), "t.xml", o).ok);
}

TEST(MscclReplayTest, BadOptionsThrow) {
  ReplayOptions o;
  o.iterations = 0;
  EXPECT_THROW(ReplayMscclXml("", "t", o), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// The runtimes keep depid in an int8_t and srcoff, dstoff, deps in int16_t (microsoft/msccl
// src/include/msccl.h; Azure/msccl-executor-nccl and ROCm/rccl
// src/include/msccl/msccl_struct.h): a wider value loads truncated, without a message, so the
// replay rejects it in every profile. 127 and 32767 fit (and are judged on their merits).
TEST(MscclReplayFieldWidths, ValuesOutsideTheRuntimesFieldsAreRejectedInEveryProfile) {
  for (MscclProfile profile :
       {MscclProfile::kExecutor, MscclProfile::kRccl, MscclProfile::kLegacy}) {
    XAlgo a = RingAllgather(2, 1, false);
    if (profile == MscclProfile::kLegacy) a.legacy = true;
    const std::string xml = ToXml(a);
    ASSERT_TRUE(Replay(xml, profile).ok) << Dump(Replay(xml, profile));
    const std::string step =
        "<step s=\"1\" type=\"s\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" "
        "dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\"";
    auto with = [&](const std::string& fields) {
      return Replay(Replace(xml, step, "<step s=\"1\" type=\"s\" srcbuf=\"o\" " + fields), profile);
    };
    ExpectRejectedAt(
        with("srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"200\" deps=\"0\""),
        ReplayStage::kSchema, ReplayViolationKind::kLimit,
        "depid=200 does not fit the runtime's int8_t dependentBid (at most 127)");
    ExpectRejectedAt(
        with("srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"128\" deps=\"0\""),
        ReplayStage::kSchema, ReplayViolationKind::kLimit, "depid=128");
    // 127 fits the field: it is rejected only because block 127 does not exist.
    ExpectRejectedAt(
        with("srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"127\" deps=\"0\""),
        ReplayStage::kSchema, ReplayViolationKind::kDependency, "depends on tb 127");
    ExpectRejectedAt(
        with("srcoff=\"32768\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\""),
        ReplayStage::kSchema, ReplayViolationKind::kLimit,
        "srcoff=32768 does not fit the runtime's int16_t field (at most 32767)");
    ExpectRejectedAt(
        with("srcoff=\"0\" dstbuf=\"o\" dstoff=\"70000\" cnt=\"1\" depid=\"-1\" deps=\"-1\""),
        ReplayStage::kSchema, ReplayViolationKind::kLimit, "dstoff=70000");
    ExpectRejectedAt(
        with("srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"0\" deps=\"40000\""),
        ReplayStage::kSchema, ReplayViolationKind::kLimit, "deps=40000");
    // 32767 fits: rejected as outside the 2-chunk buffer, not as a width.
    const ReplayResult in_field =
        with("srcoff=\"32767\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\"");
    EXPECT_FALSE(Has(in_field, ReplayStage::kSchema, ReplayViolationKind::kLimit))
        << Dump(in_field);
    EXPECT_TRUE(Has(in_field, ReplayStage::kSchema, ReplayViolationKind::kBadValue,
                    "is outside the output buffer"))
        << Dump(in_field);
  }
}

// microsoft/msccl src/graph/topo.cc reads minBytes/maxBytes (camel case, optional, default
// max 2^27) on <algo>; the lower-case names belong to a config file's <load> element, and a
// file selected for minBytes <= bytes < maxBytes is never selected when they are equal.
TEST(MscclReplayLegacyByteRange, TheRuntimesSpellingAndRangeRules) {
  XAlgo a = RingAllgather(2, 1, false);
  a.legacy = true;
  const std::string xml = ToXml(a);
  const std::string range = " minBytes=\"0\" maxBytes=\"1099511627776\">";
  EXPECT_TRUE(Replay(xml, MscclProfile::kLegacy).ok);
  ExpectRejectedAt(Replay(Replace(xml, range, " minbytes=\"0\" maxbytes=\"1099511627776\">"),
                          MscclProfile::kLegacy),
                   ReplayStage::kSchema, ReplayViolationKind::kBadValue,
                   "minbytes/maxbytes (lower case) are ignored by the legacy runtime on <algo>");
  ExpectRejectedAt(
      Replay(Replace(xml, range, " minBytes=\"0\" maxBytes=\"0\">"), MscclProfile::kLegacy),
      ReplayStage::kSchema, ReplayViolationKind::kBadValue, "never selected");
  ExpectRejectedAt(
      Replay(Replace(xml, range, " minBytes=\"4096\" maxBytes=\"1024\">"), MscclProfile::kLegacy),
      ReplayStage::kSchema, ReplayViolationKind::kBadValue, "minBytes 4096 > maxBytes 1024");
  const ReplayResult no_range = Replay(Replace(xml, range, ">"), MscclProfile::kLegacy);
  EXPECT_TRUE(no_range.ok) << Dump(no_range);
  ASSERT_FALSE(no_range.notes.empty());
  EXPECT_NE(no_range.notes.back().find("only below 2^27 bytes"), std::string::npos);
  // The executor reads maxBytes 0 as no bound.
  EXPECT_TRUE(Replay(ToXml(RingAllgather(2, 1, false))).ok);
}

}  // namespace
}  // namespace collsynth
