// Seed 004 §2.4's statements about the fixed-k search (docs/reproduction.md): "(N−1)k /
// min_{v ∈ V_c} B⁻_G(v) ≤ U* ≤ (N−1)k", "the denominator of U* must be less than or equal to
// max_{e ∈ E} b_e", and the search resolution 1 / max b_e² (Proposition 2: two unequal
// fractions with denominators at most X differ by at least 1/X²), on the random directed
// Eulerian topologies of the theorem sweeps (integer bandwidths 2..7, switches). Fast.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/rational.h"
#include "experiments/sweeps/pipeline_sweeps.h"
#include "graphs/topology.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

TEST(Seed004FixedKClaims, LeastUInTheInitialRangeWithDenominatorAtMostMaxB) {
  int instances = 0, raised_by_range = 0;
  for (std::int64_t i = 1; i <= 40; ++i) {
    const Topology g = sweeps::RandomDirectedEulerianTopology(i);
    std::vector<Rational> in(g.num_nodes(), Rational(0));
    Rational max_b = 0;
    for (const Link& l : g.links()) {
      if (l.from != l.to) in[l.to] += l.bandwidth;  // a link's bandwidth is its merged total
      max_b = std::max(max_b, l.bandwidth);
    }
    Rational min_in = -1;
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (g.IsCompute(v) && (min_in < 0 || in[v] < min_in)) min_in = in[v];
    }
    const std::int64_t n = g.num_compute();
    for (int k : {1, 2}) {
      SCOPED_TRACE(g.name() + " k=" + std::to_string(k));
      const Rational u = FixedKMinimalU(g, BigInt(k));
      EXPECT_GE(u, Rational((n - 1) * k) / min_in);
      EXPECT_LE(u, Rational((n - 1) * k));
      // Some U*·b_e is an integer (else U* could decrease), so its denominator divides b_e.
      bool integral = false;
      for (const Link& l : g.links()) integral |= Denominator(u * l.bandwidth) == 1;
      EXPECT_TRUE(integral);
      EXPECT_LE(Rational(Denominator(u)), max_b);
      raised_by_range += u > Rational((n - 1) * k) / min_in;
      ++instances;
    }
  }
  EXPECT_EQ(instances, 80);
  EXPECT_GT(raised_by_range, 0);  // the lower end is not always U*: the range is not trivial
}

// Proposition 2 by brute force for X <= 12: distinct fractions with denominators <= X are at
// least 1/X² apart, and the bound is attained (consecutive Farey fractions 1/X, 1/(X-1)).
TEST(Seed004FixedKClaims, Proposition2ResolutionByBruteForce) {
  for (int x = 2; x <= 12; ++x) {
    std::vector<Rational> f;
    for (int b = 1; b <= x; ++b) {
      for (int a = 0; a <= 2 * b; ++a) f.push_back(Rational(a, b));
    }
    std::sort(f.begin(), f.end());
    f.erase(std::unique(f.begin(), f.end()), f.end());
    Rational least = 1;
    for (std::size_t i = 1; i < f.size(); ++i) least = std::min(least, Rational(f[i] - f[i - 1]));
    EXPECT_GE(least, Rational(1, x * x)) << x;
    EXPECT_EQ(least, Rational(1, x * (x - 1))) << x;
  }
}

}  // namespace
}  // namespace collsynth
