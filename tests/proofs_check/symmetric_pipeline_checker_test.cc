// Tests of the pipeline-symmetric checker (docs/symmetry.md): symmetric
// schedules built by hand from the definitions (a directed ring under its rotation, torus(3,3)
// under its translations, twocluster(2,3,10,1) and fattree(4) under their regular generators,
// with route trees through switches), accepted with their exact ratio and certificate; each
// contract violation rejected with its kind; and the plain checker on an expansion written in
// the test fixtures (schedule_fixtures.h, not the format's ExpandSymmetricPipelineSchedule)
// agreeing on ratio and verdict, on these and on random representative trees (COLLSYNTH_SEED).
#include "proofs_check/symmetric_pipeline_checker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "fixtures/schedule_fixtures.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "test_util.h"

namespace collsynth {
namespace {

using K = PipelineViolationKind;
using Perm = std::vector<int>;

// A tree edge routed along `path` (default: the direct link), multiplicity 1.
PipelineTreeEdge Edge(int from, int to, std::vector<int> path = {}) {
  if (path.empty()) path = {from, to};
  PipelineTreeEdge e;
  e.from = from;
  e.to = to;
  e.routes.push_back(PipelineRoute{std::move(path), BigInt(1)});
  return e;
}

PipelineTree Tree(int root, std::vector<PipelineTreeEdge> edges) {
  PipelineTree t;
  t.root = root;
  t.multiplicity = 1;
  t.edges = std::move(edges);
  return t;
}

SymmetricRoot RootEntry(int node, std::vector<std::int64_t> exponents, int rep = 0) {
  return SymmetricRoot{node, rep, std::move(exponents), {}};
}

// --- the expansion, written in schedule_fixtures.h from the format's definition ----------------

Perm Element(const SymmetricPipelineSchedule& s, const std::vector<std::int64_t>& e) {
  return ::collsynth::testing::SymmetricElementForTest(
      s, e, s.generators.empty() ? 0 : s.generators[0].size());
}

PipelineSchedule Expand(const SymmetricPipelineSchedule& s) {
  return ::collsynth::testing::ExpandSymmetricForTest(s, 0);
}

// --- hand-built symmetric schedules -----------------------------------------------------------

// Directed ring v0 -> v1 -> ... -> v4 -> v0 (bandwidth 1) under the rotation v -> v+1 (Z_5).
// The representative v0 sends along the path v0 -> ... -> v4: each link carries the shards of 4
// roots, ratio 4 = (N-1)/B; S = {v0..v3} gives |S ∩ V_c| / B+(S) = 4 / 1.
SymmetricPipelineSchedule RingSchedule() {
  SymmetricPipelineSchedule s;
  s.ratio = 4;
  s.U = 4;
  s.k = 1;
  s.generators = {{1, 2, 3, 4, 0}};
  s.orders = {5};
  s.representatives.push_back({0, {Tree(0, {Edge(0, 1), Edge(1, 2), Edge(2, 3), Edge(3, 4)})}});
  for (int v = 0; v < 5; ++v) s.roots.push_back(RootEntry(v, {v}));
  s.bottleneck_cut = std::vector<int>{0, 1, 2, 3};
  return s;
}

// Reduce-scatter on the same ring: data flows child -> parent along the reversed path, so the
// representative's tree runs against the ring (v0 -> v4 -> v3 -> v2 -> v1, each path's reverse
// a link); S = {v1..v4} gives |S ∩ V_c| / B-(S) = 4 / 1 on G^T.
SymmetricPipelineSchedule RingReduceScatter() {
  SymmetricPipelineSchedule s = RingSchedule();
  s.collective = Collective::kReduceScatter;
  s.representatives[0].trees[0] = Tree(0, {Edge(0, 4), Edge(4, 3), Edge(3, 2), Edge(2, 1)});
  s.bottleneck_cut = std::vector<int>{1, 2, 3, 4};
  return s;
}

int T33(int x, int y) { return ((x % 3 + 3) % 3) * 3 + (y % 3 + 3) % 3; }  // torus(3,3) ids

// torus(3,3) under its two translations (Z_3 × Z_3, from `topo gen`). The representative's BFS
// tree uses each of the four directions twice, so every link orbit (one per direction, 9
// links) has Σ_r |Hr|·L_r(O) = 9·2 = 2·b·|O|: ratio 2 = 8 / 4, the cut V \ {t_2_2}.
SymmetricPipelineSchedule TorusSchedule(const Topology& g) {
  SymmetricPipelineSchedule s;
  s.ratio = 2;
  s.U = 2;
  s.k = 1;
  s.generators = g.automorphisms();
  s.orders = {3, 3};
  s.representatives.push_back(
      {0,
       {Tree(0, {Edge(0, T33(1, 0)), Edge(0, T33(-1, 0)), Edge(0, T33(0, 1)), Edge(0, T33(0, -1)),
                 Edge(T33(1, 0), T33(1, 1)), Edge(T33(-1, 0), T33(-1, -1)),
                 Edge(T33(0, 1), T33(-1, 1)), Edge(T33(0, -1), T33(1, -1))})}});
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 3; ++y) s.roots.push_back(RootEntry(T33(x, y), {x, y}));
  }
  s.bottleneck_cut = std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7};
  return s;
}

