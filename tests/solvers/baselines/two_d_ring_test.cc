// 2D-ring allreduce (seed 001 §I, §II-C, §VI; solvers/baselines/two_d_ring.h): every line
// allreduce passes the step checker, every torus link is busy in every step, and a node sends
// 2N(N-1) shards per phase where the flat ring sends N²-1 (the paper's numbers, N = 4).
#include "solvers/baselines/two_d_ring.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "graphs/generators/mesh.h"
#include "graphs/generators/seed000_generators.h"
#include "proofs_check/step_checker.h"

namespace collsynth {
namespace {

TEST(TwoDRingTest, FourByFourTorusUsesEveryLinkInEveryStep) {
  const Topology g = Torus({4, 4});
  const TwoDRingResult r = BuildTwoDRing(g, InferGrid(g, {}, "<test>"), "<test>");
  EXPECT_EQ(r.total_steps, 12);    // 2(4-1) + 2(4-1)
  ASSERT_EQ(r.lines.size(), 16u);  // 2 halves x 2 phases x 4 lines
  for (const TwoDRingLine& line : r.lines) {
    const StepCheckReport rep = CheckStepSchedule(line.ring, line.allreduce);
    EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
    EXPECT_EQ(rep.tl, 6);
    EXPECT_EQ(line.first_step, line.dimension == line.half ? 1 : 7);
  }
  const auto loads = TwoDRingLinkLoads(g, r);
  ASSERT_EQ(loads.size(), 12u);
  Rational total(0);
  for (const auto& step : loads) {
    for (const Rational& x : step) {
      EXPECT_EQ(x, Rational(1));  // one shard M/16 on each of the 64 links: 100% utilisation
      total += x;
    }
  }
  // Per node per phase (half the allreduce): 2N(N-1) = 24 shards (the flat ring: N²-1 = 15).
  EXPECT_EQ(total / Rational(2 * 16), Rational(24));
}

TEST(TwoDRingTest, TwoByTwoMeshRunsOnItsSingleLinkPairs) {
  const Topology g = Mesh({2, 2});
  const TwoDRingResult r = BuildTwoDRing(g, InferGrid(g, {}, "<test>"), "<test>");
  EXPECT_EQ(r.total_steps, 4);
  for (const TwoDRingLine& line : r.lines) {
    EXPECT_TRUE(CheckStepSchedule(line.ring, line.allreduce).ok);
  }
  for (const auto& step : TwoDRingLinkLoads(g, r)) {
    for (const Rational& x : step) EXPECT_EQ(x, Rational(1));
  }
}

TEST(TwoDRingTest, LargerMeshHasNoWrapAroundLink) {
  const Topology g = Mesh({4, 4});
  try {
    BuildTwoDRing(g, InferGrid(g, {}, "<test>"), "<test>");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "link t3_0 -> t0_0");  // dimension 0 first: t0_0 .. t3_0
  }
  const Topology cube = Torus({2, 2, 2});
  EXPECT_THROW(BuildTwoDRing(cube, InferGrid(cube, {}, "<test>"), "<test>"), InputError);
}

}  // namespace
}  // namespace collsynth
