// time-vs-size (experiments/time_vs_size.h): the fastest algorithm per size and
// the crossover points on constructed times, and a small run of the kind whose step rows must
// equal seed 000's closed form T_L·α + T_B·(M/N)/b exactly.
#include "experiments/time_vs_size.h"

#include <gtest/gtest.h>

#include <string>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/experiment_test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;

TEST(TimeVsSize, FastestPerSizeTakesTheFirstAmongEqualTimes) {
  // Algorithm 0: 10 + M, algorithm 1: 30 + M/4 (cross at M = 80/3), algorithm 2 missing at 0.
  std::vector<std::vector<std::optional<Rational>>> t = {
      {Rational(11), Rational(20), Rational(40)},
      {Rational(121, 4), Rational(65, 2), Rational(75, 2)},
      {std::nullopt, Rational(20), Rational(100)}};
  EXPECT_EQ(FastestPerSize(t), (std::vector<int>{0, 0, 1}));
  t[2][1] = Rational(19);
  EXPECT_EQ(FastestPerSize(t), (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(FastestPerSize({{std::nullopt}}), (std::vector<int>{-1}));
}

TEST(TimeVsSize, CrossoversAreWhereTheFastestChanges) {
  const std::vector<Crossover> x = FindCrossovers({0, 0, 1, -1, 2, 2, 0});
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ(x[0].size, 2u);
  EXPECT_EQ(x[0].from, 0);
  EXPECT_EQ(x[0].to, 1);
  EXPECT_EQ(x[1].size, 4u);  // size 3 has no time: from the last size that had one
  EXPECT_EQ(x[1].from, 1);
  EXPECT_EQ(x[1].to, 2);
  EXPECT_EQ(x[2].size, 6u);
  EXPECT_EQ(x[2].from, 2);
  EXPECT_EQ(x[2].to, 0);
  EXPECT_TRUE(FindCrossovers({1, 1, -1, 1}).empty());
}

TEST(TimeVsSize, StepRowsEqualTheClosedFormAndCrossoversMatchFastest) {
  const ExperimentKindFn* kind = FindExperimentKind("time-vs-size");
  ASSERT_NE(kind, nullptr);
  ExperimentInput in;
  in.params = nlohmann::json::parse(R"json({
    "collective": "allgather",
    "cases": [{"topology": "biring(2,8)",
               "algorithms": ["baseline:biring", "bfb", "pipeline"]}],
    "sizes": ["1KB", "1MB", "1GB"], "alpha_us": "10", "link_gbps": "8", "chunks": [1, 4]})json");
  const std::vector<ExperimentTask> tasks = (*kind)(in);
  ASSERT_EQ(tasks.size(), 1u);
  const std::vector<ExperimentRow> rows = tasks[0].run();
  const Rational bytes[] = {Rational(1024), Rational(1 << 20), Rational(1 << 30)};
  int crossovers = 0;
  std::vector<std::string> fastest(3);
  for (const ExperimentRow& row : rows) {
    if (row.algorithm == "crossover") {
      ++crossovers;
      continue;
    }
    ASSERT_EQ(row.verified, Verified::kYes) << row.algorithm;
    const std::string size = Extra(row, "size");
    const int s = size == "1KB" ? 0 : size == "1MB" ? 1 : 2;
    if (Extra(row, "fastest") == "yes") fastest[s] = row.algorithm;
    if (row.algorithm == "pipeline") {
      // No α-free bound can beat T_B*·(M/N)/b, and P is one of the candidates.
      EXPECT_TRUE(Extra(row, "best_chunks") == "1" || Extra(row, "best_chunks") == "4");
      EXPECT_GE(ParseRational(Extra(row, "time_us")), *row.tb * bytes[s] / 8 / 1000);
      continue;
    }
    // b = 8 Gbps = 10^9 bytes/s per unit; α = 10 µs: T_L·10 + T_B·(M/8)/10^9·10^6 µs.
    EXPECT_EQ(ParseRational(Extra(row, "time_us")), *row.tl * 10 + *row.tb * bytes[s] / 8 / 1000)
        << row.algorithm << " " << size;
  }
  int changes = 0;
  for (int s = 1; s < 3; ++s) changes += fastest[s] != fastest[s - 1];
  EXPECT_EQ(crossovers, changes);
  EXPECT_EQ(rows.size(), 9u + static_cast<std::size_t>(crossovers));
}

TEST(TimeVsSize, TreeDbtreeIsAnAllreduceModelWithTheBestChunkCount) {
  const ExperimentKindFn* kind = FindExperimentKind("time-vs-size");
  ASSERT_NE(kind, nullptr);
  ExperimentInput in;
  in.params = nlohmann::json::parse(R"json({
    "cases": [{"topology": "dbtree(8)", "algorithms": ["tree:dbtree"]}],
    "sizes": ["1KB", "1GB"], "alpha_us": "10", "link_gbps": "8", "chunks": [1, 8]})json");
  const std::vector<ExperimentRow> rows = (*kind)(in)[0].run();
  ASSERT_EQ(rows.size(), 2u);
  for (const ExperimentRow& row : rows) {
    // The trees passed the tree-allreduce checker (rejected: kNo); a model has no T_L, T_B.
    EXPECT_EQ(row.verified, Verified::kNotApplicable);
    EXPECT_FALSE(row.tl.has_value());
    EXPECT_FALSE(row.tb.has_value());
  }
  // 1 KB: latency dominates, one chunk; 1 GB: bandwidth dominates, pipelining pays.
  EXPECT_EQ(Extra(rows[0], "best_chunks"), "1");
  EXPECT_EQ(Extra(rows[0], "time_us_p1"), Extra(rows[0], "time_us_decimal"));
  EXPECT_EQ(Extra(rows[1], "best_chunks"), "8");
  EXPECT_LT(ParseRational(Extra(rows[1], "time_us")), ParseRational(Extra(rows[1], "time_us_p1")));
  in.params["collective"] = "allgather";
  EXPECT_THROW((*kind)(in)[0].run(), InputError);
  // Refused while the tasks are made (before anything runs), naming the key.
  in.file = "t.json";
  try {
    (*kind)(in);
    ADD_FAILURE() << "tree:dbtree accepted for allgather";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "t.json");
    EXPECT_EQ(e.item(), "params.cases[0].algorithms");
  }
}

}  // namespace
}  // namespace collsynth::experiments