// twocluster(2,3,10,1): hosts c11..c23 (0..5), cluster switches s1, s2 (6, 7), s0 (8); Z_2
// (clusters) × Z_3 (hosts) act regularly on the hosts. c11 reaches its cluster through s1 and
// the other cluster through one host (c21) behind s0 that fans out through s2: the host -> s0
// and s0 -> host orbits (6 links of bandwidth 1) carry 6 · 1 = U·1·6 with U = 1; the local
// orbits 6 · 2 < 10 · 6. Ratio 1 = |{c11,c12,c13}| / B+({c11,c12,c13,s1}) = 3 / 3.
SymmetricPipelineSchedule TwoClusterSchedule(const Topology& g, Collective c) {
  SymmetricPipelineSchedule s;
  s.collective = c;
  s.ratio = 1;
  s.U = 1;
  s.k = 1;
  s.generators = g.automorphisms();
  s.orders = {2, 3};
  s.representatives.push_back(
      {0,
       {Tree(0, {Edge(0, 1, {0, 6, 1}), Edge(0, 2, {0, 6, 2}), Edge(0, 3, {0, 8, 3}),
                 Edge(3, 4, {3, 7, 4}), Edge(3, 5, {3, 7, 5})})}});
  for (int cl = 0; cl < 2; ++cl) {
    for (int h = 0; h < 3; ++h) s.roots.push_back(RootEntry(cl * 3 + h, {cl, h}));
  }
  s.bottleneck_cut = std::vector<int>{0, 1, 2, 6};
  return s;
}

// The allreduce: reduce-scatter then allgather of the above, ratio 1 + 1 = 2 = N / B+(S) with
// the same S (bound (6)).
SymmetricPipelineSchedule TwoClusterAllreduce(const Topology& g) {
  SymmetricPipelineSchedule s;
  s.collective = Collective::kAllreduce;
  s.ratio = 2;
  s.U = 1;
  s.k = 1;
  s.phases = {TwoClusterSchedule(g, Collective::kReduceScatter),
              TwoClusterSchedule(g, Collective::kAllgather)};
  for (SymmetricPipelineSchedule& p : s.phases) p.bottleneck_cut.reset();
  s.bottleneck_cut = std::vector<int>{0, 1, 2, 6};
  return s;
}

// fattree(4): host (p,e,h) at (2p+e)·2+h, edge switch (p,e) at 16+2p+e, aggregation (p,a) at
// 24+2p+a, core (a,j) at 32+2a+j; H = the first three generators (pods Z_4, hosts under an edge
// Z_2, edges in a pod Z_2), regular on the 16 hosts. Host 0 reaches every other host directly
// (one route each): its sibling through its edge switch, its pod's other edge through
// aggregation a = h, the 12 hosts of other pods i = 0..11 through aggregation i mod 2 and core
// (i mod 2, ⌊i/2⌋ mod 2). Host up/down links carry 15 = U·b (ratio 15 = 15 / B+(V \ {host})),
// every switch-to-switch link at most 14 (Σ_r |Hr|·L_r(O) / |O| = 16 · 7 / 8 at most).
SymmetricPipelineSchedule FatTreeSchedule(const Topology& g) {
  auto host = [](int p, int e, int h) { return (2 * p + e) * 2 + h; };
  auto edge = [](int p, int e) { return 16 + 2 * p + e; };
  auto agg = [](int p, int a) { return 24 + 2 * p + a; };
  auto core = [](int a, int j) { return 32 + 2 * a + j; };
  SymmetricPipelineSchedule s;
  s.ratio = 15;
  s.U = 15;
  s.k = 1;
  s.generators = {g.automorphisms()[0], g.automorphisms()[1], g.automorphisms()[2]};
  s.orders = {4, 2, 2};
  std::vector<PipelineTreeEdge> edges;
  edges.push_back(Edge(0, host(0, 0, 1), {0, edge(0, 0), host(0, 0, 1)}));
  for (int h = 0; h < 2; ++h) {
    edges.push_back(Edge(0, host(0, 1, h), {0, edge(0, 0), agg(0, h), edge(0, 1), host(0, 1, h)}));
  }
  int i = 0;
  for (int p = 1; p < 4; ++p) {
    for (int e = 0; e < 2; ++e) {
      for (int h = 0; h < 2; ++h, ++i) {
        const int a = i % 2, j = (i / 2) % 2;
        edges.push_back(
            Edge(0, host(p, e, h),
                 {0, edge(0, 0), agg(0, a), core(a, j), agg(p, a), edge(p, e), host(p, e, h)}));
      }
    }
  }
  s.representatives.push_back({0, {Tree(0, std::move(edges))}});
  for (int p = 0; p < 4; ++p) {
    for (int e = 0; e < 2; ++e) {
      for (int h = 0; h < 2; ++h) s.roots.push_back(RootEntry(host(p, e, h), {p, h, e}));
    }
  }
  std::vector<int> cut;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (v != host(3, 1, 1)) cut.push_back(v);
  }
  s.bottleneck_cut = cut;
  return s;
}

