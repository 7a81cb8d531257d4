// The schedule writers' bytes (docs/formats.md; docs/performance.md "Writers: one streaming JSON
// writer": one writer, core/json_writer.h, for every format, with the bytes of the hand-written
// writers it replaced):
//   "pipeline"       PipelineScheduleToJsonText == nlohmann's dump() of PipelineScheduleToJson;
//   "steps-compact"  CompactStepScheduleToText == dump() of the same document as an
//                    insertion-ordered tree, plus a line break before each step and link record;
//   "steps" (bfb)    StepsJsonTextFromCompact: the same, a line break before each send;
//   "steps"          StepScheduleToJsonText == dump() of StepScheduleToJson (baseline,
//                    schedule expand, bfb without a compact form).
// Edge cases: empty schedules, names that need escapes, unicode, big integers beyond int64,
// producer metadata whose keys sort among the contract's.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "fixtures/json_tree_writers.h"
#include "fixtures/schedule_fixtures.h"
#include "graphs/topology.h"
#include "graphs/topology_io.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Names that need escapes or are not ASCII; "s/w" is a switch.
Topology OddNames() {
  Topology g("we\"ird é");
  for (const char* name : {"a\"b", "c\\d", "é→ñ", "日本", "x y", "\xF0\x9F\x98\x80"})
    g.AddCompute(name);
  const int sw = g.AddSwitch("s/w");
  for (int v = 0; v < 6; ++v) g.AddDuplexLink(v, sw, Rational(3, 7));
  return g;
}

// Producer metadata whose keys sort before, between and after the contract's keys.
json OddExtra() {
  return {{"Upper", true},
          {"aaa", json::array({1, "x\n", nullptr})},
          {"format_note", "é \"quoted\" \\ \x01"},
          {"sends_extra", {{"b", 2}, {"a", {{"deep", json::array()}}}}},
          {"zzz", -3},
          {"日本", "unicode key"}};
}

BigInt Big(const char* digits) { return BigInt(digits); }

// ---- pipeline ---------------------------------------------------------------------------

PipelineSchedule OddPipeline(const Topology& g) {
  const int sw = *g.FindNode("s/w");
  PipelineSchedule s;
  s.collective = Collective::kBroadcast;
  s.root = 0;
  s.ratio = Rational(BigInt(1), Big("123456789012345678901234567890"));
  s.U = Rational(7, 3);
  s.k = Big("123456789012345678901234567890");
  for (int r = 0; r < 2; ++r) {
    PipelineTree t;
    t.root = 0;
    t.multiplicity =
        r == 0 ? BigInt(std::numeric_limits<std::int64_t>::max()) : Big("9223372036854775808");
    for (int v = 1; v < 6; ++v) {
      t.edges.push_back({0, v, {{{0, sw, v}, BigInt(v)}, {{0, v}, Big("99999999999999999999")}}});
    }
    s.trees.push_back(std::move(t));
  }
  s.bottleneck_cut = std::vector<int>{0, 1, sw};
  s.fixed_k_cut = std::vector<int>{5};
  s.extra = OddExtra();
  s.extra["trees_total"] = 2;
  return s;
}

TEST(PipelineWriterTest, EqualsTreeDump) {
  const Topology g = OddNames();
  std::vector<std::pair<Topology, PipelineSchedule>> cases;
  PipelineSchedule empty;  // no trees at all
  empty.ratio = 0;
  empty.U = 1;
  empty.k = 1;
  cases.push_back({g, empty});
  cases.push_back({testing::TwoCluster(), testing::TwoClusterPipeline()});
  cases.push_back({g, OddPipeline(g)});
  PipelineSchedule rs = OddPipeline(g);
  rs.collective = Collective::kReduceScatter;
  rs.root.reset();
  PipelineSchedule ag = OddPipeline(g);
  ag.collective = Collective::kAllgather;
  ag.root.reset();
  ag.extra = json::object();
  PipelineSchedule ar;  // U and k left 0: omitted at the top level
  ar.collective = Collective::kAllreduce;
  ar.ratio = Rational(5, 2);
  ar.phases = {rs, ag};
  ar.single_node_cuts = std::vector<std::vector<int>>{{0}, {1, 6}, {2}, {3}, {4}, {5}};
  ar.extra = OddExtra();
  cases.push_back({g, ar});
  ar.U = 3;
  ar.k = 2;
  ar.phases[0].trees.clear();
  cases.push_back({g, ar});
  for (const auto& [topology, s] : cases) {
    const std::string dump = PipelineScheduleToJson(s, topology).dump();
    EXPECT_EQ(PipelineScheduleToJsonText(s, topology), dump);
    std::ostringstream streamed;  // what `collsynth pipeline` writes to the file
    WritePipelineScheduleJson(s, topology, streamed);
    EXPECT_EQ(streamed.str(), dump);
  }
}

