#include "graphs/topology_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/input_error.h"
#include "core/json_io.h"
#include "fixtures/json_tree_writers.h"
#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;

Topology FromText(const std::string& text) {
  return TopologyFromJson(ParseJsonText(text, "t.json"), "t.json");
}

// Expects an InputError whose message names `item` and contains `problem`.
void ExpectInputError(const std::string& text, const std::string& item,
                      const std::string& problem) {
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
  ExpectInputError(R"({"nodes": [{"name": "a"}, {"name": "a"}]})", "nodes[1]",
                   "duplicate node name 'a'");
  ExpectInputError(R"({"nodes": [{"name": "s", "kind": "switch"}]})", "nodes", "no compute nodes");
  ExpectInputError(R"({"nodes": []})", "nodes", "no compute nodes");
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)";
  ExpectInputError(two + R"({"from": "a", "to": "zz", "bandwidth": 1}]})", "links[0] (a -> zz)",
                   "unknown node 'zz'");
  ExpectInputError(two + R"({"from": "a", "bandwidth": 1}]})", "links[0]", "missing field 'to'");
  ExpectInputError(two + R"({"from": "a", "to": "b"}]})", "links[0] (a -> b)",
                   "missing field 'bandwidth'");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 0}]})", "links[0] (a -> b)",
                   "must be positive");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": -3}]})", "links[0] (a -> b)",
                   "must be positive");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": "-1/2"}]})", "links[0] (a -> b)",
                   "must be positive");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": "fast"}]})", "bandwidth",
                   "not an exact number");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 2.5}]})", "bandwidth",
                   "not exact");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": true}]})", "bandwidth",
                   "expected a number");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 1, "duplex": "yes"}]})",
                   "links[0]", "duplex");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": "1/0"}]})", "bandwidth",
                   "zero denominator");
  std::string huge(kMaxDigits + 1, '9');
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": ")" + huge + R"("}]})",
                   "bandwidth", "more than 1000000 digits");
}

