// Arborescence packing (seed 004 §2.3, Algorithm 2, Theorems 9-12), cross-checked against
// Theorem 9's (Edmonds') cut condition by brute force over all subsets.
#include "solvers/arborescence_packing.h"

#include <gtest/gtest.h>

#include <random>

#include "pipeline_test_topologies.h"
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
                        const std::vector<std::pair<int, BigInt>>& demands, const PackingResult& r) {
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

TEST(ArborescencePackingTest, AgreesWithTheorem9OnRandomDigraphs) {
  std::mt19937_64 rng(testing::TestSeed() + 5);
  int feasible = 0, infeasible = 0;
  for (int round = 0; round < 250; ++round) {
    int n = 2 + static_cast<int>(rng() % 5);
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
    PackingResult r = PackArborescences(g, d, demands);
    ASSERT_EQ(r.ok, expect) << "seed " << testing::TestSeed() << " round " << round;
    if (r.ok) {
      ExpectValidPacking(g, d, demands, r);
      ++feasible;
    } else {
      ++infeasible;
    }
  }
  EXPECT_GT(feasible, 20);
  EXPECT_GT(infeasible, 20);
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
    for (const Link& l : g.links()) d.capacity[{l.from, l.to}] = 2 * scale;  // 4·2 >= (9-1)·1 per node; scales with the demand
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
