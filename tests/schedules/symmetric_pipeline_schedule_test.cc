// Tests of the "pipeline-symmetric" format (schedules/symmetric_pipeline_schedule.h,
// docs/formats.md): JSON round trip, every reader error naming its item, the group elements, and
// the expansion on the 3x3 torus (translations) against a plain schedule expanded by hand and the
// plain checker; case 2's words (round trip, the same expansion as exponents, reader errors).
#include "schedules/symmetric_pipeline_schedule.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/input_error.h"
#include "graphs/generators/seed000_generators.h"
#include "graphs/topology_io.h"
#include "proofs_check/pipeline_checker.h"
#include "schedules/schedule_file.h"

namespace collsynth {
namespace {

using nlohmann::json;

std::string T(int i, int j) { return "t" + std::to_string(i) + "_" + std::to_string(j); }

// Torus(3,3): node t{i}_{j} has id 3i + j; its generators are (i, j) -> (i+1, j) and
// (i, j) -> (i, j+1) (graphs/generators), both of order 3.
Topology Torus33() { return Torus({3, 3}); }

json Edge(const std::string& from, const std::string& to) {
  return {{"from", from},
          {"to", to},
          {"routes", json::array({{{"path", json::array({from, to})}, {"multiplicity", 1}}})}};
}

// The representative's tree at t0_0, translated by (a, b): t0_0 sends to its four neighbours,
// t1_0 and t2_0 pass on along their rows. Per direction the tree uses 3, 3, 1 and 1 links, so
// the translates load every row link 3 and every column link 1: U = 3 at k = 1, ratio 3.
json TorusTree(int a, int b) {
  auto t = [&](int i, int j) { return T((i + a) % 3, (j + b) % 3); };
  json edges = json::array();
  edges.push_back(Edge(t(0, 0), t(0, 1)));
  edges.push_back(Edge(t(0, 0), t(0, 2)));
  edges.push_back(Edge(t(0, 0), t(1, 0)));
  edges.push_back(Edge(t(0, 0), t(2, 0)));
  edges.push_back(Edge(t(1, 0), t(1, 1)));
  edges.push_back(Edge(t(1, 0), t(1, 2)));
  edges.push_back(Edge(t(2, 0), t(2, 1)));
  edges.push_back(Edge(t(2, 0), t(2, 2)));
  return {{"root", t(0, 0)}, {"multiplicity", 1}, {"edges", std::move(edges)}};
}

json TorusGroup() {
  return {{"generators", json::array({json::array({3, 4, 5, 6, 7, 8, 0, 1, 2}),
                                      json::array({1, 2, 0, 4, 5, 3, 7, 8, 6})})},
          {"orders", json::array({3, 3})}};
}

// The phase document (no "format") of `collective` on the torus.
json TorusPhase(const std::string& collective) {
  json roots = json::array();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      roots.push_back(
          {{"node", T(i, j)}, {"representative", 0}, {"exponents", json::array({i, j})}});
    }
  }
  return {{"collective", collective},
          {"ratio", "3"},
          {"U", "3"},
          {"k", 1},
          {"group", TorusGroup()},
          {"representatives",
           json::array({{{"root", "t0_0"}, {"trees", json::array({TorusTree(0, 0)})}}})},
          {"roots", std::move(roots)}};
}

json TorusAllgather() {
  json j = TorusPhase("allgather");
  j["format"] = "pipeline-symmetric";
  j["producer_note"] = {{"nested", json::array({1, "two"})}};  // an extra, passed through
  return j;
}

json TorusAllreduce() {
  json cuts = json::array();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) cuts.push_back(json::array({T(i, j)}));
  }
  return {{"format", "pipeline-symmetric"},
          {"collective", "allreduce"},
          {"ratio", "6"},
          {"single_node_cuts", std::move(cuts)},
          {"phases", json::array({TorusPhase("reduce-scatter"), TorusPhase("allgather")})}};
}

// The item of the InputError that reading `doc` throws ("" if none is thrown).
std::string ErrorItem(const json& doc, const Topology& g, std::string* problem = nullptr) {
  try {
    SymmetricPipelineScheduleFromJson(doc, g, "s.json");
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "s.json");
    if (problem) *problem = e.problem();
    return e.item();
  }
  return "";
}