struct Case {
  std::string name;
  Topology g;
  SymmetricPipelineSchedule s;
  Rational ratio;
  std::int64_t group_order;
  std::int64_t link_orbits;
  std::string certified_by;
};

std::vector<Case> ValidCases() {
  std::vector<Case> cases;
  cases.push_back({"ring", testing::Ring(5, false), RingSchedule(), 4, 5, 1, "bound (1)"});
  cases.push_back({"ring reduce-scatter", testing::Ring(5, false), RingReduceScatter(), 4, 5, 1,
                   "bound (1) on G^T"});
  Topology torus = EvaluateTopologyExpression("torus(3,3)");
  cases.push_back({"torus", torus, TorusSchedule(torus), 2, 9, 4, "bound (1)"});
  Topology two = EvaluateTopologyExpression("twocluster(2,3,10,1)");
  cases.push_back({"twocluster allgather", two, TwoClusterSchedule(two, Collective::kAllgather), 1,
                   6, 4, "bound (1)"});
  cases.push_back({"twocluster reduce-scatter", two,
                   TwoClusterSchedule(two, Collective::kReduceScatter), 1, 6, 4,
                   "bound (1) on G^T"});
  Topology fat = EvaluateTopologyExpression("fattree(4)");
  // Link orbits under Z_4 × Z_2 × Z_2: host <-> edge 2 (16 links each way), edge <-> agg 4
  // (one per aggregation index and direction), agg <-> core 8 (one per core and direction).
  cases.push_back({"fattree", fat, FatTreeSchedule(fat), 15, 16, 14, "bound (1)"});
  return cases;
}

bool Has(const PipelineCheckReport& r, K kind) {
  for (const PipelineViolation& v : r.violations) {
    if (v.kind == kind) return true;
  }
  return false;
}

std::string Errors(const PipelineCheckReport& r) {
  std::string out;
  for (const std::string& e : r.errors) out += e + "\n";
  return out;
}

TEST(SymmetricPipelineCheckerTest, HandBuiltSchedulesAreCertifiedOptimal) {
  for (const Case& c : ValidCases()) {
    const PipelineCheckReport r = CheckSymmetricPipelineSchedule(c.g, c.s);
    EXPECT_TRUE(r.ok) << c.name << "\n" << Errors(r);
    EXPECT_EQ(r.ratio, c.ratio) << c.name;
    ASSERT_TRUE(r.cut_ratio) << c.name;
    EXPECT_EQ(*r.cut_ratio, c.ratio) << c.name;
    EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified) << c.name;
    EXPECT_EQ(r.certified_by, c.certified_by) << c.name;
    ASSERT_TRUE(r.symmetric) << c.name;
    EXPECT_EQ(r.symmetric->group_order, c.group_order) << c.name;
    EXPECT_EQ(r.symmetric->link_orbits, c.link_orbits) << c.name;
  }
}

// The plain checker on the expansion agrees on ratio, cut ratio, certificate and verdict.
TEST(SymmetricPipelineCheckerTest, PlainCheckerOnTheExpansionAgrees) {
  for (const Case& c : ValidCases()) {
    const PipelineCheckReport sym = CheckSymmetricPipelineSchedule(c.g, c.s);
    const PipelineSchedule plain = Expand(c.s);
    EXPECT_EQ(plain.trees.size(), static_cast<std::size_t>(c.g.num_compute())) << c.name;
    const PipelineCheckReport r = CheckPipelineSchedule(c.g, plain);
    EXPECT_TRUE(r.ok) << c.name << "\n" << Errors(r);
    EXPECT_EQ(r.ratio, sym.ratio) << c.name;
    EXPECT_EQ(r.cut_ratio, sym.cut_ratio) << c.name;
    EXPECT_EQ(r.certified_by, sym.certified_by) << c.name;
    EXPECT_EQ(r.verdict, sym.verdict) << c.name;
    EXPECT_FALSE(r.symmetric) << c.name;
  }
}

