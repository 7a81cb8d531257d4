// Whole-graph BFB schedules (seed 000 §6, App. D, App. E): every schedule passes the
// independent step checker (BFB Def. 15 included); T_L = diameter (Thm 15); bandwidth
// optimality on tori of unequal dimensions (Thm 13), hypercubes and Hamming graphs,
// K_{d,d} (Figure 1: T_B = 3/2 for K_{2,2}), circulants C(n,{a,b}) (Conjecture 1, proven
// for k = 2), the distance-regular graphs of Table 7 (App. E.3, with Table 7's T_L);
// reduce-scatter via transpose (Cor. 3.1) and via isomorphism (Thm 4); allreduce.
#include "solvers/bfb/bfb_schedule.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "core/input_error.h"
#include "graphs/expression.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

using namespace bfb_test;

StepCheckReport Check(const Topology& g, const StepSchedule& s, bool bfb) {
  StepCheckOptions o;
  o.check_bfb = bfb;
  return CheckStepSchedule(g, s, o);
}

// Generates, checks with the independent checker, and checks the claims.
BfbResult GenerateAndCheck(const Topology& g, Collective c = Collective::kAllgather) {
  BfbOptions o;
  o.collective = c;
  BfbResult r = GenerateBfbSchedule(g, o);
  StepCheckReport rep = Check(g, r.schedule, c == Collective::kAllgather);
  EXPECT_TRUE(rep.ok) << g.name() << ": " << (rep.errors.empty() ? "" : rep.errors[0]);
  EXPECT_EQ(rep.tl, r.tl) << g.name();
  EXPECT_EQ(rep.tb, r.tb) << g.name();
  if (c == Collective::kAllgather) {
    EXPECT_TRUE(rep.bfb.value_or(false)) << g.name();
  }
  return r;
}

void ExpectBandwidthOptimal(const Topology& g) {
  BfbResult r = GenerateAndCheck(g);
  ASSERT_TRUE(r.bandwidth_optimal.has_value()) << g.name();
  EXPECT_TRUE(*r.bandwidth_optimal)
      << g.name() << " T_B = " << ToString(r.tb) << " lower bound " << ToString(*r.tb_lower_bound);
  EXPECT_EQ(r.tl, ComputeDistanceStats(g).diameter) << g.name();  // Thm 15
}

TEST(BfbScheduleTest, Thm13TorusUnequalDimensionsIsBandwidthOptimal) {
  for (auto dims :
       std::vector<std::vector<int>>{{3, 3, 2}, {3, 3, 3, 2}, {4, 6}, {3, 5}, {2, 5, 3}}) {
    Topology g = Torus(dims);
    ExpectBandwidthOptimal(g);
    int diameter = 0;
    for (int d : dims) diameter += d / 2;  // §6.2: T_L = Σ floor(d_i / 2)
    EXPECT_EQ(GenerateBfbSchedule(g, {}).tl, diameter) << g.name();
  }
}

TEST(BfbScheduleTest, HypercubeAndHammingAreBandwidthOptimal) {
  for (int n = 1; n <= 6; ++n) ExpectBandwidthOptimal(Hypercube(n));
  ExpectBandwidthOptimal(Hamming(2, 3));
  ExpectBandwidthOptimal(Hamming(3, 3));
  ExpectBandwidthOptimal(Hamming(2, 4));
}

TEST(BfbScheduleTest, Figure1CompleteBipartiteK22HasTbThreeHalves) {
  // README erratum: in shard units the K_{2,2} allgather has T_B = 3/2 = (N-1)/d.
  BfbResult r = GenerateAndCheck(CompleteBipartite(2));
  EXPECT_EQ(r.tb, Rational(3, 2));
  EXPECT_EQ(r.tl, 2);
  for (int d = 3; d <= 5; ++d) ExpectBandwidthOptimal(CompleteBipartite(d));
}

