// Pipelined reduce-then-broadcast tree allreduce (simulate/tree_allreduce_simulation.h,
// docs/simulate.md: the double binary tree pipelined with P chunks). On a path the chunks cross 2d
// links in series: (P + 2d - 1)(α + M/(P·b)) exactly; rooted in the middle the two halves overlap.
#include "simulate/tree_allreduce_simulation.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace collsynth {
namespace {

Topology Path(int n) {
  Topology g("path");
  for (int i = 0; i < n; ++i) g.AddCompute("c" + std::to_string(i));
  for (int i = 0; i + 1 < n; ++i) g.AddDuplexLink(i, i + 1, 1);
  return g;
}

SimulationModel Model(std::int64_t chunks) {
  SimulationModel m;
  m.size = 12;
  m.bytes_per_unit = 1;  // b = 1 byte/s
  m.default_alpha = 1;   // α = 1 s
  m.chunks = chunks;
  return m;
}

TEST(TreeAllreduceSimulationTest, PathRootedAtAnEndIsFourLinksInSeries) {
  // c2 -> c1 -> c0 (reduce), c0 -> c1 -> c2 (broadcast): (P + 3)(1 + 12/P).
  const Topology g = Path(3);
  const std::vector<ReductionTree> trees = {{{-1, 0, 1}, 0, Rational(1)}};
  const std::pair<std::int64_t, Rational> expect[] = {{1, Rational(52)},
                                                      {2, Rational(35)},
                                                      {4, Rational(28)},
                                                      {6, Rational(27)},
                                                      {12, Rational(30)}};
  for (const auto& [p, t] : expect) {
    const FlowSimulation sim = BuildTreeAllreduceSimulation(trees, g, Model(p));
    EXPECT_EQ(sim.num_transfers(), 4 * p);
    EXPECT_EQ(TreeAllreduceTransferCount(trees, Model(p)), static_cast<std::uint64_t>(4 * p));
    EXPECT_EQ(sim.Run().completion, t) << "P = " << p;
  }
}

TEST(TreeAllreduceSimulationTest, RootInTheMiddleOverlapsBothSides) {
  // c0 -> c1 <- c2, then c1 -> c0 and c1 -> c2: two stages, (P + 1)(1 + 12/P).
  const Topology g = Path(3);
  const std::vector<ReductionTree> trees = {{{1, -1, 1}, 1, Rational(1)}};
  EXPECT_EQ(BuildTreeAllreduceSimulation(trees, g, Model(1)).Run().completion, Rational(26));
  EXPECT_EQ(BuildTreeAllreduceSimulation(trees, g, Model(3)).Run().completion, Rational(20));
  // Two half trees on the same links share them first come, first served. P = 1: both trees'
  // 6-byte ups reach each link at α = 1; tree 0's hold it 1..7, tree 1's 7..13. Tree 0's downs
  // are issued at 7 and hold 8..14, tree 1's are issued at 13 and hold 14..20.
  const std::vector<ReductionTree> halves = {{{1, -1, 1}, 1, Rational(1, 2)},
                                             {{1, -1, 1}, 1, Rational(1, 2)}};
  EXPECT_EQ(BuildTreeAllreduceSimulation(halves, g, Model(1)).Run().completion, Rational(20));
}

TEST(TreeAllreduceSimulationTest, MissingLinkIsRejected) {
  Topology g("oneway");
  g.AddCompute("a");
  g.AddCompute("b");
  g.AddLink(1, 0, 1);
  const std::vector<ReductionTree> trees = {{{-1, 0}, 0, Rational(1)}};
  EXPECT_THROW(BuildTreeAllreduceSimulation(trees, g, Model(1)), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