TEST(SymmetricPipelineCheckerTest, AllreducePhasesSumAndBoundSix) {
  const Topology g = EvaluateTopologyExpression("twocluster(2,3,10,1)");
  const SymmetricPipelineSchedule s = TwoClusterAllreduce(g);
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << Errors(r);
  EXPECT_EQ(r.ratio, Rational(2));
  EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified);
  EXPECT_EQ(r.certified_by, "bound (6)");
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].ratio, Rational(1));
  EXPECT_EQ(r.phases[1].symmetric->group_order, 6);
  const PipelineCheckReport plain = CheckPipelineSchedule(g, Expand(s));
  EXPECT_TRUE(plain.ok) << Errors(plain);
  EXPECT_EQ(plain.ratio, r.ratio);
  EXPECT_EQ(plain.certified_by, r.certified_by);
  EXPECT_EQ(plain.verdict, r.verdict);
  // A phase's violation is named with its phase.
  SymmetricPipelineSchedule bad = s;
  bad.phases[1].roots.pop_back();
  const PipelineCheckReport rb = CheckSymmetricPipelineSchedule(g, bad);
  ASSERT_FALSE(rb.ok);
  EXPECT_EQ(rb.violations.at(0).kind, K::kRootList);
  EXPECT_EQ(rb.violations.at(0).item, "phases[1].roots");
}

// No generators: every root is its own representative, every link its own orbit, and the
// check is the plain one (seed 004 Figure 1's schedule, written as a symmetric one).
TEST(SymmetricPipelineCheckerTest, TrivialGroupIsThePlainCheck) {
  const Topology g = testing::TwoCluster();
  const PipelineSchedule plain = testing::TwoClusterPipeline();
  SymmetricPipelineSchedule s;
  s.ratio = plain.ratio;
  s.U = plain.U;
  s.k = plain.k;
  s.bottleneck_cut = plain.bottleneck_cut;
  for (int v : g.ComputeNodes()) {
    s.roots.push_back(RootEntry(v, {}, static_cast<int>(s.representatives.size())));
    SymmetricRepresentative rep{v, {}};
    for (const PipelineTree& t : plain.trees) {
      if (t.root == v) rep.trees.push_back(t);
    }
    s.representatives.push_back(std::move(rep));
  }
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  const PipelineCheckReport p = CheckPipelineSchedule(g, plain);
  EXPECT_TRUE(r.ok) << Errors(r);
  EXPECT_EQ(r.ratio, p.ratio);
  EXPECT_EQ(r.ratio, Rational(1));
  EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified);
  EXPECT_EQ(r.symmetric->group_order, 1);
  EXPECT_EQ(r.symmetric->link_orbits, g.num_links());
  // Halving U overloads, per link now, what the plain checker finds overloaded.
  s.U = Rational(1, 2);
  const PipelineCheckReport half = CheckSymmetricPipelineSchedule(g, s, 100);
  std::int64_t overloaded = 0;
  for (const PipelineViolation& v : half.violations) overloaded += v.kind == K::kOverloaded;
  EXPECT_EQ(overloaded, 32);  // as in PipelineCheckerTest.LoadAgainstUAndK
}

// N = 20,000: the expansion would have N·(N-1) ≈ 4·10^8 tree edges (tens of GB); the compact
// check is linear in N.
TEST(SymmetricPipelineCheckerTest, LargeRingIsCheckedWithoutExpanding) {
  const int n = 20000;
  const Topology g = testing::Ring(n, false);
  SymmetricPipelineSchedule s;
  s.ratio = n - 1;
  s.U = n - 1;
  s.k = 1;
  s.generators.emplace_back(n);
  for (int v = 0; v < n; ++v) s.generators[0][v] = (v + 1) % n;
  s.orders = {n};
  std::vector<PipelineTreeEdge> path;
  for (int v = 0; v + 1 < n; ++v) path.push_back(Edge(v, v + 1));
  s.representatives.push_back({0, {Tree(0, std::move(path))}});
  for (int v = 0; v < n; ++v) s.roots.push_back(RootEntry(v, {v}));
  std::vector<int> cut;
  for (int v = 0; v + 1 < n; ++v) cut.push_back(v);
  s.bottleneck_cut = cut;
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << Errors(r);
  EXPECT_EQ(r.ratio, Rational(n - 1));
  EXPECT_EQ(r.verdict, PipelineVerdict::kOptimalCertified);
  EXPECT_EQ(r.symmetric->group_order, n);
}

