// Arborescence packing (seed 004 §2.3, Algorithm 2, Theorems 9-12), cross-checked against
// Theorem 9's (Edmonds') cut condition by brute force over all subsets.
#include "solvers/pipeline/arborescence_packing.h"

#include <gtest/gtest.h>

#include <random>

#include "solvers/pipeline_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

// Theorem 9: trees exist iff c(S, S̄) >= Σ{m_j : r_j ∈ S} for every S ≠ V (S nonempty).
bool CutConditionHolds(const Topology& g, const CapacityGraph& d,
                       const std::vector<std::pair<int, BigInt>>& demands) {
  int n = g.num_nodes();
  for (std::uint32_t mask = 1; mask + 1 < (1u << n); ++mask) {
    BigInt cut = 0, need = 0;
    for (const auto& [arc, c] : d.capacity) {
      if (((mask >> arc.first) & 1) && !((mask >> arc.second) & 1)) cut += c;
    }
    for (const auto& [r, m] : demands) need += ((mask >> r) & 1) ? m : BigInt(0);
    if (cut < need) return false;
  }
  return true;
}

void ExpectValidPacking(const Topology& g, const CapacityGraph& d,
                        const std::vector<std::pair<int, BigInt>>& demands,
                        const PackingResult& r) {
  std::map<int, BigInt> per_root;
  std::map<std::pair<int, int>, BigInt> use;
  for (const PackedTree& t : r.trees) {
    EXPECT_GE(t.multiplicity, 1);
    per_root[t.root] += t.multiplicity;
    std::vector<char> reached(g.num_nodes(), 0);
    reached[t.root] = 1;
    for (const auto& [x, y] : t.edges) {  // parents are added before children
      EXPECT_TRUE(reached[x]);
      EXPECT_FALSE(reached[y]);
      reached[y] = 1;
      use[{x, y}] += t.multiplicity;
    }
    for (int v : g.ComputeNodes()) EXPECT_TRUE(reached[v]) << "tree does not span";
  }
  std::map<int, BigInt> wanted;  // a root may appear in several demands
  for (const auto& [r0, m] : demands) wanted[r0] += m;
  EXPECT_EQ(per_root, wanted);
  for (const auto& [arc, u] : use) {
    auto it = d.capacity.find(arc);
    ASSERT_NE(it, d.capacity.end());
    EXPECT_LE(u, it->second);
  }
}

// Both variants of Algorithm 2 — μ certified arc by arc by Theorem 12, or by condition (3)
// for whole greedy proposals (PackingOptions::batch_certify) — against brute force.
class ArborescencePackingModes : public ::testing::TestWithParam<bool> {};

TEST_P(ArborescencePackingModes, AgreesWithTheorem9OnRandomDigraphs) {
  PackingOptions options;
  options.batch_certify = GetParam();
  std::mt19937_64 rng(testing::TestSeed() + 5);
  int feasible = 0, infeasible = 0;
  std::int64_t batch_arcs = 0;
  for (int round = 0; round < 300; ++round) {
    int n = 2 + static_cast<int>(rng() % (round < 150 ? 5 : 9));
    Topology g("random");
    for (int i = 0; i < n; ++i) g.AddCompute("v" + std::to_string(i));
    CapacityGraph d;
    int arcs = static_cast<int>(rng() % (n * n + 1));
    for (int i = 0; i < arcs; ++i) {
      int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (a != b) d.capacity[{a, b}] += BigInt(static_cast<long>(1 + rng() % 4));
    }
    std::vector<std::pair<int, BigInt>> demands;
    int roots = 1 + static_cast<int>(rng() % n);
    for (int i = 0; i < roots; ++i) {
      demands.push_back({static_cast<int>(rng() % n), BigInt(static_cast<long>(1 + rng() % 3))});
    }
    bool expect = CutConditionHolds(g, d, demands);
    PackingResult r = PackArborescences(g, d, demands, options);
    ASSERT_EQ(r.ok, expect) << "seed " << testing::TestSeed() << " round " << round;
    batch_arcs += r.batch_arcs;
    if (r.ok) {
      ExpectValidPacking(g, d, demands, r);
      ++feasible;
    } else {
      ++infeasible;
    }
  }
  EXPECT_GT(feasible, 20);
  EXPECT_GT(infeasible, 20);
  if (options.batch_certify)
    EXPECT_GT(batch_arcs, 100);
  else
    EXPECT_EQ(batch_arcs, 0);
}

