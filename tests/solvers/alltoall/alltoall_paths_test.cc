// The certified optimal flow decomposed into a "flows" schedule: the independent checker
// (proofs_check/flow_checker.h) must find T = 1/λ* on closed forms — the complete graph K_n
// (λ* = 1 at unit bandwidth, direct paths), the bidirectional ring of even N (λ* = 8/N²) —
// and on a demand matrix and the no-relay rule through a switch.
#include "solvers/alltoall/alltoall_paths.h"

#include <gtest/gtest.h>

#include "proofs_check/alltoall_certificate_check.h"
#include "proofs_check/flow_checker.h"
#include "solvers/alltoall/alltoall_optimum.h"

namespace collsynth {
namespace {

Topology Complete(int n) {
  Topology g("k" + std::to_string(n));
  for (int i = 0; i < n; ++i) g.AddCompute("v" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) g.AddLink(i, j, 1);
    }
  }
  return g;
}

Topology Ring(int n) {
  Topology g("ring" + std::to_string(n));
  for (int i = 0; i < n; ++i) g.AddCompute("r" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    g.AddLink(i, (i + 1) % n, 1);
    g.AddLink((i + 1) % n, i, 1);
  }
  return g;
}

// The schedule of the certified optimum of `demand`, and the checker's report on it.
FlowCheckReport CheckedOptimalFlows(const Topology& g, const DemandMatrix& demand, bool relay,
                                    Rational* lambda, FlowSchedule* out = nullptr) {
  const AlltoallOptimum opt = ComputeAlltoallOptimum(g, demand, {relay});
  EXPECT_EQ(opt.outcome, AlltoallOutcome::kCertified) << opt.detail;
  EXPECT_TRUE(CheckAlltoallCertificate(g, opt.certificate).ok);
  *lambda = opt.certificate.lambda;
  FlowSchedule s = FlowScheduleFromCertificate(g, opt.certificate, false);
  FlowCheckReport r = CheckFlowSchedule(g, s);
  if (out) *out = std::move(s);
  return r;
}

TEST(AlltoallPaths, CompleteGraphIsDirectWithTimeOne) {
  for (int n : {3, 5}) {
    const Topology g = Complete(n);
    Rational lambda;
    FlowSchedule s;
    const FlowCheckReport r = CheckedOptimalFlows(g, UniformDemand(g), true, &lambda, &s);
    EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(lambda, Rational(1));
    ASSERT_TRUE(r.time.has_value());
    EXPECT_EQ(*r.time, Rational(1));
    EXPECT_EQ(r.pairs, n * (n - 1));
    for (const PairFlows& f : s.flows) {
      ASSERT_EQ(f.paths.size(), 1u);  // a detour would overload a saturated direct link
      EXPECT_EQ(f.paths[0].nodes.size(), 2u);
    }
  }
}

TEST(AlltoallPaths, EvenRingTimeIsNSquaredOverEight) {
  for (int n : {4, 6, 8}) {
    const Topology g = Ring(n);
    Rational lambda;
    const FlowCheckReport r = CheckedOptimalFlows(g, UniformDemand(g), true, &lambda);
    EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_EQ(lambda, Rational(8, n * n));
    ASSERT_TRUE(r.time.has_value());
    EXPECT_EQ(*r.time, Rational(n * n, 8));
  }
}

// One pair a->b of 2 on the unit triangle: direct and over c, one each: T = 1; without relay
// only the direct link: T = 2 (one path).
TEST(AlltoallPaths, DemandMatrixAndNoRelay) {
  Topology g("triangle");
  for (const char* v : {"a", "b", "c"}) g.AddCompute(v);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      if (i != j) g.AddLink(i, j, 1);
    }
  }
  DemandMatrix d;
  d.entries = {{0, 1, Rational(2)}};
  Rational lambda;
  FlowSchedule s;
  FlowCheckReport r = CheckedOptimalFlows(g, d, true, &lambda, &s);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(*r.time, Rational(1));
  ASSERT_EQ(s.flows.size(), 1u);
  EXPECT_EQ(s.flows[0].paths.size(), 2u);
  r = CheckedOptimalFlows(g, d, false, &lambda, &s);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(*r.time, Rational(2));
  ASSERT_EQ(s.flows[0].paths.size(), 1u);
  EXPECT_EQ(s.flows[0].paths[0].nodes, (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace collsynth
