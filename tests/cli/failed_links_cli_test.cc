// Failed links through the CLI (docs/formats.md "Failed links", docs/cli.md "topo symmetry"):
// `topo gen --fail` and `topo convert --fail` write them, every command reading the file works
// on the degraded topology (compared with the degraded topology written as an edge list), bad
// lists are exit 2 with one line naming the file and the item, and `topo symmetry` reports the
// set-wise stabiliser (orders derived by hand below).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

int Lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(FailedLinksCliTest, EveryCommandSeesTheDegradedTopology) {
  const std::string fails = WriteTempFile("torus_fails.json", R"([["t0_0", "-", "t0_1"]])");
  const std::string intact = TempPath("torus33.json");
  const std::string failed = TempPath("torus33_failed.json");
  const std::string edges = TempPath("torus33_failed.txt");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,3)", "-o", intact}).exit_code, 0);
  auto gen = RunCli({"topo", "gen", "torus(3,3)", "-o", failed, "--fail", fails});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  ASSERT_EQ(RunCli({"topo", "convert", failed, edges}).exit_code, 0);

  const json a = json::parse(RunCli({"topo", "info", intact, "--json"}).out);
  const json b = json::parse(RunCli({"topo", "info", failed, "--json"}).out);
  const json c = json::parse(RunCli({"topo", "info", edges, "--json"}).out);
  EXPECT_EQ(b["links"].get<int>(), a["links"].get<int>() - 2);
  EXPECT_EQ(b["automorphisms"], 0);  // the intact topology's are not declared on the degraded
  EXPECT_EQ(b["links"], c["links"]);
  EXPECT_EQ(b["distance_distribution"], c["distance_distribution"]);

  // The optimum of the file with failures is that of the degraded edge list, not the intact one.
  const auto ob = RunCli({"optimum", failed, "--json"});
  ASSERT_EQ(ob.exit_code, 0) << ob.err;
  const json jb = json::parse(ob.out), jc = json::parse(RunCli({"optimum", edges, "--json"}).out);
  const json ja = json::parse(RunCli({"optimum", intact, "--json"}).out);
  EXPECT_EQ(jb["ratio"], jc["ratio"]);
  EXPECT_NE(jb["ratio"], ja["ratio"]);

  // pipeline writes a schedule for the degraded topology, which verify accepts on it and rejects
  // on the intact topology (it is not optimal there, or uses no failed link: either way the
  // verdicts differ from the degraded one's only through the topology).
  const std::string sched = TempPath("torus33_failed_sched.json");
  const auto p = RunCli({"pipeline", failed, "-o", sched});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(RunCli({"verify", failed, sched}).exit_code, 0);
  EXPECT_EQ(RunCli({"verify", edges, sched}).exit_code, 0);

  // topo convert --fail on the intact file gives the same document as topo gen --fail.
  const std::string converted = TempPath("torus33_converted.json");
  ASSERT_EQ(RunCli({"topo", "convert", intact, converted, "--fail", fails}).exit_code, 0);
  EXPECT_EQ(testing::ReadWholeFile(converted), testing::ReadWholeFile(failed));
}

TEST(FailedLinksCliTest, BadListsAreExit2OnOneLine) {
  const std::string intact = TempPath("ring_for_fails.json");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,3)", "-o", intact}).exit_code, 0);
  struct Case {
    std::string list, expected;
  };
  const std::vector<Case> cases = {
      {R"([["t0_0", "->", "nope"]])", "failed_links[0] (t0_0 -> nope): unknown node 'nope'"},
      {R"([["t0_0", "->", "t1_1"]])",
       "failed_links[0] (t0_0 -> t1_1): t0_0 -> t1_1 is not a link of the topology"},
      {R"([["t0_0", "-", "t0_1"], ["t0_1", "->", "t0_0"]])",
       "failed_links[1] (t0_1 -> t0_0): t0_1 -> t0_0 is listed twice"},
      {R"([["t0_0", "=>", "t0_1"]])", "failed_links[0]: must be"},
      {R"({"links": []})", "top level: missing field 'failed_links'"},
  };
  for (const Case& c : cases) {
    const std::string f = WriteTempFile("bad_fails.json", c.list);
    const auto r = RunCli({"topo", "gen", "torus(3,3)", "-o", TempPath("x.json"), "--fail", f});
    EXPECT_EQ(r.exit_code, 2) << c.list;
    EXPECT_EQ(Lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(f + ": " + c.expected), std::string::npos) << r.err;
    // The same list inside a topology file: every reader names that file.
    std::string doc = testing::ReadWholeFile(intact);
    doc = doc.substr(0, doc.rfind('}')) + ", \"failed_links\": " + c.list + "}";
    const std::string t = WriteTempFile("bad_topology.json", doc);
    for (const std::vector<std::string>& cmd :
         {std::vector<std::string>{"topo", "info", t}, {"optimum", t}, {"topo", "symmetry", t}}) {
      const auto s = RunCli(cmd);
      if (c.list[0] == '{') {
        EXPECT_EQ(s.exit_code, 2);  // not an array
        continue;
      }
      EXPECT_EQ(s.exit_code, 2) << cmd[0] << " " << c.list;
      EXPECT_EQ(Lines(s.err), 1) << s.err;
      EXPECT_NE(s.err.find(t + ": " + c.expected), std::string::npos) << s.err;
    }
  }
}

