// "What is written is what was checked" (docs/performance.md "Output check: the written file is the
// checked file"): pipeline, bfb, baseline and schedule expand read the written file back with
// verify's reader and check it; a writer bug (here injected with
// COLLSYNTH_FAULT_INJECT=corrupt-output, docs/cli.md) is exit 1 and leaves no file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;
using testing::WriteTempFile;

std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// Sets the fault-injection variable for one scope (the child inherits the environment).
class CorruptOutput {
 public:
  CorruptOutput() { setenv("COLLSYNTH_FAULT_INJECT", "corrupt-output", 1); }
  ~CorruptOutput() { unsetenv("COLLSYNTH_FAULT_INJECT"); }
};

std::string Ring4() { return WriteTempFile("oc_ring4.txt", "0 1 1\n1 2 1\n2 3 1\n3 0 1\n"); }

void ExpectRejectedAndAbsent(const testing::CliResult& r, const std::string& out) {
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("the written file fails the checker"), std::string::npos) << r.err;
  EXPECT_FALSE(Exists(out)) << out;
  EXPECT_FALSE(Exists(out + ".partial")) << out;
}

TEST(OutputCheckCliTest, BaselineReportsOutputVerified) {
  const std::string out = TempPath("oc_base.json");
  auto r = RunCli({"baseline", "uniring", Ring4(), "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["output_verified"], true);
  EXPECT_TRUE(j["output_verify_seconds"].is_number());
  EXPECT_TRUE(Exists(out));
  EXPECT_FALSE(Exists(out + ".partial"));
}

TEST(OutputCheckCliTest, WriterBugIsExitOneForEveryWritingCommand) {
  const std::string ring = Ring4();
  const std::string base = TempPath("oc_base_ok.json");
  ASSERT_EQ(RunCli({"baseline", "uniring", ring, "-o", base}).exit_code, 0);
  CorruptOutput fault;
  {
    const std::string out = TempPath("oc_base_bad.json");
    ExpectRejectedAndAbsent(RunCli({"baseline", "uniring", ring, "-o", out}), out);
  }
  {
    const std::string out = TempPath("oc_expand_bad.json");
    ExpectRejectedAndAbsent(RunCli({"schedule", "expand", "--degree", "2", ring, base, "-o", out}),
                            out);
  }
  {
    const std::string out = TempPath("oc_pipe_bad.json");
    ExpectRejectedAndAbsent(
        RunCli({"pipeline", SourcePath("experiments/topologies/two_cluster.json"), "-o", out}),
        out);
  }
  {
    const std::string out = TempPath("oc_pipe_ar_bad.json");
    ExpectRejectedAndAbsent(
        RunCli({"pipeline", SourcePath("experiments/topologies/two_cluster.json"), "--collective",
                "allreduce", "-o", out}),
        out);
  }
  for (const char* name : {"oc_bfb_bad.json", "oc_bfb_bad.csteps.json"}) {
    const std::string out = TempPath(name);
    auto r = RunCli({"bfb", SourcePath("experiments/topologies/k22.json"), "-o", out, "--json"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("the written file fails the checker"), std::string::npos) << r.err;
    EXPECT_FALSE(Exists(out));
    // With -o the written file's check is bfb's check: a file that fails it is not verified.
    EXPECT_EQ(json::parse(r.out)["verified"], false) << r.out;
  }
  {  // to stdout: nothing printed
    auto r = RunCli({"baseline", "uniring", ring, "-o", "-"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
  }
}

TEST(OutputCheckCliTest, PipelineAndBfbSummariesSayTheOutputWasVerified) {
  const std::string out = TempPath("oc_pipe.json");
  auto p = RunCli(
      {"pipeline", SourcePath("experiments/topologies/two_cluster.json"), "-o", out, "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  json j = json::parse(p.out);
  EXPECT_EQ(j["output_verified"], true);
  EXPECT_TRUE(j["stage_seconds"]["output_check"].is_number());
  auto v = RunCli({"verify", SourcePath("experiments/topologies/two_cluster.json"), out, "--json"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(json::parse(v.out)["ratio"], j["ratio"]);
  const std::string bout = TempPath("oc_bfb.csteps.json");
  auto b = RunCli({"bfb", SourcePath("experiments/topologies/k22.json"), "-o", bout, "--json"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const json bj = json::parse(b.out);
  EXPECT_EQ(bj["output_verified"], true);
  EXPECT_EQ(bj["verified"], true);
  EXPECT_EQ(bj["verify_seconds"], bj["output_verify_seconds"]);  // one check: the file's
  // The summary's size is the file's.
  EXPECT_EQ(bj["output_bytes"].get<std::size_t>(), Contents(bout).size());
}

// The plain pipeline schedule is written straight to OUT.partial (never held as
// one string) and read back from the file as it streams; the file holds exactly the bytes
// `-o -` prints (which still go through one string), and a file that cannot be opened is
// exit 2 naming OUT.partial, leaving nothing behind.
TEST(OutputCheckCliTest, StreamedPipelineFileEqualsStdout) {
  const std::string topo = SourcePath("experiments/topologies/two_cluster.json");
  for (const char* collective : {"allgather", "allreduce"}) {
    const std::string out = TempPath(std::string("oc_stream_") + collective + ".json");
    auto file = RunCli({"pipeline", topo, "--no-symmetric", "--collective", collective, "-o", out});
    ASSERT_EQ(file.exit_code, 0) << file.err;
    auto printed =
        RunCli({"pipeline", topo, "--no-symmetric", "--collective", collective, "-o", "-"});
    ASSERT_EQ(printed.exit_code, 0) << printed.err;
    EXPECT_EQ(Contents(out), printed.out) << collective;
    EXPECT_FALSE(Exists(out + ".partial"));
  }
  const std::string bad = TempPath("oc_no_such_dir") + "/s.json";
  auto r = RunCli({"pipeline", topo, "--no-symmetric", "-o", bad});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "collsynth: " + bad + ".partial: cannot open file for writing\n");
  EXPECT_FALSE(Exists(bad + ".partial"));
}

// A schedule is written through the one checked-output path (core/checked_output.h, docs/cli.md
// "Written files"): a write that fails as a full disk would (COLLSYNTH_FAULT_INJECT=write-error)
// is exit 1 naming OUT.partial and the OS error, never exit 2 or an internal error, for the
// streamed writer (pipeline) and the text writer (baseline) alike, and leaves no file.
TEST(OutputCheckCliTest, FailedScheduleWriteIsExitOneNamingThePartialFile) {
  const std::string ring = Ring4();
  const std::string base = TempPath("oc_base_full_disk.json");
  const std::string pipe = TempPath("oc_pipe_full_disk.json");
  setenv("COLLSYNTH_FAULT_INJECT", "write-error", 1);
  const auto b = RunCli({"baseline", "uniring", ring, "-o", base});
  const auto p =
      RunCli({"pipeline", SourcePath("experiments/topologies/two_cluster.json"), "-o", pipe});
  unsetenv("COLLSYNTH_FAULT_INJECT");
  for (const auto& [r, out] : {std::pair{b, base}, std::pair{p, pipe}}) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(out + ".partial: cannot write: No space left on device"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_FALSE(Exists(out)) << out;
    EXPECT_FALSE(Exists(out + ".partial")) << out;
  }
}

}  // namespace
}  // namespace collsynth
