// dbtree(n): the union of NCCL's two binary trees (seed 000 §8.2 baseline DBT).
#include <gtest/gtest.h>

#include "core/input_error.h"
#include "graphs/expression.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

TEST(DbtreeTopology, SevenNodesHaveTheTwoTreesLinks) {
  // Tree A over 0..6: root 3; 3-1, 3-5, 1-0, 1-2, 5-4, 5-6. Tree B = A shifted by one:
  // 4-2, 4-6, 2-1, 2-3, 6-5, 6-0. Shared edges {1,2} and {5,6} get bandwidth 2.
  const Topology g = EvaluateTopologyExpression("dbtree(7)");
  EXPECT_EQ(g.num_compute(), 7);
  EXPECT_EQ(g.num_links(), 20);
  auto bw = [&](const char* a, const char* b) {
    auto l = g.FindLink(*g.FindNode(a), *g.FindNode(b));
    return l ? g.link(*l).bandwidth : Rational(0);
  };
  EXPECT_EQ(bw("3", "1"), 1);
  EXPECT_EQ(bw("0", "6"), 1);
  EXPECT_EQ(bw("1", "2"), 2);
  EXPECT_EQ(bw("6", "5"), 2);
  EXPECT_EQ(bw("0", "3"), 0);  // not a tree edge
  EXPECT_NO_THROW(RequireEulerianStronglyConnected(g, "dbtree"));
}

TEST(DbtreeTopology, RejectsTooFewNodes) {
  EXPECT_THROW(EvaluateTopologyExpression("dbtree(1)"), InputError);
}

}  // namespace
}  // namespace collsynth
