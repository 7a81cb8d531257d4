// The experiment runner: exact decimal formatting, CSV round trip, definition validation,
// deterministic row order under parallel runs, and the rule that an unverified row fails.
#include "experiments/runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "core/input_error.h"
#include "core/thread_pool.h"
#include "experiments/csv_table.h"
#include "experiments/definition.h"
#include "experiments/shards.h"
#include "test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::WriteTempFile;

// A kind for the tests: params {"n": N, "fail_at": i, "unverified_at": j}; task i sleeps a
// little (in reverse order, so later tasks finish first) and returns one row with tb = 1/(i+1).
std::vector<ExperimentTask> TestTasks(const ExperimentInput& in) {
  const int n = in.params.value("n", 4);
  const int fail_at = in.params.value("fail_at", -1);
  const int unverified_at = in.params.value("unverified_at", -1);
  if (n < 0) throw InputError("", "n", "must be >= 0");
  std::vector<ExperimentTask> tasks;
  for (int i = 0; i < n; ++i) {
    tasks.push_back({"task " + std::to_string(i), [=] {
                       std::this_thread::sleep_for(std::chrono::milliseconds(2 * (n - i)));
                       if (i == fail_at)
                         throw std::runtime_error("task failed: " + std::to_string(i));
                       ExperimentRow r;
                       r.instance = "inst" + std::to_string(i);
                       r.algorithm = "alg";
                       r.nodes = i;
                       r.tb = Rational(1, i + 1);
                       r.lower_bound = Rational(1, 2 * (i + 1));
                       r.verified = i == unverified_at ? Verified::kNo : Verified::kYes;
                       r.extra.emplace_back("seed_sum", std::to_string(in.seeds.size()));
                       if (i % 2 == 1) r.extra.emplace_back("odd_only", "x,\"y\"");
                       return std::vector<ExperimentRow>{r};
                     }});
  }
  return tasks;
}
const ExperimentKindRegistrar kTestKind("test-kind", &TestTasks, {"seed_sum", "odd_only"});

// A kind whose tasks run a parallel-for of their own (as BFB plans and BFS metrics do inside
// collective-compare and the sweeps): params {"n": N}; each task records its thread budget
// and the most inner bodies seen running at once.
std::atomic<int> nested_active{0}, nested_max{0};
std::vector<ExperimentTask> NestedTasks(const ExperimentInput& in) {
  std::vector<ExperimentTask> tasks;
  for (int i = 0; i < in.params.value("n", 4); ++i) {
    tasks.push_back({"nested " + std::to_string(i), [] {
                       ExperimentRow r;
                       r.instance = "budget " + std::to_string(CurrentThreadBudget());
                       r.algorithm = "alg";
                       r.verified = Verified::kYes;
                       ParallelFor(6, 0, [](size_t) {
                         const int now = ++nested_active;
                         int seen = nested_max.load();
                         while (now > seen && !nested_max.compare_exchange_weak(seen, now)) {
                         }
                         std::this_thread::sleep_for(std::chrono::milliseconds(2));
                         --nested_active;
                       });
                       return std::vector<ExperimentRow>{r};
                     }});
  }
  return tasks;
}
const ExperimentKindRegistrar kNestedKind("nested-kind", &NestedTasks, {});

ExperimentDefinition Def(const std::string& name, const std::string& params) {
  const std::string path = WriteTempFile(
      name + ".json", R"({"name": ")" + name + R"(", "kind": "test-kind", "params": )" + params +
                          R"(, "seeds": [1, 2, 3]})");
  return LoadExperimentDefinition(path);
}

TEST(FormatDecimal, RoundsExactlyHalfAwayFromZero) {
  EXPECT_EQ(FormatDecimal(Rational(1, 3)), "0.333333");
  EXPECT_EQ(FormatDecimal(Rational(2, 3)), "0.666667");
  EXPECT_EQ(FormatDecimal(Rational(1, 2000000)), "0.000001");  // exactly half: away from 0
  EXPECT_EQ(FormatDecimal(Rational(-1, 2000000)), "-0.000001");
  EXPECT_EQ(FormatDecimal(Rational(-1, 3000000)), "0.000000");  // rounds to zero: no "-0"
  EXPECT_EQ(FormatDecimal(Rational(5, 2), 0), "3");
  EXPECT_EQ(FormatDecimal(Rational(1023, 512), 3), "1.998");  // seed 000 Table 4 style
  EXPECT_EQ(FormatDecimal(Rational(BigInt("123456789012345678901234567890"), 7), 2),
            "17636684144620811271604938270.00");
}