TEST(SymmetricPipelineScheduleTest, JsonRoundTripIsIdentical) {
  const Topology g = Torus33();
  for (const json& doc : {TorusAllgather(), TorusAllreduce()}) {
    const SymmetricPipelineSchedule s = SymmetricPipelineScheduleFromJson(doc, g, "s.json");
    EXPECT_EQ(SymmetricPipelineScheduleToJson(s, g), doc);
    EXPECT_EQ(SymmetricPipelineScheduleToJsonText(s, g), doc.dump());
  }
  const SymmetricPipelineSchedule s = SymmetricPipelineScheduleFromJson(TorusAllgather(), g, "");
  ASSERT_EQ(s.roots.size(), 9u);
  EXPECT_EQ(s.roots[5].node, *g.FindNode("t1_2"));
  EXPECT_EQ(s.roots[5].exponents, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(s.orders, (std::vector<std::int64_t>{3, 3}));
  EXPECT_EQ(s.extra.size(), 1u);
}

TEST(SymmetricPipelineScheduleTest, UnknownNodeNamesItsItem) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["representatives"][0]["trees"][0]["edges"][1]["to"] = "t9_9";
  std::string problem;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "representatives[0].trees[0].edges[1].to");
  EXPECT_EQ(problem, "unknown node 't9_9'");
  doc = TorusAllgather();
  doc["roots"][2]["node"] = "nope";
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[2].node");
  EXPECT_EQ(problem, "unknown node 'nope'");
  doc = TorusAllgather();
  doc["bottleneck_cut"] = json::array({"t0_0", 7});
  EXPECT_EQ(ErrorItem(doc, g), "bottleneck_cut[1]");
}

TEST(SymmetricPipelineScheduleTest, GeneratorThatIsNotAPermutation) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["group"]["generators"][1] = json::array({1, 2, 0, 4, 5, 3, 7, 8, 7});
  std::string problem;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "group.generators[1]");
  EXPECT_EQ(problem,
            "is not a permutation: entry 8 is 7 like entry 6 (a permutation maps different nodes "
            "apart)");
  doc["group"]["generators"][1] = json::array({1, 2, 0});
  EXPECT_EQ(ErrorItem(doc, g, &problem), "group.generators[1]");
  EXPECT_EQ(problem, "is not a permutation: has 3 entries, the topology has 9 nodes");
  doc["group"]["generators"][0][3] = 9;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "group.generators[0][3]");
  EXPECT_EQ(problem, "must be a node index (an integer in 0..8), got 9");
  doc["group"]["generators"][0][3] = "t1_0";
  EXPECT_EQ(ErrorItem(doc, g), "group.generators[0][3]");
}

TEST(SymmetricPipelineScheduleTest, OrderOutsideOneToTwoToThe31) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  std::string problem;
  doc["group"]["orders"][1] = 0;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "group.orders[1]");
  EXPECT_EQ(problem, "must be the generator's order (an integer in 1..2147483648), got 0");
  doc["group"]["orders"][1] = 2147483649LL;
  EXPECT_EQ(ErrorItem(doc, g), "group.orders[1]");
  doc["group"]["orders"][1] = 2147483648LL;  // the largest order read; exponents stay in range
  EXPECT_EQ(ErrorItem(doc, g), "");
  doc["group"]["orders"] = json::array({3});
  EXPECT_EQ(ErrorItem(doc, g, &problem), "group.orders");
  EXPECT_EQ(problem, "has 1 entries for 2 generators");
}

// At most 64 generators are read (a regular direct product of cyclic groups on N <= 2^31
// nodes needs at most 31): 3,000 rotations of a ring made the checker's pairwise commutation
// test take 9.8 s.
TEST(SymmetricPipelineScheduleTest, AtMost64Generators) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  std::string problem;
  json gens = doc["group"]["generators"], orders = doc["group"]["orders"];
  while (gens.size() < 64) {
    gens.push_back(gens[0]);
    orders.push_back(orders[0]);
  }
  doc["group"]["generators"] = gens;
  doc["group"]["orders"] = orders;
  // 64 read (the roots' exponents then have the wrong count: a later item).
  EXPECT_NE(ErrorItem(doc, g), "group.generators");
  doc["group"]["generators"].push_back(gens[0]);
  doc["group"]["orders"].push_back(orders[0]);
  EXPECT_EQ(ErrorItem(doc, g, &problem), "group.generators");
  EXPECT_EQ(problem, "has 65 generators, more than 64");
}

