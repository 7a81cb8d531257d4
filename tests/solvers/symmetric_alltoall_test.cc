// The symmetric all-to-all optimum (solvers/alltoall/symmetric_alltoall.h, docs/alltoall.md
// "Symmetric all-to-all"): λ* of the reduced LP against the fat-tree's closed form and against
// the full LP of alltoall_optimum.h (which knows nothing of H); the compact schedule's check
// (proofs_check/symmetric_flow_checker.h) against the plain check of its expansion; and the
// mutants the compact checker must reject.
#include "solvers/alltoall/symmetric_alltoall.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "graphs/expression.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/symmetric_flow_checker.h"
#include "schedules/alltoall_flow.h"
#include "schedules/symmetric_flow_schedule.h"
#include "solvers/alltoall/alltoall_optimum.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth {
namespace {

ComputeRegularGroup GroupOf(const Topology& g) {
  std::string why;
  const std::optional<RegularGroup> h = ChooseRegularGroup(g, &why);
  EXPECT_TRUE(h) << why;
  EXPECT_EQ(h->representatives.size(), 1u);
  return {h->generators, h->orders, h->exponents, h->link_orbit, h->link_orbit_size};
}

SymmetricAlltoallResult Solve(const Topology& g) {
  SymmetricAlltoallResult r = ComputeSymmetricAlltoall(g, GroupOf(g));
  EXPECT_TRUE(r.certified) << r.why;
  return r;
}

// λ* of the full source-aggregated LP (no group used).
Rational FullLpLambda(const Topology& g) {
  AlltoallOptions o;
  o.regular_group = false;
  const AlltoallOptimum opt = ComputeAlltoallOptimum(g, UniformDemand(g), o);
  EXPECT_EQ(opt.outcome, AlltoallOutcome::kCertified) << opt.detail;
  return opt.certificate.lambda;
}

// The compact check and the plain check of the expansion give the same T, bound and verdict.
void ExpectCompactMatchesPlain(const Topology& g, const SymmetricFlowSchedule& s) {
  const FlowCheckReport compact = CheckSymmetricFlowSchedule(g, s);
  const FlowCheckReport plain = CheckFlowSchedule(g, ExpandSymmetricFlowSchedule(s, g));
  EXPECT_EQ(compact.ok, plain.ok) << (plain.errors.empty() ? "" : plain.errors[0]);
  EXPECT_EQ(compact.verdict, plain.verdict);
  EXPECT_EQ(compact.time, plain.time);
  EXPECT_EQ(compact.time_lower_bound, plain.time_lower_bound);
  EXPECT_EQ(plain.pairs, static_cast<std::int64_t>(g.num_compute()) * (g.num_compute() - 1));
}

TEST(SymmetricAlltoall, FatTreeMeetsTheHostLinkClosedFormAndTheFullLp) {
  for (const char* expr : {"fattree(4)", "fattree(6)"}) {
    const Topology g = EvaluateTopologyExpression(expr);
    const SymmetricAlltoallResult r = Solve(g);
    // every host's one up-link carries its N - 1 units: λ* = 1/(N - 1) (docs/alltoall.md)
    EXPECT_EQ(r.lambda, Rational(1, g.num_compute() - 1)) << expr;
    ASSERT_TRUE(r.schedule);
    EXPECT_EQ(r.schedule->time, g.num_compute() - 1);
    ExpectCompactMatchesPlain(g, *r.schedule);
  }
  const Topology g = EvaluateTopologyExpression("fattree(4)");
  EXPECT_EQ(Solve(g).lambda, FullLpLambda(g));
}

TEST(SymmetricAlltoall, GpuboxesAndToriAgreeWithTheFullLp) {
  for (const char* expr : {"gpuboxes(2,4,300,25,2)", "gpuboxes(3,2,7,3,2)", "torus(3,4)"}) {
    const Topology g = EvaluateTopologyExpression(expr);
    const SymmetricAlltoallResult r = Solve(g);
    EXPECT_EQ(r.lambda, FullLpLambda(g)) << expr;
    ASSERT_TRUE(r.schedule);
    ExpectCompactMatchesPlain(g, *r.schedule);
  }
}

// The mutants: each must be rejected by the compact checker, naming the item.
class SymmetricFlowMutants : public ::testing::Test {
 protected:
  void SetUp() override {
    // λ* = 1/8 meets the hop-count bound, so every link is saturated: a detour shows
    g_ = EvaluateTopologyExpression("torus(4,4)");
    s_ = *Solve(g_).schedule;
    ASSERT_TRUE(CheckSymmetricFlowSchedule(g_, s_).ok);
  }
  std::string FirstError(const SymmetricFlowSchedule& s) {
    const FlowCheckReport r = CheckSymmetricFlowSchedule(g_, s);
    EXPECT_FALSE(r.ok);
    return r.errors.empty() ? "" : r.errors[0];
  }
  Topology g_;
  SymmetricFlowSchedule s_;
};

TEST_F(SymmetricFlowMutants, WrongExponent) {
  SymmetricFlowSchedule m = s_;
  std::swap(m.sources[1].exponents, m.sources[2].exponents);
  EXPECT_NE(FirstError(m).find("sources[1].exponents: map the root"), std::string::npos);
  m = s_;
  m.orders[0] *= 2;  // still gen^{2n} = id, but Π n_i = 2N: H would not act regularly
  EXPECT_NE(FirstError(m).find("group.orders: their product"), std::string::npos);
}

TEST_F(SymmetricFlowMutants, PathOverloadingAnOrbit) {
  // Replace the root's route to a neighbour t by one detour r -> a -> b -> t: the orbit's flow
  // grows by two units, so the computed T exceeds the claim.
  SymmetricFlowSchedule m = s_;
  const int r = m.root;
  for (PairFlows& f : m.flows) {
    const int t = f.to;
    if (!g_.FindLink(r, t)) continue;
    for (int ea : g_.OutLinks(r)) {
      const int a = g_.link(ea).to;
      for (int eb : g_.OutLinks(a)) {
        const int b = g_.link(eb).to;
        if (a == t || b == r || b == t || !g_.FindLink(b, t)) continue;
        f.paths = {{{r, a, b, t}, Rational(1)}};
        const FlowCheckReport rep = CheckSymmetricFlowSchedule(g_, m);
        EXPECT_EQ(rep.verdict, FlowVerdict::kWrongTime);
        ASSERT_TRUE(rep.time);
        EXPECT_GT(*rep.time, s_.time);
        return;
      }
    }
  }
  FAIL() << "no detour found";
}

TEST_F(SymmetricFlowMutants, LengthNotInvariant) {
  SymmetricFlowSchedule m = s_;
  ASSERT_TRUE(m.lengths && !m.lengths->empty());
  const auto [e, len] = m.lengths->front();
  // another link of the same orbit (the torus has one orbit per direction class) with 2ℓ
  for (int f = 0; f < g_.num_links(); ++f) {
    if (f == e) continue;
    m.lengths->push_back({f, 2 * len});
    const std::string err = FirstError(m);
    if (err.find("not H-invariant") != std::string::npos) return;
    m.lengths->pop_back();
  }
  FAIL() << "no second link of the first length's orbit";
}

TEST_F(SymmetricFlowMutants, MissingDestination) {
  SymmetricFlowSchedule m = s_;
  m.flows.pop_back();
  EXPECT_NE(FirstError(m).find("no entry in flows"), std::string::npos);
}

TEST_F(SymmetricFlowMutants, ClaimedTimeIsComputedNotTrusted) {
  SymmetricFlowSchedule m = s_;
  m.time = s_.time / 2;
  EXPECT_EQ(CheckSymmetricFlowSchedule(g_, m).verdict, FlowVerdict::kWrongTime);
}

TEST_F(SymmetricFlowMutants, GeneratorThatIsNotAnAutomorphism) {
  SymmetricFlowSchedule m = s_;
  std::swap(m.generators[0][0], m.generators[0][1]);  // still a permutation
  EXPECT_NE(FirstError(m).find("not an automorphism"), std::string::npos);
}

}  // namespace
}  // namespace collsynth
