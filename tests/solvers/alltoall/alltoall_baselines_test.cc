// The all-to-all baselines (solvers/alltoall/alltoall_baselines.h, docs/baselines.md "All-to-all
// baselines") against closed forms and the certified optimum: on K_n every baseline is direct,
// T = 1; on the odd ring C_N shortest paths are unique, T = (N² − 1)/8 for all three; on the even
// ring ECMP splits each antipodal pair in two, T = N²/8 = T* (the optimum's 8/N² inverted),
// while direct and topoopt-forwarding send every antipodal pair the way of the lower link id
// (circulant(N,1) lists i -> i+1 before i -> i−1): T = N²/8 + N/4; on the hypercube Q_d ECMP
// loads every link alike, T = 2^(d−1) = T*; every baseline's T (recomputed by the flow checker,
// which must accept each claim) is at least the certified T*, on direct-connect and switched
// topologies, with and without relay; ECMP's paths carry exactly the metrics' ECMP loads; too
// many ECMP paths and topoopt-forwarding without relay are bad input.
#include "solvers/alltoall/alltoall_baselines.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "graphs/generators/seed000_generators.h"
#include "graphs/generators/switch_topologies.h"
#include "proofs_check/flow_checker.h"
#include "solvers/alltoall/alltoall_metrics.h"
#include "solvers/alltoall/alltoall_optimum.h"

namespace collsynth {
namespace {

// The baseline's achieved T, after the flow checker accepted the schedule and its claim.
Rational CheckedTime(const Topology& g, AlltoallBaseline which, bool relay = true) {
  AlltoallBaselineOptions o;
  o.which = which;
  o.relay = relay;
  const FlowSchedule s = BuildAlltoallBaseline(g, UniformDemand(g), o, g.name());
  const FlowCheckReport r = CheckFlowSchedule(g, s);
  EXPECT_TRUE(r.ok) << g.name() << ": " << (r.errors.empty() ? "" : r.errors[0]);
  return r.time ? *r.time : Rational(-1);
}

const AlltoallBaseline kAll[] = {AlltoallBaseline::kDirect, AlltoallBaseline::kEcmp,
                                 AlltoallBaseline::kTopoOptForwarding};

TEST(AlltoallBaselinesTest, CompleteGraphIsDirectWithTimeOne) {
  for (int n : {2, 3, 5}) {
    for (AlltoallBaseline b : kAll) EXPECT_EQ(CheckedTime(Complete(n), b), 1) << n;
  }
}

TEST(AlltoallBaselinesTest, RingsHaveTheirClosedForms) {
  for (int n : {5, 7, 9}) {  // unique shortest paths: Σ_{k=1}^{(N−1)/2} k per link
    for (AlltoallBaseline b : kAll) {
      EXPECT_EQ(CheckedTime(Circulant(n, {1}, true), b), Rational(n * n - 1, 8)) << n;
    }
  }
  for (int n : {4, 6, 8, 10}) {
    const Topology g = Circulant(n, {1}, true);
    EXPECT_EQ(CheckedTime(g, AlltoallBaseline::kEcmp), Rational(n * n, 8)) << n;
    EXPECT_EQ(CheckedTime(g, AlltoallBaseline::kDirect), Rational(n * n, 8) + Rational(n, 4)) << n;
    EXPECT_EQ(CheckedTime(g, AlltoallBaseline::kTopoOptForwarding),
              Rational(n * n, 8) + Rational(n, 4))
        << n;
  }
}

TEST(AlltoallBaselinesTest, HypercubeEcmpIsTheCutBound) {
  for (int d : {2, 3, 4}) {
    EXPECT_EQ(CheckedTime(Hypercube(d), AlltoallBaseline::kEcmp), Rational(1 << (d - 1))) << d;
  }
}

TEST(AlltoallBaselinesTest, NoBaselineBeatsTheCertifiedOptimum) {
  struct Case {
    Topology g;
    bool relay;
  };
  const Case cases[] = {{Circulant(6, {1}, true), true},
                        {Circulant(7, {1, 2}, true), true},
                        {Hypercube(3), true},
                        {Torus({3, 3}), true},
                        {Kautz(2, 2), true},
                        {FatTree(4), true},
                        {FatTree(4), false}};
  for (const Case& c : cases) {
    const AlltoallOptimum opt = ComputeAlltoallOptimum(c.g, UniformDemand(c.g), {c.relay});
    ASSERT_EQ(opt.outcome, AlltoallOutcome::kCertified) << c.g.name();
    const Rational t_star = 1 / opt.certificate.lambda;
    for (AlltoallBaseline b : kAll) {
      if (b == AlltoallBaseline::kTopoOptForwarding && !c.relay) continue;
      EXPECT_GE(CheckedTime(c.g, b, c.relay), t_star) << c.g.name();
    }
    // ECMP's flows carry the metrics' ECMP loads: the same λ.
    EXPECT_EQ(CheckedTime(c.g, AlltoallBaseline::kEcmp, c.relay),
              1 / ComputeEcmpRouting(c.g, UniformDemand(c.g), c.relay).lambda)
        << c.g.name();
  }
}

TEST(AlltoallBaselinesTest, BadRequestsAreInputErrors) {
  const Topology q = Hypercube(4);  // 4! = 24 paths between antipodes
  AlltoallBaselineOptions o;
  o.which = AlltoallBaseline::kEcmp;
  o.max_paths = 100;
  EXPECT_THROW(BuildAlltoallBaseline(q, UniformDemand(q), o, "q4"), InputError);
  o.which = AlltoallBaseline::kTopoOptForwarding;
  o.relay = false;
  o.max_paths = kMaxBaselinePaths;
  EXPECT_THROW(BuildAlltoallBaseline(q, UniformDemand(q), o, "q4"), InputError);
}

}  // namespace
}  // namespace collsynth