INSTANTIATE_TEST_SUITE_P(BatchAndArcByArc, ArborescencePackingModes, ::testing::Bool());

// The batch variant certifies almost every arc of a torus packing (tight: every unit of
// in-capacity is used) with condition (3) and needs far fewer Theorem-12 flows; both
// variants produce valid packings of the same demands.
TEST(ArborescencePackingTest, BatchCertificationOnTightTorus) {
  Topology g = testing::TorusTopology({6, 6});
  CapacityGraph d;
  for (const Link& l : g.links()) d.capacity[{l.from, l.to}] = 35;  // U = 35, k = 4: tight
  std::vector<std::pair<int, BigInt>> dem;
  for (int v : g.ComputeNodes()) dem.push_back({v, 4});
  PackingOptions plain;
  plain.batch_certify = false;
  PackingResult a = PackArborescences(g, d, dem, plain);
  PackingResult b = PackArborescences(g, d, dem);
  ASSERT_TRUE(a.ok);
  ASSERT_TRUE(b.ok);
  ExpectValidPacking(g, d, dem, a);
  ExpectValidPacking(g, d, dem, b);
  std::int64_t tree_arcs = 0;
  for (const PackedTree& t : b.trees) tree_arcs += static_cast<std::int64_t>(t.edges.size());
  EXPECT_GT(b.condition_checks, 0);
  EXPECT_GE(4 * b.batch_arcs, 3 * tree_arcs);  // 6x6: 1414 of 1645 (copies repeat prefixes)
  EXPECT_LT(4 * b.mu_evaluations, a.mu_evaluations);
  // Not enough capacity (U = 34 < 35): both variants must report it.
  for (auto& [arc, c] : d.capacity) c = 34;
  EXPECT_FALSE(PackArborescences(g, d, dem, plain).ok);
  EXPECT_FALSE(PackArborescences(g, d, dem).ok);
}

// Theorem 10 on the two-cluster G* of Figure 2b: k = 1 tree per node exists, k = 2 does not
// (c(S, S̄) = 4 < |S|·2 for a cluster S).
TEST(ArborescencePackingTest, TwoClusterSplitGraph) {
  Topology g = testing::TwoClusterSplitTopology();
  CapacityGraph d;
  for (const Link& l : g.links()) d.capacity[{l.from, l.to}] = Numerator(l.bandwidth);
  std::vector<std::pair<int, BigInt>> k1, k2;
  for (int v : g.ComputeNodes()) {
    k1.push_back({v, 1});
    k2.push_back({v, 2});
  }
  PackingResult r = PackArborescences(g, d, k1);
  ASSERT_TRUE(r.ok);
  ExpectValidPacking(g, d, k1, r);
  EXPECT_FALSE(PackArborescences(g, d, k2).ok);
}

// Large demands do not cost more evaluations: identical trees stay grouped.
TEST(ArborescencePackingTest, GroupedTreesIndependentOfDemandSize) {
  Topology g = testing::TorusTopology({3, 3});
  auto run = [&](const BigInt& scale) {
    CapacityGraph d;
    for (const Link& l : g.links())
      d.capacity[{l.from, l.to}] = 2 * scale;  // 4·2 >= (9-1)·1 per node; scales with the demand
    std::vector<std::pair<int, BigInt>> dem;
    for (int v : g.ComputeNodes()) dem.push_back({v, scale});
    PackingResult r = PackArborescences(g, d, dem);
    EXPECT_TRUE(r.ok);
    ExpectValidPacking(g, d, dem, r);
    return r.mu_evaluations;
  };
  std::int64_t small = run(1);
  std::int64_t huge = run(BigInt("1000000000000000000000"));
  EXPECT_LE(huge, 4 * small + 100);
}

}  // namespace
}  // namespace collsynth
