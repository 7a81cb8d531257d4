// Allreduce bounds (6) and (7) of seed 004 App. B against brute force over every node set, on
// random Eulerian topologies with and without switches (the switchless path uses one rooted
// min cut for (6) and B+({v}) for (7) instead of max-flows; `optimum` on a
// 10^5-node ring took minutes in these bounds).
#include "solvers/pipeline/collective_bounds.h"

#include <gtest/gtest.h>

#include <random>

#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline_test_topologies.h"
#include "test_util.h"

namespace collsynth {
namespace {

Rational Out(const Topology& g, std::uint64_t mask) {
  Rational out = 0;
  for (const Link& l : g.links())
    if (((mask >> l.from) & 1) && !((mask >> l.to) & 1)) out += l.bandwidth;
  return out;
}

TEST(CollectiveBoundsTest, AllreduceBoundsMatchBruteForceOverEveryNodeSet) {
  const std::uint64_t seed = ::collsynth::testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 60; ++iter) {
    const int compute = 2 + iter % 4, switches = iter % 3 == 0 ? 0 : iter % 3;
    Topology g = ::collsynth::testing::RandomEulerianTopology(rng, compute, switches, 3, 4);
    SCOPED_TRACE("iter " + std::to_string(iter) + " seed " + std::to_string(seed));
    const AllreduceBounds b = ComputeAllreduceBounds(g, ComputeAllgatherOptimum(g));
    const int n = g.num_nodes(), c0 = g.ComputeNodes().front();
    // (6): the least B+(S) over S holding c0 but not every compute node; (7): per compute v,
    // the least B+(S) over S with S ∩ V_c = {v}.
    Rational lambda = -1;
    std::vector<Rational> mu(n, Rational(-1));
    for (std::uint64_t mask = 1; mask < (std::uint64_t{1} << n); ++mask) {
      int in_c = 0, only = -1;
      for (int v = 0; v < n; ++v) {
        if (((mask >> v) & 1) && g.IsCompute(v)) {
          ++in_c;
          only = v;
        }
      }
      const Rational out = Out(g, mask);
      if (((mask >> c0) & 1) && in_c < g.num_compute() && (lambda < 0 || out < lambda))
        lambda = out;
      if (in_c == 1 && (mu[only] < 0 || out < mu[only])) mu[only] = out;
    }
    Rational max_mu = 0;
    for (int v : g.ComputeNodes()) max_mu = std::max(max_mu, mu[v]);
    EXPECT_EQ(b.min_cut, lambda);
    EXPECT_EQ(b.bound6, Rational(g.num_compute()) / lambda);
    EXPECT_EQ(b.max_single_cut, max_mu);
    EXPECT_EQ(b.bound7, Rational(2 * (g.num_compute() - 1)) / max_mu);
    // (5) for root c0 is the same least cut (units of M: 1 / λ).
    const BroadcastBound bc = ComputeBroadcastBound(g, c0);
    EXPECT_EQ(bc.min_cut, lambda);
    std::uint64_t m5 = 0;
    for (int v : bc.cut) m5 |= std::uint64_t{1} << v;
    EXPECT_EQ(Out(g, m5), lambda);
    // The certificates: the (6) set and one (7) set per compute node attain the values.
    std::uint64_t m6 = 0;
    for (int v : b.min_cut_set) m6 |= std::uint64_t{1} << v;
    EXPECT_EQ(Out(g, m6), lambda);
    ASSERT_EQ(b.single_cuts.size(), static_cast<std::size_t>(g.num_compute()));
    for (std::size_t i = 0; i < b.single_cuts.size(); ++i) {
      std::uint64_t m = 0;
      for (int v : b.single_cuts[i]) m |= std::uint64_t{1} << v;
      EXPECT_EQ(Out(g, m), mu[g.ComputeNodes()[i]]);
    }
  }
}

}  // namespace
}  // namespace collsynth