Topology RandomTopology(std::mt19937_64& rng) {
  Topology g("random");
  int n = 2 + static_cast<int>(rng() % 8);
  for (int i = 0; i < n; ++i) {
    if (rng() % 3 == 0 && i > 0)
      g.AddSwitch("s" + std::to_string(i));
    else
      g.AddCompute("c" + std::to_string(i));
  }
  int m = static_cast<int>(rng() % 20);
  for (int i = 0; i < m; ++i) {
    int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
    Rational bw(static_cast<std::int64_t>(rng() % 1000 + 1),
                static_cast<std::int64_t>(rng() % 7 + 1));
    if (rng() % 10 == 0) bw *= Rational(BigInt("1000000000000000000000"));
    g.AddLink(a, b, bw, 1 + static_cast<std::int64_t>(rng() % 2));
  }
  if (rng() % 4 == 0) {
    g.AddSwitch("quote\"back\\slash # x");  // names that need JSON and edge-list escaping
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

// The topology writer's exact bytes (docs/formats.md; written through core/json_writer.h
// since the one JSON writer, docs/performance.md "Writers"): one node or link per line, names
// escaped as nlohmann escapes them, bandwidths as integers below 2^63 and "p/q" strings otherwise,
// multiplicity only when > 1.
TEST(TopologyJsonTest, WriterBytes) {
  Topology g("we\"ird é");
  const int a = g.AddCompute("a\"b"), b = g.AddCompute("日本"), s = g.AddSwitch("s\\w");
  g.AddLink(a, s, Rational(10));
  g.AddLink(s, b, Rational(5, 2), 3);
  g.AddLink(b, a, Rational(BigInt(1) << 63));
  g.AddLink(a, b, Rational((BigInt(1) << 63) - 1));
  EXPECT_EQ(
      WriteTopologyJson(g),
      "{\"name\": \"we\\\"ird é\",\n"
      " \"nodes\": [\n"
      "  {\"name\": \"a\\\"b\", \"kind\": \"compute\"},\n"
      "  {\"name\": \"日本\", \"kind\": \"compute\"},\n"
      "  {\"name\": \"s\\\\w\", \"kind\": \"switch\"}],\n"
      " \"links\": [\n"
      "  {\"from\": \"a\\\"b\", \"to\": \"s\\\\w\", \"bandwidth\": 10},\n"
      "  {\"from\": \"s\\\\w\", \"to\": \"日本\", \"bandwidth\": \"5/2\", \"multiplicity\": 3},\n"
      "  {\"from\": \"日本\", \"to\": \"a\\\"b\", \"bandwidth\": \"9223372036854775808\"},\n"
      "  {\"from\": \"a\\\"b\", \"to\": \"日本\", \"bandwidth\": 9223372036854775807}]}\n");
  Topology lone("");
  lone.AddCompute("x");
  EXPECT_EQ(WriteTopologyJson(lone),
            "{\"name\": \"\",\n \"nodes\": [\n  {\"name\": \"x\", \"kind\": \"compute\"}],\n "
            "\"links\": []}\n");
}

TEST(EdgeListTest, ReadsCommentsHeadersAndRationals) {
  Topology g = ParseEdgeList(
      "# a comment\nname: tiny\nswitches: s1\n\na s1 10   # trailing comment\ns1 a 5/2\nb s1 1 "
      "2\ns1 b 2\n",
      "t.txt");
  EXPECT_EQ(g.name(), "tiny");
  EXPECT_EQ(g.num_switches(), 1);
  EXPECT_EQ(g.num_compute(), 2);
  int b = *g.FindNode("b"), s1 = *g.FindNode("s1");
  EXPECT_EQ(g.link(*g.FindLink(b, s1)).multiplicity, 2);
  EXPECT_EQ(g.link(*g.FindLink(s1, *g.FindNode("a"))).bandwidth, Rational(5, 2));
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

// --- hostile input (docs/formats.md "Limits") --------------------------------------------------

// A topology document with `levels` nested containers in all (the top-level object is 1).
std::string NestedDocument(std::size_t levels) {
  return R"({"nodes": [{"name": "a"}], "extra": )" + std::string(levels - 1, '[') +
         std::string(levels - 1, ']') + "}";
}

TEST(JsonLimitsTest, NestingIsRefusedWhileParsingBeyond64Levels) {
  EXPECT_EQ(FromText(NestedDocument(kMaxJsonDepth)).num_nodes(), 1);
  const std::string deep = NestedDocument(kMaxJsonDepth + 1);
  // The 65th container opens at the last '['; the parser has read up to and including it.
  ExpectInputError(deep, "byte " + std::to_string(deep.rfind('[') + 1),
                   "JSON nested deeper than 64 levels");
  // 2·10^5 levels (a stack overflow in nlohmann's recursive copy and dump before): refused
  // at the same byte, without building the rest.
  const std::string very_deep = NestedDocument(200000);
  ExpectInputError(very_deep, "byte " + std::to_string(deep.rfind('[') + 1), "deeper than 64");
  std::string objects = R"({"nodes": [{"name": "a", "x": )";
  for (int i = 0; i < 100000; ++i) objects += R"({"k": )";
  ExpectInputError(objects, "byte", "deeper than 64");
}

TEST(JsonLimitsTest, HugeIntegerLiteralsAreReadExactly) {
  json j = ParseJsonText(
      "[123456789012345678901234567890, -99999999999999999999, 18446744073709551615, 7]", "t");
  EXPECT_EQ(j[0], "123456789012345678901234567890");
  EXPECT_EQ(j[1], "-99999999999999999999");
  EXPECT_EQ(j[2], 18446744073709551615u);  // still fits uint64: an ordinary number
  EXPECT_EQ(j[3], 7);
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)";
  Topology g =
      FromText(two + R"({"from": "a", "to": "b", "bandwidth": 123456789012345678901234567890}]})");
  EXPECT_EQ(g.link(0).bandwidth, Rational(BigInt("123456789012345678901234567890")));
  ExpectInputError(
      two + R"({"from": "a", "to": "b", "bandwidth": -123456789012345678901234567890}]})",
      "links[0] (a -> b)", "bandwidth must be positive, got -123456789012345678901234567890");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 1.5e3}]})", "bandwidth",
                   "not exact");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 1e400}]})", "byte",
                   "number 1e400 is out of range");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": -1e400}]})", "byte",
                   "out of range");
  // Beyond double's range the lexer cannot hand over the digits: a clear refusal.
  ExpectInputError(
      two + R"({"from": "a", "to": "b", "bandwidth": 1)" + std::string(400, '0') + "}]}", "byte",
      "is too long to be read as a JSON number; write it as a string");
  ExpectInputError(
      two +
          R"({"from": "a", "to": "b", "bandwidth": 1, "multiplicity": 123456789012345678901234567890}]})",
      "links[0] (a -> b)", "multiplicity must be an integer in 1..2^63-1");
  ExpectInputError(
      two + R"({"from": "a", "to": "b", "bandwidth": 1, "multiplicity": 9223372036854775808}]})",
      "links[0] (a -> b)", "multiplicity must be an integer in 1..2^63-1, got 9223372036854775808");
  // Found by the topology_json fuzzer: 0 is a non-negative JSON integer, stored unsigned, and
  // passed the unsigned branch of the range check (exit 3 from Topology::AddLink).
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 1, "multiplicity": 0}]})",
                   "links[0] (a -> b)", "multiplicity must be an integer in 1..2^63-1, got 0");
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 1, "multiplicity": -2}]})",
                   "links[0] (a -> b)", "multiplicity must be an integer in 1..2^63-1, got -2");
}

