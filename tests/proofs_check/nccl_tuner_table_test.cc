// proofs_check/nccl_tuner_table.h: the CSV of NCCL's example tuner plugin read as the plugin
// reads it (NVIDIA/nccl plugins/tuner/example/plugin.c: comments, 8 to 10 fields, the first
// matching line wins, silent defaults for unknown names), and the check of a tuned table
// rejecting each mutant that would make the plugin select something else than the table says.
#include "proofs_check/nccl_tuner_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collsynth {
namespace {

// Lines in the form `tune --export nccl-tuner` writes.
std::string Line(const std::string& coll, const std::string& lo, const std::string& hi,
                 const std::string& algo, const std::string& ranks = "8") {
  return coll + "," + lo + "," + hi + "," + algo + ",simple,-1,-1," + ranks + ",-1,-1\n";
}

const std::string kHeader = "# a tuned table\n# collective_type,min_bytes,...\n";

// Three ranges: tree up to 4096, then NCCL's own tuning up to 1 MiB, then ring.
std::vector<NcclTunerExpectedRange> Expected() {
  std::vector<NcclTunerExpectedRange> r(3);
  r[0] = {0, 4096, "tree", {1024}};
  r[1] = {4097, 1048576, "", {65536}};
  r[2] = {1048577, std::nullopt, "ring", {1u << 24, 1u << 28}};
  return r;
}

std::string Good() {
  return kHeader + Line("allreduce", "0", "4096", "tree") +
         Line("allreduce", "1048577", "18446744073709551615", "ring");
}

TEST(NcclTunerTable, ParsesLikeThePlugin) {
  const NcclTunerTable t = ParseNcclTunerTable(
      "# comment\n\nallgather,0,100,ring,simple,4,2,-1\n"        // 8 fields
      "allgather , 0 , 200 , pat , simple , -1 , -1 , -1 , 2\n"  // 9, spaces trimmed
      + Line("allgather", "0", "300", "nvls"));
  ASSERT_TRUE(t.problems.empty()) << t.problems.front();
  ASSERT_EQ(t.configs.size(), 3u);
  EXPECT_EQ(t.configs[0].line, 3);
  EXPECT_EQ(t.configs[0].channels, 4);
  EXPECT_EQ(t.configs[0].nodes, 2);
  EXPECT_EQ(t.configs[0].pipe_ops, -1);  // omitted: any
  EXPECT_EQ(t.configs[1].algorithm, "pat");
  EXPECT_EQ(t.configs[1].max_bytes, 200u);
  EXPECT_EQ(t.configs[1].pipe_ops, 2);
  EXPECT_EQ(t.configs[2].ranks, 8);
  // The first matching line wins; nNodes 2 does not match one node; numPipeOps 2 does not
  // match the single call the lookup models; both ends of a range are included.
  EXPECT_EQ(NcclTunerLookup(t, "allgather", 50, 8, 2)->algorithm, "ring");
  EXPECT_EQ(NcclTunerLookup(t, "allgather", 50, 8, 1)->algorithm, "nvls");
  EXPECT_EQ(NcclTunerLookup(t, "allgather", 300, 8, 1)->algorithm, "nvls");
  EXPECT_EQ(NcclTunerLookup(t, "allgather", 301, 8, 1), nullptr);
  EXPECT_EQ(NcclTunerLookup(t, "allreduce", 50, 8, 1), nullptr);
  EXPECT_EQ(NcclTunerLookup(t, "allgather", 50, 4, 1), nullptr);  // nRanks 8 only
}

TEST(NcclTunerTable, SilentDefaultsOfThePluginAreProblems) {
  const std::vector<std::string> bad = {
      Line("allreduc", "0", "1", "ring"),                        // read as allreduce
      Line("allreduce", "0", "1", "rings"),                      // read as ring
      "allreduce,0,1,ring,LL,-1,-1,8\n",                         // read as simple
      "allreduce,0,1,ring,simple,-1,-1\n",                       // 7 fields: dropped
      "allreduce,,0,1,ring,simple,-1,-1,8\n",                    // empty field: shifts the others
      "allreduce,0x10,20,ring,simple,-1,-1,8\n",                 // strtoull reads 0
      "allreduce,0,20,ring,simple,-1,-1,8\r\n",                  // CR kept in the last field
      "allreduce,5,4,ring,simple,-1,-1,8\n",                     // never selected
      "allreduce,0,18446744073709551616,ring,simple,-1,-1,8\n",  // over 2^64 - 1
      " # not a comment\n",
      "allreduce,0,1,ring,simple,-1,-1,8," + std::string(300, '1') + "\n",  // split by fgets
  };
  for (const std::string& text : bad) {
    EXPECT_FALSE(ParseNcclTunerTable(text).problems.empty()) << text;
  }
}

TEST(NcclTunerTable, TreeIsNcclsForAllreduceOnly) {
  EXPECT_TRUE(NcclTunerAlgorithmApplies("allreduce", "tree"));
  EXPECT_TRUE(NcclTunerAlgorithmApplies("allreduce", "ring"));
  EXPECT_FALSE(NcclTunerAlgorithmApplies("allreduce", "pat"));
  EXPECT_FALSE(NcclTunerAlgorithmApplies("allgather", "tree"));
  EXPECT_TRUE(NcclTunerAlgorithmApplies("allgather", "pat"));
  EXPECT_FALSE(NcclTunerAlgorithmApplies("reducescatter", "tree"));
  EXPECT_FALSE(NcclTunerAlgorithmApplies("broadcast", "tree"));
  // The lookup skips what NCCL's cost table ignores, as the plugin does.
  const NcclTunerTable t = ParseNcclTunerTable(Line("allgather", "0", "100", "tree"));
  EXPECT_EQ(NcclTunerLookup(t, "allgather", 10, 8, 1), nullptr);
}

TEST(NcclTunerTable, CheckAcceptsTheTunedTable) {
  EXPECT_EQ(CheckNcclTunerTable(Good(), "allreduce", 8, Expected()), "");
  // Every range without a line: a table of comments only.
  std::vector<NcclTunerExpectedRange> none = {{0, std::nullopt, "", {1024}}};
  EXPECT_EQ(CheckNcclTunerTable(kHeader, "allreduce", 8, none), "");
}

TEST(NcclTunerTable, CheckRejectsMutants) {
  const std::string tree = Line("allreduce", "0", "4096", "tree");
  const std::string ring = Line("allreduce", "1048577", "18446744073709551615", "ring");
  const std::vector<std::pair<std::string, std::string>> mutants = {
      {"swapped lines", kHeader + ring + tree},
      {"missing line", kHeader + tree},
      {"extra line", Good() + Line("allreduce", "5000", "6000", "ring")},
      {"a gap", kHeader + Line("allreduce", "0", "4095", "tree") + ring},
      {"an overlap", kHeader + tree + Line("allreduce", "1048576", "18446744073709551615", "ring")},
      {"last range bounded", kHeader + tree + Line("allreduce", "1048577", "4294967295", "ring")},
      {"another algorithm", kHeader + Line("allreduce", "0", "4096", "ring") + ring},
      {"another collective", kHeader + Line("allgather", "0", "4096", "ring") + ring},
      {"another rank count", kHeader + Line("allreduce", "0", "4096", "tree", "16") + ring},
      {"another protocol", kHeader + "allreduce,0,4096,tree,ll128,-1,-1,8,-1,-1\n" + ring},
      {"unknown algorithm", kHeader + Line("allreduce", "0", "4096", "trees") + ring},
      // Lines the plugin would match for some calls only: the lookup at each range's ends and
      // sizes (one node and N nodes, one operation, no registered buffer) finds nothing.
      {"one node count only", kHeader + "allreduce,0,4096,tree,simple,-1,2,8,-1,-1\n" + ring},
      {"grouped calls only", kHeader + "allreduce,0,4096,tree,simple,-1,-1,8,2,-1\n" + ring},
      {"registered buffers only", kHeader + "allreduce,0,4096,tree,simple,-1,-1,8,-1,1\n" + ring},
      {"a shadowing line first",
       kHeader + Line("allreduce", "0", "18446744073709551615", "ring") + tree + ring},
  };
  for (const auto& [what, text] : mutants) {
    EXPECT_NE(CheckNcclTunerTable(text, "allreduce", 8, Expected()), "") << what;
  }
  // Expectations that are not a partition are rejected whatever the table.
  std::vector<NcclTunerExpectedRange> gap = Expected();
  gap[1].min_bytes = 4098;
  EXPECT_NE(CheckNcclTunerTable(Good(), "allreduce", 8, gap), "");
  std::vector<NcclTunerExpectedRange> stray = Expected();
  stray[0].sizes.push_back(5000);
  EXPECT_NE(CheckNcclTunerTable(Good(), "allreduce", 8, stray), "");
  // Tree for an allgather: NCCL has none, so the plugin would ignore the line.
  std::vector<NcclTunerExpectedRange> ag = {{0, std::nullopt, "tree", {1024}}};
  EXPECT_NE(CheckNcclTunerTable(Line("allgather", "0", "18446744073709551615", "tree"), "allgather",
                                8, ag),
            "");
}

}  // namespace
}  // namespace collsynth