TEST(SymmetricPipelineScheduleTest, ExponentCountAndRange) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  std::string problem;
  doc["roots"][7]["exponents"] = json::array({2});
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[7].exponents");
  EXPECT_EQ(problem, "has 1 entries for 2 generators");
  doc["roots"][7]["exponents"] = json::array({2, 3});
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[7].exponents[1]");
  EXPECT_EQ(problem, "must be an exponent below the generator's order (an integer in 0..2), got 3");
  doc["roots"][7]["exponents"] = json::array({-1, 0});
  EXPECT_EQ(ErrorItem(doc, g), "roots[7].exponents[0]");
  doc["roots"][7]["exponents"] = json::array({2, "1"});
  EXPECT_EQ(ErrorItem(doc, g), "roots[7].exponents[1]");
}

TEST(SymmetricPipelineScheduleTest, RepresentativeIndexOutOfRange) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["roots"][4]["representative"] = 1;
  std::string problem;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[4].representative");
  EXPECT_EQ(problem, "must be an index into representatives (an integer in 0..0), got 1");
}

TEST(SymmetricPipelineScheduleTest, TreeRootIsNotTheRepresentative) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["representatives"][0]["trees"][0] = TorusTree(1, 0);
  std::string problem;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "representatives[0].trees[0].root");
  EXPECT_EQ(problem, "is 't1_0', not the representative's root 't0_0'");
}

TEST(SymmetricPipelineScheduleTest, RootListedTwice) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["roots"][5]["node"] = "t0_1";
  std::string problem;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[5].node");
  EXPECT_EQ(problem, "'t0_1' is listed twice (also roots[1])");
}

// Two GPUs behind one switch; the group swaps the GPUs.
TEST(SymmetricPipelineScheduleTest, RootThatIsASwitch) {
  Topology g;
  const int c0 = g.AddCompute("c0"), c1 = g.AddCompute("c1"), s = g.AddSwitch("s");
  g.AddDuplexLink(c0, s, Rational(1));
  g.AddDuplexLink(c1, s, Rational(1));
  auto route = json::array({{{"path", json::array({"c0", "s", "c1"})}, {"multiplicity", 1}}});
  const json tree = {{"root", "c0"},
                     {"multiplicity", 1},
                     {"edges", json::array({{{"from", "c0"}, {"to", "c1"}, {"routes", route}}})}};
  json doc = {
      {"format", "pipeline-symmetric"},
      {"collective", "allgather"},
      {"ratio", "1"},
      {"U", "1"},
      {"k", 1},
      {"group", {{"generators", json::array({json::array({1, 0, 2})})}, {"orders", {2}}}},
      {"representatives", json::array({{{"root", "c0"}, {"trees", json::array({tree})}}})},
      {"roots", json::array({{{"node", "c0"}, {"representative", 0}, {"exponents", {0}}},
                             {{"node", "c1"}, {"representative", 0}, {"exponents", {1}}}})}};
  EXPECT_EQ(ErrorItem(doc, g), "");
  const PipelineSchedule plain =
      ExpandSymmetricPipelineSchedule(SymmetricPipelineScheduleFromJson(doc, g, ""), g);
  EXPECT_TRUE(CheckPipelineSchedule(g, plain).ok);
  std::string problem;
  json bad = doc;
  bad["roots"][1]["node"] = "s";
  EXPECT_EQ(ErrorItem(bad, g, &problem), "roots[1].node");
  EXPECT_EQ(problem, "'s' is a switch; roots are compute nodes");
  bad = doc;
  bad["representatives"][0]["root"] = "s";
  EXPECT_EQ(ErrorItem(bad, g), "representatives[0].root");
}

TEST(SymmetricPipelineScheduleTest, AbsurdSizes) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["roots"].push_back(doc["roots"][0]);  // 10 roots on 9 GPUs
  std::string problem;
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots");
  EXPECT_EQ(problem, "lists 10 roots, the topology has 9 compute nodes");
  doc = TorusAllgather();
  for (int i = 0; i < 9; ++i) doc["representatives"].push_back(doc["representatives"][0]);
  EXPECT_EQ(ErrorItem(doc, g, &problem), "representatives");
  EXPECT_EQ(problem, "lists 10 representatives, the topology has 9 compute nodes");
}

