// table6-generation-time (experiments/ilp_vs_polynomial.cc): the small form of the
// SCCL-style column. SCCL's least-steps setup (c chunks per shard, one chunk per unit link per
// step) on hypercube(2) has the counting bound ceil(3c/2) steps (every node receives 3c chunks
// over 2 in-links; D(G) = 2), which the MILP attains and proves; a tiny budget on hypercube(3)
// with c = 4 stops at the limit with the proven steps lower bound and no time_to_optimal.
#include <gtest/gtest.h>

#include <string>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/experiment_test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;
using ::collsynth::testing::RunExperimentKind;

std::vector<ExperimentRow> RunAll(const std::string& params) {
  return RunExperimentKind("table6-generation-time", nlohmann::json::parse(params));
}

TEST(Table6Sccl, LeastStepsRowsMeetTheCountingBoundOnHypercube2) {
  const std::vector<ExperimentRow> rows = RunAll(R"json({
    "hypercube_dims": [2], "torus_sides": [], "milp_max_nodes": 4, "milp_chunks": [2],
    "milp_time_limit": 30, "sccl_chunks": [1, 2, 3, 4], "sccl_time_limit": 30})json");
  ASSERT_EQ(rows.size(), 6u);  // bfb, 4 sccl-milp, 1 milp
  int sccl = 0;
  for (const ExperimentRow& row : rows) {
    if (row.algorithm == "milp") {  // the existing column, with the new budget columns
      EXPECT_EQ(Extra(row, "milp_outcome"), "optimal");
      EXPECT_NE(Extra(row, "time_to_optimal"), "");
      EXPECT_EQ(Extra(row, "milp_time_limit_reached"), "no");
      EXPECT_EQ(Extra(row, "milp_gap"), "");
      continue;
    }
    if (row.algorithm != "sccl-milp") continue;
    ++sccl;
    const int c = std::stoi(Extra(row, "chunks"));
    const int least = std::max(2, (3 * c + 1) / 2);
    ASSERT_EQ(row.verified, Verified::kYes) << c;
    EXPECT_EQ(*row.tl, Rational(least)) << c;
    EXPECT_EQ(Extra(row, "milp_steps"), std::to_string(least));
    EXPECT_EQ(Extra(row, "steps_lower_bound"), std::to_string(least));
    EXPECT_EQ(Extra(row, "milp_outcome"), "optimal");
    EXPECT_EQ(Extra(row, "milp_objective"), "least-steps");
    EXPECT_EQ(Extra(row, "milp_time_limit_reached"), "no");
    EXPECT_NE(Extra(row, "time_to_optimal"), "");
  }
  EXPECT_EQ(sccl, 4);
}

TEST(Table6Sccl, TinyBudgetReportsTheStepsLowerBoundAtTheLimit) {
  const std::vector<ExperimentRow> rows = RunAll(R"json({
    "hypercube_dims": [3], "torus_sides": [], "milp_max_nodes": 4, "milp_chunks": [1],
    "sccl_chunks": [4], "sccl_time_limit": 0.3})json");
  ASSERT_EQ(rows.size(), 2u);  // bfb, sccl-milp (N = 8 > milp_max_nodes)
  const ExperimentRow& row = rows[1];
  ASSERT_EQ(row.algorithm, "sccl-milp");
  EXPECT_EQ(Extra(row, "milp_time_limit_reached"), "yes");
  EXPECT_EQ(Extra(row, "time_to_optimal"), "");
  // Between D(G) = 3 and the counting bound: 7 x 4 chunks over 3 in-links at one chunk per
  // step need >= 10 steps.
  const int lower = std::stoi(Extra(row, "steps_lower_bound"));
  EXPECT_GE(lower, 3);
  EXPECT_LE(lower, 10);
}

TEST(Table6Sccl, BadScclChunksAreInputErrors) {
  const ExperimentKindFn* kind = FindExperimentKind("table6-generation-time");
  ASSERT_NE(kind, nullptr);
  ExperimentInput in;
  in.params = nlohmann::json::parse(R"json({"hypercube_dims": [2], "sccl_chunks": [0]})json");
  EXPECT_THROW((*kind)(in), InputError);
}

}  // namespace
}  // namespace collsynth::experiments