// A file under the byte limit must not exhaust memory: a document of small objects takes ~25
// times its size as nlohmann values, so the builder charges an approximate size per value and
// refuses past the limit (6 GiB by default; lowered here).
TEST(JsonLimitsTest, DocumentMemoryIsBoundedWhileParsing) {
  std::string text = "[";
  for (int i = 0; i < 10000; ++i) text += std::string(i ? "," : "") + R"({"a":"b"})";
  text += "]";  // 90 KB of text, ~2 MB as a document
  EXPECT_EQ(ParseJsonText(text, "m.json").size(), 10000u);
  try {
    ParseJsonText(text, "m.json", std::size_t{1} << 20);
    FAIL() << "a 1 MiB budget accepted ~2 MB of document";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "m.json");
    EXPECT_NE(e.problem().find("would need more than 1024 KiB in memory"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ParseJsonText(text, "m.json", std::size_t{4} << 20).size(), 10000u);
}

// ParseJsonFile (the output check streams the written file) gives what
// ParseJsonText gives on the file's text: the document, the hook's calls, and the same
// errors at the same bytes (malformed JSON, a duplicate key, the memory budget).
TEST(JsonFileTest, StreamedParseEqualsTextParse) {
  std::string text = R"({"format": "x", "trees": [)";
  for (int i = 0; i < 3000; ++i) text += std::string(i ? "," : "") + R"({"a": [1, "b"]})";
  text += R"(], "big": 123456789012345678901234567890})";
  std::vector<std::string> text_calls, file_calls;
  auto hook = [](std::vector<std::string>* calls) -> JsonElementHook {
    return [calls](const std::vector<std::string>& path, json& element, const json&) {
      std::string p;
      for (const std::string& key : path) p += "/" + key;
      calls->push_back(p + "=" + element.dump());
      return path.size() == 3;  // consume the elements of "trees"
    };
  };
  const std::string path = testing::WriteTempFile("streamed.json", text);
  const json from_text = ParseJsonText(text, "s.json", hook(&text_calls));
  const json from_file = ParseJsonFile(path, "s.json", hook(&file_calls));
  EXPECT_EQ(from_file, from_text);
  EXPECT_EQ(from_file["big"], "123456789012345678901234567890");
  EXPECT_EQ(file_calls, text_calls);
  EXPECT_EQ(file_calls.size(), 3000u);  // the elements of "trees" (containers in arrays)
  auto error = [](const std::function<void()>& parse) -> std::string {
    try {
      parse();
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  for (const std::string& bad :
       {std::string(R"({"a": [1, 2}, "b": 3})"), std::string(R"({"a": 1, "b": 2, "a": 3})"),
        std::string(R"({"a": [1, 2, 3])"), std::string("{}\0junk", 7),
        std::string("{\"a\": 1\0, \"b\": 2}", 17), text}) {
    const std::string bad_path = testing::WriteTempFile("bad.json", bad);
    const std::size_t budget = bad == text ? 100000 : kMaxJsonMemory;
    const std::string want = error([&] { ParseJsonText(bad, "b.json", {}, budget); });
    EXPECT_EQ(error([&] { ParseJsonFile(bad_path, "b.json", {}, budget); }), want);
    EXPECT_NE(want, "no error");
  }
  // nlohmann's lexer ends the input at a NUL byte; the reader names it instead of reading
  // "{}\0junk" as {} (found by the steps fuzzer: the fast reader read "2\0..." as 2).
  EXPECT_EQ(error([&] { ParseJsonText(std::string("{}\0junk", 7), "b.json"); }),
            "b.json: byte 3: NUL character (JSON text has none)");
  EXPECT_EQ(error([&] { ParseJsonText(std::string("{\"a\": 1\0, \"b\": 2}", 17), "b.json"); }),
            "b.json: byte 8: NUL character (JSON text has none)");
  EXPECT_EQ(error([&] { ParseJsonFile(testing::TempPath("missing.json"), "b.json", {}); }),
            error([&] { ReadTextFile(testing::TempPath("missing.json")); }));
}

TEST(JsonLimitsTest, DuplicateKeysAreRefused) {
  // Other JSON tools keep the first value, nlohmann the last: the file must mean one thing.
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)";
  ExpectInputError(two + R"({"from": "a", "to": "b", "bandwidth": 1, "bandwidth": 5}]})", "byte",
                   "duplicate key \"bandwidth\"");
  ExpectInputError(R"({"nodes": [{"name": "a"}], "nodes": []})", "byte", "duplicate key \"nodes\"");
}

TEST(TopologyNamesTest, ControlCharactersAndInvalidUtf8AreRefusedNamingTheItem) {
  ExpectInputError(R"({"nodes": [{"name": "x\ncollsynth: all good"}]})", "nodes[0]",
                   "node name contains a control character (byte 0x0a at offset 1)");
  ExpectInputError(R"({"nodes": [{"name": "x\u007f"}]})", "nodes[0]", "control character");
  ExpectInputError(R"({"nodes": [{"name": "x\u0085"}]})", "nodes[0]", "control character");
  ExpectInputError(R"({"name": "t\u001b[31m", "nodes": [{"name": "a"}]})", "name",
                   "topology name contains a control character");
  auto expect_line = [](const std::string& text, const std::string& item,
                        const std::string& problem) {
    try {
      ParseEdgeList(text, "e.txt");
      FAIL() << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "e.txt");
      EXPECT_EQ(e.item(), item);
      EXPECT_NE(e.problem().find(problem), std::string::npos) << e.what();
    }
  };
  expect_line("a b 1\nb \xff\xfe 1\n", "line 2",
              "node name is not valid UTF-8 (byte 0xff at offset 0)");
  expect_line("compute: ok \xc0\xaf\n", "line 1", "not valid UTF-8");       // overlong '/'
  expect_line("compute: \xed\xa0\x80\n", "line 1", "not valid UTF-8");      // surrogate
  expect_line("compute: \xf4\x90\x80\x80\n", "line 1", "not valid UTF-8");  // > U+10FFFF
  expect_line("compute: a\xe2\x82\n", "line 1", "truncated");
  expect_line("a b\x01c 1\n", "line 1", "control character");
  expect_line("name: t\xff\na b 1\n", "line 1", "topology name is not valid UTF-8");
  Topology g = ParseEdgeList("compute: \xc3\xa9t\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80\n", "e.txt");
  EXPECT_EQ(g.num_compute(), 3);
}

TEST(TopologyMultiplicityTest, SumsPastInt64AreRefusedNamingTheLink) {
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "links": [)";
  ExpectInputError(
      two + R"({"from": "a", "to": "b", "bandwidth": 1, "multiplicity": 9223372036854775807},
                            {"from": "a", "to": "b", "bandwidth": 1}]})",
      "links[1] (a -> b)", "multiplicity: the multiplicities of the links add up past 2^63-1");
  // Different links whose sum (a degree) overflows.
  ExpectInputError(
      two + R"({"from": "a", "to": "b", "bandwidth": 1, "multiplicity": 5000000000000000000},
                            {"from": "a", "to": "c", "bandwidth": 1, "multiplicity": 5000000000000000000}]})",
      "links[1] (a -> c)", "add up past 2^63-1");
  ExpectInputError(
      two +
          R"({"from": "a", "to": "b", "bandwidth": 1, "multiplicity": 5000000000000000000, "duplex": true}]})",
      "links[0] (a -> b) (duplex)", "add up past 2^63-1");
  try {
    ParseEdgeList("a b 1 9223372036854775807\nb a 1 1\n", "e.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "line 2 (b -> a)");
    EXPECT_NE(e.problem().find("add up past 2^63-1"), std::string::npos) << e.what();
  }
  for (const char* bad :
       {"9223372036854775808", "0", "-1", "+1", "1.0", "1e3", "99999999999999999999999"}) {
    try {
      ParseEdgeList(std::string("a b 1 ") + bad + "\n", "e.txt");
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.item(), "line 1 (a -> b)");
      EXPECT_EQ(e.problem(),
                std::string("multiplicity must be an integer in 1..2^63-1, got '") + bad + "'");
    }
  }
  Topology g = ParseEdgeList("a b 1 9223372036854775806\na b 1\n", "e.txt");
  EXPECT_EQ(g.OutDegree(0), INT64_MAX);
}

