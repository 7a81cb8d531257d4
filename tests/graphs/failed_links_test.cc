// Failed links (graphs/failed_links.h) and the topology JSON field "failed_links"
// (graphs/topology_io.h): the degraded topology against an independent edge-set difference on
// seeded random topologies, the write-read round trip, the latencies of a degraded topology,
// and the reader's errors (each naming the item and the problem).
#include "graphs/failed_links.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/expression.h"
#include "graphs/link_latency.h"
#include "graphs/topology_io.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;

// Random directed topology with names containing '-' and ' ' (the list syntax must not split
// them).
Topology RandomTopology(std::mt19937_64& rng, int n) {
  Topology g("random");
  for (int v = 0; v < n; ++v) g.AddNode("n-" + std::to_string(v) + (v % 3 == 0 ? " x" : ""));
  std::bernoulli_distribution edge(0.4);
  std::uniform_int_distribution<int> bw(1, 5);
  for (int u = 0; u < n; ++u) {
    for (int v = 0; v < n; ++v) {
      if (u != v && edge(rng)) g.AddLink(u, v, Rational(bw(rng)), 1 + (u + v) % 2);
    }
  }
  return g;
}

TEST(FailedLinks, DegradedTopologyRemovesExactlyTheListedLinks) {
  const std::uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 30; ++round) {
    const Topology g = RandomTopology(rng, 3 + round % 6);
    if (g.num_links() == 0) continue;
    // Pick a random subset, listed as directed items or, where the reverse exists, as u - v.
    json list = json::array();
    std::set<std::pair<int, int>> removed;
    for (const Link& l : g.links()) {
      if (removed.count({l.from, l.to}) || rng() % 3 != 0) continue;
      const bool both = g.FindLink(l.to, l.from) && !removed.count({l.to, l.from}) && rng() % 2;
      list.push_back({g.node(l.from).name, both ? "-" : "->", g.node(l.to).name});
      removed.insert({l.from, l.to});
      if (both) removed.insert({l.to, l.from});
    }
    TopologyWithFailures t{g, {}};
    AppendFailedLinks(g, list, "f.json", "failed_links", t.failed);
    ASSERT_EQ(t.failed.size(), removed.size());
    const Topology d = DegradedTopology(t);
    ASSERT_EQ(d.num_nodes(), g.num_nodes());
    EXPECT_TRUE(d.automorphisms().empty());
    std::map<std::pair<int, int>, std::pair<Rational, std::int64_t>> expected, got;
    for (const Link& l : g.links()) {
      if (!removed.count({l.from, l.to})) expected[{l.from, l.to}] = {l.bandwidth, l.multiplicity};
    }
    for (const Link& l : d.links()) got[{l.from, l.to}] = {l.bandwidth, l.multiplicity};
    EXPECT_EQ(got, expected);
    for (int v = 0; v < g.num_nodes(); ++v) EXPECT_EQ(d.node(v).name, g.node(v).name);

    // The JSON document with "failed_links" reads back as the same intact topology and list,
    // and TopologyFromJson gives the degraded topology.
    const json doc = ParseJsonText(WriteTopologyJson(t), "w.json");
    const TopologyWithFailures back = TopologyWithFailuresFromJson(doc, "w.json");
    EXPECT_EQ(back.failed, t.failed);
    EXPECT_EQ(back.intact.num_links(), g.num_links());
    const Topology degraded = TopologyFromJson(doc, "w.json");
    EXPECT_EQ(WriteTopologyJson(degraded), WriteTopologyJson(d));
    EXPECT_EQ(LinkLatenciesFromJson(doc, degraded, "w.json").size(),
              static_cast<std::size_t>(degraded.num_links()));
  }
}

// The intact topology's automorphisms are kept on the intact side only.
TEST(FailedLinks, IntactAutomorphismsAreNotDeclaredOnTheDegradedTopology) {
  Topology g = EvaluateTopologyExpression("torus(3,3)");
  ASSERT_FALSE(g.automorphisms().empty());
  json doc = ParseJsonText(WriteTopologyJson(g), "t.json");
  doc["failed_links"] = json::array({json::array({g.node(0).name, "-", g.node(1).name})});
  const TopologyWithFailures t = TopologyWithFailuresFromJson(doc, "t.json");
  EXPECT_EQ(t.intact.automorphisms(), g.automorphisms());
  EXPECT_EQ(t.failed.size(), 2u);
  const Topology d = TopologyFromJson(doc, "t.json");
  EXPECT_TRUE(d.automorphisms().empty());
  EXPECT_EQ(d.num_links(), g.num_links() - 2);
}

std::string ErrorOf(const json& list) {
  Topology g("t");
  g.AddNode("a-b");
  g.AddNode("c");
  g.AddNode("d");
  g.AddLink(0, 1, Rational(1));
  g.AddLink(1, 0, Rational(1));
  g.AddLink(1, 2, Rational(1));
  std::vector<int> failed;
  try {
    AppendFailedLinks(g, list, "f.json", "failed_links", failed);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FailedLinks, ErrorsNameTheItemAndTheProblem) {
  EXPECT_NE(
      ErrorOf(json::array({json::array({"a-b", "->", "x"})})).find("failed_links[0] (a-b -> x)"),
      std::string::npos);
  EXPECT_NE(ErrorOf(json::array({json::array({"a-b", "->", "x"})})).find("unknown node 'x'"),
            std::string::npos);
  EXPECT_NE(ErrorOf(json::array({json::array({"a-b", "->", "d"})})).find("a-b -> d is not a link"),
            std::string::npos);
  // c -> d exists, d -> c does not: the undirected form names the missing direction.
  EXPECT_NE(ErrorOf(json::array({json::array({"c", "-", "d"})})).find("d -> c is not a link"),
            std::string::npos);
  // a-b - c covers a-b -> c and c -> a-b; listing c -> a-b again is a duplicate.
  const std::string dup =
      ErrorOf(json::array({json::array({"a-b", "-", "c"}), json::array({"c", "->", "a-b"})}));
  EXPECT_NE(dup.find("failed_links[1] (c -> a-b)"), std::string::npos) << dup;
  EXPECT_NE(dup.find("listed twice"), std::string::npos) << dup;
  EXPECT_NE(ErrorOf(json::array({json::array({"a-b", "=>", "c"})})).find("must be [\"u\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(json::array({"a-b -> c"})).find("failed_links[0]"), std::string::npos);
  EXPECT_NE(ErrorOf(json::object()).find("must be an array"), std::string::npos);
  EXPECT_EQ(ErrorOf(json::array({json::array({"a-b", "-", "c"}), json::array({"c", "->", "d"})})),
            "");
}

}  // namespace
}  // namespace collsynth