TEST(CsvTable, RoundTripsQuotedFieldsAndKeepsColumnOrder) {
  std::vector<ExperimentRow> rows(2);
  rows[0].instance = "line(circulant(16,3,4))";  // commas must be quoted
  rows[0].tb = Rational(7, 6);
  rows[0].lower_bound = Rational(7, 12);
  rows[0].extra = {{"b", "1"}, {"a_seconds", "0.5"}};
  rows[1].instance = "say \"hi\"\nnext";
  rows[1].extra = {{"c", "z"}, {"b", "2"}};
  const CsvTable t = RowsToTable(rows);
  ASSERT_EQ(t.header.size(), FixedColumns().size() + 3);
  EXPECT_EQ(t.header[FixedColumns().size()], "b");
  EXPECT_EQ(t.header[FixedColumns().size() + 2], "c");
  EXPECT_EQ(t.rows[0][t.Column("ratio_to_bound")], "2");
  EXPECT_EQ(t.rows[0][t.Column("tb_decimal")], "1.166667");
  EXPECT_EQ(t.rows[1][t.Column("ratio_to_bound")], "");
  const CsvTable back = ParseCsv(FormatCsv(t), "x.csv");
  EXPECT_EQ(back.header, t.header);
  EXPECT_EQ(back.rows, t.rows);
  const CsvTable stripped = StripTimeColumns(t);
  EXPECT_EQ(stripped.Column("wall_seconds"), -1);
  EXPECT_EQ(stripped.Column("a_seconds"), -1);
  // Exactly the two time columns go; the others keep their order and cells.
  std::vector<std::string> kept(FixedColumns().begin(),
                                FixedColumns().end() - 1);  // not wall_seconds
  kept.push_back("b");
  kept.push_back("c");
  EXPECT_EQ(stripped.header, kept);
  ASSERT_EQ(stripped.rows.size(), 2u);
  EXPECT_EQ(stripped.rows[0][stripped.Column("b")], "1");
  EXPECT_EQ(stripped.rows[1][stripped.Column("b")], "2");
  EXPECT_EQ(stripped.rows[1][stripped.Column("c")], "z");
  EXPECT_THROW(ParseCsv("a,b\n1,2,3\n", "bad.csv"), InputError);
  EXPECT_THROW(ParseCsv("a,b\n\"1,2\n", "bad.csv"), InputError);
}

TEST(Definition, RejectsBadFilesNamingTheItem) {
  auto expect_item = [](const std::string& file, const std::string& text, const std::string& item) {
    const std::string path = WriteTempFile(file, text);
    try {
      LoadExperimentDefinition(path);
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_EQ(e.item(), item) << e.what();
    }
  };
  expect_item("a.json", R"({"name": "b", "kind": "test-kind"})", "name");
  expect_item("a.json", R"({"name": "a", "kind": "no-such-kind"})", "kind");
  expect_item("a.json", R"({"name": "a"})", "kind");
  expect_item("a.json", R"({"name": "a", "kind": "test-kind", "seeds": [1, -2]})", "seeds[1]");
  expect_item(
      "a.json",
      R"({"name": "a", "kind": "test-kind", "plots": [{"file": "p.svg", "x": "n", "y": "tb"}]})",
      "plots[0].file");
  expect_item(
      "a.json",
      R"({"name": "a", "kind": "test-kind", "plots": [{"file": "p.png", "x": "n", "y": "tb", "style": "pie"}]})",
      "plots[0].style");
  // Plot names reach gnuplot scripts and file systems (a newline once broke a run).
  for (const char* bad : {"a\\nb.png", "a b.png", "a'b.png", "..png", "a`x`.png"}) {
    expect_item("a.json",
                std::string(R"({"name": "a", "kind": "test-kind", "plots": [{"file": ")") + bad +
                    R"(", "x": "n", "y": "tb"}]})",
                "plots[0].file");
  }
  EXPECT_THROW(LoadExperimentDefinition(WriteTempFile("m.json", "{\"name\": ")), InputError);
}