TEST(TopologyFileTest, DirectoriesAndDevicesAreNamedAsSuch) {
  const std::string dir = std::filesystem::path(testing::TempPath("x")).parent_path().string();
  try {
    ReadTextFile(dir);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), dir);
    EXPECT_EQ(e.problem(), "is a directory, not a file");
  }
  try {
    ReadTextFile("/dev/zero");  // would otherwise read (forever, or as empty)
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(), "is a device or socket, not a regular file or pipe");
  }
}

TEST(TopologyFileTest, PipesAreReadAsStreams) {
  const std::string fifo = testing::TempPath("topology.pipe");
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << "compute: a b\na b 3\n"; });
  Topology g = ReadTopologyFile(fifo);  // seek/tell fail on a pipe: it used to be "cannot read"
  writer.join();
  EXPECT_EQ(g.num_nodes(), 2);
  EXPECT_EQ(g.link(0).bandwidth, 3);
}

Topology WithNames(const std::string& topology_name, const std::vector<std::string>& names) {
  Topology g(topology_name);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i % 3 == 2)
      g.AddSwitch(names[i]);
    else
      g.AddCompute(names[i]);
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    g.AddLink(static_cast<int>(i), static_cast<int>((i + 1) % names.size()), Rational(3, 2),
              1 + static_cast<std::int64_t>(i % 2));
  }
  return g;
}