TEST(BfbScheduleTest, Conjecture1CirculantDegreeFourSweepUpTo64) {
  // Conjecture 1 is proven for k = 2: every connected C(n, {a, b}) has a BW-optimal BFB
  // schedule. Sweep n <= 64: the Thm 22 minimum-diameter pair and seeded random pairs.
  std::mt19937_64 rng(testing::TestSeed());
  int graphs = 0;
  for (int n = 6; n <= 64; ++n) {
    std::vector<std::pair<int, int>> pairs;
    if (n > 6) {
      int m = static_cast<int>(std::ceil((-1 + std::sqrt(2.0 * n - 1)) / 2));
      pairs.push_back({m, m + 1});
      Topology g = Circulant(n, {m, m + 1});
      EXPECT_EQ(ComputeDistanceStats(g).diameter, m) << "Thm 22, n = " << n;
    }
    for (int k = 0; k < 2; ++k) {
      int a = 1 + static_cast<int>(rng() % ((n - 1) / 2));
      int b = 1 + static_cast<int>(rng() % ((n - 1) / 2));
      if (a != b && 2 * a != n && 2 * b != n && std::gcd(std::gcd(n, a), b) == 1)
        pairs.push_back({a, b});
    }
    for (auto [a, b] : pairs) {
      Topology g = Circulant(n, {a, b});
      if (ComputeDegrees(g).degree != 4) continue;
      BfbResult r = GenerateBfbSchedule(g, {});
      ASSERT_TRUE(r.bandwidth_optimal.has_value());
      EXPECT_TRUE(*r.bandwidth_optimal) << g.name() << " T_B " << ToString(r.tb);
      ++graphs;
    }
  }
  EXPECT_GT(graphs, 100);
  // A few are also run through the checker.
  GenerateAndCheck(Circulant(17, {2, 3}));
  GenerateAndCheck(Circulant(64, {5, 6}));
}

TEST(BfbScheduleTest, Table7DistanceRegularGraphsAreOptimalWithTableTl) {
  struct Row {
    Topology g;
    int tl;  // Table 7's T_L column
  };
  std::vector<Row> rows = {{Octahedron(), 2},   {Hamming(2, 3), 2}, {K55MinusMatching(), 3},
                           {LinePetersen(), 3}, {Hypercube(4), 4},  {IncidencePG23(), 3},
                           {OddGraphO4(), 3}};
  for (const Row& row : rows) {
    EXPECT_EQ(row.g.num_nodes() > 0, true);
    DegreeReport deg = ComputeDegrees(row.g);
    EXPECT_EQ(deg.degree, 4) << row.g.name();
    BfbResult r = GenerateAndCheck(row.g);
    EXPECT_EQ(r.tl, row.tl) << row.g.name();
    EXPECT_TRUE(r.bandwidth_optimal.value_or(false)) << row.g.name();
  }
}

TEST(BfbScheduleTest, Table7AllGeneratedDistanceRegularGraphs) {
  // Every Table 7 graph the generator language provides (App. E.3: a BW-optimal BFB
  // schedule exists for any distance-regular graph), with Table 7's T_L column.
  const std::vector<std::pair<std::string, int>> rows = {
      {"octahedron", 2},   {"paley9", 2},     {"k55minus", 3},    {"heawooddist3", 3},
      {"petersenline", 3}, {"q4", 4},         {"heawoodline", 3}, {"pg23", 3},
      {"odd4", 3},         {"tutte8line", 4}, {"doubledodd4", 7}, {"gq33", 4}};
  for (const auto& [name, tl] : rows) {
    Topology g = EvaluateTopologyExpression("drg(" + name + ")");
    BfbResult r = GenerateAndCheck(g);
    EXPECT_EQ(r.tl, tl) << name;
    EXPECT_TRUE(r.bandwidth_optimal.value_or(false)) << name << " T_B " << ToString(r.tb);
  }
}

TEST(BfbScheduleTest, Thm15TlEqualsDiameterOnRandomDigraphs) {
  const std::uint64_t seed = testing::TestSeed();
  for (int k = 0; k < 20; ++k) {
    Topology g = RandomDigraph(5 + k % 10, 2 * k, seed + k);
    BfbResult r = GenerateAndCheck(g);
    EXPECT_EQ(r.tl, ComputeDistanceStats(g).diameter) << "seed " << seed + k;
    // T_B is never below the cut lower bound on regular graphs (Thm 7 direction).
    if (r.tb_lower_bound) {
      EXPECT_GE(r.tb, *r.tb_lower_bound);
    }
  }
}

