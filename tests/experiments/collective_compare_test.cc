// collective-compare rows (experiments/collective_compare.h): certified_optimal is "yes"
// exactly when the proofs_check checker derived a bound from a cut that equals the row's tb,
// and the certificate column names that bound or says why there is none (the
// allreduce rows of pipeline-hardware once said ratio_to_bound 1 with certified_optimal "no").
#include "experiments/collective_compare.h"

#include <gtest/gtest.h>

#include <string>

#include "experiments/experiment_test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;

TEST(CollectiveCompareIssue14, Dgx1AllreducePipelineCertifiedByBound7) {
  const ExperimentRow row =
      RunCollectiveCase("dgx1(1)", "", "pipeline", Collective::kAllreduce, {}, true);
  EXPECT_EQ(*row.tb, Rational(7, 3));
  EXPECT_EQ(*row.lower_bound, Rational(7, 3));
  EXPECT_EQ(Extra(row, "certified_optimal"), "yes");
  EXPECT_EQ(Extra(row, "certificate"), "checked cut: bound (7)");
}

TEST(CollectiveCompareIssue14, PipelineRowAboveTheBoundSaysSo) {
  // 4 boxes x 8 GPUs: RS+AG 6/25 > max((6), (7)) = 62/325.
  const ExperimentRow row =
      RunCollectiveCase("gpuboxes(4,8,300,25,2)", "", "pipeline", Collective::kAllreduce, {}, true);
  EXPECT_EQ(*row.tb, Rational(6, 25));
  EXPECT_EQ(*row.lower_bound, Rational(62, 325));
  EXPECT_EQ(Extra(row, "certified_optimal"), "no");
  EXPECT_EQ(Extra(row, "certificate"),
            "none: bounds (6) and (7) not attained (checked bound 62/325)");
}

TEST(CollectiveCompareIssue14, StepScheduleRowsAreCertifiedByTheSolversCuts) {
  // hypercube(4) allreduce: (6) = 16/4 = 4, (7) = 2·15/4 = 15/2; BFB attains (7).
  ExperimentRow bfb =
      RunCollectiveCase("hypercube(4)", "", "bfb", Collective::kAllreduce, {}, true);
  EXPECT_EQ(*bfb.tb, Rational(15, 2));
  EXPECT_EQ(Extra(bfb, "certified_optimal"), "yes");
  EXPECT_EQ(Extra(bfb, "certificate"), "checked cut: bound (7)");
  ExperimentRow rd = RunCollectiveCase("hypercube(4)", "", "baseline:recursive-doubling",
                                       Collective::kAllreduce, {}, true);
  EXPECT_EQ(*rd.tb, Rational(30));
  EXPECT_EQ(Extra(rd, "certified_optimal"), "no");
  EXPECT_EQ(Extra(rd, "certificate"), "none: bounds (6) and (7) not attained (checked bound 15/2)");
  // Allgather on torus(3,3): bound (1) = 8/4 = 2 with the bottleneck cut.
  ExperimentRow ag = RunCollectiveCase("torus(3,3)", "", "bfb", Collective::kAllgather, {}, true);
  EXPECT_EQ(Extra(ag, "certificate"), "checked cut: bound (1)");
  ExperimentRow rs =
      RunCollectiveCase("torus(3,3)", "", "bfb", Collective::kReduceScatter, {}, true);
  EXPECT_EQ(Extra(rs, "certificate"), "checked cut: bound (1) on G^T");
  // Without a lower bound nothing is certified, and the row says so.
  ExperimentRow none =
      RunCollectiveCase("torus(3,3)", "", "bfb", Collective::kAllgather, {}, false);
  EXPECT_EQ(Extra(none, "certified_optimal"), "no");
  EXPECT_EQ(Extra(none, "certificate"), "none: no lower bound computed");
}

}  // namespace
}  // namespace collsynth::experiments