TEST(EdgeListTest, NastyNamesRoundTripLosslessly) {
  // Header keywords, blanks, '#', quotes, backslashes: all used to be misread or refused.
  const std::vector<std::string> names = {"compute:",
                                          "name:",
                                          "switches:",
                                          "a b",
                                          " lead",
                                          "trail ",
                                          "#x",
                                          "x#y",
                                          "q\"uote",
                                          "\"",
                                          "\\",
                                          "\\\"",
                                          "back\\slash",
                                          "\xe6\x97\xa5 \xe6\x9c\xac",
                                          "plain",
                                          "compute:x",
                                          "#"};
  Topology g = WithNames("my topo # 1 \"quoted\"", names);
  const std::string text = WriteEdgeList(g);
  ExpectSame(g, ParseEdgeList(text, "x"));
  ExpectSame(WithNames("name:", {"a"}),
             ParseEdgeList(WriteEdgeList(WithNames("name:", {"a"})), "x"));
  // Quoting rules on reading.
  Topology q = ParseEdgeList("\"compute:\" \"a b\" 1 # c\n\"x\\\"y\"\t\"compute:\" 2\n", "x");
  EXPECT_EQ(q.node(0).name, "compute:");
  EXPECT_EQ(q.node(1).name, "a b");
  EXPECT_EQ(q.node(2).name, "x\"y");
  EXPECT_EQ(q.num_compute(), 3);
  auto expect_bad = [](const std::string& text, const std::string& problem) {
    try {
      ParseEdgeList(text, "e.txt");
      FAIL() << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.item(), "line 1");
      EXPECT_NE(e.problem().find(problem), std::string::npos) << e.what();
    }
  };
  expect_bad("\"a b 1\n", "unterminated quoted name");
  expect_bad("\"a\"b c 1\n", "a quoted name must be followed by a blank");
  expect_bad("a\"b c 1\n", "quote the whole name");
  expect_bad("\"a\\n\" c 1\n", "must be followed by");
  expect_bad("\"\" c 1\n", "empty node name");
  expect_bad("name: two words\n", "expected 'name: NAME'");
}