TEST(BfbScheduleTest, GeneralizedKautzSchedulesAreValid) {
  for (auto [d, m] : std::vector<std::pair<int, int>>{{2, 6}, {2, 12}, {3, 12}, {2, 17}, {3, 36}}) {
    Topology g = GeneralizedKautz(d, m);
    BfbResult r = GenerateAndCheck(g);
    EXPECT_EQ(r.tl, ComputeDistanceStats(g).diameter);
  }
}

TEST(BfbScheduleTest, Cor31ReduceScatterViaTransposeMatchesTransposeAllgather) {
  for (auto [d, m] : std::vector<std::pair<int, int>>{{2, 12}, {3, 20}}) {
    Topology g = GeneralizedKautz(d, m);  // not reverse-symmetric in general
    BfbResult rs = GenerateAndCheck(g, Collective::kReduceScatter);
    BfbResult ag_t = GenerateBfbSchedule(g.Transpose(), {});
    EXPECT_EQ(rs.tb, ag_t.tb);  // Def. 7: T_B(A^T) = T_B(A)
    EXPECT_EQ(rs.tl, ag_t.tl);
    EXPECT_EQ(rs.reduce_scatter_method, "transpose (Cor. 3.1)");
  }
}

TEST(BfbScheduleTest, Thm4ReduceScatterViaIsomorphism) {
  // Cay(Z_n, {1, 3}) is reverse-symmetric with f(x) = -x mod n.
  const int n = 11;
  Topology g = DirectedCirculant(n, {1, 3});
  BfbOptions o;
  o.collective = Collective::kReduceScatter;
  for (int x = 0; x < n; ++x) o.reverse_isomorphism.push_back((n - x) % n);
  BfbResult rs = GenerateBfbSchedule(g, o);
  EXPECT_EQ(rs.reduce_scatter_method, "isomorphism (Thm 4)");
  StepCheckReport rep = Check(g, rs.schedule, false);
  EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
  BfbResult ag = GenerateBfbSchedule(g, {});
  EXPECT_EQ(rs.tb, ag.tb);  // Thm 4: T_B(f(A^T)) = T_B(A)
  EXPECT_EQ(rs.tl, ag.tl);
  // The identity is not an isomorphism G^T -> G here: refused as bad input.
  std::iota(o.reverse_isomorphism.begin(), o.reverse_isomorphism.end(), 0);
  EXPECT_THROW(GenerateBfbSchedule(g, o), InputError);
}

TEST(BfbScheduleTest, AllreduceIsReduceScatterThenAllgather) {
  Topology g = Torus({3, 4});
  BfbResult ar = GenerateAndCheck(g, Collective::kAllreduce);
  BfbResult ag = GenerateBfbSchedule(g, {});
  EXPECT_EQ(ar.tl, 2 * ag.tl);
  EXPECT_EQ(ar.tb, 2 * ag.tb);
  ASSERT_TRUE(ar.schedule.rs_steps.has_value());
  EXPECT_EQ(*ar.schedule.rs_steps, ag.tl);
  EXPECT_TRUE(ar.bandwidth_optimal.value_or(false));  // 2(N-1)/(d b), §8.5.2
}

