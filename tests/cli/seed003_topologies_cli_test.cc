// `collsynth topo gen` with the seed 003 comparison families: bad parameters exit 2 with
// one line naming the expression and the problem; a good one builds.
#include <gtest/gtest.h>

#include "test_util.h"

namespace collsynth {
namespace {

using testing::RunCli;

TEST(Seed003TopologiesCli, BadParametersExitTwoWithAClearMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"slimfly(6)",
       "collsynth: <expr>: slimfly(6): slimfly: q = 6 must be a prime power in [3, 65536]\n"},
      {"bundlefly(7,3)",
       "collsynth: <expr>: bundlefly(7,3): bundlefly: the Paley supernode needs d' even, d' >= 2 "
       "and 2d'+1 a prime power; got d' = 3\n"},
      {"hyperx(1,3)",
       "collsynth: <expr>: hyperx(1,3): parameter S_1 = 1 is out of range [2, 10000000]\n"},
      {"megafly(8,15,8)",
       "collsynth: <expr>: megafly(8,15,8): megafly: a = 15 must be even and in [2, 1048576]\n"},
      {"karyntree(18)",
       "collsynth: <expr>: karyntree(18): wrong number of arguments: karyntree(k,n) takes 2, got "
       "1\n"},
      {"spectralfly(29,3)",
       "collsynth: <expr>: spectralfly(29,3): spectralfly(29,3): two generators coincide in "
       "PGL(2,3) (or one is the identity); the graph would not be simple (take q > 2·sqrt(p))\n"},
      {"spectralfly(23,23)",
       "collsynth: <expr>: spectralfly(23,23): spectralfly: p and q must differ, got 23\n"},
  };
  for (const auto& [expr, message] : cases) {
    auto r = RunCli({"topo", "gen", expr, "-o", "-"});
    EXPECT_EQ(r.exit_code, 2) << expr;
    EXPECT_EQ(r.err, message) << expr;
    EXPECT_EQ(r.out, "") << expr;
  }
}

TEST(Seed003TopologiesCli, ListShowsEveryComparisonFamily) {
  auto r = RunCli({"topo", "gen", "--list"});
  ASSERT_EQ(r.exit_code, 0);
  for (const char* sig : {"slimfly(q)", "bundlefly(q,d')", "hyperx(S_1,...,S_L)",
                          "spectralfly(p,q)", "megafly(rho,a,p)", "karyntree(k,n)"}) {
    EXPECT_NE(r.out.find(sig), std::string::npos) << sig;
  }
}

}  // namespace
}  // namespace collsynth
