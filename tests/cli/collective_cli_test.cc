// The --collective option of every command after the one Collective enum (docs/cli.md):
// an unknown or unsupported name is exit 2 with the same one-line message as before, and the
// collective is printed with its JSON spelling.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;

std::string K22() { return SourcePath("experiments/topologies/k22.json"); }
std::string TwoCluster() { return SourcePath("experiments/topologies/two_cluster.json"); }

TEST(CollectiveCliTest, PipelineUnknownCollective) {
  auto r = RunCli({"pipeline", TwoCluster(), "--collective", "gather", "-o", TempPath("c1.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "collsynth: <args>: --collective: unknown collective 'gather' (allgather, "
            "reduce-scatter, allreduce, broadcast)\n");
}

TEST(CollectiveCliTest, BfbRejectsBroadcast) {
  auto r = RunCli({"bfb", K22(), "--collective", "broadcast", "-o", TempPath("c2.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err,
      "collsynth: <args>: --collective: broadcast not in {allgather,reduce-scatter,allreduce}\n");
}

TEST(CollectiveCliTest, BaselineUnknownAndUnsupportedCollective) {
  for (const char* c : {"gather", "broadcast"}) {
    auto r = RunCli({"baseline", "uniring", K22(), "--collective", c, "-o", TempPath("c3.json")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, std::string("collsynth: <args>: --collective: '") + c +
                         "' is not one of allgather, reduce-scatter, allreduce\n");
  }
  // An unknown baseline name is reported first, as before.
  auto r =
      RunCli({"baseline", "nosuch", K22(), "--collective", "gather", "-o", TempPath("c3.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("collsynth: <args>: baseline 'nosuch': unknown; one of: uniring,", 0), 0u)
      << r.err;
}

TEST(CollectiveCliTest, CollectivePrintedWithItsName) {
  auto r =
      RunCli({"bfb", K22(), "--collective", "reduce-scatter", "--json", "-o", TempPath("c4.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["collective"], "reduce-scatter");
  auto v = RunCli({"verify", K22(), TempPath("c4.json"), "--json"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(nlohmann::json::parse(v.out)["collective"], "reduce-scatter");
}

}  // namespace
}  // namespace collsynth