// Differential: random representative trees (routes direct or through one switch, k = 2 as
// one tree with two routes per edge or two trees) on families whose `topo gen` generators act
// regularly; roots from all exponent vectors (φ(a)(r) composed explicitly, not by BFS). The
// symmetric ratio equals the plain checker's on the expansion, and both accept at U = k·ratio
// and both find an overload just below it.
TEST(SymmetricPipelineCheckerTest, RandomTreesAgreeWithThePlainCheckerOnTheExpansion) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (const char* expr : {"torus(3,4)", "dcirculant(7,1,2)", "hypercube(3)", "hamming(2,3)",
                           "twocluster(2,3,10,1)", "twocluster(3,2,1,2)"}) {
    const Topology g = EvaluateTopologyExpression(expr);
    SymmetricPipelineSchedule base;
    base.k = 2;
    base.generators = g.automorphisms();
    for (const Perm& p : base.generators) {  // order = lcm of the cycle lengths
      std::int64_t order = 1;
      std::vector<char> seen(p.size(), 0);
      for (std::size_t v = 0; v < p.size(); ++v) {
        std::int64_t len = 0;
        for (std::size_t u = v; !seen[u]; u = static_cast<std::size_t>(p[u])) {
          seen[u] = 1;
          ++len;
        }
        if (len > 0) order = std::lcm(order, len);
      }
      base.orders.push_back(order);
    }
    const int r = g.ComputeNodes()[0];
    std::vector<std::int64_t> a(base.generators.size(), 0);
    for (bool more = true; more;) {
      base.roots.push_back(RootEntry(Element(base, a)[r], a));
      more = false;
      for (std::size_t i = 0; i < a.size() && !more; ++i) {
        more = ++a[i] < base.orders[i];
        if (!more) a[i] = 0;
      }
    }
    ASSERT_EQ(base.roots.size(), static_cast<std::size_t>(g.num_compute())) << expr;
    // Paths from u to compute node v: the direct link, or through one switch (for
    // reduce-scatter, whose data flows v -> u, the reversed path's links must exist).
    bool reversed = false;
    auto link = [&](int x, int y) { return reversed ? g.FindLink(y, x) : g.FindLink(x, y); };
    auto paths = [&](int u, int v) {
      std::vector<std::vector<int>> out;
      if (link(u, v)) out.push_back({u, v});
      for (int w = 0; w < g.num_nodes(); ++w) {
        if (g.IsSwitch(w) && link(u, w) && link(w, v)) out.push_back({u, w, v});
      }
      return out;
    };
    auto pick = [&](const std::vector<std::vector<int>>& options) {
      return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
    };
    auto random_tree = [&](int multiplicity) {
      PipelineTree t = Tree(r, {});
      t.multiplicity = multiplicity;
      std::vector<int> in_tree = {r};
      std::vector<char> member(static_cast<std::size_t>(g.num_nodes()), 0);
      member[r] = 1;
      while (static_cast<int>(in_tree.size()) < g.num_compute()) {
        std::vector<std::pair<int, int>> frontier;
        for (int u : in_tree) {
          for (int v : g.ComputeNodes()) {
            if (!member[v] && !paths(u, v).empty()) frontier.push_back({u, v});
          }
        }
        const auto [u, v] =
            frontier[std::uniform_int_distribution<std::size_t>(0, frontier.size() - 1)(rng)];
        PipelineTreeEdge e;
        e.from = u;
        e.to = v;
        for (int m = 0; m < multiplicity; ++m) e.routes.push_back({pick(paths(u, v)), BigInt(1)});
        t.edges.push_back(std::move(e));
        member[v] = 1;
        in_tree.push_back(v);
      }
      return t;
    };
    for (int trial = 0; trial < 10; ++trial) {
      SymmetricPipelineSchedule s = base;
      s.collective = trial % 3 == 2 ? Collective::kReduceScatter : Collective::kAllgather;
      reversed = s.collective == Collective::kReduceScatter;
      std::vector<PipelineTree> trees;
      if (trial % 2 == 0) {
        trees = {random_tree(2)};
      } else {
        trees = {random_tree(1), random_tree(1)};
      }
      s.representatives = {{r, trees}};
      s.U = 1000;
      s.ratio = 0;
      PipelineCheckReport sym = CheckSymmetricPipelineSchedule(g, s);
      PipelineCheckReport plain = CheckPipelineSchedule(g, Expand(s));
      const std::string where =
          std::string(expr) + " trial " + std::to_string(trial) + " seed " + std::to_string(seed);
      ASSERT_EQ(sym.num_violations, 1) << where << "\n" << Errors(sym);  // the claimed ratio only
      EXPECT_EQ(sym.violations[0].kind, K::kWrongRatio) << where;
      EXPECT_EQ(plain.num_violations, 1) << where << "\n" << Errors(plain);
      EXPECT_EQ(sym.ratio, plain.ratio) << where;
      s.ratio = sym.ratio;
      s.U = sym.ratio * Rational(s.k);
      sym = CheckSymmetricPipelineSchedule(g, s);
      plain = CheckPipelineSchedule(g, Expand(s));
      EXPECT_TRUE(sym.ok) << where << "\n" << Errors(sym);
      EXPECT_TRUE(plain.ok) << where << "\n" << Errors(plain);
      EXPECT_EQ(sym.verdict, plain.verdict) << where;
      s.U = s.U * Rational(999, 1000);
      sym = CheckSymmetricPipelineSchedule(g, s);
      plain = CheckPipelineSchedule(g, Expand(s));
      EXPECT_TRUE(Has(sym, K::kOverloaded)) << where;
      EXPECT_TRUE(Has(plain, K::kOverloaded)) << where;
    }
  }
}

