// The all-to-all certificate checker on a certificate written by hand from the definition
// (the bidirectional 4-ring: λ* = 8/N² = 1/2), and mutants of it, one per violation class:
// each must be rejected with the violation named.
#include "proofs_check/alltoall_certificate_check.h"

#include <gtest/gtest.h>

namespace collsynth {
namespace {

// Ring 0-1-2-3-0, unit bandwidth each way.
Topology Ring4(const Rational& bw01 = 1) {
  Topology g("ring4");
  for (int i = 0; i < 4; ++i) g.AddCompute("r" + std::to_string(i));
  for (int i = 0; i < 4; ++i) {
    g.AddLink(i, (i + 1) % 4, i == 0 ? bw01 : Rational(1));
    g.AddLink((i + 1) % 4, i, 1);
  }
  return g;
}

int L(const Topology& g, int a, int b) { return *g.FindLink(a, b); }

// λ = 1/2: neighbours direct (1/2), the antipode 1/4 each way round. Every link carries 3/4
// from its tail's commodity and 1/4 from the commodity one step behind: load 1. Lengths 1:
// Σ c ℓ = 8, Σ dist = 4·(1 + 1 + 2) = 16, bound 1/2.
AlltoallCertificate Ring4Certificate(const Topology& g) {
  AlltoallCertificate c;
  c.demand = UniformDemand(g);
  c.lambda = Rational(1, 2);
  for (int s = 0; s < 4; ++s) {
    c.sources.push_back(s);
    std::vector<Rational> f(g.num_links());
    const int next = (s + 1) % 4, prev = (s + 3) % 4, opp = (s + 2) % 4;
    f[L(g, s, next)] = Rational(3, 4);
    f[L(g, next, opp)] = Rational(1, 4);
    f[L(g, s, prev)] = Rational(3, 4);
    f[L(g, prev, opp)] = Rational(1, 4);
    c.flow.push_back(f);
  }
  c.length.assign(g.num_links(), Rational(1));
  return c;
}

TEST(AlltoallCertificateCheck, HandWrittenRingCertificateIsAccepted) {
  Topology g = Ring4();
  AlltoallCheckReport r = CheckAlltoallCertificate(g, Ring4Certificate(g));
  EXPECT_TRUE(r.ok) << r.violation;
  EXPECT_EQ(r.lower, Rational(1, 2));
  EXPECT_EQ(r.upper, Rational(1, 2));
}

// A quarter unit of commodity 0's antipodal flow moved from 0->1->2 to 0->3->2: conservation
// still holds, but links 0->3 and 3->2 now carry 5/4 > 1 (3->2 has the lower link id).
TEST(AlltoallCertificateCheck, MovedFlowOverloadsALink) {
  Topology g = Ring4();
  AlltoallCertificate c = Ring4Certificate(g);
  c.flow[0][L(g, 0, 1)] -= Rational(1, 4);
  c.flow[0][L(g, 1, 2)] -= Rational(1, 4);
  c.flow[0][L(g, 0, 3)] += Rational(1, 4);
  c.flow[0][L(g, 3, 2)] += Rational(1, 4);
  AlltoallCheckReport r = CheckAlltoallCertificate(g, c);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.violation.find("link r3->r2: load 5/4 > bandwidth 1"), std::string::npos)
      << r.violation;
}

// Flow added on one link only: node r2 receives more than λ·d for commodity r0.
TEST(AlltoallCertificateCheck, BrokenConservationIsRejected) {
  Topology g = Ring4();
  AlltoallCertificate c = Ring4Certificate(g);
  c.flow[0][L(g, 1, 2)] += Rational(1, 8);
  AlltoallCheckReport r = CheckAlltoallCertificate(g, c);
  EXPECT_FALSE(r.primal_ok);
  EXPECT_NE(r.violation.find("commodity r0: node r1"), std::string::npos) << r.violation;
}

// The same flow on a ring whose link 0->1 has bandwidth 3/4: capacity exceeded.
TEST(AlltoallCertificateCheck, ExceededCapacityIsRejected) {
  Topology g = Ring4(Rational(3, 4));
  AlltoallCheckReport r = CheckAlltoallCertificate(g, Ring4Certificate(g));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.violation.find("link r0->r1: load 1 > bandwidth 3/4"), std::string::npos)
      << r.violation;
}

// Length of 0->1 lowered to 0: Σ c ℓ = 7, and the pairs 0->1, 0->2, 3->1 each get 1 shorter:
// Σ dist = 13, bound 7/13 != 1/2, so the dual no longer proves optimality.
TEST(AlltoallCertificateCheck, LoweredLengthBreaksTheDualBound) {
  Topology g = Ring4();
  AlltoallCertificate c = Ring4Certificate(g);
  c.length[L(g, 0, 1)] = 0;
  AlltoallCheckReport r = CheckAlltoallCertificate(g, c);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.primal_ok && r.dual_ok);
  EXPECT_EQ(r.upper, Rational(7, 13));
}

TEST(AlltoallCertificateCheck, NegativeLengthIsRejected) {
  Topology g = Ring4();
  AlltoallCertificate c = Ring4Certificate(g);
  c.length[L(g, 2, 3)] = -1;
  AlltoallCheckReport r = CheckAlltoallCertificate(g, c);
  EXPECT_FALSE(r.dual_ok);
  EXPECT_NE(r.violation.find("length of link r2->r3 < 0"), std::string::npos) << r.violation;
}

// A wrong λ: 3/5 with the same flow breaks conservation; 1/3 with the flow scaled to it is
// feasible but below the dual bound 1/2 (not proven optimal).
TEST(AlltoallCertificateCheck, WrongLambdaIsRejected) {
  Topology g = Ring4();
  AlltoallCertificate c = Ring4Certificate(g);
  c.lambda = Rational(3, 5);
  EXPECT_FALSE(CheckAlltoallCertificate(g, c).primal_ok);
  c.lambda = Rational(1, 3);
  for (auto& row : c.flow) {
    for (Rational& f : row) f *= Rational(2, 3);
  }
  AlltoallCheckReport r = CheckAlltoallCertificate(g, c);
  EXPECT_TRUE(r.primal_ok);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.upper, Rational(1, 2));
}

// Without relay, commodity r0 may not leave r1: the certificate's antipodal flow does.
TEST(AlltoallCertificateCheck, RelayThroughComputeNodeRejectedWithoutRelay) {
  Topology g = Ring4();
  AlltoallCertificate c = Ring4Certificate(g);
  c.relay = false;
  AlltoallCheckReport r = CheckAlltoallCertificate(g, c);
  EXPECT_FALSE(r.primal_ok);
  EXPECT_NE(r.violation.find("relays"), std::string::npos) << r.violation;
}

// Malformed certificates are violations, not crashes.
TEST(AlltoallCertificateCheck, MalformedCertificateIsAViolation) {
  Topology g = Ring4();
  AlltoallCertificate c = Ring4Certificate(g);
  c.flow.pop_back();
  EXPECT_FALSE(CheckAlltoallCertificate(g, c).ok);
  c = Ring4Certificate(g);
  c.length.pop_back();
  EXPECT_FALSE(CheckAlltoallCertificate(g, c).dual_ok);
  c = Ring4Certificate(g);
  c.demand.entries.push_back(c.demand.entries.front());
  EXPECT_NE(CheckAlltoallCertificate(g, c).violation.find("repeated"), std::string::npos);
}

}  // namespace
}  // namespace collsynth