// The replaced writer dumped the tree with a placeholder string in place of "trees" and
// spliced the trees in at the first occurrence of that string ("\u001collsynth-trees-0\u0001"
// in the text; its C++ literal "\x01collsynth..." read \x01c as one escape): producer
// metadata holding the same string (e.g. read from a file, then written) received the
// trees, and "trees" kept the placeholder.
TEST(PipelineWriterTest, MetadataThatLooksLikeTheOldPlaceholder) {
  const Topology g = testing::TwoCluster();
  PipelineSchedule s = testing::TwoClusterPipeline();
  s.extra["a_note"] =
      "\x1c"
      "ollsynth-trees-0\x01";
  EXPECT_EQ(PipelineScheduleToJsonText(s, g), PipelineScheduleToJson(s, g).dump());
}

// ---- steps-compact and the "steps" text of a compact schedule ----------------------------

CompactStepSchedule OddCompact() {
  CompactStepSchedule c;
  c.collective = Collective::kAllreduce;
  c.rs_steps = 1;
  c.claimed_tl = 2;
  c.claimed_tb = Rational(Big("123456789012345678901234567891"), BigInt(7));
  c.extra = OddExtra();
  CompactStep one;
  one.step = 1;
  one.denominator = 6;
  one.AddRecord(0, 6);
  one.AddSend(0);
  one.AddInterval(0, 3);
  one.AddInterval(4, 6);
  one.AddSend(1);
  one.AddInterval(0, 6);
  one.AddRecord(6, 5);
  one.AddSend(5);
  one.AddInterval(2, 4);
  c.steps.push_back(one);
  CompactStep two;
  two.step = 2;
  two.denominator = std::numeric_limits<std::int64_t>::max();
  two.AddRecord(5, 6);
  two.AddSend(4);
  two.AddInterval(0, std::numeric_limits<std::int64_t>::max());
  c.steps.push_back(two);
  return c;
}

// The header both compact writers share: metadata first (sorted), then the contract's keys.
ordered_json Header(const CompactStepSchedule& c, const Topology& g, const char* format) {
  ordered_json j = ordered_json::object();
  for (auto it = c.extra.begin(); it != c.extra.end(); ++it) {
    const std::string& k = it.key();
    if (k == "format" || k == "collective" || k == "root" || k == "rs_steps" || k == "tl" ||
        k == "tb" || k == "nodes" || k == "steps" || k == "sends")
      continue;
    j[k] = ordered_json::parse(it.value().dump());
  }
  j["format"] = format;
  j["collective"] = CollectiveName(c.collective);
  if (c.root) j["root"] = g.node(*c.root).name;
  if (c.rs_steps) j["rs_steps"] = *c.rs_steps;
  if (c.claimed_tl) j["tl"] = *c.claimed_tl;
  if (c.claimed_tb) j["tb"] = ToString(*c.claimed_tb);
  return j;
}

std::string CompactTreeDump(const CompactStepSchedule& c, const Topology& g) {
  ordered_json j = Header(c, g, "steps-compact");
  ordered_json& nodes = j["nodes"] = ordered_json::array();
  for (int v = 0; v < g.num_nodes(); ++v) nodes.push_back(g.node(v).name);
  ordered_json& steps = j["steps"] = ordered_json::array();
  for (const CompactStep& cs : c.steps) {
    ordered_json links = ordered_json::array();
    for (std::size_t r = 0; r + 1 < cs.record_begin.size(); ++r) {
      ordered_json flat = ordered_json::array();
      for (auto i = cs.record_begin[r]; i < cs.record_begin[r + 1]; ++i) {
        flat.push_back(cs.source[i]);
        flat.push_back(cs.interval_begin[i + 1] - cs.interval_begin[i]);
        for (auto q = cs.interval_begin[i]; q < cs.interval_begin[i + 1]; ++q) {
          flat.push_back(cs.lo[q]);
          flat.push_back(cs.hi[q]);
        }
      }
      links.push_back({cs.from[r], cs.to[r], std::move(flat)});
    }
    steps.push_back({{"step", cs.step}, {"den", cs.denominator}, {"links", std::move(links)}});
  }
  return j.dump();
}

std::string StepsTreeDump(const CompactStepSchedule& c, const Topology& g) {
  ordered_json j = Header(c, g, "steps");
  ordered_json& sends = j["sends"] = ordered_json::array();
  for (const CompactStep& cs : c.steps) {
    for (std::size_t r = 0; r + 1 < cs.record_begin.size(); ++r) {
      for (auto i = cs.record_begin[r]; i < cs.record_begin[r + 1]; ++i) {
        ordered_json chunk = ordered_json::array();
        for (auto q = cs.interval_begin[i]; q < cs.interval_begin[i + 1]; ++q)
          chunk.push_back({ToString(Rational(cs.lo[q], cs.denominator)),
                           ToString(Rational(cs.hi[q], cs.denominator))});
        sends.push_back({{"source", g.node(cs.source[i]).name},
                         {"chunk", std::move(chunk)},
                         {"from", g.node(cs.from[r]).name},
                         {"to", g.node(cs.to[r]).name},
                         {"step", cs.step}});
      }
    }
  }
  return j.dump();
}

