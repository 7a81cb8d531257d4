// The "link-utilisation" experiment kind (experiments/link_utilisation.cc, seed 001
// MultiTree): the paper's schedule-level numbers on the 4x4 torus (§I: ring all-reduce uses
// 25% of the links; 2D-ring sends 2N(N-1) = 24 shards per node per phase where the ring sends
// N²-1 = 15, and uses every link), and MultiTree's T_B = 4 against the bound 3 on mesh(2,2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/experiment_test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;
using ::collsynth::testing::RunExperimentKind;

std::vector<ExperimentRow> RunKind(const nlohmann::json& params) {
  return RunExperimentKind("link-utilisation", params);
}

TEST(LinkUtilisationExperiment, FourByFourTorusMatchesThePapersNumbers) {
  const auto rows = RunKind({{"topologies", {"torus(4,4)"}},
                             {"algorithms", {"ring", "2dring", "multitree", "bfb", "torus"}}});
  ASSERT_EQ(rows.size(), 5u);
  for (const ExperimentRow& r : rows) {
    EXPECT_EQ(r.verified, Verified::kYes) << r.algorithm;
    EXPECT_EQ(*r.lower_bound, Rational(15, 2)) << r.algorithm;  // 2(N-1)/B, B = 4
  }
  const ExperimentRow& ring = rows[0];
  EXPECT_EQ(*ring.tl, Rational(30));
  EXPECT_EQ(*ring.tb, Rational(30));
  EXPECT_EQ(Extra(ring, "data_per_node_per_phase"), "15");  // N²-1
  EXPECT_EQ(Extra(ring, "avg_link_utilisation"), "1/4");    // "only 25%"
  EXPECT_EQ(Extra(ring, "step_utilisation"), "1/4*30");
  const ExperimentRow& two_d = rows[1];
  EXPECT_EQ(*two_d.tl, Rational(12));
  EXPECT_EQ(*two_d.tb, Rational(12));
  EXPECT_EQ(Extra(two_d, "data_per_node_per_phase"), "24");  // 2N(N-1)
  EXPECT_EQ(Extra(two_d, "avg_link_utilisation"), "1");
  const ExperimentRow& mt = rows[2];
  EXPECT_EQ(*mt.tl, Rational(10));
  EXPECT_EQ(*mt.tb, Rational(10));
  EXPECT_EQ(Extra(mt, "data_per_node_per_phase"), "15");
  EXPECT_EQ(Extra(mt, "avg_link_utilisation"), "3/4");
  EXPECT_EQ(Extra(mt, "step_utilisation"), "1/4*1 3/4*2 1*4 3/4*2 1/4*1");
  EXPECT_EQ(Extra(two_d, "tb_ratio_vs_multitree"), "1.200");
  EXPECT_EQ(*rows[3].tb, Rational(15, 2));  // BFB meets the bound
  // The hierarchical 2-D scheme (the torus baseline's RS then AG per dimension): 2D-ring's 12
  // steps, but the ring's N²-1 shards per phase and T_B at the bound.
  const ExperimentRow& torus = rows[4];
  EXPECT_EQ(*torus.tl, Rational(12));
  EXPECT_EQ(*torus.tb, Rational(15, 2));
  EXPECT_EQ(Extra(torus, "data_per_node_per_phase"), "15");
}

TEST(LinkUtilisationExperiment, MeshesTwoDRingOnlyOnTwoByTwo) {
  const auto rows = RunKind(
      {{"topologies", {"mesh(2,2)", "mesh(4,4)"}}, {"algorithms", {"2dring", "multitree"}}});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].verified, Verified::kYes);
  EXPECT_EQ(*rows[0].tb, Rational(4));
  EXPECT_EQ(*rows[1].tb, Rational(4));                    // MultiTree: 2 per phase ...
  EXPECT_EQ(*rows[1].lower_bound, Rational(3));           // ... against 3/2 per phase
  EXPECT_EQ(rows[2].verified, Verified::kNotApplicable);  // no wrap-around on mesh(4,4)
  EXPECT_FALSE(rows[2].tb.has_value());
  EXPECT_EQ(Extra(rows[2], "note").rfind("not run: link t3_0 -> t0_0: missing", 0), 0u)
      << Extra(rows[2], "note");
  EXPECT_EQ(*rows[3].lower_bound, Rational(15));  // mesh(4,4): 2 · ratio* = 2 · 15/2
}

// On the 8x8 mesh (not regular) the RS+AG bound ratio*(G^T) + ratio*(G) is 63 = 2·63/2, met
// by the optimal pipeline: MultiTree 64, BFB 68 (BFB is not bandwidth optimal off the tori).
TEST(LinkUtilisationExperiment, MeshBoundIsTheRsAgOptimum) {
  const auto rows =
      RunKind({{"topologies", {"mesh(8,8)"}}, {"algorithms", {"multitree", "bfb", "pipeline"}}});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(*rows[0].tb, Rational(64));
  EXPECT_EQ(*rows[1].tb, Rational(68));
  EXPECT_EQ(*rows[2].tb, Rational(63));
  EXPECT_EQ(rows[2].verified, Verified::kYes);
  EXPECT_FALSE(rows[2].tl.has_value());
  for (const ExperimentRow& r : rows) EXPECT_EQ(*r.lower_bound, Rational(63)) << r.algorithm;
}

TEST(LinkUtilisationExperiment, UnknownAlgorithmIsAnInputError) {
  const ExperimentKindFn* kind = FindExperimentKind("link-utilisation");
  ASSERT_NE(kind, nullptr);
  ExperimentInput in;
  in.params = {{"topologies", {"torus(4,4)"}}, {"algorithms", {"hdrm"}}};
  EXPECT_THROW((*kind)(in), InputError);
}

}  // namespace
}  // namespace collsynth::experiments
