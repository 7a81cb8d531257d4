// The all-to-all optimum λ* (maximum concurrent flow) against closed forms, a brute-force cut
// bound and a second LP formulation; metamorphic scalings; the naive ECMP-like routing.
// Every λ* asserted here comes from a certificate that proofs_check's checker accepted.
#include "solvers/alltoall/alltoall_optimum.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>

#include "graphs/expression.h"
#include "proofs_check/alltoall_certificate_check.h"
#include "solvers/alltoall/alltoall_metrics.h"
#include "solvers/backends/lp_backend.h"
#include "solvers/pipeline_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::HypercubeTopology;
using testing::RingTopology;

Topology Complete(int n, const Rational& bw = 1) {
  Topology g("complete");
  for (int i = 0; i < n; ++i) g.AddCompute("k" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) g.AddDuplexLink(i, j, bw);
  }
  return g;
}

// Triangle a, b, c: a<->b and b<->c at bandwidth 1, a<->c at 1/2. Relaying a->c partly over b
// gives λ* = 3/4 (λ + x <= 1 on a->b, λ - x <= 1/2 on a->c); without relay, or with shortest
// paths only, a->c is stuck on its 1/2 link: λ = 1/2.
Topology WeakChordTriangle() {
  Topology g("triangle");
  for (const char* n : {"a", "b", "c"}) g.AddCompute(n);
  g.AddDuplexLink(0, 1, 1);
  g.AddDuplexLink(1, 2, 1);
  g.AddDuplexLink(0, 2, Rational(1, 2));
  return g;
}

Rational CertifiedLambda(const Topology& g, const DemandMatrix& d, bool relay = true) {
  AlltoallOptimum opt = ComputeAlltoallOptimum(g, d, {relay});
  EXPECT_EQ(opt.outcome, AlltoallOutcome::kCertified) << opt.detail;
  // The value is taken from the independent checker, not from the producer.
  AlltoallCheckReport rep = CheckAlltoallCertificate(g, opt.certificate);
  EXPECT_TRUE(rep.ok) << rep.violation;
  EXPECT_EQ(rep.lower, rep.upper);
  return rep.lower;
}

Rational Uniform(const Topology& g) { return CertifiedLambda(g, UniformDemand(g)); }

// Brute force over all node sets S: λ* <= c(S -> V\S) / D(S -> V\S) (every unit of demand
// from S to outside crosses the cut). Exact; 2^V subsets.
Rational CutBound(const Topology& g, const DemandMatrix& d) {
  const int n = g.num_nodes();
  Rational best = -1;
  for (int mask = 1; mask + 1 < (1 << n); ++mask) {
    Rational cap = 0, dem = 0;
    for (const Link& l : g.links()) {
      if ((mask >> l.from & 1) && !(mask >> l.to & 1)) cap += l.bandwidth;
    }
    for (const DemandEntry& x : d.entries) {
      if ((mask >> x.from & 1) && !(mask >> x.to & 1)) dem += x.amount;
    }
    if (dem > 0 && (best < 0 || cap / dem < best)) best = cap / dem;
  }
  return best;
}

// A second formulation: the path LP over every simple path of each pair (CLP, double).
double PathLp(const Topology& g, const DemandMatrix& d) {
  LpProblem p;
  p.objective = {-1.0};
  p.col_lower = {0.0};
  p.col_upper = {kLpInfinity};
  std::vector<std::vector<int>> on_link(g.num_links());
  for (const DemandEntry& x : d.entries) {
    const int row = p.num_rows();
    p.row_lower.push_back(0.0);
    p.row_upper.push_back(kLpInfinity);
    p.entries.push_back({row, 0, -x.amount.convert_to<double>()});
    std::vector<bool> seen(g.num_nodes(), false);
    std::vector<int> links;
    std::function<void(int)> walk = [&](int v) {
      if (v == x.to) {
        const int col = p.num_cols();
        p.objective.push_back(0.0);
        p.col_lower.push_back(0.0);
        p.col_upper.push_back(kLpInfinity);
        p.entries.push_back({row, col, 1.0});
        for (int e : links) on_link[e].push_back(col);
        return;
      }
      seen[v] = true;
      for (int e : g.OutLinks(v)) {
        if (seen[g.link(e).to]) continue;
        links.push_back(e);
        walk(g.link(e).to);
        links.pop_back();
      }
      seen[v] = false;
    };
    walk(x.from);
  }
  for (int e = 0; e < g.num_links(); ++e) {
    const int row = p.num_rows();
    p.row_lower.push_back(-kLpInfinity);
    p.row_upper.push_back(g.link(e).bandwidth.convert_to<double>());
    for (int col : on_link[e]) p.entries.push_back({row, col, 1.0});
  }
  LpSolution s = SolveLpWithClp(p);
  EXPECT_EQ(s.outcome, LpOutcome::kOptimal);
  return s.primal.empty() ? -1.0 : s.primal[0];
}

