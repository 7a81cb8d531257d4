// Simulated α-β times of routed baselines (solvers/baselines/routed_baselines.h) against their
// closed forms (docs/baselines.md "Routed baselines"), exact, store-and-forward, P = 1, shard
// s = M/N bytes, links served first come, first served (docs/simulate.md "Pipeline schedules").
#include <gtest/gtest.h>

#include <string>

#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "simulate/pipeline_simulation.h"
#include "solvers/baselines/routed_baselines.h"

namespace collsynth {
namespace {

Rational SimulatedTime(const Topology& g, const std::string& name, const Rational& size,
                       const Rational& alpha) {
  RoutedBaselineOptions o;
  o.name = name;
  const PipelineSchedule s = BuildRoutedBaseline(g, o, "test");
  const PipelineCheckReport r = CheckPipelineSchedule(g, s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  SimulationModel m;
  m.size = size;
  m.bytes_per_unit = 1;  // a link of bandwidth b moves b bytes per second
  m.default_alpha = alpha;
  return BuildPipelineSimulation(s, g, m).Run().completion;
}

// Hierarchical allgather on gpuboxes(2, 2, bb, nb, 2), bb >= nb: root (b, i)'s shard crosses
// rail i (2 links, α + s/nb each, alone on them), then the box switch of the other box, where
// the uplink and the downlink have already passed that box's own shard of index i (2 links,
// α + s/bb each, free by then). Every root alike: T = 4α + 2s/nb + 2s/bb.
TEST(RoutedBaselineTime, HierarchicalOnTwoBoxesOfTwo) {
  Topology g = EvaluateTopologyExpression("gpuboxes(2,2,3,1,2)");
  const Rational bb(3), nb(1), alpha(1, 7), size(40);
  const Rational s = size / 4;
  EXPECT_EQ(SimulatedTime(g, "hierarchical", size, alpha), 4 * alpha + 2 * s / nb + 2 * s / bb);
}

// The double binary tree on two nodes and one switch: each root's shard goes as two halves (one
// per tree) up its link to the switch and down to the other node. The halves queue on the
// uplink (done at α + s/(2b), α + s/b) and follow each other down:
// T = 2α + 3s/(2b).
TEST(RoutedBaselineTime, DoubleBinaryTreeOnTwoNodes) {
  Topology g("pair");
  g.AddCompute("a");
  g.AddCompute("b");
  const int sw = g.AddSwitch("sw");
  const Rational b(2);
  g.AddDuplexLink(0, sw, b);
  g.AddDuplexLink(1, sw, b);
  const Rational alpha(1, 3), size(10);
  const Rational s = size / 2;
  EXPECT_EQ(SimulatedTime(g, "routed-double-binary-tree", size, alpha),
            2 * alpha + 3 * s / (2 * b));
}

}  // namespace
}  // namespace collsynth