TEST(EdgeListTest, RandomNastyNamesRoundTripLosslessly) {
  // Property: for any valid names, ParseEdgeList(WriteEdgeList(g)) == g.
  const std::vector<std::string> alphabet = {
      "a", " ", "#", "\"", "\\", ":", "compute:", "name:", "switches:", "\xc3\xa9", "b", "0"};
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int it = 0; it < 200; ++it) {
    std::vector<std::string> names;
    auto random_name = [&] {
      std::string s;
      for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k)
        s += alphabet[rng() % alphabet.size()];
      return s;
    };
    for (int n = 1 + static_cast<int>(rng() % 6); n > 0; --n) {
      std::string s = random_name();
      if (std::find(names.begin(), names.end(), s) == names.end()) names.push_back(s);
    }
    Topology g = WithNames(rng() % 2 ? random_name() : "", names);
    ExpectSame(g, ParseEdgeList(WriteEdgeList(g), "x"));
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << seed << ", iteration " << it << ":\n"
                                                << WriteEdgeList(g);
  }
}

TEST(TopologyMultiplicityTest, MergedBandwidthsObeyTheDigitLimit) {
  // Each bandwidth has 600001 digits (within kMaxDigits); their sum, over coprime
  // denominators 10^600000 and 10^600000 - 1, has about 1.2·10^6: refused, naming the link.
  const std::string d1 = "1/1" + std::string(600000, '0'), d2 = "1/" + std::string(600000, '9');
  try {
    ParseEdgeList("a b " + d1 + "\na b " + d2 + "\n", "e.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "line 2 (a -> b)");
    EXPECT_EQ(e.problem(), "the merged bandwidth of the links a -> b has more than 1000000 digits");
  }
  EXPECT_EQ(ParseEdgeList("a b " + d1 + "\na b " + d1 + "\n", "e.txt").link(0).bandwidth,
            ParseRational(d1) * 2);
}

TEST(JsonLimitsTest, MalformedJsonMessagesStayShort) {
  // nlohmann quotes the last token read: for an unterminated string, the rest of the file.
  try {
    ParseJsonText(R"({"nodes": ")" + std::string(1000000, 'a'), "t.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "byte 1000012");  // nlohmann counts the end of input as a byte
    EXPECT_NE(e.problem().find("malformed JSON: [json.exception.parse_error.101]"),
              std::string::npos);
    EXPECT_NE(e.problem().find("missing closing quote"), std::string::npos) << e.problem();
    EXPECT_EQ(e.problem().size(), 320u) << e.problem();  // "malformed JSON: " + 300 + "...'"
  }
}

TEST(JsonLimitsTest, LongNamesAndNumbersGiveShortValidUtf8Messages) {
  // "x" and 30 two-byte characters: a cut after 40 bytes splits the 20th character.
  const std::string e30 = std::string("x") + [] {
    std::string s;
    for (int i = 0; i < 30; ++i) s += "\xc3\xa9";
    return s;
  }();
  const std::string long_name(100000, 'q');
  const std::string two = R"({"nodes": [{"name": "a"}, {"name": "b"}], "links": [)";
  for (const std::string& name : {e30, long_name}) {
    try {
      FromText(two + R"({"from": "a", "to": ")" + name + R"(", "bandwidth": 1}]})");
      FAIL();
    } catch (const InputError& e) {
      EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
      EXPECT_EQ(NameProblem(e.what()), "") << e.what();  // valid UTF-8, one line
    }
  }
  try {
    ParseEdgeList("a b 1/" + std::string(50000, '0') + "\n", "e.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(), "zero denominator in '1/" + std::string(38, '0') + "...'");
  }
  try {
    ParseEdgeList("a b " + e30 + "\n", "e.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(NameProblem(e.problem()), "") << e.problem();
    EXPECT_EQ(e.problem(), "'" + e30.substr(0, 39) +
                               "...' is not an exact number (expected p, p/q or a decimal)");
  }
}

TEST(TopologyFileTest, AByteOrderMarkIsNoPartOfTheFirstName) {
  // It used to name the first node "\xEF\xBB\xBFa" (invisible), and a JSON file with one was
  // read as an edge list.
  Topology e = ReadTopologyFile(testing::WriteTempFile("bom.txt",
                                                       "\xEF\xBB\xBF"
                                                       "a b 1\n"));
  EXPECT_EQ(e.node(0).name, "a");
  Topology j = ReadTopologyFile(testing::WriteTempFile("bom.json",
                                                       "\xEF\xBB\xBF"
                                                       R"({"nodes": [{"name": "a"}]})"));
  EXPECT_EQ(j.node(0).name, "a");
}

}  // namespace
}  // namespace collsynth