// A third formulation, independent of the producer's: the destination-aggregated LP (one
// commodity per destination t, conservation out - in = λ·d(v, t) at every v != t; every node
// relays), solved by CLP's dual simplex in double.
double DestinationLp(const Topology& g, const DemandMatrix& d) {
  LpProblem p;
  p.objective = {-1.0};
  p.col_lower = {0.0};
  p.col_upper = {kLpInfinity};
  std::map<int, std::map<int, double>> into;  // t -> s -> d_st
  for (const DemandEntry& x : d.entries) into[x.to][x.from] = x.amount.convert_to<double>();
  std::vector<std::vector<int>> on_link(g.num_links());
  for (const auto& [t, from] : into) {
    std::vector<int> col(g.num_links());
    for (int e = 0; e < g.num_links(); ++e) {
      col[e] = p.num_cols();
      on_link[e].push_back(col[e]);
      p.objective.push_back(0.0);
      p.col_lower.push_back(0.0);
      p.col_upper.push_back(kLpInfinity);
    }
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (v == t) continue;
      const int row = p.num_rows();
      p.row_lower.push_back(0.0);
      p.row_upper.push_back(0.0);
      for (int e : g.OutLinks(v)) p.entries.push_back({row, col[e], 1.0});
      for (int e : g.InLinks(v)) p.entries.push_back({row, col[e], -1.0});
      auto it = from.find(v);
      if (it != from.end()) p.entries.push_back({row, 0, -it->second});
    }
  }
  for (int e = 0; e < g.num_links(); ++e) {
    const int row = p.num_rows();
    p.row_lower.push_back(-kLpInfinity);
    p.row_upper.push_back(g.link(e).bandwidth.convert_to<double>());
    for (int c : on_link[e]) p.entries.push_back({row, c, 1.0});
  }
  LpSolution s = SolveLpWithClp(p);
  EXPECT_EQ(s.outcome, LpOutcome::kOptimal);
  return s.primal.empty() ? -1.0 : s.primal[0];
}

// Regression: on kautz(2,4) (48 nodes, out-degree 2) the LP's vertex has denominators that
// rounding up to 10^12 did not recover (exact bounds stayed apart). The exact re-solve at CLP's
// basis certifies it. Kautz graphs for D >= 2 are not arc-transitive (2-paths u v u and u v w
// lie in different orbits), so no closed form applies: λ* is compared with the
// destination-aggregated LP (a different LP with the same optimum) and lies strictly below the
// hop-count bound Σ c_e / Σ d_st·hops(s, t) (the certified flow's bandwidth tax exceeds the
// average path length: it uses longer paths).
TEST(AlltoallOptimum, KautzTwoFourIsCertifiedByTheExactBasis) {
  const Topology g = EvaluateTopologyExpression("kautz(2,4)");
  const DemandMatrix d = UniformDemand(g);
  AlltoallOptimum opt = ComputeAlltoallOptimum(g, d);
  ASSERT_EQ(opt.outcome, AlltoallOutcome::kCertified) << opt.detail;
  EXPECT_EQ(opt.certified_by, kFromExactBasis);
  EXPECT_EQ(opt.denominator, 0);
  const AlltoallCheckReport rep = CheckAlltoallCertificate(g, opt.certificate);
  ASSERT_TRUE(rep.ok) << rep.violation;
  const double lp = DestinationLp(g, d);
  // CLP stops within its tolerances (1e-7, relative to the scaled LP), not at the exact vertex
  EXPECT_NEAR(rep.lower.convert_to<double>(), lp, 1e-6 * lp);
  const EcmpRouting ecmp = ComputeEcmpRouting(g, d, true);
  Rational capacity = 0;
  for (const Link& l : g.links()) capacity += l.bandwidth;
  const Rational hop_bound =
      capacity / (ecmp.average_path_length * static_cast<long>(d.entries.size()));
  EXPECT_LT(rep.lower, hop_bound);
  EXPECT_GE(rep.lower, ecmp.lambda);
  EXPECT_GT(BandwidthTax(g, opt.certificate), ecmp.average_path_length);
}

