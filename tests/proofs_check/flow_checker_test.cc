// The flows checker on a routing written by hand from the definition (the bidirectional 4-ring,
// uniform all-to-all: neighbours direct, the antipode half each way round; every link carries
// 1 + 1/2 + 1/2 = 2, so T = 2 = 1/λ* with λ* = 8/N² = 1/2), and mutants of it, one per
// violation class: each must be rejected with the item named.
#include "proofs_check/flow_checker.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/input_error.h"

namespace collsynth {
namespace {

Topology Ring4() {
  Topology g("ring4");
  for (int i = 0; i < 4; ++i) g.AddCompute("r" + std::to_string(i));
  for (int i = 0; i < 4; ++i) {
    g.AddLink(i, (i + 1) % 4, 1);
    g.AddLink((i + 1) % 4, i, 1);
  }
  return g;
}

FlowSchedule Ring4Flows(const Topology& g) {
  FlowSchedule s;
  s.demand = UniformDemand(g);
  s.time = 2;
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (a == b) continue;
      PairFlows f{a, b, {}};
      if ((a + 2) % 4 == b) {
        f.paths.push_back({{a, (a + 1) % 4, b}, Rational(1, 2)});
        f.paths.push_back({{a, (a + 3) % 4, b}, Rational(1, 2)});
      } else {
        f.paths.push_back({{a, b}, Rational(1)});
      }
      s.flows.push_back(f);
    }
  }
  return s;
}

// The index in flows of pair a->b.
std::size_t At(const FlowSchedule& s, int a, int b) {
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    if (s.flows[i].from == a && s.flows[i].to == b) return i;
  }
  ADD_FAILURE() << "no pair";
  return 0;
}

bool Mentions(const FlowCheckReport& r, const std::string& text) {
  for (const std::string& e : r.errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(FlowChecker, HandWrittenRingRoutingIsValidWithTimeTwo) {
  const Topology g = Ring4();
  const FlowCheckReport r = CheckFlowSchedule(g, Ring4Flows(g));
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.verdict, FlowVerdict::kValid);
  ASSERT_TRUE(r.time.has_value());
  EXPECT_EQ(*r.time, Rational(2));
  EXPECT_EQ(r.pairs, 12);
  EXPECT_EQ(r.paths, 16);
}

// Bandwidth 2 on r0->r1 halves that link's utilisation; the others still give T = 2. Bandwidth
// 1/2 there makes it the bottleneck: T = 4, named.
TEST(FlowChecker, TimeIsTheMaximumLoadOverBandwidth) {
  Topology g("ring4");
  for (int i = 0; i < 4; ++i) g.AddCompute("r" + std::to_string(i));
  for (int i = 0; i < 4; ++i) {
    g.AddLink(i, (i + 1) % 4, i == 0 ? Rational(1, 2) : Rational(1));
    g.AddLink((i + 1) % 4, i, 1);
  }
  FlowSchedule s = Ring4Flows(g);
  FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_EQ(r.verdict, FlowVerdict::kWrongTime);
  ASSERT_TRUE(r.time.has_value());
  EXPECT_EQ(*r.time, Rational(4));
  EXPECT_EQ(r.bottleneck_link, "r0->r1");
  s.time = 4;
  EXPECT_TRUE(CheckFlowSchedule(g, s).ok);
}

TEST(FlowChecker, ShareSumOffIsRejected) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  s.flows[At(s, 0, 2)].paths[1].share = Rational(1, 3);
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_EQ(r.verdict, FlowVerdict::kInvalid);
  EXPECT_TRUE(Mentions(r, "sum to 5/6, not 1")) << r.errors[0];
}

TEST(FlowChecker, BrokenPathIsRejected) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  s.flows[At(s, 0, 2)].paths[0].nodes = {0, 2};  // no link r0->r2
  FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_EQ(r.verdict, FlowVerdict::kInvalid);
  EXPECT_TRUE(Mentions(r, ".paths[0].path[1]: no link r0->r2")) << r.errors[0];

  s = Ring4Flows(g);
  s.flows[At(s, 1, 2)].paths[0].nodes = {0, 1, 2};  // starts at the wrong node
  r = CheckFlowSchedule(g, s);
  EXPECT_TRUE(Mentions(r, "path[0]: starts at r0, not at the source r1")) << r.errors[0];

  s = Ring4Flows(g);
  s.flows[At(s, 1, 2)].paths[0].nodes = {1, 2, 3};  // ends at the wrong node
  r = CheckFlowSchedule(g, s);
  EXPECT_TRUE(Mentions(r, "path[2]: ends at r3, not at the destination r2")) << r.errors[0];

  s = Ring4Flows(g);
  s.flows[At(s, 1, 2)].paths[0].nodes = {1, 2, 1, 2};  // a node twice
  r = CheckFlowSchedule(g, s);
  EXPECT_TRUE(Mentions(r, "path[2]: r1 visited twice")) << r.errors[0];
}

TEST(FlowChecker, WrongClaimedTimeIsRejected) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  s.time = Rational(3, 2);
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.verdict, FlowVerdict::kWrongTime);
  EXPECT_TRUE(Mentions(r, "claims 3/2, its link loads give 2")) << r.errors[0];
}

// The antipode r0->r2 all one way: r0->r1 carries 1 + 1 + 1/2 = 5/2 > T·b = 2.
TEST(FlowChecker, OverloadedLinkIsRejected) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  PairFlows& f = s.flows[At(s, 0, 2)];
  f.paths.pop_back();
  f.paths[0].share = 1;
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_EQ(r.verdict, FlowVerdict::kWrongTime);
  EXPECT_EQ(*r.time, Rational(5, 2));
  EXPECT_EQ(r.bottleneck_link, "r0->r1");
}

