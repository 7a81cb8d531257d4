// The "export-replay" experiment kind (experiments/export_replay.cc): each
// row is a file the exporter lowered and the independent replay checker accepted, with the
// exporter's exact ratios; a case beyond the runtime's limits is a row naming the limit.
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
  return RunExperimentKind("export-replay", params);
}

TEST(ExportReplayExperiment, TwoClusterAllgatherAchievesTheOptimumAndReplays) {
  const std::vector<ExperimentRow> rows = RunKind({{"topologies", {"twocluster(2,4,10,1)"}},
                                                   {"collectives", {"allgather", "broadcast"}},
                                                   {"profiles", {"executor", "legacy"}}});
  ASSERT_EQ(rows.size(), 4u);
  const ExperimentRow& ag = rows[0];
  EXPECT_EQ(ag.instance, "twocluster(2,4,10,1)");
  EXPECT_EQ(ag.collective, Collective::kAllgather);
  EXPECT_EQ(ag.nodes, 8);
  EXPECT_EQ(ag.verified, Verified::kYes);
  EXPECT_EQ(Extra(ag, "profile"), "executor");
  // Seed 004 Figure 1: ratio* = 1, met exactly with 8 chunks per loop.
  EXPECT_EQ(Extra(ag, "optimal_ratio"), "1");
  EXPECT_EQ(Extra(ag, "achieved_ratio"), "1");
  EXPECT_EQ(*ag.tb, Rational(1));
  EXPECT_EQ(Extra(ag, "nchunksperloop"), "8");
  EXPECT_EQ(Extra(ag, "channels"), "6");
  EXPECT_EQ(Extra(ag, "blocks_per_gpu"), "15");
  EXPECT_EQ(Extra(ag, "steps_per_block"), "1");
  EXPECT_EQ(Extra(ag, "exact"), "yes");
  EXPECT_EQ(Extra(ag, "replay_ok"), "yes");
  EXPECT_EQ(Extra(ag, "violations"), "0");
  EXPECT_EQ(Extra(ag, "limit"), "");
  EXPECT_EQ(Extra(rows[1], "profile"), "legacy");
  EXPECT_EQ(Extra(rows[1], "replay_ok"), "yes");
  EXPECT_EQ(rows[2].collective, Collective::kBroadcast);
  EXPECT_EQ(Extra(rows[2], "replay_ok"), "yes");
}

// The MSCCL++ target: the plan of the same schedule, replayed by the plan checker; broadcast is
// a row saying MSCCL++ has none (not a failure).
TEST(ExportReplayExperiment, MscclppPlansOfTheTwoClusterReplayAndBroadcastIsARow) {
  const std::vector<ExperimentRow> rows =
      RunKind({{"topologies", {"twocluster(2,4,10,1)"}},
               {"collectives", {"allgather", "reduce-scatter", "broadcast"}},
               {"profiles", {"mscclpp"}}});
  ASSERT_EQ(rows.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(Extra(rows[i], "profile"), "mscclpp");
    EXPECT_EQ(rows[i].verified, Verified::kYes);
    EXPECT_EQ(Extra(rows[i], "replay_ok"), "yes");
    EXPECT_EQ(Extra(rows[i], "achieved_ratio"), "1");
    EXPECT_EQ(Extra(rows[i], "exact"), "yes");
    EXPECT_EQ(Extra(rows[i], "channels"), "7");  // memory channel entries per GPU
  }
  // Allgather: N·K = 8 output chunks; reduce-scatter: K = 1 output chunk per GPU.
  EXPECT_EQ(Extra(rows[0], "nchunksperloop"), "8");
  EXPECT_EQ(Extra(rows[1], "nchunksperloop"), "1");
  EXPECT_EQ(rows[2].verified, Verified::kNotApplicable);
  EXPECT_EQ(Extra(rows[2], "limit"), "no broadcast (MSCCL++ plans have none)");
}

TEST(ExportReplayExperiment, AnUnmeetableLimitIsARowNamingIt) {
  const std::vector<ExperimentRow> rows = RunKind(
      {{"topologies", {"twocluster(2,4,10,1)"}}, {"collectives", {"allgather"}}, {"max_tbs", 1}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].verified, Verified::kNotApplicable);
  EXPECT_EQ(Extra(rows[0], "limit"), "--max-tbs >= 5");
  EXPECT_EQ(Extra(rows[0], "replay_ok"), "");
  EXPECT_FALSE(rows[0].tb.has_value());
}

TEST(ExportReplayExperiment, BadParametersAreInputErrors) {
  const ExperimentKindFn* kind = FindExperimentKind("export-replay");
  ASSERT_NE(kind, nullptr);
  ExperimentInput in;
  in.params = {{"topologies", {"dgx1(1)"}}, {"collectives", {"allgather"}}, {"profiles", {"nccl"}}};
  EXPECT_THROW((*kind)(in), InputError);
  in.params = {{"topologies", {"dgx1(1)"}}};
  EXPECT_THROW((*kind)(in), InputError);
}

}  // namespace
}  // namespace collsynth::experiments