// --- mutations --------------------------------------------------------------------------------

TEST(SymmetricPipelineCheckerMutationTest, GeneratorThatIsNotAnAutomorphism) {
  const Topology g = testing::Ring(5, false);
  SymmetricPipelineSchedule s = RingSchedule();
  s.generators[0] = {1, 0, 2, 3, 4};  // v0 <-> v1: maps the link v0 -> v1 to v1 -> v0
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, K::kNotAutomorphism);
  EXPECT_EQ(r.violations.at(0).item, "generators[0]");
  s.generators[0] = {1, 2, 3, 4, 4};  // not a permutation
  r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kNotAutomorphism);
  EXPECT_EQ(r.verdict, PipelineVerdict::kInvalid);
  EXPECT_FALSE(r.symmetric->group_order);
}

TEST(SymmetricPipelineCheckerMutationTest, NonCommutingGenerators) {
  const Topology g = EvaluateTopologyExpression("torus(3,3)");
  SymmetricPipelineSchedule s = TorusSchedule(g);
  Perm reflect(9);  // (x, y) -> (-x, y): an automorphism of order 2 not commuting with x+1
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 3; ++y) reflect[T33(x, y)] = T33(-x, y);
  }
  s.generators.push_back(reflect);
  s.orders.push_back(2);
  for (SymmetricRoot& root : s.roots) root.exponents.push_back(0);
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, K::kGroupRelation);
  EXPECT_NE(r.violations.at(0).message.find("do not commute"), std::string::npos);
  EXPECT_FALSE(r.symmetric->group_order);
}

TEST(SymmetricPipelineCheckerMutationTest, WrongOrders) {
  const Topology g = testing::Ring(5, false);
  SymmetricPipelineSchedule s = RingSchedule();
  s.orders = {6};  // rotation^6 != identity
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kGroupRelation);
  // A multiple of the true order passes gen^n = id but not the regular action: v0 is reached
  // again with exponent 5.
  s.orders = {10};
  r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, K::kNotRegular);
  EXPECT_EQ(r.num_violations, 1);
  s.orders = {0};
  r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kGroupRelation);
  s.orders = {};
  r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kGroupRelation);
}

TEST(SymmetricPipelineCheckerMutationTest, RootListMistakes) {
  const Topology g = EvaluateTopologyExpression("torus(3,3)");
  const SymmetricPipelineSchedule base = TorusSchedule(g);
  auto first = [&](const SymmetricPipelineSchedule& s) {
    const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
    EXPECT_FALSE(r.ok);
    return r.violations.empty() ? PipelineViolation{} : r.violations[0];
  };
  SymmetricPipelineSchedule s = base;
  s.roots.erase(s.roots.begin() + 4);  // t_1_1 missing
  PipelineViolation v = first(s);
  EXPECT_EQ(v.kind, K::kRootList);
  EXPECT_EQ(v.node, T33(1, 1));
  s = base;
  s.roots.push_back(s.roots[4]);  // listed twice
  v = first(s);
  EXPECT_EQ(v.kind, K::kRootList);
  EXPECT_EQ(v.item, "roots[9]");
  s = base;
  s.roots[4].exponents = {1, 2};  // t_1_1 is (1, 1) applied to t_0_0, not (1, 2)
  v = first(s);
  EXPECT_EQ(v.kind, K::kRootList);
  EXPECT_EQ(v.item, "roots[4]");
  EXPECT_NE(v.message.find("(1, 2)"), std::string::npos) << v.message;
  s = base;
  s.roots[4].exponents = {1, 3};  // out of range
  v = first(s);
  EXPECT_EQ(v.kind, K::kRootList);
  s = base;
  s.roots[4].representative = 1;  // no such representative
  v = first(s);
  EXPECT_EQ(v.kind, K::kRootList);
  s = base;
  s.roots[0].exponents = {1, 0};  // the representative's own entry must be 0
  v = first(s);
  EXPECT_EQ(v.kind, K::kRootList);
  EXPECT_EQ(v.node, 0);
  // A second representative in the orbit of the first (its tree is a valid image).
  s = base;
  SymmetricRepresentative second = s.representatives[0];
  const Perm h = s.generators[0];
  second.root = h[0];
  second.trees.assign(1, Expand(base).trees[3]);  // roots[3] = t_1_0, the image under x+1
  ASSERT_EQ(second.trees[0].root, h[0]);
  s.representatives.push_back(second);
  s.roots[3] = RootEntry(h[0], {0, 0}, 1);
  v = first(s);
  EXPECT_EQ(v.kind, K::kRootList);
  EXPECT_EQ(v.item, "representatives[1]");
  // A switch listed as a root.
  const Topology two = EvaluateTopologyExpression("twocluster(2,3,10,1)");
  SymmetricPipelineSchedule t = TwoClusterSchedule(two, Collective::kAllgather);
  t.roots.push_back(RootEntry(8, {0, 0}));
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(two, t);
  EXPECT_EQ(r.violations.at(0).kind, K::kRootList);
  EXPECT_NE(r.violations.at(0).message.find("switch 's0'"), std::string::npos);
}