// Stabilisers derived by hand:
// - circulant(8,1,2) declares the dihedral group D_8 (order 16). Failing 0 - 1 (both directions):
//   the elements keeping {0 -> 1, 1 -> 0} are the identity and the reflection i -> 1 - i: order 2.
// - failing only 0 -> 1: a rotation or reflection keeping the directed link fixes 0 and 1: order 1.
// - torus(3,3) declares its 9 translations; a translation keeping a link fixes its tail: order 1.
TEST(FailedLinksCliTest, TopoSymmetryReportsTheStabiliser) {
  struct Case {
    std::string expr, list, order, intact_order;
    std::size_t compute_orbits;
  };
  const std::vector<Case> cases = {
      {"circulant(8,1,2)", R"([["0", "-", "1"]])", "2", "16", 4},
      {"circulant(8,1,2)", R"([["0", "->", "1"]])", "1", "16", 8},
      {"torus(3,3)", R"([["t0_0", "-", "t0_1"]])", "1", "9", 9},
  };
  for (const Case& c : cases) {
    const std::string fails = WriteTempFile("sym_fails.json", c.list);
    const std::string f = TempPath("sym_failed.json");
    const auto gen = RunCli({"topo", "gen", c.expr, "-o", f, "--fail", fails});
    ASSERT_EQ(gen.exit_code, 0) << gen.err;
    const auto r = RunCli({"topo", "symmetry", f, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    const json& s = j["stabiliser"];
    EXPECT_EQ(s["complete"], true) << c.expr << " " << c.list;
    EXPECT_EQ(s["order"], c.order) << c.expr << " " << c.list;
    EXPECT_EQ(s["intact_group_order"], c.intact_order);
    EXPECT_EQ(s["intact_generators_from"], "declared");
    EXPECT_EQ(s["compute_orbits"].size(), c.compute_orbits) << s.dump();
    // --write gives the degraded topology with the generators as declared automorphisms, which
    // topo info verifies.
    const std::string w = TempPath("sym_written.json");
    ASSERT_EQ(RunCli({"topo", "symmetry", f, "--write", w}).exit_code, 0);
    const auto info = RunCli({"topo", "info", w, "--json"});
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_EQ(json::parse(info.out)["links"],
              json::parse(RunCli({"topo", "info", f, "--json"}).out)["links"]);
  }
}

// Without declared automorphisms the intact topology is searched first; every stabiliser element
// the --write output declares is verified again by topo info.
TEST(FailedLinksCliTest, TopoSymmetrySearchesTheIntactTopologyWhenNoneAreDeclared) {
  const std::string fails = WriteTempFile("search_fails.json", R"([["t0_0", "-", "t0_1"]])");
  const std::string f = TempPath("search_failed.json");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,3)", "--no-automorphisms", "-o", f, "--fail", fails})
                .exit_code,
            0);
  const auto r = RunCli({"topo", "symmetry", f, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json s = json::parse(r.out)["stabiliser"];
  EXPECT_EQ(s["intact_generators_from"], "search");
  EXPECT_GT(s["intact_generators"].get<int>(), 0);
  EXPECT_EQ(s["complete"], true);
  // The degraded topology's automorphisms written by --write (the stabiliser's generators and
  // those found after them) pass topo info's check.
  const std::string w = TempPath("search_written.json");
  ASSERT_EQ(RunCli({"topo", "symmetry", f, "--write", w}).exit_code, 0);
  const auto info = RunCli({"topo", "info", w, "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(json::parse(info.out)["automorphisms"].get<std::size_t>(),
            json::parse(r.out)["generators"].size());
}

}  // namespace
}  // namespace collsynth
