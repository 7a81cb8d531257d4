// The bound on a lowered MSCCL program's steps (CheckMscclProgramStepLimit,
// export/msccl_program.h; docs/export.md "Options", --max-chunks): the count it compares is the
// number of <step> elements of the file `export msccl` writes, a program is refused exactly when
// that count is above the limit, and both commands that lower a program (export msccl, export
// chakra) refuse it with exit 1, `limit steps`, before anything is written. The real limit,
// 2^20 steps, needs a 1,024-GPU fat-tree (9 s and 1.5 GB before the refusal), so the commands
// are shown the refusal through the testing hook COLLSYNTH_TEST_MAX_PROGRAM_STEPS (docs/cli.md),
// which can only lower the limit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/json_io.h"
#include "export/msccl_program.h"
#include "export/msccl_xml.h"
#include "graphs/topology_io.h"
#include "proofs_check/msccl_replay.h"
#include "schedules/pipeline_schedule.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "test_util.h"

namespace collsynth::testing {
namespace {

const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

// Occurrences of `needle` in `text`.
std::int64_t Count(const std::string& text, const std::string& needle) {
  std::int64_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

struct Lowered {
  std::string schedule_path;
  MscclProgram program;
};

// two_cluster's optimal pipeline schedule for `coll`, written to a file, and the program
// `export msccl` lowers it to with default options (also export chakra's).
Lowered LowerTwoCluster(Collective coll) {
  const Topology g = ReadTopologyFile(kTwoCluster);
  PipelineOptions opt;
  opt.collective = coll;
  const PipelineBuildResult built = BuildPipelineSchedule(g, opt);
  Lowered out;
  out.schedule_path = TempPath(std::string("step-limit-") + CollectiveName(coll) + ".json");
  WriteTextFile(out.schedule_path, PipelineScheduleToJsonText(built.schedule, g));
  out.program = ExportPipelineToMscclProgram(g, built.schedule, DefaultRanks(g),
                                             MscclExportOptions{}, out.schedule_path)
                    .program;
  return out;
}

// Sets an environment variable for the lifetime of the object (the CLI runs as a child).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

TEST(MscclStepLimit, TheCountIsTheStepsOfTheWrittenFile) {
  for (Collective coll : {Collective::kAllgather, Collective::kAllreduce}) {
    SCOPED_TRACE(CollectiveName(coll));
    const Lowered l = LowerTwoCluster(coll);
    const std::string xml = MscclXmlText(l.program, MscclExportProfile::kExecutor);
    ASSERT_TRUE(ReplayMscclXml(xml, "two_cluster.xml", ReplayOptions{}).ok);
    const std::int64_t steps = MscclProgramStepCount(l.program);
    EXPECT_GT(steps, 0);
    EXPECT_EQ(steps, Count(xml, "<step "));
  }
}

TEST(MscclStepLimit, RefusedExactlyAboveTheLimit) {
  const Lowered l = LowerTwoCluster(Collective::kAllreduce);
  const std::int64_t steps = MscclProgramStepCount(l.program);
  EXPECT_NO_THROW(CheckMscclProgramStepLimit(l.program));  // 2^20
  EXPECT_NO_THROW(CheckMscclProgramStepLimit(l.program, steps));
  try {
    CheckMscclProgramStepLimit(l.program, steps - 1);
    FAIL() << "a program of " << steps << " steps passed the limit " << steps - 1;
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "steps");
    EXPECT_EQ(e.needed(), steps);
    EXPECT_NE(std::string(e.what()).find(std::to_string(steps) + " steps in all, above " +
                                         std::to_string(steps - 1)),
              std::string::npos)
        << e.what();
  }
}

bool NothingWritten(const std::string& path) {
  return !std::filesystem::exists(path) && !std::filesystem::exists(path + ".partial");
}

TEST(MscclStepLimit, ExportMscclRefusesAboveTheLimitAndWritesNothing) {
  const Lowered l = LowerTwoCluster(Collective::kAllgather);
  const std::int64_t steps = MscclProgramStepCount(l.program);
  const std::string out = TempPath("step-limit-ag.xml");
  const std::string routes = TempPath("step-limit-ag.routes.json");
  {
    ScopedEnv env("COLLSYNTH_TEST_MAX_PROGRAM_STEPS", std::to_string(steps - 1));
    const CliResult r = RunCli({"export", "msccl", kTwoCluster, l.schedule_path, "-o", out});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("export msccl: limit steps: " + std::to_string(steps) +
                         " steps in all, above " + std::to_string(steps - 1)),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(NothingWritten(out));
    EXPECT_TRUE(NothingWritten(routes));
  }
  {
    // At the count itself the file is written, and it has that many steps.
    ScopedEnv env("COLLSYNTH_TEST_MAX_PROGRAM_STEPS", std::to_string(steps));
    const CliResult r = RunCli({"export", "msccl", kTwoCluster, l.schedule_path, "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(Count(ReadTextFile(out), "<step "), steps);
  }
  {
    // A value that is not a decimal integer is bad input (exit 2), not ignored.
    ScopedEnv env("COLLSYNTH_TEST_MAX_PROGRAM_STEPS", "12x");
    const CliResult r = RunCli({"export", "msccl", kTwoCluster, l.schedule_path, "-o", out});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("COLLSYNTH_TEST_MAX_PROGRAM_STEPS"), std::string::npos) << r.err;
  }
}

TEST(MscclStepLimit, ExportChakraRefusesAboveTheLimitAndWritesNothing) {
  const Lowered l = LowerTwoCluster(Collective::kAllreduce);
  const std::int64_t steps = MscclProgramStepCount(l.program);
  const std::string prefix = TempPath("step-limit-ar");
  const std::int64_t size = l.program.nchunksperloop * 4 * 1024;  // 4 slices (the default)
  ScopedEnv env("COLLSYNTH_TEST_MAX_PROGRAM_STEPS", std::to_string(steps - 1));
  const CliResult r = RunCli({"export", "chakra", kTwoCluster, l.schedule_path, "--size",
                              std::to_string(size), "-o", prefix});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("export chakra: limit steps: " + std::to_string(steps) +
                       " steps in all, above " + std::to_string(steps - 1)),
            std::string::npos)
      << r.err;
  for (int rank = 0; rank < l.program.ngpus; ++rank) {
    EXPECT_TRUE(NothingWritten(prefix + "." + std::to_string(rank) + ".et"));
  }
}

}  // namespace
}  // namespace collsynth::testing
