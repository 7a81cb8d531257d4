// The "flows" schedule reader and writer (docs/formats.md "Flows schedule JSON"): a written
// schedule reads back as the same schedule, and every malformed item is an InputError naming it.
#include "schedules/flow_schedule.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "core/json_io.h"

namespace collsynth {
namespace {

Topology Star() {
  Topology g("star");
  const int a = g.AddCompute("a"), b = g.AddCompute("b"), c = g.AddCompute("c");
  const int w = g.AddSwitch("w");
  for (int v : {a, b, c}) {
    g.AddLink(v, w, 1);
    g.AddLink(w, v, 1);
  }
  g.AddLink(a, b, 1);
  return g;
}

std::string Write(const FlowSchedule& s, const Topology& g) {
  std::ostringstream out;
  WriteFlowSchedule(out, s, g);
  return out.str();
}

FlowSchedule Read(const std::string& text, const Topology& g) {
  return FlowScheduleFromJson(ParseJsonText(text, "f.json"), g, "f.json");
}

TEST(FlowSchedule, WrittenScheduleReadsBackTheSame) {
  const Topology g = Star();
  FlowSchedule s;
  s.uniform = false;
  s.relay = false;
  s.demand.entries = {{0, 1, Rational(5, 2)}, {2, 0, Rational(1)}};
  s.time = Rational(7, 3);
  s.flows = {{0, 1, {{{0, 1}, Rational(2, 3)}, {{0, 3, 1}, Rational(1, 3)}}},
             {2, 0, {{{2, 3, 0}, Rational(1)}}}};
  const std::string text = Write(s, g);
  const FlowSchedule r = Read(text, g);
  EXPECT_EQ(r.collective, Collective::kAlltoall);
  EXPECT_FALSE(r.relay);
  EXPECT_FALSE(r.uniform);
  ASSERT_EQ(r.demand.entries.size(), 2u);
  EXPECT_EQ(r.demand.entries[0].amount, Rational(5, 2));
  EXPECT_EQ(r.demand.entries[1].from, 2);
  EXPECT_EQ(r.time, Rational(7, 3));
  ASSERT_EQ(r.flows.size(), 2u);
  ASSERT_EQ(r.flows[0].paths.size(), 2u);
  EXPECT_EQ(r.flows[0].paths[1].nodes, (std::vector<int>{0, 3, 1}));
  EXPECT_EQ(r.flows[0].paths[1].share, Rational(1, 3));
  EXPECT_EQ(r.flows[1].to, 0);
  EXPECT_EQ(Write(r, g), text);  // and writes the same bytes

  s.uniform = true;
  s.demand = UniformDemand(g);
  const FlowSchedule u = Read(Write(s, g), g);
  EXPECT_TRUE(u.uniform);
  EXPECT_EQ(u.demand.entries.size(), 6u);  // every ordered pair of a, b, c
  EXPECT_NE(Write(s, g).find("\"demand\":\"uniform\""), std::string::npos);
}

std::string Doc(const std::string& flows, const std::string& rest = "\"time\": \"1\"") {
  return R"({"format": "flows", "collective": "alltoall", "demand": "uniform", )" + rest +
         R"(, "flows": )" + flows + "}";
}

// The message the reader gives for `text` ("" when it accepts it).
std::string ErrorOf(const std::string& text) {
  try {
    Read(text, Star());
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return "";
}

TEST(FlowSchedule, BadItemsAreNamed) {
  const std::string ok =
      R"([{"from": "a", "to": "b", "paths": [{"path": ["a", "b"], "share": 1}]}])";
  EXPECT_EQ(ErrorOf(Doc(ok)), "");
  EXPECT_EQ(ErrorOf(Doc(R"([{"from": "a", "to": "b", "paths": [{"path": ["a", "w"], "share": 1},
                            {"path": ["a", "w", "x"], "share": 1}]}])")),
            "f.json: flows[0].paths[1].path[2]: unknown node 'x'");
  EXPECT_EQ(ErrorOf(Doc(R"([{"from": "q", "to": "b", "paths": []}])")),
            "f.json: flows[0].from: unknown node 'q'");
  // a float is not exact
  EXPECT_EQ(
      ErrorOf(Doc(R"([{"from": "a", "to": "b", "paths": [{"path": ["a", "b"], "share": 0.5}]}])"))
          .rfind("f.json: flows[0].paths[0].share: ", 0),
      0u);
  EXPECT_EQ(ErrorOf(Doc(R"([{"from": "a", "to": "b", "paths": [{"path": ["a", "b"]}]}])")),
            "f.json: flows[0].paths[0]: missing field 'share'");
  EXPECT_EQ(ErrorOf(Doc(R"([{"from": "a", "to": "b", "paths": [], "extra": 1}])")),
            "f.json: flows[0].extra: unknown key (expected from, to, paths)");
  EXPECT_EQ(ErrorOf(Doc(R"([{"from": "a", "to": "b", "paths": [{"path": "a", "share": 1}]}])")),
            "f.json: flows[0].paths[0].path: must be an array of node names");
  EXPECT_EQ(ErrorOf(Doc(R"([{"from": "a", "to": "b", "paths": [{"path": ["a", "b", "a", "b", "a"],
                            "share": 1}]}])")),
            "f.json: flows[0].paths[0].path: has 5 nodes, more than the topology's 4");
  EXPECT_EQ(ErrorOf(Doc("{}")), "f.json: flows: must be an array of {from, to, paths}");
  EXPECT_EQ(ErrorOf(Doc(ok, R"("time": ")" + std::string(101, '7') + "\"")),
            "f.json: time: numerator and denominator must have at most 100 digits");
  EXPECT_EQ(ErrorOf(Doc(ok, R"("tim": "1")")), "f.json: top level: missing field 'time'");
  EXPECT_EQ(ErrorOf(R"({"format": "flows", "collective": "allgather", "demand": "uniform",
                        "time": 1, "flows": []})"),
            "f.json: collective: must be \"alltoall\" (the only flows collective)");
  EXPECT_EQ(ErrorOf(R"({"format": "flows", "collective": "alltoall", "demand": "skewed",
                        "time": 1, "flows": []})"),
            "f.json: demand: must be \"uniform\" or an array of {from, to, amount}");
  EXPECT_EQ(ErrorOf(R"({"format": "flows", "collective": "alltoall", "relay": 1,
                        "demand": "uniform", "time": 1, "flows": []})"),
            "f.json: relay: must be true or false");
  EXPECT_EQ(ErrorOf(R"({"format": "flows", "collective": "alltoall", "time": 1, "flows": [],
                        "demand": [{"from": "a", "to": "w", "amount": 1}]})"),
            "f.json: demand[0].to: 'w' is a switch, not a compute node");
}

