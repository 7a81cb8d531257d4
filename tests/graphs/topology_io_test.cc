#include "graphs/topology_io.h"

#include <gtest/gtest.h>

#include <random>

#include "graphs/input_error.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;

Topology FromText(const std::string& text) {
  return TopologyFromJson(ParseJsonText(text, "t.json"), "t.json");
}

// Expects an InputError whose message names `item` and contains `problem`.
void ExpectInputError(const std::string& text, const std::string& item, const std::string& problem) {
  try {
    FromText(text);
    FAIL() << "accepted: " << text.substr(0, 200);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "t.json");
    EXPECT_NE(e.item().find(item), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find(problem), std::string::npos) << e.what();
  }
}

TEST(TopologyJsonTest, ReadsTheContractExampleWithDuplexAndRationals) {
  Topology g = FromText(R"({"name": "two_cluster",
    "nodes": [{"name": "c11", "kind": "compute"}, {"name": "s1", "kind": "switch"}, {"name": "c12"}],
    "links": [{"from": "c11", "to": "s1", "bandwidth": 10, "duplex": true},
              {"from": "s1", "to": "c11", "bandwidth": "5/2"},
              {"from": "c12", "to": "s1", "bandwidth": "0.5", "duplex": true}]})");
  EXPECT_EQ(g.name(), "two_cluster");
  EXPECT_EQ(g.num_compute(), 2);
  EXPECT_EQ(g.num_switches(), 1);
  int c11 = *g.FindNode("c11"), s1 = *g.FindNode("s1"), c12 = *g.FindNode("c12");
  EXPECT_EQ(g.link(*g.FindLink(c11, s1)).bandwidth, 10);
  EXPECT_EQ(g.link(*g.FindLink(s1, c11)).bandwidth, Rational(25, 2));  // 10 (duplex) + 5/2
  EXPECT_EQ(g.link(*g.FindLink(s1, c12)).bandwidth, Rational(1, 2));
}

TEST(TopologyJsonTest, BadInputsNameTheItemAndTheProblem) {
  ExpectInputError("{\"nodes\": [", "byte", "malformed JSON");
  ExpectInputError("[1,2]", "top level", "expected a JSON object");
  ExpectInputError("{}", "top level", "missing field 'nodes'");
  ExpectInputError(R"({"nodes": {}})", "nodes", "must be an array");
  ExpectInputError(R"({"nodes": [{"kind": "compute"}]})", "nodes[0]", "missing field 'name'");
  ExpectInputError(R"({"nodes": [{"name": 5}]})", "nodes[0]", "must be a string");
  ExpectInputError(R"({"nodes": [{"name": "a", "kind": "router"}]})", "nodes[0]", "kind must be");
  ExpectInputError(R"({"nodes": [{"name": "a"}, {"name": "a"}]})", "nodes[1]", "duplicate node name 'a'");
  ExpectInputError(R"({"nodes": [{"name": "s", "kind": "switch"}]})", "nodes", "no compute nodes");
  ExpectInputError(R"({"nodes": []})", "nodes", "no compute nodes");
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)";
  ExpectInputError(two + R"({"from": "a", "to": "zz", "bandwidth": 1}]})", "links[0] (a -> zz)", "unknown node 'zz'");
  ExpectInputError(two + R"({"from": "a", "bandwidth": 1}]})", "links[0]", "missing field 'to'");
  ExpectInputError(two + R"({"from": "a", "to": "b"}]})", "links[0] (a -> b)", "missing field 'bandwidth'");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 0}]})", "links[0] (a -> b)", "must be positive");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": -3}]})", "links[0] (a -> b)", "must be positive");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": "-1/2"}]})", "links[0] (a -> b)", "must be positive");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": "fast"}]})", "bandwidth", "not an exact number");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 2.5}]})", "bandwidth", "not exact");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": true}]})", "bandwidth", "expected a number");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 1, "duplex": "yes"}]})", "links[0]", "duplex");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": "1/0"}]})", "bandwidth", "zero denominator");
  std::string huge(kMaxDigits + 1, '9');
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": ")" + huge + R"("}]})", "bandwidth",
                   "more than 1000000 digits");
}

Topology RandomTopology(std::mt19937_64& rng) {
  Topology g("random");
  int n = 2 + static_cast<int>(rng() % 8);
  for (int i = 0; i < n; ++i) {
    if (rng() % 3 == 0 && i > 0) g.AddSwitch("s" + std::to_string(i));
    else g.AddCompute("c" + std::to_string(i));
  }
  int m = static_cast<int>(rng() % 20);
  for (int i = 0; i < m; ++i) {
    int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
    Rational bw(static_cast<std::int64_t>(rng() % 1000 + 1), static_cast<std::int64_t>(rng() % 7 + 1));
    if (rng() % 10 == 0) bw *= Rational(BigInt("1000000000000000000000"));
    g.AddLink(a, b, bw, 1 + static_cast<std::int64_t>(rng() % 2));
  }
  if (rng() % 4 == 0) {
    g.AddSwitch("quote\"back\\slash\x01ctl");  // names that need JSON escaping
    g.AddCompute("\xc3\xa9t\xc3\xa9");
  }
  return g;
}