TEST(SymmetricPipelineScheduleTest, FieldsOfOtherFormatsAndPhases) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["format"] = "pipeline";
  EXPECT_EQ(ErrorItem(doc, g), "format");
  doc = TorusAllgather();
  doc["trees"] = json::array();
  EXPECT_EQ(ErrorItem(doc, g), "trees");
  doc = TorusAllgather();
  doc["collective"] = "broadcast";
  EXPECT_EQ(ErrorItem(doc, g), "collective");
  doc = TorusAllgather();
  doc["group"]["names"] = 1;
  EXPECT_EQ(ErrorItem(doc, g), "group.names");
  doc = TorusAllreduce();
  doc["phases"][1]["roots"][3]["exponents"][0] = 5;
  EXPECT_EQ(ErrorItem(doc, g), "phases[1].roots[3].exponents[0]");
  doc = TorusAllreduce();
  doc["phases"] = json::array({doc["phases"][1], doc["phases"][0]});
  EXPECT_EQ(ErrorItem(doc, g), "phases");
  doc = TorusAllreduce();
  doc["group"] = TorusGroup();
  EXPECT_EQ(ErrorItem(doc, g), "group");
}

TEST(SymmetricPipelineScheduleTest, GroupElementsFromExponents) {
  const Topology g = Torus33();
  const SymmetricPipelineSchedule s = SymmetricPipelineScheduleFromJson(TorusAllgather(), g, "");
  // (i, j) -> (i + 2, j + 1): node 3i + j to 3((i + 2) mod 3) + (j + 1) mod 3.
  std::vector<int> expected(9);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) expected[3 * i + j] = 3 * ((i + 2) % 3) + (j + 1) % 3;
  }
  EXPECT_EQ(SymmetricGroupElement(s, {2, 1}), expected);
  EXPECT_EQ(SymmetricGroupElement(s, {0, 0}), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  // Exponents are reduced on the generators' cycles, never iterated: 2^31 - 1 = 1 (mod 3).
  // (Iterating would take minutes and hit ctest's timeout; the test does not time itself.)
  EXPECT_EQ(SymmetricGroupElement(s, {2147483647LL, 2147483646LL}),
            SymmetricGroupElement(s, {1, 0}));
}

// The plain schedule expanded by hand: root t{a}_{b} gets the tree translated by (a, b).
PipelineSchedule HandExpandedAllgather(const Topology& g, const std::string& collective) {
  json plain = TorusPhase(collective);
  for (const char* key : {"group", "representatives", "roots"}) plain.erase(key);
  plain["format"] = "pipeline";
  plain["trees"] = json::array();
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) plain["trees"].push_back(TorusTree(a, b));
  }
  return PipelineScheduleFromJson(plain, g, "<hand>");
}

TEST(SymmetricPipelineScheduleTest, TorusAllgatherExpandsToTheTranslatedTrees) {
  const Topology g = Torus33();
  const SymmetricPipelineSchedule s = SymmetricPipelineScheduleFromJson(TorusAllgather(), g, "");
  const PipelineSchedule expanded = ExpandSymmetricPipelineSchedule(s, g);
  PipelineSchedule hand = HandExpandedAllgather(g, "allgather");
  hand.extra["producer_note"] = TorusAllgather()["producer_note"];
  hand.extra["expanded_from"] = "pipeline-symmetric";
  EXPECT_EQ(PipelineScheduleToJsonText(expanded, g), PipelineScheduleToJsonText(hand, g));
  const PipelineCheckReport r = CheckPipelineSchedule(g, expanded);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, Rational(3));
  EXPECT_EQ(r.ratio, s.ratio);
  EXPECT_EQ(r.verdict, PipelineVerdict::kValid);
}

