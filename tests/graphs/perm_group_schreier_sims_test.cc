// Schreier–Sims and the set-wise stabiliser (graphs/perm_group_schreier_sims.h): group orders
// against closed forms (cycle 2n, hypercube 2^d·d!, symmetric n!, alternating n!/2) and against
// the closure of the generators enumerated element by element; membership against that closure
// over all permutations of small sets; the stabiliser of random failed-link sets against
// brute force (enumerate the group, keep the elements mapping F onto F), each generator checked
// to be an automorphism of the degraded topology; a spent budget reports complete = false.
#include "graphs/perm_group_schreier_sims.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

#include "graphs/expression.h"
#include "graphs/failed_links.h"
#include "graphs/symmetry.h"
#include "test_util.h"

namespace collsynth {
namespace {

using Perm = std::vector<int>;

Perm Compose(const Perm& a, const Perm& b) {
  Perm c(a.size());
  for (std::size_t v = 0; v < a.size(); ++v) c[v] = a[b[v]];
  return c;
}

// Every element of <generators>, by breadth-first closure (independent of Schreier–Sims).
std::set<Perm> Closure(int n, const std::vector<Perm>& generators, std::size_t limit = 200000) {
  Perm id(n);
  std::iota(id.begin(), id.end(), 0);
  std::set<Perm> seen{id};
  std::vector<Perm> queue{id};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (const Perm& g : generators) {
      Perm next = Compose(g, queue[i]);
      if (seen.insert(next).second) queue.push_back(next);
    }
    if (seen.size() > limit) ADD_FAILURE() << "closure above " << limit;
  }
  return seen;
}

BigInt Factorial(int n) {
  BigInt f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

Perm Cycle(int n) {
  Perm p(n);
  for (int v = 0; v < n; ++v) p[v] = (v + 1) % n;
  return p;
}

Perm Transposition(int n, int a, int b) {
  Perm p(n);
  std::iota(p.begin(), p.end(), 0);
  std::swap(p[a], p[b]);
  return p;
}

TEST(SchreierSims, CycleGraphDihedralOrderIs2n) {
  for (int n = 3; n <= 40; ++n) {
    Perm reflection(n);
    for (int v = 0; v < n; ++v) reflection[v] = (n - v) % n;
    const SchreierSimsGroup g(n, {Cycle(n), reflection});
    ASSERT_TRUE(g.complete());
    EXPECT_EQ(g.Order(), BigInt(2 * n)) << "C_" << n;
  }
}

TEST(SchreierSims, SymmetricAndAlternatingGroupOrders) {
  for (int n = 2; n <= 30; ++n) {
    const SchreierSimsGroup s(n, {Cycle(n), Transposition(n, 0, 1)});
    ASSERT_TRUE(s.complete());
    EXPECT_EQ(s.Order(), Factorial(n)) << "S_" << n;
    if (n < 3) continue;
    std::vector<Perm> three_cycles;  // (0 1 i), i >= 2, generate A_n
    for (int i = 2; i < n; ++i) {
      Perm p(n);
      std::iota(p.begin(), p.end(), 0);
      p[0] = 1, p[1] = i, p[i] = 0;
      three_cycles.push_back(p);
    }
    const SchreierSimsGroup a(n, three_cycles);
    ASSERT_TRUE(a.complete());
    EXPECT_EQ(a.Order(), Factorial(n) / 2) << "A_" << n;
    EXPECT_FALSE(a.Contains(Transposition(n, 0, 1)));
    EXPECT_TRUE(s.Contains(Transposition(n, 0, 1)));
  }
}

// Aut(Q_d) = Z_2^d ⋊ S_d, order 2^d · d!: one bit flip and the coordinate permutations.
TEST(SchreierSims, HypercubeFullGroupOrder) {
  for (int d = 1; d <= 8; ++d) {
    const int n = 1 << d;
    Perm flip(n), rotate(n), swap01(n);
    for (int x = 0; x < n; ++x) {
      flip[x] = x ^ 1;
      rotate[x] = ((x << 1) | (x >> (d - 1))) & (n - 1);
      const int b0 = x & 1, b1 = (x >> 1) & 1;
      swap01[x] = d == 1 ? x : (x & ~3) | (b0 << 1) | b1;
    }
    const SchreierSimsGroup g(n, {flip, rotate, swap01});
    ASSERT_TRUE(g.complete());
    EXPECT_EQ(g.Order(), BigInt(n) * Factorial(d)) << "Q_" << d;
    // The generators keep Hamming distance 1 (they are automorphisms of Q_d).
    for (const Perm* p : {&flip, &rotate, &swap01}) {
      for (int x = 0; x < n; ++x) {
        for (int b = 0; b < d; ++b) {
          EXPECT_EQ(__builtin_popcount((*p)[x] ^ (*p)[x ^ (1 << b)]), 1);
        }
      }
    }
    if (d <= 4) {
      EXPECT_EQ(BigInt(Closure(n, {flip, rotate, swap01}).size()), g.Order());
    }
  }
}

TEST(SchreierSims, RandomGroupsAgainstClosureAndMembershipOfEveryPermutation) {
  const std::uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 60; ++round) {
    const int n = 1 + round % 7;
    std::vector<Perm> gens;
    const int m = static_cast<int>(rng() % 3);
    for (int i = 0; i < m; ++i) {
      Perm p(n);
      std::iota(p.begin(), p.end(), 0);
      // Sparse permutations too, so that small subgroups occur.
      if (rng() % 2) {
        std::shuffle(p.begin(), p.end(), rng);
      } else if (n >= 2) {
        std::swap(p[rng() % n], p[rng() % n]);
      }
      gens.push_back(p);
    }
    std::vector<int> prefix;
    for (int x = 0; x < n; ++x) {
      if (rng() % 3 == 0) prefix.push_back(static_cast<int>(rng() % n));
    }
    const SchreierSimsGroup g(n, gens, prefix);
    ASSERT_TRUE(g.complete());
    const std::set<Perm> all = Closure(n, gens);
    EXPECT_EQ(g.Order(), BigInt(all.size())) << "round " << round;
    Perm p(n);
    std::iota(p.begin(), p.end(), 0);
    do {
      EXPECT_EQ(g.Contains(p), all.count(p) == 1) << "round " << round;
    } while (std::next_permutation(p.begin(), p.end()));
    for (const Perm& s : g.StrongGenerators()) EXPECT_TRUE(all.count(s));
  }
}

TEST(SchreierSims, SpentBudgetIsReported) {
  const int n = 12;
  const SchreierSimsGroup g(n, {Cycle(n), Transposition(n, 0, 1)}, {}, 50);
  EXPECT_FALSE(g.complete());
}

// The generators of Aut(Q_d) on the bit strings 0..2^d-1: one bit flip, the cyclic shift of
// the coordinates and the transposition of the first two (HypercubeFullGroupOrder checks them).
std::vector<Perm> HypercubeGroup(int d) {
  const int n = 1 << d;
  Perm flip(n), rotate(n), swap01(n);
  for (int x = 0; x < n; ++x) {
    flip[x] = x ^ 1;
    rotate[x] = ((x << 1) | (x >> (d - 1))) & (n - 1);
    swap01[x] = (x & ~3) | ((x & 1) << 1) | ((x >> 1) & 1);
  }
  return {flip, rotate, swap01};
}

// The stabiliser of random failed-link sets, within groups of automorphisms of small topologies
// (the declared generators; those plus the ones FindAutomorphisms finds; the full group of
// hypercube(3)), against brute force over the group. Half of the failed sets are the orbit of a
// link under a random group element, so that stabilisers are not all trivial.
TEST(SetStabiliser, FailedLinksAgainstBruteForce) {
  const std::uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  struct Case {
    std::string expr;
    bool search;
  };
  const std::vector<Case> cases = {
      {"complete(5)", false},  {"complete(6)", false},  {"circulant(8,1,2)", false},
      {"biring(2,5)", true},   {"bipartite(3)", true},  {"torus(3,3)", true},
      {"torus(3,4)", true},    {"fattree(4)", false},   {"kautz(2,2)", false},
      {"hypercube(3)", false}, {"hypercube(4)", false}, {"dragonfly(3,1,1)", true}};
  for (const Case& c : cases) {
    const Topology intact = EvaluateTopologyExpression(c.expr);
    const int n = intact.num_nodes();
    std::vector<Perm> generators = intact.automorphisms();
    if (c.search) generators = FindAutomorphisms(intact, generators).generators;
    if (c.expr.rfind("hypercube", 0) == 0) {
      generators = HypercubeGroup(c.expr == "hypercube(3)" ? 3 : 4);
    }
    ASSERT_FALSE(generators.empty()) << c.expr;
    for (const Perm& p : generators) ASSERT_TRUE(CheckAutomorphism(intact, p).ok) << c.expr;
    const std::set<Perm> group = Closure(n, generators);
    const std::vector<Perm> elements(group.begin(), group.end());
    for (int round = 0; round < 16; ++round) {
      SCOPED_TRACE(c.expr + " round " + std::to_string(round));
      TopologyWithFailures t{intact, {}};
      std::set<int> chosen;
      if (round % 2 == 0) {
        const int count = 1 + static_cast<int>(rng() % 4);
        for (int i = 0; i < count; ++i) chosen.insert(static_cast<int>(rng() % intact.num_links()));
      } else {
        const Perm& p = elements[rng() % elements.size()];
        int e = static_cast<int>(rng() % intact.num_links());
        while (chosen.insert(e).second) {
          e = *intact.FindLink(p[intact.link(e).from], p[intact.link(e).to]);
        }
      }
      t.failed.assign(chosen.begin(), chosen.end());
      std::shuffle(t.failed.begin(), t.failed.end(), rng);
      std::set<std::pair<int, int>> f;
      for (int e : t.failed) f.insert({intact.link(e).from, intact.link(e).to});

      std::set<Perm> expected;
      for (const Perm& p : group) {
        bool keeps = true;
        for (const auto& [u, v] : f) keeps = keeps && f.count({p[u], p[v]});
        if (keeps) expected.insert(p);
      }
      const FailedLinkStabiliser s = StabiliseFailedLinks(t, generators);
      ASSERT_TRUE(s.group_complete);
      EXPECT_EQ(s.group_order, BigInt(group.size()));
      ASSERT_TRUE(s.stabiliser.complete);
      EXPECT_EQ(s.stabiliser.order, BigInt(expected.size()));
      EXPECT_EQ(Closure(n, s.stabiliser.generators), expected);
      const Topology degraded = DegradedTopology(t);
      for (const Perm& p : s.stabiliser.generators) {
        const AutomorphismCheck check = CheckAutomorphism(degraded, p);
        EXPECT_TRUE(check.ok) << check.problem;
      }
    }
  }
}

TEST(SetStabiliser, SpentBudgetKeepsOnlyElementsOfTheStabiliser) {
  const Topology intact = EvaluateTopologyExpression("complete(6)");
  TopologyWithFailures t{intact, {0}};
  const std::set<Perm> group = Closure(intact.num_nodes(), intact.automorphisms());
  for (std::int64_t budget : {1, 30, 100, 300}) {
    const SchreierSimsGroup g(intact.num_nodes(), intact.automorphisms());
    const SetStabiliserResult r =
        PairSetStabiliser(g, {{intact.link(0).from, intact.link(0).to}}, budget);
    const Topology degraded = DegradedTopology(t);
    for (const Perm& p : r.generators) EXPECT_TRUE(CheckAutomorphism(degraded, p).ok);
    if (budget == 1) {
      EXPECT_FALSE(r.complete);
    }
  }
  // With the default budget: S_6 fixing an ordered pair is S_4, order 24.
  const FailedLinkStabiliser s = StabiliseFailedLinks(t, intact.automorphisms());
  EXPECT_TRUE(s.stabiliser.complete);
  EXPECT_EQ(s.stabiliser.order, BigInt(24));
  EXPECT_EQ(s.group_order, BigInt(group.size()));
}

}  // namespace
}  // namespace collsynth