// Differential: the exact basis and the rounding ladder (the basis switched off) are two
// certifications of the same LP; where both certify, they give the same λ*: on the closed-form
// topologies (ring 8/N², hypercube 2^(1-d), torus(k,k) 8/k³ from its bisection: 2k links each
// way carry (k²/2)² pairs, 1/8 at k = 4) and on seeded
// random digraphs with skewed demands.
TEST(AlltoallOptimum, ExactBasisAndRoundingAgree) {
  std::vector<std::pair<Topology, Rational>> known = {
      {RingTopology(8, {Rational(1)}), Rational(1, 8)},
      {HypercubeTopology(4), Rational(1, 8)},
      {EvaluateTopologyExpression("torus(4,4)"), Rational(1, 8)}};
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 6; ++trial) {
    known.push_back({testing::RandomEulerianTopology(rng, 4 + trial % 3, trial % 2, 2, 3), -1});
  }
  int by_basis = 0;
  for (const auto& [g, closed] : known) {
    DemandMatrix d = UniformDemand(g);
    if (closed < 0) {
      for (DemandEntry& x : d.entries) x.amount = Rational(1 + static_cast<int>(rng() % 4));
    }
    AlltoallOptions full_lp;  // the full LP's two certifications (no regular-group reduction)
    full_lp.regular_group = false;
    AlltoallOptimum basis = ComputeAlltoallOptimum(g, d, full_lp);
    AlltoallOptions no_basis = full_lp;
    no_basis.exact_basis = false;
    AlltoallOptimum rounding = ComputeAlltoallOptimum(g, d, no_basis);
    ASSERT_EQ(basis.outcome, AlltoallOutcome::kCertified) << g.name() << " seed " << seed;
    ASSERT_EQ(rounding.outcome, AlltoallOutcome::kCertified) << g.name() << " seed " << seed;
    EXPECT_EQ(rounding.certified_by, kFromRounding);
    EXPECT_EQ(basis.certificate.lambda, rounding.certificate.lambda)
        << g.name() << " seed " << seed;
    if (closed >= 0) {
      EXPECT_EQ(basis.certificate.lambda, closed) << g.name();
    }
    if (basis.certified_by == kFromExactBasis) ++by_basis;
  }
  EXPECT_GT(by_basis, 0);  // the basis path is exercised, not only the fallback
}