TEST(SymmetricPipelineScheduleTest, AllreduceExpandsBothPhases) {
  const Topology g = Torus33();
  const SymmetricPipelineSchedule s = SymmetricPipelineScheduleFromJson(TorusAllreduce(), g, "");
  const PipelineSchedule expanded = ExpandSymmetricPipelineSchedule(s, g);
  EXPECT_FALSE(expanded.root.has_value());
  ASSERT_EQ(expanded.phases.size(), 2u);
  EXPECT_EQ(PipelineScheduleToJsonText(expanded.phases[0], g),
            PipelineScheduleToJsonText(HandExpandedAllgather(g, "reduce-scatter"), g));
  EXPECT_EQ(PipelineScheduleToJsonText(expanded.phases[1], g),
            PipelineScheduleToJsonText(HandExpandedAllgather(g, "allgather"), g));
  ASSERT_TRUE(expanded.single_node_cuts.has_value());
  EXPECT_EQ(expanded.single_node_cuts->size(), 9u);
  EXPECT_EQ(*expanded.single_node_cuts, *s.single_node_cuts);
  EXPECT_EQ(expanded.extra, (json{{"expanded_from", "pipeline-symmetric"}}));
  PipelineSchedule uncertified = expanded;  // the cuts bound 4 < 6: they certify nothing here
  EXPECT_FALSE(CheckPipelineSchedule(g, uncertified).ok);
  uncertified.single_node_cuts.reset();
  const PipelineCheckReport r = CheckPipelineSchedule(g, uncertified);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.ratio, Rational(6));
}

// A g_s that does not map the representative to s is expanded as it is; the plain checker
// then finds t0_1 without trees of its own.
TEST(SymmetricPipelineScheduleTest, WrongGroupElementShowsInTheCheck) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["roots"][1]["exponents"] = json::array({0, 2});  // maps t0_0 to t0_2, not t0_1
  const PipelineSchedule expanded =
      ExpandSymmetricPipelineSchedule(SymmetricPipelineScheduleFromJson(doc, g, ""), g);
  EXPECT_EQ(expanded.trees[1].root, *g.FindNode("t0_2"));
  EXPECT_FALSE(CheckPipelineSchedule(g, expanded).ok);
}

// Orders are only declared: exponents up to 2^31 - 1 are reduced on the generators' cycles
// (2^31 - 1 = 1 and 2^31 - 2 = 0 mod 3), never iterated.
TEST(SymmetricPipelineScheduleTest, HugeExponentsExpandLikeTheirResidues) {
  const Topology g = Torus33();
  json doc = TorusAllgather();
  doc["group"]["orders"] = json::array({2147483648LL, 2147483648LL});
  doc["roots"][3]["exponents"] = json::array({2147483647LL, 2147483646LL});  // t1_0: (1, 0)
  const PipelineSchedule huge =
      ExpandSymmetricPipelineSchedule(SymmetricPipelineScheduleFromJson(doc, g, ""), g);
  const PipelineSchedule plain = ExpandSymmetricPipelineSchedule(
      SymmetricPipelineScheduleFromJson(TorusAllgather(), g, ""), g);
  EXPECT_EQ(PipelineScheduleToJsonText(huge, g), PipelineScheduleToJsonText(plain, g));
}