TEST(BfbScheduleTest, RelabellingNodesChangesNothing) {
  Topology g = GeneralizedKautz(2, 14);
  std::mt19937_64 rng(testing::TestSeed());
  std::vector<int> perm(g.num_nodes());
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  Topology h("relabelled");
  std::vector<int> inv(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = static_cast<int>(i);
  for (std::size_t i = 0; i < perm.size(); ++i) h.AddCompute(g.node(perm[i]).name);
  for (const Link& l : g.links()) h.AddLink(inv[l.from], inv[l.to], l.bandwidth);
  EXPECT_EQ(GenerateBfbSchedule(g, {}).tb, GenerateBfbSchedule(h, {}).tb);
}

TEST(BfbScheduleTest, ClpHintGivesTheSameExactSchedule) {
  Topology g = GeneralizedKautz(3, 20);
  BfbOptions o;
  o.use_clp_hint = true;
  BfbResult with = GenerateBfbSchedule(g, o);
  BfbResult without = GenerateBfbSchedule(g, {});
  EXPECT_EQ(with.tb, without.tb);
  EXPECT_EQ(with.u_sum, without.u_sum);
}

TEST(BfbScheduleTest, CertificatesReproduceEachU) {
  Topology g = GeneralizedKautz(2, 10);
  BfbPlan plan = SolveBfbPlan(g, {});
  for (const auto& step : plan.cells)
    for (const BfbCell& c : step) {
      EXPECT_FALSE(VerifyBfbLpResult(c.problem, c.lp).has_value());
      if (!c.problem.sources.empty()) {
        EXPECT_EQ(WitnessValue(c.problem, c.lp.witness_sources), c.lp.value);
      }
    }
}

TEST(BfbScheduleTest, RejectsSwitchesAndDisconnectedInput) {
  Topology g = WithNodes("sw", 3);
  int s = g.AddSwitch("s");
  for (int i = 0; i < 3; ++i) g.AddDuplexLink(i, s, Rational(1));
  EXPECT_THROW(GenerateBfbSchedule(g, {}), InputError);
  Topology h = WithNodes("split", 4);
  h.AddDuplexLink(0, 1, Rational(1));
  h.AddDuplexLink(2, 3, Rational(1));
  EXPECT_THROW(GenerateBfbSchedule(h, {}), InputError);
}

TEST(BfbScheduleTest, AppD3HeterogeneousLinksPassTheChecker) {
  // A 2x3 torus whose links get varied α and bandwidths: schedule stays valid BFB, and
  // with α = 0 and bandwidth scaled by 2 T_B halves (metamorphic).
  Topology g = Torus({3, 3});
  Topology h("scaled");
  for (const Node& v : g.nodes()) h.AddCompute(v.name);
  for (const Link& l : g.links()) h.AddLink(l.from, l.to, l.bandwidth * 2);
  EXPECT_EQ(GenerateBfbSchedule(h, {}).tb * 2, GenerateBfbSchedule(g, {}).tb);
  BfbOptions o;
  std::mt19937_64 rng(testing::TestSeed());
  for (int e = 0; e < g.num_links(); ++e)
    o.link_alpha.push_back(Rational(static_cast<int>(rng() % 3), 4));
  BfbResult r = GenerateBfbSchedule(g, o);
  StepCheckReport rep = Check(g, r.schedule, true);
  EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
  EXPECT_GE(r.u_sum, r.tb);  // α only adds
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

std::vector<Topology> FlatDifferentialTopologies(std::uint64_t seed) {
  std::vector<Topology> gs = {bfb_test::Torus({3, 4}),
                              bfb_test::Torus({3, 3, 2}),
                              bfb_test::Hypercube(4),
                              bfb_test::CompleteBipartite(3),
                              bfb_test::GeneralizedKautz(2, 12),
                              bfb_test::GeneralizedKautz(3, 20),
                              bfb_test::DirectedCirculant(11, {1, 3})};
  for (int k = 0; k < 12; ++k) gs.push_back(bfb_test::RandomDigraph(5 + k, 3 * k, seed + k));
  return gs;
}

}  // namespace

// The fast path (docs/performance.md "BFB schedules"): the flat int64 plan gives, cell by cell, the
// same exact U_{u,t} as the Rational LP solver (solvers/bfb/bfb_lp.h), the same per-step T_B and U
// maxima (eq. (4)), and certifies every cell; its witness J reproduces U through WitnessValue of
// the Rational path.
TEST(BfbScheduleTest, Issue6FlatPlanMatchesRationalPlanOnEveryCell) {
  const std::uint64_t seed = testing::TestSeed();
  for (const Topology& g : FlatDifferentialTopologies(seed)) {
    BfbOptions o;
    ASSERT_TRUE(BfbFlatPlanApplies(g, o)) << g.name();
    BfbFlatPlan flat = SolveBfbFlatPlan(g, o);
    BfbPlan ref = SolveBfbPlan(g, o);
    ASSERT_EQ(flat.diameter, ref.diameter) << g.name();
    EXPECT_EQ(flat.num_subproblems, ref.num_subproblems) << g.name();
    EXPECT_EQ(flat.certified, ref.num_subproblems) << g.name();
    EXPECT_EQ(flat.step_tb, ref.step_tb) << g.name() << " seed " << seed;
    EXPECT_EQ(flat.step_u_max, ref.step_u_max) << g.name() << " seed " << seed;
    for (int u = 0; u < g.num_nodes(); ++u) {
      const BfbFlatReceiver& r = flat.receivers[u];
      for (int t = 1; t <= flat.diameter; ++t) {
        const BfbCell& c = ref.cells[t - 1][u];
        std::vector<int> sources(r.source.begin() + r.cell_begin[t - 1],
                                 r.source.begin() + r.cell_begin[t]);
        ASSERT_EQ(sources, c.problem.sources) << g.name() << " u " << u << " t " << t;
        if (sources.empty()) continue;
        EXPECT_EQ(Rational(r.value_num[t - 1], r.value_den[t - 1]), c.lp.value)
            << g.name() << " u " << u << " t " << t << " seed " << seed;
        std::vector<int> j;
        for (int p = r.cell_begin[t - 1]; p < r.cell_begin[t]; ++p)
          if (r.in_witness[p]) j.push_back(p - r.cell_begin[t - 1]);
        EXPECT_EQ(WitnessValue(c.problem, j), c.lp.value) << g.name() << " u " << u << " t " << t;
      }
    }
  }
}

// The flat path's schedule (compact form and its Rational expansion) passes the checker with
// the same T_B as the Rational path's, for all three collectives.
TEST(BfbScheduleTest, Issue6FlatScheduleEqualsRationalPathForEveryCollective) {
  const std::uint64_t seed = testing::TestSeed();
  for (const Topology& g : FlatDifferentialTopologies(seed)) {
    for (Collective c :
         {Collective::kAllgather, Collective::kReduceScatter, Collective::kAllreduce}) {
      BfbOptions fast, slow;
      fast.collective = slow.collective = c;
      fast.certificates = slow.certificates = false;
      slow.flat = false;
      BfbResult a = GenerateBfbSchedule(g, fast), b = GenerateBfbSchedule(g, slow);
      ASSERT_TRUE(a.compact.has_value()) << g.name();
      EXPECT_FALSE(b.compact.has_value());
      EXPECT_EQ(a.tb, b.tb) << g.name() << " " << CollectiveName(c);
      EXPECT_EQ(a.tl, b.tl) << g.name();
      EXPECT_EQ(a.u_sum, b.u_sum) << g.name();
      EXPECT_EQ(a.compact->num_sends(), a.schedule.sends.size());
      StepCheckOptions co;
      co.check_bfb = c == Collective::kAllgather;
      StepCheckReport rc = CheckStepSchedule(g, *a.compact, co);
      StepCheckReport rs = CheckStepSchedule(g, a.schedule, co);
      EXPECT_TRUE(rc.ok) << g.name() << " " << CollectiveName(c) << ": "
                         << (rc.errors.empty() ? "" : rc.errors[0]);
      EXPECT_TRUE(rs.ok) << g.name();
      EXPECT_EQ(rc.tb, b.tb) << g.name();
      EXPECT_EQ(rs.tb, b.tb) << g.name();
    }
  }
}

// Thm 4 on the flat path: f(x) = -x mod n on Cay(Z_n, {1, 3}) maps the allgather's reverse to
// a reduce-scatter with the same T_B; the compact form is what the checker accepts.
TEST(BfbScheduleTest, Issue6FlatThm4ReduceScatterIsChecked) {
  const int n = 13;
  Topology g = bfb_test::DirectedCirculant(n, {1, 3});
  BfbOptions o;
  o.collective = Collective::kReduceScatter;
  o.materialize_sends = false;
  for (int x = 0; x < n; ++x) o.reverse_isomorphism.push_back((n - x) % n);
  BfbResult rs = GenerateBfbSchedule(g, o);
  ASSERT_TRUE(rs.compact.has_value());
  EXPECT_TRUE(rs.schedule.sends.empty());
  EXPECT_EQ(rs.reduce_scatter_method, "isomorphism (Thm 4)");
  StepCheckReport rep = CheckStepSchedule(g, *rs.compact);
  EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
  EXPECT_EQ(rep.tb, GenerateBfbSchedule(g, {}).tb);
}

}  // namespace collsynth
