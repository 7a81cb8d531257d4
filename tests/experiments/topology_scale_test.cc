// Seed 003 experiment kinds (experiments/topology_scale.cc): topology-table measures routers,
// network radix, endpoints and the endpoint-router diameter of a built topology;
// diameter3-scale reports the paper's geometric means; bad parameters are InputError.
#include <gtest/gtest.h>

#include <string>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/experiment_test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;
using ::collsynth::testing::RunExperimentKind;

TEST(TopologyTableKind, MeasuresRoutersRadixEndpointsAndDiameter) {
  // karyntree(2,3): 3 levels of 4 switches, 8 hosts; middle switches have 4 router ports;
  // leaf to leaf is 4 router hops. hyperx(2,3): direct, 6 routers, radix 3, diameter 2.
  auto rows = RunExperimentKind(
      "topology-table",
      {{"rows",
        {{{"label", "FT"},
          {"topology", "karyntree(2,3)"},
          {"paper", {{"routers", "12"}, {"endpoints", "9"}}}},
         {{"label", "HX"}, {"topology", "hyperx(2,3)"}, {"endpoints_per_router", 2}}}}});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(Extra(rows[0], "routers"), "12");
  EXPECT_EQ(Extra(rows[0], "radix"), "4");
  EXPECT_EQ(Extra(rows[0], "endpoints"), "8");
  EXPECT_EQ(Extra(rows[0], "diameter"), "4");
  EXPECT_EQ(Extra(rows[0], "nodes_closed_form"), "20");
  EXPECT_EQ(Extra(rows[0], "matches_paper"), "no: endpoints 8 vs 9");
  EXPECT_EQ(Extra(rows[1], "routers"), "6");
  EXPECT_EQ(Extra(rows[1], "radix"), "3");
  EXPECT_EQ(Extra(rows[1], "endpoints"), "12");
  EXPECT_EQ(Extra(rows[1], "diameter"), "2");
  // No printed value: nothing was compared (seed 003 Fig. 4 prints no orders).
  EXPECT_EQ(Extra(rows[1], "matches_paper"), "n/a: no printed value");
}

TEST(Diameter3ScaleKind, GeometricMeanRowComparesWithThePaper) {
  auto rows = RunExperimentKind("diameter3-scale", {{"radix_min", 8},
                                                    {"radix_max", 128},
                                                    {"families", {"hyperx3"}},
                                                    {"paper_ratios", {{"hyperx3", "6.7"}}}});
  ASSERT_EQ(rows.size(), 122u);                   // 121 radixes + the mean
  EXPECT_EQ(rows[15].instance, "hyperx(9,9,8)");  // radix 23
  EXPECT_EQ(Extra(rows[15], "routers"), "648");
  EXPECT_EQ(rows.back().instance, "geomean[8,128]");
  EXPECT_EQ(Extra(rows.back(), "geomean_ratio_floor"), "6.726");
  EXPECT_EQ(Extra(rows.back(), "matches_paper"), "yes");
  auto wrong = RunExperimentKind("diameter3-scale", {{"radix_min", 8},
                                                     {"radix_max", 128},
                                                     {"families", {"hyperx3"}},
                                                     {"paper_ratios", {{"hyperx3", "6.8"}}}});
  EXPECT_EQ(Extra(wrong.back(), "matches_paper"), "no");
}

TEST(Diameter3ScaleKind, BadParametersAreInputErrors) {
  const ExperimentKindFn* fn = FindExperimentKind("diameter3-scale");
  ASSERT_NE(fn, nullptr);
  ExperimentInput in;
  in.params = {{"families", {"slimfly"}}};
  EXPECT_THROW((*fn)(in), InputError);
  in.params = {{"radix_min", 2}};
  EXPECT_THROW((*fn)(in), InputError);
  in.params = {{"paper_ratios", {{"hyperx3", "6.75x"}}}};
  EXPECT_THROW((*fn)(in), InputError);
  const ExperimentKindFn* table = FindExperimentKind("topology-table");
  ASSERT_NE(table, nullptr);
  in.params = {{"rows", {{{"label", "x"}}}}};
  EXPECT_THROW((*table)(in), InputError);
}

}  // namespace
}  // namespace collsynth::experiments