// fattree(4)'s fourth generator (aggregation index a -> a+1 with the core groups) commutes with
// the first three and is an automorphism, but fixes every host: H no longer acts regularly.
TEST(SymmetricPipelineCheckerMutationTest, GroupFixingTheRepresentativeIsNotRegular) {
  const Topology g = EvaluateTopologyExpression("fattree(4)");
  SymmetricPipelineSchedule s = FatTreeSchedule(g);
  s.generators.push_back(g.automorphisms()[3]);
  s.orders.push_back(2);
  for (SymmetricRoot& root : s.roots) root.exponents.push_back(0);
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, K::kNotRegular);
  EXPECT_EQ(r.num_violations, 1);
  EXPECT_FALSE(r.symmetric->group_order);
}

// A representative tree that uses +x and +y only: each tree is valid and the per-tree loads
// are small, but the +y orbit carries 9 · 6 > U · 1 · 9 in the expansion.
TEST(SymmetricPipelineCheckerMutationTest, TreeOverloadingALinkOrbit) {
  const Topology g = EvaluateTopologyExpression("torus(3,3)");
  SymmetricPipelineSchedule s = TorusSchedule(g);
  s.representatives[0].trees[0] =
      Tree(0, {Edge(0, T33(1, 0)), Edge(T33(1, 0), T33(2, 0)), Edge(0, T33(0, 1)),
               Edge(T33(0, 1), T33(0, 2)), Edge(T33(1, 0), T33(1, 1)), Edge(T33(1, 1), T33(1, 2)),
               Edge(T33(2, 0), T33(2, 1)), Edge(T33(2, 1), T33(2, 2))});
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s, 100);
  EXPECT_FALSE(r.ok);
  ASSERT_TRUE(Has(r, K::kOverloaded)) << Errors(r);
  EXPECT_TRUE(Has(r, K::kWrongRatio));
  EXPECT_EQ(r.ratio, Rational(6));
  std::string overloaded;
  for (const PipelineViolation& v : r.violations) {
    if (v.kind == K::kOverloaded) overloaded += v.item + ";";
  }
  EXPECT_EQ(overloaded, "link orbit of t0_0 -> t0_1;") << Errors(r);
  // The plain checker on the expansion agrees: the +y links carry 6 > 2.
  const PipelineCheckReport plain = CheckPipelineSchedule(g, Expand(s), 100);
  EXPECT_TRUE(Has(plain, K::kOverloaded));
  EXPECT_EQ(plain.ratio, r.ratio);
  // Claimed honestly (U = ratio = 6) it is valid, not certified (the cut gives 2).
  s.U = 6;
  s.ratio = 6;
  r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kCutMismatch);
  s.bottleneck_cut.reset();
  r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << Errors(r);
  EXPECT_EQ(r.verdict, PipelineVerdict::kValid);
}

TEST(SymmetricPipelineCheckerMutationTest, WrongClaimedRatio) {
  const Topology g = testing::Ring(5, false);
  SymmetricPipelineSchedule s = RingSchedule();
  s.ratio = 3;
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.violations.at(0).kind, K::kWrongRatio);
  EXPECT_EQ(r.num_violations, 1);
  EXPECT_EQ(r.ratio, Rational(4));
}