TEST(SymmetricPipelineScheduleTest, TopLevelFormatAndExpandedText) {
  const Topology g = Torus33();
  EXPECT_EQ(JsonTopLevelFormat(TorusAllgather().dump(), "f"), "pipeline-symmetric");
  const std::string plain = PipelineScheduleToJsonText(HandExpandedAllgather(g, "allgather"), g);
  EXPECT_EQ(JsonTopLevelFormat(plain, "f"), "pipeline");
  // "format" after the trees (not how collsynth writes), nested "format"s, none at all.
  EXPECT_EQ(JsonTopLevelFormat(R"({"trees": [[1], {"format": "x"}], "format": "steps"})", "f"),
            "steps");
  EXPECT_EQ(JsonTopLevelFormat(R"({"a": {"format": "x"}})", "f"), "");
  EXPECT_EQ(JsonTopLevelFormat(R"([{"format": "x"}])", "f"), "");
  EXPECT_THROW(JsonTopLevelFormat(R"({"a": )", "f"), InputError);
  // The consumers' loader (schedules/schedule_file.h) reads each format into its own type.
  const LoadedSchedule sym = LoadScheduleText(g, TorusAllgather().dump(), "f");
  EXPECT_STREQ(sym.Format(), "pipeline-symmetric");
  ASSERT_TRUE(std::holds_alternative<SymmetricPipelineSchedule>(sym.value));
  EXPECT_EQ(
      PipelineScheduleToJsonText(
          ExpandSymmetricPipelineSchedule(std::get<SymmetricPipelineSchedule>(sym.value), g), g),
      PipelineScheduleToJsonText(
          ExpandSymmetricPipelineSchedule(
              SymmetricPipelineScheduleFromJson(TorusAllgather(), g, "f"), g),
          g));
  const LoadedSchedule p = LoadScheduleText(g, plain, "f");
  EXPECT_STREQ(p.Format(), "pipeline");
  EXPECT_EQ(PipelineScheduleToJsonText(std::get<PipelineSchedule>(p.value), g), plain);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// Case 2 (group.action "stabiliser-invariant"): the torus allgather with a word per root,
// g = gen_0^i ∘ gen_1^j, stands for the same plain schedule as the exponents (i, j).
json TorusAllgatherWithWords() {
  json doc = TorusAllgather();
  doc["group"]["action"] = "stabiliser-invariant";
  for (json& root : doc["roots"]) {
    const json e = root["exponents"];
    root.erase("exponents");
    root["word"] = json::array({json::array({0, e[0]}), json::array({1, e[1]})});
  }
  return doc;
}

TEST(SymmetricPipelineScheduleTest, WordsRoundTripAndExpandLikeExponents) {
  const Topology g = Torus33();
  const SymmetricPipelineSchedule s =
      SymmetricPipelineScheduleFromJson(TorusAllgatherWithWords(), g, "s.json");
  EXPECT_TRUE(s.stabiliser_invariant);
  EXPECT_EQ(s.roots.at(5).word, (GroupWord{{0, 1}, {1, 2}}));
  const std::string text = SymmetricPipelineScheduleToJsonText(s, g);
  EXPECT_EQ(SymmetricPipelineScheduleToJsonText(
                SymmetricPipelineScheduleFromJson(json::parse(text), g, "back.json"), g),
            text);
  EXPECT_EQ(json::parse(text)["group"]["action"], "stabiliser-invariant");
  const SymmetricPipelineSchedule by_exponents =
      SymmetricPipelineScheduleFromJson(TorusAllgather(), g, "e.json");
  EXPECT_FALSE(by_exponents.stabiliser_invariant);
  EXPECT_EQ(PipelineScheduleToJsonText(ExpandSymmetricPipelineSchedule(s, g), g),
            PipelineScheduleToJsonText(ExpandSymmetricPipelineSchedule(by_exponents, g), g));
}

TEST(SymmetricPipelineScheduleTest, WordErrorsNameTheirItem) {
  const Topology g = Torus33();
  std::string problem;
  json doc = TorusAllgatherWithWords();
  doc["group"]["action"] = "free";
  EXPECT_EQ(ErrorItem(doc, g, &problem), "group.action");
  EXPECT_EQ(problem, "expected \"regular\" or \"stabiliser-invariant\", got \"free\"");
  doc = TorusAllgatherWithWords();
  doc["roots"][3]["word"][0] = json::array({2, 0});
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[3].word[0][0]");
  EXPECT_EQ(problem, "must be a generator index (an integer in 0..1), got 2");
  doc["roots"][3]["word"][0] = json::array({1, 3});
  EXPECT_EQ(ErrorItem(doc, g), "roots[3].word[0][1]");
  doc["roots"][3]["word"][0] = json::array({1});
  EXPECT_EQ(ErrorItem(doc, g), "roots[3].word[0]");
  doc["roots"][3]["word"] = "01";
  EXPECT_EQ(ErrorItem(doc, g), "roots[3].word");
  doc["roots"][3]["word"] = json::array();
  for (std::size_t i = 0; i <= kMaxSymmetricWordLength; ++i) {
    doc["roots"][3]["word"].push_back(json::array({0, 1}));
  }
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[3].word");
  EXPECT_EQ(problem, "has 4097 letters, more than 4096");
  // Case 2 roots have words, case 1 roots exponents; each refuses the other's field.
  doc = TorusAllgatherWithWords();
  doc["roots"][2]["exponents"] = json::array({0, 2});
  EXPECT_EQ(ErrorItem(doc, g), "roots[2].exponents");
  doc = TorusAllgatherWithWords();
  doc["roots"][2].erase("word");
  EXPECT_EQ(ErrorItem(doc, g, &problem), "roots[2]");
  EXPECT_EQ(problem, "missing field 'word'");
  doc = TorusAllgather();
  doc["roots"][2]["word"] = json::array();
  EXPECT_EQ(ErrorItem(doc, g), "roots[2].word");
}

}  // namespace
}  // namespace collsynth