TEST(FlowChecker, PairsMissingRepeatedOrOutsideTheDemandAreRejected) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  s.flows.erase(s.flows.begin() + static_cast<std::ptrdiff_t>(At(s, 3, 1)));
  EXPECT_TRUE(Mentions(CheckFlowSchedule(g, s), "demand r3->r1: no entry in flows"));

  s = Ring4Flows(g);
  s.flows.push_back(s.flows[0]);
  EXPECT_TRUE(
      Mentions(CheckFlowSchedule(g, s), "flows[12]: pair r0->r1 already given at flows[0]"));

  s = Ring4Flows(g);
  s.uniform = false;
  s.demand.entries = {{0, 1, Rational(1)}};
  EXPECT_TRUE(Mentions(CheckFlowSchedule(g, s), "flows[1]: r0->r2 is not a pair of the demand"));
}

TEST(FlowChecker, NonPositiveShareIsRejected) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  PairFlows& f = s.flows[At(s, 0, 1)];
  f.paths.push_back({{0, 3, 2, 1}, Rational(0)});
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_EQ(r.verdict, FlowVerdict::kInvalid);
  EXPECT_TRUE(Mentions(r, ".paths[1].share: 0 <= 0")) << r.errors[0];
}

// Relay at a compute node: allowed by default, a violation when the schedule says relay false.
TEST(FlowChecker, NoRelayForbidsComputeNodesInTheMiddle) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  s.relay = false;
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_EQ(r.verdict, FlowVerdict::kInvalid);
  EXPECT_TRUE(Mentions(r, "path[1]: compute node r1 relays (relay is false)")) << r.errors[0];
}

// A demand matrix: a->b of 3 through a switch w (links of bandwidth 2): T = 3/2.
TEST(FlowChecker, DemandAmountsWeighTheLoads) {
  Topology g("star");
  const int a = g.AddCompute("a"), b = g.AddCompute("b"), w = g.AddSwitch("w");
  g.AddLink(a, w, 2);
  g.AddLink(w, b, 2);
  FlowSchedule s;
  s.uniform = false;
  s.relay = false;
  s.demand.entries = {{a, b, Rational(3)}};
  s.time = Rational(3, 2);
  s.flows = {{a, b, {{{a, w, b}, Rational(1)}}}};
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(*r.time, Rational(3, 2));
}

// The limit on exact sums: shares 1/p over the primes p < 40,000 (their product has about 17,000
// digits) on one pair make the share sum's denominator pass 10^10000: an InputError naming the
// pair's paths, not a check that grows without bound.
TEST(FlowChecker, ExactSumsAreBounded) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  PairFlows& f = s.flows[At(s, 0, 1)];
  f.paths.clear();
  std::vector<bool> composite(40000, false);
  for (int p = 2; p < 40000; ++p) {
    if (composite[p]) continue;
    for (int q = 2 * p; q < 40000; q += p) composite[q] = true;
    f.paths.push_back({{0, 1}, Rational(1, p)});
  }
  try {
    CheckFlowSchedule(g, s);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "flows[0].paths");
    EXPECT_NE(e.problem().find("exceeds 10000 digits"), std::string::npos) << e.problem();
  }
}

// The dual certificate of a flows file ("lengths"): the bound B = Σ d dist_ℓ / Σ b ℓ is a lower
// bound on T for every routing. On the 4-ring with ℓ = 1 everywhere: 8 neighbour pairs at
// distance 1 and 4 antipodal pairs at 2 give 16 over Σ b ℓ = 8, B = 2 = T: optimal. ℓ = 2 on
// r0->r1 only changes the pair r0->r1 (distance 2) and the antipodes' ties: 17 / 9 < 2, a valid
// bound that does not prove optimality. Lengths on one link only leave every pair a free path
// the other way round (Σ d dist = 0, no bound), and a negative length are rejected.
TEST(FlowChecker, LengthsCertifyTheRingRoutingOptimal) {
  const Topology g = Ring4();
  FlowSchedule s = Ring4Flows(g);
  s.lengths = std::vector<Rational>(g.num_links(), Rational(1));
  FlowCheckReport r = CheckFlowSchedule(g, s);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  ASSERT_TRUE(r.time_lower_bound.has_value());
  EXPECT_EQ(*r.time_lower_bound, Rational(2));
  EXPECT_EQ(r.optimal, std::optional<bool>(true));

  (*s.lengths)[*g.FindLink(0, 1)] = 2;
  r = CheckFlowSchedule(g, s);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(*r.time_lower_bound, Rational(17, 9));
  EXPECT_EQ(r.optimal, std::optional<bool>(false));

  s.lengths = std::vector<Rational>(g.num_links());
  (*s.lengths)[*g.FindLink(0, 1)] = 1;
  r = CheckFlowSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.verdict, FlowVerdict::kInvalid);
  EXPECT_TRUE(Mentions(r, "lengths: sum of demand * distance is 0")) << r.errors[0];

  s.lengths = std::vector<Rational>(g.num_links(), Rational(1));
  (*s.lengths)[*g.FindLink(2, 3)] = -1;
  r = CheckFlowSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Mentions(r, "lengths: length of link r2->r3 < 0")) << r.errors[0];
  EXPECT_FALSE(r.optimal.has_value());

  s.lengths.reset();  // without lengths: valid, nothing said about optimality
  r = CheckFlowSchedule(g, s);
  EXPECT_TRUE(r.ok);
  EXPECT_FALSE(r.time_lower_bound.has_value());
  EXPECT_FALSE(r.optimal.has_value());
}

}  // namespace
}  // namespace collsynth