TEST(SymmetricPipelineCheckerMutationTest, BrokenRepresentativeTrees) {
  const Topology g = testing::Ring(5, false);
  auto kinds = [&](const SymmetricPipelineSchedule& s) {
    std::vector<K> out;
    for (const PipelineViolation& v : CheckSymmetricPipelineSchedule(g, s, 100).violations)
      out.push_back(v.kind);
    return out;
  };
  auto contains = [](const std::vector<K>& ks, K k) {
    return std::find(ks.begin(), ks.end(), k) != ks.end();
  };
  SymmetricPipelineSchedule s = RingSchedule();
  s.representatives[0].trees[0].edges.pop_back();  // v4 missing
  std::vector<K> ks = kinds(s);
  EXPECT_EQ(ks.at(0), K::kMissingNode);
  s = RingSchedule();
  s.representatives[0].trees[0].edges[1] = Edge(3, 2, {3, 4, 0, 1, 2});  // 2 <-> 3: a cycle
  ks = kinds(s);
  EXPECT_TRUE(contains(ks, K::kCycle));
  EXPECT_TRUE(contains(ks, K::kRouteThroughCompute));
  s = RingSchedule();
  s.representatives[0].trees[0].edges[3] = Edge(2, 4, {2, 3, 4});  // through compute v3
  ks = kinds(s);
  EXPECT_EQ(ks.at(0), K::kRouteThroughCompute);
  s = RingSchedule();
  s.representatives[0].trees[0].edges[3] = Edge(3, 4, {3, 2, 4});  // no link v3 -> v2
  ks = kinds(s);
  EXPECT_TRUE(contains(ks, K::kMissingLink));
  s = RingSchedule();
  s.collective = Collective::kReduceScatter;  // the allgather tree: its reversed paths are no links
  ks = kinds(s);
  EXPECT_EQ(ks.at(0), K::kMissingLink);
  s = RingSchedule();
  s.representatives[0].trees[0].multiplicity = 2;  // routes sum to 1, trees to 2 != k
  ks = kinds(s);
  EXPECT_TRUE(contains(ks, K::kRouteMultiplicity));
  EXPECT_TRUE(contains(ks, K::kRootSum));
  s = RingSchedule();
  s.representatives[0].trees[0].root = 1;  // not rooted at its representative
  ks = kinds(s);
  EXPECT_EQ(ks.at(0), K::kRootList);
  // A switch route check: twocluster with a route c11 -> c12 through compute node c21.
  const Topology two = EvaluateTopologyExpression("twocluster(2,3,10,1)");
  SymmetricPipelineSchedule t = TwoClusterSchedule(two, Collective::kAllgather);
  t.representatives[0].trees[0].edges[0] = Edge(0, 1, {0, 8, 3, 7, 1});
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(two, t);
  EXPECT_EQ(r.violations.at(0).kind, K::kRouteThroughCompute);
  EXPECT_EQ(r.violations.at(0).item, "representatives[0].trees[0].edges[0].routes[0]");
}

TEST(SymmetricPipelineCheckerMutationTest, BadCuts) {
  const Topology g = testing::Ring(5, false);
  SymmetricPipelineSchedule s = RingSchedule();
  s.bottleneck_cut = std::vector<int>{0};  // 1 / 1 = 1 != 4
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kCutMismatch);
  EXPECT_EQ(*r.cut_ratio, Rational(1));
  s.bottleneck_cut = std::vector<int>{0, 1, 2, 3, 4};  // S ⊇ V_c bounds nothing
  r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kBadCut);
  // The same on the expansion (one set of messages for both checkers).
  const PipelineCheckReport plain = CheckPipelineSchedule(g, Expand(s));
  EXPECT_EQ(plain.errors, r.errors);
  // Allreduce: bound (6) with a cut that is not the bottleneck.
  const Topology two = EvaluateTopologyExpression("twocluster(2,3,10,1)");
  SymmetricPipelineSchedule a = TwoClusterAllreduce(two);
  a.bottleneck_cut = std::vector<int>{0};
  r = CheckSymmetricPipelineSchedule(two, a);
  EXPECT_EQ(r.violations.at(0).kind, K::kCutMismatch);
  EXPECT_EQ(r.verdict, PipelineVerdict::kInvalid);
}

TEST(SymmetricPipelineCheckerMutationTest, BroadcastIsNotASymmetricCollective) {
  const Topology g = testing::Ring(5, false);
  SymmetricPipelineSchedule s = RingSchedule();
  s.collective = Collective::kBroadcast;
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
  EXPECT_EQ(r.violations.at(0).kind, K::kRootList);
  EXPECT_EQ(r.violations.at(0).item, "collective");
}

}  // namespace
}  // namespace collsynth