void ExpectSame(const Topology& a, const Topology& b) {
  ASSERT_EQ(a.name(), b.name());
  ASSERT_EQ(a.num_nodes(), b.num_nodes());
  for (int v = 0; v < a.num_nodes(); ++v) {
    EXPECT_EQ(a.node(v).name, b.node(v).name);
    EXPECT_EQ(a.node(v).kind, b.node(v).kind);
  }
  ASSERT_EQ(a.num_links(), b.num_links());
  for (int e = 0; e < a.num_links(); ++e) {
    EXPECT_EQ(a.link(e).from, b.link(e).from);
    EXPECT_EQ(a.link(e).to, b.link(e).to);
    EXPECT_EQ(a.link(e).bandwidth, b.link(e).bandwidth);
    EXPECT_EQ(a.link(e).multiplicity, b.link(e).multiplicity);
  }
}

TEST(TopologyJsonTest, WriteThenReadIsLosslessForJsonAndEdgeList) {
  std::mt19937_64 rng(testing::TestSeed());
  for (int it = 0; it < 100; ++it) {
    Topology g = RandomTopology(rng);
    Topology j = TopologyFromJson(ParseJsonText(TopologyToJson(g).dump(), "x"), "x");
    ExpectSame(g, j);
    json streamed = ParseJsonText(WriteTopologyJson(g), "x");
    EXPECT_EQ(streamed, TopologyToJson(g));  // the fast writer emits the same document
    ExpectSame(g, TopologyFromJson(streamed, "x"));
    Topology e = ParseEdgeList(WriteEdgeList(g), "x");
    ExpectSame(g, e);
  }
}

TEST(EdgeListTest, ReadsCommentsHeadersAndRationals) {
  Topology g = ParseEdgeList(
      "# a comment\nname: tiny\nswitches: s1\n\na s1 10   # trailing comment\ns1 a 5/2\nb s1 1 2\ns1 b 2\n",
      "t.txt");
  EXPECT_EQ(g.name(), "tiny");
  EXPECT_EQ(g.num_switches(), 1);
  EXPECT_EQ(g.num_compute(), 2);
  int b = *g.FindNode("b"), s1 = *g.FindNode("s1");
  EXPECT_EQ(g.link(*g.FindLink(b, s1)).multiplicity, 2);
  EXPECT_EQ(g.link(*g.FindLink(s1, *g.FindNode("a"))).bandwidth, Rational(5, 2));
}

TEST(EdgeListTest, NamesWithWhitespaceCannotBeWrittenAsEdgeList) {
  Topology g;
  g.AddCompute("gpu 0");
  EXPECT_THROW(WriteEdgeList(g), InputError);
  EXPECT_NO_THROW(TopologyFromJson(ParseJsonText(WriteTopologyJson(g), "x"), "x"));
}

TEST(EdgeListTest, BadLinesNameTheLine) {
  auto expect = [](const std::string& text, const std::string& item, const std::string& problem) {
    try {
      ParseEdgeList(text, "e.txt");
      FAIL() << text;
    } catch (const InputError& e) {
      EXPECT_NE(e.item().find(item), std::string::npos) << e.what();
      EXPECT_NE(e.problem().find(problem), std::string::npos) << e.what();
    }
  };
  expect("a b 1\nb a\n", "line 2", "expected 'FROM TO BANDWIDTH");
  expect("a b 1\nb a zero\n", "line 2 (b -> a)", "not an exact number");
  expect("a b 0\n", "line 1 (a -> b)", "must be positive");
  expect("a b 1 x\n", "line 1", "multiplicity");
  expect("switches: s\nswitches: s\n", "line 2", "duplicate node name");
  expect("switches: s\n", "nodes", "no compute nodes");
}

TEST(TopologyFileTest, MissingFileAndEmptyFileAreClearErrors) {
  try {
    ReadTopologyFile("/nonexistent/dir/topo.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/dir/topo.json");
    EXPECT_NE(e.problem().find("cannot open"), std::string::npos);
  }
  std::string empty = testing::WriteTempFile("empty.json", "  \n");
  EXPECT_THROW(ReadTopologyFile(empty), InputError);
}

}  // namespace
}  // namespace collsynth
