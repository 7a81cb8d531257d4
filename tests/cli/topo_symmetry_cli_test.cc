// Automorphisms (docs/cli.md "topo symmetry") through the CLI: `topo gen` writes the generators'
// automorphisms (or not, with
// --no-automorphisms), `topo info` verifies declared automorphisms and reports compute-node
// orbits, malformed or wrong permutations are exit 2 naming the permutation, and
// `topo symmetry` finds automorphisms of files without them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

// A 4-ring a -> b -> c -> d -> a (unit bandwidth) with the given "automorphisms" field text.
std::string RingWith(const std::string& name, const std::string& automorphisms) {
  return WriteTempFile(name,
                       R"({"nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}],
 "links": [{"from": "a", "to": "b", "bandwidth": 1}, {"from": "b", "to": "c", "bandwidth": 1},
           {"from": "c", "to": "d", "bandwidth": 1}, {"from": "d", "to": "a", "bandwidth": 1}],
 "automorphisms": )" + automorphisms +
                           "}");
}

TEST(TopoSymmetryCliTest, GenWritesAutomorphismsAndInfoReportsOneOrbit) {
  const std::string t = TempPath("torus34.json");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(3,4)", "-o", t}).exit_code, 0);
  auto r = RunCli({"topo", "info", t, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["automorphisms"], 2);
  ASSERT_EQ(j["compute_orbits"].size(), 1u);
  EXPECT_EQ(j["compute_orbits"][0].size(), 12u);
  auto text = RunCli({"topo", "info", t});
  EXPECT_NE(text.out.find("automorphisms       2 generators, verified\n"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("compute orbits      1 (sizes 12)\n"), std::string::npos) << text.out;

  // gpuboxes with 3 GPUs on 2 rails: two orbits (GPUs of rail 0, of rail 1).
  const std::string b = TempPath("boxes.json");
  ASSERT_EQ(RunCli({"topo", "gen", "gpuboxes(2,3,3,1,2)", "-o", b}).exit_code, 0);
  json k = json::parse(RunCli({"topo", "info", b, "--json"}).out);
  EXPECT_EQ(k["compute_orbits"],
            json::parse(R"([["b0g0", "b0g2", "b1g0", "b1g2"], ["b0g1", "b1g1"]])"));
}

TEST(TopoSymmetryCliTest, NoAutomorphismsFlagWritesTheOldFormat) {
  auto with = RunCli({"topo", "gen", "hypercube(2)", "-o", "-"});
  auto without = RunCli({"topo", "gen", "hypercube(2)", "--no-automorphisms", "-o", "-"});
  ASSERT_EQ(with.exit_code, 0);
  ASSERT_EQ(without.exit_code, 0);
  const std::string field = ",\n \"automorphisms\": [\n  [2, 3, 0, 1],\n  [1, 0, 3, 2]]}\n";
  ASSERT_NE(with.out.find(field), std::string::npos) << with.out;
  EXPECT_EQ(without.out, with.out.substr(0, with.out.find(field)) + "}\n");
  json j = json::parse(RunCli({"topo", "info", "-", "--json"}, without.out).out);
  EXPECT_EQ(j["automorphisms"], 0);
  EXPECT_EQ(j["compute_orbits"].size(), 4u);  // singletons
}

TEST(TopoSymmetryCliTest, WrongAutomorphismIsExitTwoNamingThePermutationAndALink) {
  const std::string f = RingWith("wrong.json", "[[1, 2, 3, 0], [1, 0, 2, 3]]");
  auto r = RunCli({"topo", "info", f});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + f +
                       ": automorphisms[1]: is not an automorphism: it maps link a -> b "
                       "(bandwidth 1) to b -> a, which is not a link\n");
  EXPECT_EQ(r.out, "");
  auto s = RunCli({"topo", "symmetry", f});
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_EQ(s.err, r.err);
  auto ok = RunCli({"topo", "info", RingWith("right.json", "[[1, 2, 3, 0], [2, 3, 0, 1]]")});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST(TopoSymmetryCliTest, NonPermutationsAreExitTwoNamingThePermutation) {
  struct Case {
    const char* field;
    const char* message;
  };
  for (const Case& c : {
           Case{"[[1, 2, 3, 0], [0, 1, 1, 3]]",
                "automorphisms[1]: is not a permutation of the nodes: entry 2 is 1 like entry 1 (a "
                "permutation maps different nodes apart)"},
           Case{"[[0, 1, 2, 4]]",
                "automorphisms[0]: is not a permutation of the nodes: entry 3 is 4, not a node "
                "index in 0..3"},
           Case{"[[0, -1, 2, 3]]",
                "automorphisms[0]: is not a permutation of the nodes: entry 1 is -1, not a node "
                "index in 0..3"},
           Case{"[[1, 2, 3, 0], [1, 2, 3]]",
                "automorphisms[1]: is not a permutation of the nodes: has 3 entries, the topology "
                "has 4 nodes"},
           Case{"[[1, 2, 3, 0, 4]]",
                "automorphisms[0]: is not a permutation of the nodes: has 5 entries, the topology "
                "has 4 nodes"},
           Case{"[[0, 1.5, 2, 3]]",
                "automorphisms[0]: entry 1 must be a node index (an integer in 0..3), got 1.5"},
           Case{"[[0, \"b\", 2, 3]]",
                "automorphisms[0]: entry 1 must be a node index (an integer in 0..3), got \"b\""},
           Case{"[[0, 1, 2, 99999999999]]",
                "automorphisms[0]: entry 3 must be a node index (an integer in 0..3), got "
                "99999999999"},
           Case{"[{\"a\": 0}]",
                "automorphisms[0]: must be an array of node indices (a permutation), got object"},
           Case{"{}", "automorphisms: must be an array, got object"},
       }) {
    const std::string f = RingWith("bad.json", c.field);
    auto r = RunCli({"topo", "info", f});
    EXPECT_EQ(r.exit_code, 2) << c.field;
    EXPECT_EQ(r.err, "collsynth: " + f + ": " + c.message + "\n") << c.field;
  }
}

TEST(TopoSymmetryCliTest, SymmetryFindsTranslationsOfAStrippedTorusAndWritesThem) {
  const std::string t = TempPath("plain_torus.json");
  ASSERT_EQ(RunCli({"topo", "gen", "torus(4,5)", "--no-automorphisms", "-o", t}).exit_code, 0);
  const std::string out = TempPath("sym_torus.json");
  auto r = RunCli({"topo", "symmetry", t, "--json", "--write", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["complete"], true);
  EXPECT_EQ(j["declared"], 0);
  EXPECT_GE(j["found"].get<int>(), 1);
  EXPECT_EQ(j["compute_orbits"].size(), 1u);
  EXPECT_EQ(j["orbits"], 1);
  auto info = RunCli({"topo", "info", out, "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  json k = json::parse(info.out);
  EXPECT_EQ(k["automorphisms"], j["found"]);
  EXPECT_EQ(k["compute_orbits"].size(), 1u);
  auto text = RunCli({"topo", "symmetry", t});
  EXPECT_NE(text.out.find("compute orbits      1 (sizes 20)\n"), std::string::npos) << text.out;
}

TEST(TopoSymmetryCliTest, SymmetryReportsNoneOnAnAsymmetricGraph) {
  // A path 0-1-2-3-4-5 with a leaf 6 on node 2: the smallest asymmetric tree.
  const std::string f = WriteTempFile(
      "asym.txt",
      "0 1 1\n1 0 1\n1 2 1\n2 1 1\n2 3 1\n3 2 1\n3 4 1\n4 3 1\n4 5 1\n5 4 1\n2 6 1\n6 2 1\n");
  auto r = RunCli({"topo", "symmetry", f, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["found"], 0);
  EXPECT_EQ(j["complete"], true);
  EXPECT_EQ(j["generators"], json::array());
  EXPECT_EQ(j["compute_orbits"].size(), 7u);
  // A budget too small to finish is reported, not hidden.
  auto b = RunCli({"topo", "symmetry", f, "--json", "--budget", "10"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(json::parse(b.out)["complete"], false);
}

}  // namespace
}  // namespace collsynth