// The regular-group reduction (default when the declared automorphisms act regularly) and the
// full source-aggregated LP give the same exact λ*: on tori (closed form 8/k³ for torus(k,k)),
// torus(3,5) (non-square) and hypercubes (2^(1-d)); the reduction must be the one that
// certified there. With a demand that is not invariant (seeded random amounts), on a topology
// without declared automorphisms (kautz(2,3)) or whose declared group is not regular
// (circulant(8,1,3) declares a rotation and a reflection: 16 elements on 8 nodes) it must not
// apply, and the full LP answers.
TEST(AlltoallOptimum, RegularGroupAndFullLpAgree) {
  const std::vector<std::pair<std::string, Rational>> known = {{"torus(4,4)", Rational(1, 8)},
                                                               {"torus(3,5)", -1},
                                                               {"hypercube(3)", Rational(1, 4)},
                                                               {"hypercube(4)", Rational(1, 8)}};
  AlltoallOptions full_lp;
  full_lp.regular_group = false;
  for (const auto& [expr, closed] : known) {
    const Topology g = EvaluateTopologyExpression(expr);
    ASSERT_FALSE(g.automorphisms().empty()) << expr;
    const DemandMatrix d = UniformDemand(g);
    const AlltoallOptimum sym = ComputeAlltoallOptimum(g, d);
    const AlltoallOptimum full = ComputeAlltoallOptimum(g, d, full_lp);
    ASSERT_EQ(sym.outcome, AlltoallOutcome::kCertified) << expr << ": " << sym.detail;
    ASSERT_EQ(full.outcome, AlltoallOutcome::kCertified) << expr << ": " << full.detail;
    EXPECT_EQ(sym.certified_by, kFromRegularGroup) << expr;
    EXPECT_NE(full.certified_by, kFromRegularGroup) << expr;
    EXPECT_EQ(sym.certificate.lambda, full.certificate.lambda) << expr;
    EXPECT_TRUE(CheckAlltoallCertificate(g, sym.certificate).ok) << expr;
    if (closed >= 0) {
      EXPECT_EQ(sym.certificate.lambda, closed) << expr;
    }
    // the reduced LP has one commodity: E + 1 columns
    EXPECT_EQ(sym.lp_columns, g.num_links() + 1 - static_cast<int>(g.InLinks(0).size())) << expr;
  }
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  const Topology torus = EvaluateTopologyExpression("torus(3,3)");
  DemandMatrix skew = UniformDemand(torus);
  for (DemandEntry& x : skew.entries) x.amount = Rational(1 + static_cast<int>(rng() % 4));
  bool invariant = true;  // all equal amounts would be invariant: then the reduction applies
  for (const DemandEntry& x : skew.entries)
    invariant = invariant && x.amount == skew.entries[0].amount;
  const AlltoallOptimum sk = ComputeAlltoallOptimum(torus, skew);
  const AlltoallOptimum sk_full = ComputeAlltoallOptimum(torus, skew, full_lp);
  ASSERT_EQ(sk.outcome, AlltoallOutcome::kCertified) << "seed " << seed;
  ASSERT_EQ(sk_full.outcome, AlltoallOutcome::kCertified) << "seed " << seed;
  EXPECT_EQ(sk.certificate.lambda, sk_full.certificate.lambda) << "seed " << seed;
  if (!invariant) {
    EXPECT_NE(sk.certified_by, kFromRegularGroup) << "seed " << seed;
  }
  for (const char* expr : {"kautz(2,3)", "circulant(8,1,3)"}) {
    const Topology g = EvaluateTopologyExpression(expr);
    const AlltoallOptimum opt = ComputeAlltoallOptimum(g, UniformDemand(g));
    ASSERT_EQ(opt.outcome, AlltoallOutcome::kCertified) << expr;
    EXPECT_NE(opt.certified_by, kFromRegularGroup) << expr;
  }
}

// Every CLP method (solvers/backends/lp_backend.h ClpMethod) leads to the same certified λ*:
// the closed form of torus(4,4) (8/k³ = 1/8) and, on kautz(2,3) (not arc-transitive, no
// closed form), the default method's value. A method whose basis the exact re-solve rejected
// would still certify through the rounding fallback, so certified_by is not asserted.
TEST(AlltoallOptimum, EveryClpMethodCertifiesTheSameLambda) {
  const Topology torus = EvaluateTopologyExpression("torus(4,4)");
  const Topology kautz = EvaluateTopologyExpression("kautz(2,3)");
  const Rational kautz_lambda = Uniform(kautz);
  for (ClpMethod method :
       {ClpMethod::kPrimal, ClpMethod::kInitialSolve, ClpMethod::kPrimalIdiot, ClpMethod::kSprint,
        ClpMethod::kBarrierCrossover, ClpMethod::kDualPresolve}) {
    AlltoallOptions options;
    options.clp_method = method;
    options.regular_group = false;  // the full LP on torus(4,4) too
    for (const auto& [g, want] : {std::pair<const Topology&, Rational>{torus, Rational(1, 8)},
                                  std::pair<const Topology&, Rational>{kautz, kautz_lambda}}) {
      const AlltoallOptimum opt = ComputeAlltoallOptimum(g, UniformDemand(g), options);
      ASSERT_EQ(opt.outcome, AlltoallOutcome::kCertified)
          << g.name() << " method " << static_cast<int>(method) << ": " << opt.detail;
      EXPECT_EQ(opt.certificate.lambda, want) << g.name() << " method " << static_cast<int>(method);
      EXPECT_TRUE(CheckAlltoallCertificate(g, opt.certificate).ok) << g.name();
    }
  }
}

