// Per-link latencies from topology JSON (graphs/link_latency.h, docs/formats.md): values, duplex,
// merged links, and every malformed value as an InputError naming the link.
#include "graphs/link_latency.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/topology_io.h"
#include "test_util.h"

namespace collsynth {
namespace {

std::vector<std::optional<Rational>> Latencies(const std::string& text, Topology* g = nullptr) {
  nlohmann::json doc = ParseJsonText(text, "t.json");
  Topology t = TopologyFromJson(doc, "t.json");
  auto lat = LinkLatenciesFromJson(doc, t, "t.json");
  if (g) *g = t;
  return lat;
}

std::string Doc(const std::string& links) {
  return R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)" + links + "]}";
}

TEST(LinkLatencyTest, ReadsExactValuesAndGivesDuplexTheSame) {
  Topology g;
  auto lat = Latencies(Doc(R"({"from": "a", "to": "b", "bandwidth": 1, "latency": "1/1000000",
                              "duplex": true})"),
                       &g);
  ASSERT_EQ(lat.size(), 2u);
  EXPECT_EQ(lat[*g.FindLink(0, 1)], Rational(1, 1000000));
  EXPECT_EQ(lat[*g.FindLink(1, 0)], Rational(1, 1000000));
  lat = Latencies(Doc(R"({"from": "a", "to": "b", "bandwidth": 1, "latency": "0.000002"},
                        {"from": "b", "to": "a", "bandwidth": 1, "latency": 0})"));
  EXPECT_EQ(lat[0], Rational(1, 500000));
  EXPECT_EQ(lat[1], Rational(0));
}

TEST(LinkLatencyTest, LinksWithoutLatencyHaveNone) {
  auto lat = Latencies(Doc(R"({"from": "a", "to": "b", "bandwidth": 1})"));
  ASSERT_EQ(lat.size(), 1u);
  EXPECT_FALSE(lat[0].has_value());
}

TEST(LinkLatencyTest, MergedLinksMustAgree) {
  auto lat = Latencies(Doc(R"({"from": "a", "to": "b", "bandwidth": 1, "latency": 2},
                              {"from": "a", "to": "b", "bandwidth": 3, "latency": "2"})"));
  ASSERT_EQ(lat.size(), 1u);
  EXPECT_EQ(lat[0], Rational(2));
  try {
    Latencies(Doc(R"({"from": "a", "to": "b", "bandwidth": 1, "latency": 2},
                     {"from": "a", "to": "b", "bandwidth": 3})"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "links[1] (a -> b) latency");
    EXPECT_NE(std::string(e.what()).find("none differs from 2"), std::string::npos) << e.what();
  }
}

TEST(LinkLatencyTest, MalformedLatenciesAreInputErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-1", "non-negative"}, {"\"-1/2\"", "non-negative"},
      {"1.5e-6", ""},  // floats are not exact
      {"\"fast\"", ""},       {"true", ""},
  };
  for (const auto& [value, problem] : cases) {
    try {
      Latencies(Doc(R"({"from": "a", "to": "b", "bandwidth": 1, "latency": )" + value + "}"));
      ADD_FAILURE() << value << ": no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.item(), "links[0] (a -> b) latency") << value;
      EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
    }
  }
}

TEST(LinkLatencyTest, EdgeListsHaveNoLatencies) {
  const std::string path = testing::WriteTempFile("lat.txt", "a b 1\nb a 2\n");
  TopologyWithLatencies t = ReadTopologyWithLatencies(path);
  EXPECT_EQ(t.topology.num_links(), 2);
  ASSERT_EQ(t.latency.size(), 2u);
  EXPECT_FALSE(t.latency[0].has_value());
  const std::string json_path = testing::WriteTempFile(
      "lat.json", Doc(R"({"from": "a", "to": "b", "bandwidth": 1, "latency": "3/2"})"));
  t = ReadTopologyWithLatencies(json_path);
  EXPECT_EQ(t.latency[0], Rational(3, 2));
}

}  // namespace
}  // namespace collsynth