TEST(Runner, RowOrderIsTaskOrderWhateverTheJobs) {
  const auto def = Def("order", R"({"n": 9})");
  RunOptions serial, parallel;
  parallel.jobs = 4;
  std::atomic<size_t> reports{0};
  parallel.progress = [&](const RunProgress& p) {
    ++reports;
    EXPECT_EQ(p.total, 9u);
  };
  const auto a = RunExperiment(def, serial);
  const auto b = RunExperiment(def, parallel);
  EXPECT_EQ(reports.load(), 9u);
  ASSERT_EQ(a.rows.size(), 9u);
  EXPECT_EQ(FormatCsv(StripTimeColumns(RowsToTable(a.rows))),
            FormatCsv(StripTimeColumns(RowsToTable(b.rows))));
  for (size_t i = 0; i < b.rows.size(); ++i) {
    EXPECT_EQ(b.rows[i].instance, "inst" + std::to_string(i));
    EXPECT_EQ(*b.rows[i].tb, Rational(1, static_cast<int>(i) + 1));
    EXPECT_EQ(b.rows[i].extra[0].second, "3");  // the seeds reached the kind
  }
}

// Shard I of N (docs/experiments.md "From one box to a cluster") runs the tasks i with i mod N = I
// and says which task each row came from; the shards written and merged back give the single run's
// table, including the column order (test-kind's "odd_only" column first appears in task 1, i.e. in
// shard 1).
TEST(Runner, ShardsPartitionTheTasksAndMergeBackToTheSingleRun) {
  const auto def = Def("sharded", R"({"n": 7})");
  const auto whole = RunExperiment(def);
  const std::string out = ::collsynth::testing::TempPath("runner-shards");
  std::filesystem::remove_all(out);
  std::vector<std::string> dirs;
  for (size_t i = 0; i < 3; ++i) {
    RunOptions opt;
    opt.shard_index = i;
    opt.shard_count = 3;
    opt.jobs = 2;
    const auto part = RunExperiment(def, opt);
    EXPECT_EQ(part.tasks, 7u);
    std::vector<size_t> expected;
    for (size_t t = i; t < 7; t += 3) expected.push_back(t);
    EXPECT_EQ(part.ran_tasks, expected);
    EXPECT_EQ(part.row_task, expected);  // one row per task here
    dirs.push_back(PrepareShardDir(out, {i, 3}));
    WriteShard(dirs.back(), def, {i, 3}, part, nlohmann::json::object(), 2);
  }
  const MergedShards merged = MergeShards(def, {dirs[2], dirs[0], dirs[1]});
  EXPECT_EQ(merged.tasks, 7u);
  EXPECT_EQ(FormatCsv(StripTimeColumns(RowsToTable(merged.rows))),
            FormatCsv(StripTimeColumns(RowsToTable(whole.rows))));
  RunOptions bad;
  bad.shard_index = 3;
  bad.shard_count = 3;
  EXPECT_THROW(RunExperiment(def, bad), std::invalid_argument);
}

// Tasks used to start a full pool each (jobs x cores threads). Now a task's
// parallel-for gets the task's share of the budget: budget 4 and --jobs 2 gives 2 per task,
// --jobs 4 runs the inner loops inline; never more than 4 inner bodies at once.
TEST(Runner, Issue15TasksShareTheThreadBudgetWithTheirOwnParallelWork) {
  ScopedThreadBudget budget(4);
  const auto def = LoadExperimentDefinition(WriteTempFile(
      "nested.json", R"({"name": "nested", "kind": "nested-kind", "params": {"n": 6}})"));
  for (unsigned jobs : {2u, 4u}) {
    nested_max = 0;
    RunOptions options;
    options.jobs = jobs;
    const auto result = RunExperiment(def, options);
    ASSERT_EQ(result.rows.size(), 6u);
    for (const auto& row : result.rows) {
      EXPECT_EQ(row.instance, "budget " + std::to_string(4 / jobs));
    }
    EXPECT_LE(nested_max.load(), 4) << "jobs " << jobs;
  }
}

TEST(Runner, UnverifiedRowFailsTheRun) {
  RunOptions two_jobs;
  two_jobs.jobs = 2;
  EXPECT_THROW(RunExperiment(Def("unverified", R"({"n": 5, "unverified_at": 3})"), two_jobs),
               UnverifiedRowError);
}

TEST(Runner, TaskErrorPropagatesAndBadParamsNameTheFile) {
  RunOptions three_jobs;
  three_jobs.jobs = 3;
  try {
    RunExperiment(Def("failing", R"({"n": 6, "fail_at": 4})"), three_jobs);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task failed: 4");
  }
  const auto def = Def("badparams", R"({"n": -1})");
  try {
    RunExperiment(def);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), def.path);
    EXPECT_EQ(e.item(), "params.n");
  }
}

}  // namespace
}  // namespace collsynth::experiments