// Closed form: on the complete graph with unit links every pair has its own link, so λ* = 1;
// the certificate's flow then uses direct paths only (tax 1: Σ loads = Σ c = demand).
TEST(AlltoallOptimum, CompleteGraphIsOnePerPairOnDirectLinks) {
  for (int n : {3, 4, 5}) {
    Topology g = Complete(n);
    AlltoallOptimum opt = ComputeAlltoallOptimum(g, UniformDemand(g));
    ASSERT_EQ(opt.outcome, AlltoallOutcome::kCertified) << opt.detail;
    EXPECT_EQ(opt.certificate.lambda, 1) << "n = " << n;
    EXPECT_EQ(BandwidthTax(g, opt.certificate), 1) << "n = " << n;
  }
}

// Closed form: bidirectional ring of even N, unit links each way: λ* = 8/N² (the bisection
// cuts 2 links each way and separates N²/4 ordered pairs per direction).
TEST(AlltoallOptimum, BidirectionalRingIsEightOverNSquared) {
  for (int n : {4, 6, 8, 10}) {
    Topology g = RingTopology(n, {Rational(1)});
    EXPECT_EQ(Uniform(g), Rational(8, n * n)) << "N = " << n;
  }
}

// Closed form: hypercube Q_d, unit links: λ* = 2^(1-d), the bisection bound (2^(d-1) links
// each way carry 2^(d-1)·2^(d-1) pairs), met by routing along dimensions.
TEST(AlltoallOptimum, HypercubeIsTwoToOneMinusD) {
  for (int d : {1, 2, 3, 4}) {
    Topology g = HypercubeTopology(d);
    EXPECT_EQ(Uniform(g), Rational(1, 1 << (d - 1))) << "d = " << d;
  }
}

// The closed forms above are tight cut bounds: the brute force over all 2^V cuts finds the
// same exact value (a test of the cut reasoning in the comments, independent of the LP).
TEST(AlltoallOptimum, ClosedFormsEqualTheBruteForceCutBound) {
  for (const Topology& g : {Complete(4), RingTopology(6, {Rational(1)}), HypercubeTopology(3)}) {
    EXPECT_EQ(Uniform(g), CutBound(g, UniformDemand(g))) << g.name();
  }
}

// Seeded random digraphs (with switches): the certified λ* never exceeds the brute-force cut
// bound, and the path LP (a second formulation, all simple paths) gives the same value.
TEST(AlltoallOptimum, RandomGraphsAgreeWithCutBoundAndPathLp) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 12; ++trial) {
    Topology g = testing::RandomEulerianTopology(rng, 3 + trial % 3, trial % 2, 2, 3);
    DemandMatrix d = UniformDemand(g);
    if (trial % 3 == 0) {  // skewed: every amount in 1..4
      for (DemandEntry& x : d.entries) x.amount = Rational(1 + static_cast<int>(rng() % 4));
    }
    const Rational lambda = CertifiedLambda(g, d);
    EXPECT_LE(lambda, CutBound(g, d)) << "seed " << seed << " trial " << trial;
    EXPECT_NEAR(lambda.convert_to<double>(), PathLp(g, d), 1e-7)
        << "seed " << seed << " trial " << trial;
  }
}

