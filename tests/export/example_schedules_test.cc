// The exporter on the schedules collsynth itself produces for experiments/topologies/:
// pipeline schedules (every collective, switch routes included) and BFB step schedules, each
// lowered, self-checked (H1-H6) and executed symbolically to its postcondition; the achieved
// ratio equals the schedule's when the chunks are exact. The CLI tests replay the files.
#include <gtest/gtest.h>

#include "core/json_io.h"
#include "export/msccl_program.h"
#include "export/msccl_sim.h"
#include "graphs/topology_io.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::RunBoth;
using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;

struct Produced {
  Topology g;
  nlohmann::json doc;
};

Produced Produce(const std::string& topo, const std::vector<std::string>& command,
                 const std::string& out) {
  std::vector<std::string> args = command;
  args.insert(args.begin() + 1, SourcePath("experiments/topologies/" + topo));
  args.push_back("-o");
  args.push_back(TempPath(out));
  auto r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return {ReadTopologyFile(SourcePath("experiments/topologies/" + topo)),
          ParseJsonText(ReadTextFile(TempPath(out)), out)};
}

TEST(ExampleSchedules, PipelineEveryCollectiveEveryTopology) {
  for (const std::string topo : {"two_cluster.json", "k22.json", "ring8.txt"}) {
    for (const std::string coll : {"allgather", "reduce-scatter", "allreduce", "broadcast"}) {
      SCOPED_TRACE(topo + " " + coll);
      Produced p = Produce(topo, {"pipeline", "--collective", coll}, topo + "-" + coll + ".json");
      PipelineSchedule s = PipelineScheduleFromJson(p.doc, p.g, "s");
      for (int mode = 0; mode < 4; ++mode) {
        const bool inplace = mode % 2 == 1;
        MscclExportOptions o;
        o.inplace = inplace;
        o.fuse = mode >= 2;
        o.root_specific = true;
        MscclExportResult r = ExportPipelineToMscclProgram(p.g, s, DefaultRanks(p.g), o, "s");
        EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
        EXPECT_EQ(RunBoth(r.program, coll, inplace, 0), "");
        if (r.exact_chunks) {
          EXPECT_EQ(r.achieved_ratio, r.optimal_ratio);
        }
        EXPECT_LE(r.program.nchunksperloop, 256);
      }
    }
  }
}

TEST(ExampleSchedules, BfbStepSchedules) {
  for (const std::string topo : {"k22.json", "ring8.txt"}) {
    for (const std::string coll : {"allgather", "reduce-scatter", "allreduce"}) {
      SCOPED_TRACE(topo + " " + coll);
      Produced p = Produce(topo, {"bfb", "--collective", coll}, topo + "-bfb-" + coll + ".json");
      StepSchedule s = StepScheduleFromJson(p.doc, p.g, "s");
      MscclExportResult r = ExportStepsToMscclProgram(p.g, s, DefaultRanks(p.g), {}, "s");
      EXPECT_EQ(CheckMscclProgramInvariants(r.program, {}), std::vector<std::string>{});
      EXPECT_EQ(RunBoth(r.program, coll, false, 0), "");
      EXPECT_EQ(r.achieved_ratio, r.optimal_ratio);
    }
  }
}

}  // namespace
}  // namespace collsynth
