// MAX_NODES of the runtime's MSCCL parser is per loading rank (docs/export.md, limits): the
// 32-GPU gpuboxes(4,8,...) allreduce has 3,968 steps (above 4,096 elements in the file) but
// each rank counts fewer than 300, so `collsynth export msccl` writes it and the independent
// replay accepts it. The exporter used to refuse it ("elements per file").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth::testing {
namespace {

TEST(ExportRankLimitCli, ThirtyTwoGpuAllreduceAboveFourThousandElementsIsExported) {
  const std::string topo = TempPath("rank-limit-gb4.json");
  const std::string sched = TempPath("rank-limit-gb4-ar.json");
  const std::string out = TempPath("rank-limit-gb4-ar.xml");
  CliResult r = RunCli({"topo", "gen", "gpuboxes(4,8,300,25,2)", "-o", topo});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli({"pipeline", topo, "--collective", "allreduce", "-o", sched});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli({"export", "msccl", topo, sched, "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ngpus"], 32);
  EXPECT_EQ(j["replay"], "accepted");
  EXPECT_EQ(j["achieved_ratio"], "6/25");
  r = RunCli({"replay", out, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

}  // namespace
}  // namespace collsynth::testing