// Metamorphic (STYLE.md rule 10): bandwidths ×3 give λ* ×3; demand ×2 (×10^9) gives λ* / 2
// (/ 10^9).
TEST(AlltoallOptimum, ScalesWithBandwidthAndDemand) {
  Topology g = RingTopology(6, {Rational(1), Rational(2)});
  const Rational base = Uniform(g);
  Topology g3 = RingTopology(6, {Rational(3), Rational(6)});
  EXPECT_EQ(Uniform(g3), 3 * base);
  DemandMatrix twice = UniformDemand(g);
  for (DemandEntry& x : twice.entries) x.amount *= 2;
  EXPECT_EQ(CertifiedLambda(g, twice), base / 2);
  // the largest demand the reader allows: the LP sees the demand scaled to max 1
  DemandMatrix huge = UniformDemand(g);
  for (DemandEntry& x : huge.entries) x.amount *= 1000000000;
  EXPECT_EQ(CertifiedLambda(g, huge), base / 1000000000);
}

// Relaying: the weak-chord triangle gives 3/4 with relay and 1/2 without (comment above).
TEST(AlltoallOptimum, RelayHelpsOnTheWeakChordTriangle) {
  Topology g = WeakChordTriangle();
  EXPECT_EQ(CertifiedLambda(g, UniformDemand(g), true), Rational(3, 4));
  EXPECT_EQ(CertifiedLambda(g, UniformDemand(g), false), Rational(1, 2));
}

// Without relay a ring has no path between non-neighbours.
TEST(AlltoallOptimum, NoRelayRingIsDisconnected) {
  Topology g = RingTopology(4, {Rational(1)});
  EXPECT_EQ(DisconnectedDemandPair(g, UniformDemand(g), true), "");
  EXPECT_NE(DisconnectedDemandPair(g, UniformDemand(g), false), "");
}

// ECMP-like routing: on the even ring each link carries N²/8 (pairs at distance < N/2 on their
// one shortest path, antipodal pairs half each way), so it is optimal: 8/N²; on the weak-chord
// triangle it keeps a->c on the 1/2 link: λ = 1/2 < 3/4. Its λ never exceeds λ*.
TEST(AlltoallOptimum, EcmpRoutingClosedForms) {
  for (int n : {4, 6, 8}) {
    Topology g = RingTopology(n, {Rational(1)});
    EcmpRouting r = ComputeEcmpRouting(g, UniformDemand(g), true);
    EXPECT_EQ(r.lambda, Rational(8, n * n));
    // average distance on the even ring: (2·Σ_{k<N/2} k + N/2) / (N-1) = N²/(4(N-1))
    EXPECT_EQ(r.average_path_length, Rational(n * n, 4 * (n - 1)));
    EXPECT_EQ(r.bandwidth_tax, r.average_path_length);  // every link leaves a compute node
  }
  Topology t = WeakChordTriangle();
  EXPECT_EQ(ComputeEcmpRouting(t, UniformDemand(t), true).lambda, Rational(1, 2));
  Topology q = HypercubeTopology(3);
  EXPECT_EQ(ComputeEcmpRouting(q, UniformDemand(q), true).lambda, Rational(1, 4));
}

// A star of compute nodes around one switch: hosts do not relay, so the tax is 1 (seed 002
// §5.4: "the bandwidth tax for a full bisection bandwidth Fat-tree topology is always one"),
// and λ* = 1/(N-1) with or without relay (each host link carries N-1 pairs).
TEST(AlltoallOptimum, SwitchStarHasTaxOne) {
  Topology g("star");
  for (int i = 0; i < 4; ++i) g.AddCompute("h" + std::to_string(i));
  const int s = g.AddSwitch("s");
  for (int i = 0; i < 4; ++i) g.AddDuplexLink(i, s, 1);
  for (bool relay : {true, false}) {
    AlltoallOptimum opt = ComputeAlltoallOptimum(g, UniformDemand(g), {relay});
    ASSERT_EQ(opt.outcome, AlltoallOutcome::kCertified);
    EXPECT_EQ(opt.certificate.lambda, Rational(1, 3));
    EXPECT_EQ(BandwidthTax(g, opt.certificate), 1);
  }
}

}  // namespace
}  // namespace collsynth
