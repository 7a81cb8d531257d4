// ComputeBfbValue (the finder's fast BFB value) against GenerateBfbSchedule + the independent
// step checker: same T_L and the same exact T_B on the paper's families and on seeded random
// regular digraphs (differential test; seed from COLLSYNTH_SEED).
#include "solvers/finder/finder_bfb_value.h"

#include <gtest/gtest.h>

#include <random>

#include "core/input_error.h"
#include "graphs/expression.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb/bfb_schedule.h"
#include "test_util.h"

namespace collsynth {
namespace {

void ExpectAgrees(const Topology& g) {
  BfbValue v = ComputeBfbValue(g);
  BfbOptions o;
  o.threads = 1;
  o.certificates = false;
  BfbResult r = GenerateBfbSchedule(g, o);
  StepCheckReport rep = CheckStepSchedule(g, r.schedule);
  ASSERT_TRUE(rep.ok) << g.name();
  EXPECT_EQ(v.diameter, rep.tl) << g.name();
  EXPECT_EQ(v.tb_shard, rep.tb) << g.name() << ": " << ToString(v.tb_shard) << " vs "
                                << ToString(rep.tb);
}

TEST(FinderBfbValue, PaperFamiliesMatchBfbScheduleAndChecker) {
  for (const char* e :
       {"complete(5)", "bipartite(4)", "hamming(2,3)", "genkautz(2,11)", "genkautz(4,23)",
        "genkautz(3,40)", "kautz(2,2)", "circulant(12,2,3)", "circulant(10,1,3)",
        "dcirculant(6,1,2,3,4)", "uniring(2,5)", "biring(4,7)", "drg(petersenline)",
        "degree(biring(2,5),2)", "line(circulant(8,2,3))", "debruijn(2,4)",
        "product(uniring(1,3),uniring(1,4))", "twistedtorus(4,3,1)"}) {
    ExpectAgrees(EvaluateTopologyExpression(e));
  }
}

// Table 4 (seed 000): Π_{4,1024} has T_L = 5 and allreduce T_B = 2.664 M/B, i.e. allgather
// T_B = 341/256 M/B (341 shards over unit links).
TEST(FinderBfbValue, Table4GeneralizedKautz1024) {
  BfbValue v = ComputeBfbValue(EvaluateTopologyExpression("genkautz(4,1024)"));
  EXPECT_EQ(v.diameter, 5);
  EXPECT_EQ(v.tb_shard, Rational(341));
  ASSERT_TRUE(v.tb.has_value());
  EXPECT_EQ(*v.tb, Rational(341, 256));
  EXPECT_FALSE(*v.bandwidth_optimal);
}

TEST(FinderBfbValue, RandomRegularDigraphsMatchBfbSchedule) {
  std::mt19937_64 rng(testing::TestSeed());
  for (int it = 0; it < 12; ++it) {
    int n = 5 + static_cast<int>(rng() % 20), d = 2 + static_cast<int>(rng() % 3);
    // Union of d random permutations (plus a ring for strong connectivity): d+1 regular-ish
    // multigraph with unit bandwidth per unit link.
    Topology g("random" + std::to_string(it));
    for (int v = 0; v < n; ++v) g.AddCompute(std::to_string(v));
    for (int v = 0; v < n; ++v) g.AddLink(v, (v + 1) % n, 1);
    for (int k = 0; k < d; ++k) {
      std::vector<int> p(n);
      for (int v = 0; v < n; ++v) p[v] = v;
      std::shuffle(p.begin(), p.end(), rng);
      for (int v = 0; v < n; ++v) {
        if (p[v] != v) g.AddLink(v, p[v], 1);
      }
    }
    SCOPED_TRACE("seed " + std::to_string(testing::TestSeed()) + " instance " + std::to_string(it));
    ExpectAgrees(g);
  }
}

TEST(FinderBfbValue, RejectsDisconnected) {
  Topology g("two");
  g.AddCompute("a");
  g.AddCompute("b");
  g.AddLink(0, 1, 1);
  EXPECT_THROW(ComputeBfbValue(g), InputError);
}

}  // namespace
}  // namespace collsynth