// The optional dual certificate "lengths": written sparse (positive lengths only, in link id
// order), read back per link id, the same bytes again; every bad entry named.
TEST(FlowSchedule, LengthsRoundTripAndBadEntriesAreNamed) {
  const Topology g = Star();
  FlowSchedule s;
  s.demand = UniformDemand(g);
  s.time = 1;
  s.flows = {{0, 1, {{{0, 1}, Rational(1)}}}};
  std::vector<Rational> length(g.num_links());
  length[*g.FindLink(3, 2)] = Rational(2, 3);
  length[*g.FindLink(0, 1)] = 5;
  s.lengths = length;
  const std::string text = Write(s, g);
  EXPECT_NE(text.find(R"("lengths":[)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"({"from":"w","to":"c","length":"2/3"})"), std::string::npos) << text;
  const FlowSchedule r = Read(text, g);
  ASSERT_TRUE(r.lengths.has_value());
  EXPECT_EQ(*r.lengths, length);
  EXPECT_EQ(Write(r, g), text);
  s.lengths.reset();
  EXPECT_FALSE(Read(Write(s, g), g).lengths.has_value());

  const std::string ok =
      R"([{"from": "a", "to": "b", "paths": [{"path": ["a", "b"], "share": 1}]}])";
  auto with = [&](const std::string& lengths) {
    return ErrorOf(Doc(ok, R"("time": "1", "lengths": )" + lengths));
  };
  EXPECT_EQ(with(R"([{"from": "a", "to": "w", "length": "1/2"}])"), "");
  EXPECT_EQ(with("{}"), "f.json: lengths: must be an array of {from, to, length}");
  EXPECT_EQ(with(R"([{"from": "b", "to": "a", "length": 1}])"),
            "f.json: lengths[0]: no link b->a in the topology");
  EXPECT_EQ(
      with(R"([{"from": "a", "to": "w", "length": 1}, {"from": "a", "to": "w", "length": 2}])"),
      "f.json: lengths[1]: link a->w given twice");
  EXPECT_EQ(with(R"([{"from": "a", "to": "w", "len": 1}])"),
            "f.json: lengths[0].len: unknown key (expected from, to, length)");
  EXPECT_EQ(with(R"([{"from": "a", "to": "w"}])"), "f.json: lengths[0]: missing field 'length'");
  EXPECT_EQ(with(R"([{"from": "a", "to": "z", "length": 1}])"),
            "f.json: lengths[0].to: unknown node 'z'");
  EXPECT_EQ(
      with(R"([{"from": "a", "to": "w", "length": 0.5}])").rfind("f.json: lengths[0].length: ", 0),
      0u);
}

}  // namespace
}  // namespace collsynth
