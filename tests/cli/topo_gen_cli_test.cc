// CLI contract of `collsynth topo gen` (docs/cli.md "topo gen"): expression -> file -> `topo info
// --json` reads back N, degree and diameter; --list; bad expressions exit 2 naming the expression.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::TempPath;

json GenAndInfo(const std::string& expr, const std::string& file) {
  std::string path = TempPath(file);
  auto g = RunCli({"topo", "gen", expr, "-o", path});
  EXPECT_EQ(g.exit_code, 0) << expr << ": " << g.err;
  EXPECT_TRUE(g.out.empty());
  auto i = RunCli({"topo", "info", path, "--json"});
  EXPECT_EQ(i.exit_code, 0) << i.err;
  return json::parse(i.out);
}

TEST(TopoGenCliTest, Table4TopologiesRoundTripThroughTopoInfo) {
  // Table 4 (N = 1024, d = 4): L^3(C(16,{3,4})) diameter 6; Π_{4,1024} diameter 5.
  json a = GenAndInfo("line(line(line(circulant(16,3,4))))", "l3c.json");
  EXPECT_EQ(a["compute_nodes"], 1024);
  EXPECT_EQ(a["degree"], 4);
  EXPECT_EQ(a["diameter"], 6);
  EXPECT_EQ(a["name"], "line(line(line(circulant(16,3,4))))");
  json b = GenAndInfo("genkautz(4,1024)", "pi.edges");  // edge-list output
  EXPECT_EQ(b["compute_nodes"], 1024);
  EXPECT_EQ(b["diameter"], 5);
  EXPECT_EQ(b["moore_optimal"], true);
}

TEST(TopoGenCliTest, KautzIsMooreOptimalInTopoInfo) {
  json k = GenAndInfo("kautz(2,3)", "k23.json");
  EXPECT_EQ(k["compute_nodes"], 24);  // d^n(d+1)
  EXPECT_EQ(k["degree"], 2);
  EXPECT_EQ(k["diameter"], 4);
  EXPECT_EQ(k["moore_optimal"], true);
  json t = GenAndInfo("torus(3,3,2)", "t.json");
  EXPECT_EQ(t["compute_nodes"], 18);
  EXPECT_EQ(t["degree"], 6);
  EXPECT_EQ(t["diameter"], 3);
}

TEST(TopoGenCliTest, StdoutJson) {
  auto r = RunCli({"topo", "gen", "complete(3)", "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["nodes"].size(), 3u);
}

TEST(TopoGenCliTest, ListShowsEveryFamilyWithItsReference) {
  auto r = RunCli({"topo", "gen", "--list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s :
       {"kautz(d,n)", "genkautz(d,m)", "circulant(n,a1,...,ak)", "torus(d1,...,dk)", "hypercube(n)",
        "hamming(n,q)", "complete(m)", "bipartite(d)", "uniring(d,m)", "biring(d,m)", "line(G[,n])",
        "degree(G,n)", "product(G1,G2,...)", "power(G,n)", "bidir(G)", "transpose(G)", "Def. 16",
        "Thm 22"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  }
}

TEST(TopoGenCliTest, BadExpressionsExitTwoWithOneLineNamingTheExpression) {
  struct Case {
    const char* expr;
    const char* words;
  };
  for (const Case& c :
       {Case{"kautzz(2,3)", "kautzz(2,3)"}, Case{"kautz(2.5,3)", "must be an integer"},
        Case{"hypercube(40)", "the limit is"}, Case{"line(kautz(2,3)", "missing ')'"},
        Case{"circulant(16,2,4)", "disconnected"}}) {
    auto r = RunCli({"topo", "gen", c.expr, "-o", TempPath("bad.json")});
    EXPECT_EQ(r.exit_code, 2) << c.expr;
    EXPECT_NE(r.err.find("<expr>"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.words), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  auto missing = RunCli({"topo", "gen", "kautz(2,3)"});
  EXPECT_EQ(missing.exit_code, 2);
  auto unwritable = RunCli({"topo", "gen", "kautz(2,3)", "-o", "/nonexistent/dir/k.json"});
  EXPECT_EQ(unwritable.exit_code, 2);
}

// Absurd sizes are refused at once with the exact size of the sub-expression
// that is too large (before: "power(complete(100),10) ... 100000000 nodes and 0 links";
// circulant(10000000,1) ran for minutes).
TEST(TopoGenCliTest, Issue14AbsurdSizesExitTwoNamingTheRealSize) {
  const std::string limit = "; the limit is 1048576 nodes and 8388608 links\n";
  auto p = RunCli({"topo", "gen", "power(complete(100),10)", "-o", TempPath("p.json")});
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(p.err,
            "collsynth: <expr>: power(complete(100),10): power(complete(100),10) would have "
            "100000000000000000000 nodes and 99000000000000000000000 links" +
                limit);
  EXPECT_EQ(p.out, "");
  auto c = RunCli({"topo", "gen", "circulant(10000000,1)", "-o", TempPath("c.json")});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_EQ(c.err,
            "collsynth: <expr>: circulant(10000000,1): circulant(10000000,1) would have "
            "10000000 nodes and 20000000 links" +
                limit);
}

}  // namespace
}  // namespace collsynth
