// Heterogeneous BFB (seed 000 App. D.3, LP (13)): α file parsing, the remove-unused-
// expensive-link rule on a whole topology, checker validity, and agreement with the
// homogeneous LP (3) when every α is 0.
#include "solvers/bfb/heterogeneous_bfb.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb_test_topologies.h"

namespace collsynth {
namespace {

using namespace bfb_test;

TEST(HeterogeneousBfbTest, ZeroAlphaEqualsLp3) {
  Topology g = GeneralizedKautz(2, 12);
  std::vector<Rational> zero(g.num_links(), Rational(0));
  BfbResult het = GenerateHeterogeneousBfbSchedule(g, zero);
  BfbResult hom = GenerateBfbSchedule(g, {});
  EXPECT_EQ(het.tb, hom.tb);
  EXPECT_EQ(het.u_sum, hom.u_sum);
}

TEST(HeterogeneousBfbTest, AppD3ExpensiveShortcutIsDroppedOnATriangle) {
  // Bidirectional triangle whose link n0 -> n2 has α = 10: at step 1 node n2 can only get
  // n0's shard over that link (d(n0, n2) = 1), so the α is paid: U_{n2,1} = 10 + 1.
  Topology g = WithNodes("tri", 3);
  g.AddDuplexLink(0, 1, Rational(1));
  g.AddDuplexLink(1, 2, Rational(1));
  g.AddDuplexLink(2, 0, Rational(1));
  std::vector<Rational> alpha(g.num_links(), Rational(0));
  alpha[*g.FindLink(0, 2)] = Rational(10);
  BfbResult r = GenerateHeterogeneousBfbSchedule(g, alpha);
  // Step 1: every node receives each neighbour's shard over the direct link; node 2's
  // in-link from 0 pays 10 + 1: u_sum = 11 (single step, diameter 1).
  EXPECT_EQ(r.tl, 1);
  EXPECT_EQ(r.u_sum, Rational(11));
  EXPECT_EQ(r.tb, Rational(1));
  StepCheckOptions o;
  o.check_bfb = true;
  EXPECT_TRUE(CheckStepSchedule(g, r.schedule, o).ok);
}

TEST(HeterogeneousBfbTest, IdleExpensiveLinkIsNotCharged) {
  // Directed 4-cycle 0->1->2->3->0 plus chord 0->2 with α = 5. Node 2 gets 0's shard over
  // the chord at step 1 and 3's at step 2 (U = 6 both times), but has nothing to receive
  // at step 3 (diameter 3): LP (13) as printed still charges α = 5 there, the App. D.3 rule
  // removes the idle link (U = 0), so Σ_t max_u U drops from 6+6+5 to 6+6+1.
  Topology g = WithNodes("chord", 4);
  for (int i = 0; i < 4; ++i) g.AddLink(i, (i + 1) % 4, Rational(1));
  g.AddLink(0, 2, Rational(1));
  std::vector<Rational> alpha(g.num_links(), Rational(0));
  alpha[*g.FindLink(0, 2)] = Rational(5);
  BfbOptions literal;
  literal.remove_unused_expensive_links = false;
  BfbResult with_rule = GenerateHeterogeneousBfbSchedule(g, alpha);
  BfbResult without = GenerateHeterogeneousBfbSchedule(g, alpha, literal);
  EXPECT_EQ(without.u_sum, Rational(17));
  EXPECT_EQ(with_rule.u_sum, Rational(13));
  EXPECT_EQ(with_rule.tb, without.tb);
  StepCheckOptions o;
  o.check_bfb = true;
  EXPECT_TRUE(CheckStepSchedule(g, with_rule.schedule, o).ok);
}

TEST(HeterogeneousBfbTest, AlphaFileParsingAndErrors) {
  Topology g = WithNodes("pair", 2);
  g.AddDuplexLink(0, 1, Rational(1));
  auto j = nlohmann::json::parse(
      R"({"default_alpha": "1/2", "links": [{"from": "n0", "to": "n1", "alpha": 3}]})");
  std::vector<Rational> a = LinkAlphasFromJson(j, g, "f.json");
  EXPECT_EQ(a[*g.FindLink(0, 1)], Rational(3));
  EXPECT_EQ(a[*g.FindLink(1, 0)], Rational(1, 2));
  for (
      const char* bad :
      {R"({"links": [{"from": "n0", "to": "zz", "alpha": 1}]})",
       R"({"links": [{"from": "n0", "to": "n1", "alpha": "-1"}]})",
       R"({"links": [{"from": "n0", "to": "n1", "alpha": 0.5}]})",
       R"({"links": [{"from": "n0", "to": "n1", "alpha": 1}, {"from": "n0", "to": "n1", "alpha": 2}]})",
       R"([1, 2])"}) {
    EXPECT_THROW(LinkAlphasFromJson(nlohmann::json::parse(bad), g, "f.json"), InputError) << bad;
  }
}

}  // namespace
}  // namespace collsynth