// Every '\n' of the compact writers is a line break between elements (strings escape theirs).
std::string Unbroken(std::string s) {
  EXPECT_EQ(s.back(), '\n');
  s.erase(std::remove(s.begin(), s.end(), '\n'), s.end());
  return s;
}

TEST(CompactWritersTest, EqualTreeDumpPlusLineBreaks) {
  const Topology g = OddNames();
  const CompactStepSchedule empty;
  const CompactStepSchedule odd = OddCompact();
  for (const CompactStepSchedule* c : {&empty, &odd}) {
    EXPECT_EQ(Unbroken(CompactStepScheduleToText(*c, g)), CompactTreeDump(*c, g));
    EXPECT_EQ(Unbroken(StepsJsonTextFromCompact(*c, g)), StepsTreeDump(*c, g));
  }
  // One line break before each step and each link record, one at the end.
  const CompactStepSchedule k22 = *CompactFromSteps(testing::K22Figure1());
  std::size_t lines = 1;
  for (const CompactStep& cs : k22.steps) lines += cs.record_begin.size();  // records + 1
  const std::string text = CompactStepScheduleToText(k22, testing::K22());
  EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), lines);
}

TEST(CompactWritersTest, ExactBytes) {
  Topology g("t");
  g.AddCompute("a\"b");
  g.AddCompute("é");
  g.AddLink(0, 1, Rational(1));
  CompactStepSchedule c;
  c.claimed_tb = Rational(1, 2);
  c.extra = {{"zz", 1}, {"a", "x"}};
  CompactStep s;
  s.step = 1;
  s.denominator = 4;
  s.AddRecord(0, 1);
  s.AddSend(0);
  s.AddInterval(0, 2);
  s.AddInterval(3, 4);
  s.AddSend(1);
  s.AddInterval(0, 4);
  c.steps.push_back(s);
  EXPECT_EQ(CompactStepScheduleToText(c, g),
            "{\"a\":\"x\",\"zz\":1,\"format\":\"steps-compact\",\"collective\":\"allgather\","
            "\"tb\":\"1/2\","
            "\"nodes\":[\"a\\\"b\",\"é\"],\"steps\":[\n{\"step\":1,\"den\":4,\"links\":[\n[0,1,[0,"
            "2,0,2,3,4,1,1,0,4]]]}]}\n");
  EXPECT_EQ(StepsJsonTextFromCompact(c, g),
            "{\"a\":\"x\",\"zz\":1,\"format\":\"steps\",\"collective\":\"allgather\",\"tb\":\"1/"
            "2\",\"sends\":[\n"
            "{\"source\":\"a\\\"b\",\"chunk\":[[\"0\",\"1/2\"],[\"3/"
            "4\",\"1\"]],\"from\":\"a\\\"b\",\"to\":\"é\",\"step\":1},\n"
            "{\"source\":\"é\",\"chunk\":[[\"0\",\"1\"]],\"from\":\"a\\\"b\",\"to\":\"é\",\"step\":"
            "1}]}\n");
  const CompactStepSchedule none;
  EXPECT_EQ(CompactStepScheduleToText(none, g),
            "{\"format\":\"steps-compact\",\"collective\":\"allgather\",\"nodes\":[\"a\\\"b\","
            "\"é\"],\"steps\":[]}\n");
  EXPECT_EQ(StepsJsonTextFromCompact(none, g),
            "{\"format\":\"steps\",\"collective\":\"allgather\",\"sends\":[]}\n");
}

// ---- steps (StepSchedule) ---------------------------------------------------------------

TEST(StepsWriterTest, EqualsTreeDump) {
  const Topology g = OddNames();
  std::vector<std::pair<Topology, StepSchedule>> cases;
  cases.push_back({g, StepSchedule()});  // no sends
  StepSchedule claims = testing::K22Figure1();
  claims.claimed_tl = 2;
  claims.claimed_tb = Rational(3, 2);
  cases.push_back({testing::K22(), claims});
  cases.push_back({testing::Hypercube(4), testing::HypercubeBfb(4)});
  StepSchedule odd;
  odd.collective = Collective::kBroadcast;
  odd.root = 3;
  odd.rs_steps = 0;
  odd.claimed_tl = std::numeric_limits<int>::max();
  odd.claimed_tb = Rational(Big("123456789012345678901234567891"), Big("98765432109876543210"));
  odd.extra = OddExtra();
  odd.sends.push_back(testing::Send(0, {testing::Part(0, 3), testing::Part(2, 3)}, 0, 6, 1));
  odd.sends.push_back(testing::Send(
      5, {{Rational(1, 7), Rational(Big("99999999999999999999"), Big("100000000000000000000"))}}, 6,
      4, std::numeric_limits<int>::min()));
  cases.push_back({g, odd});
  for (const auto& [topology, s] : cases) {
    EXPECT_EQ(StepScheduleToJsonText(s, topology), StepScheduleToJson(s, topology).dump());
  }
}

}  // namespace
}  // namespace collsynth
