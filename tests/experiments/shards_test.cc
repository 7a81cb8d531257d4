// An experiment in shards (docs/experiments.md "From one box to a cluster") (`experiment run
// --shard I/N`, `experiment merge`) gives the single-box CSV byte for byte (time columns aside);
// missing, duplicated and foreign shards are exit 2 naming them; `experiment submit --slurm` writes
// the right batch scripts and fails clearly without Slurm. The run on a real local Slurm is the
// ctest labelled `slurm` (scripts/slurm_test.sh).
#include "experiments/shards.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/csv_table.h"
#include "experiments/definition.h"
#include "experiments/experiment.h"
#include "experiments/slurm.h"
#include "test_util.h"

namespace collsynth::experiments {
namespace {

namespace fs = std::filesystem;
using ::collsynth::testing::RunCli;
using ::collsynth::testing::SourcePath;
using ::collsynth::testing::TempPath;
using ::collsynth::testing::WriteTempFile;

// Two topologies, five algorithm rows, an extra column (time_us_1MB) and a time column.
const char* kDefinition = R"json({
  "name": "shard-compare",
  "kind": "collective-compare",
  "params": {
    "collective": "allgather",
    "cases": [
      {"topology": "torus(3,3)", "algorithms": ["bfb", "baseline:torus", "pipeline"]},
      {"topology": "biring(2,6)", "algorithms": ["baseline:biring-bfb", "bfb"]}
    ],
    "workloads": [{"name": "1MB", "alpha_us": "10", "bytes": "1000000", "gbps": "100"}]
  },
  "readme": ["Sharding test."]
})json";

// The CSV with the time columns blanked (not dropped: the header must match too), so the
// comparison is byte for byte on everything else.
std::string CsvWithoutTimes(const std::string& path) {
  CsvTable t = ParseCsv(ReadTextFile(path), path);
  for (size_t c = 0; c < t.header.size(); ++c) {
    const std::string& h = t.header[c];
    const bool time =
        h == "wall_seconds" || (h.size() > 8 && h.compare(h.size() - 8, 8, "_seconds") == 0);
    if (!time) continue;
    for (auto& row : t.rows) row[c] = "";
  }
  return FormatCsv(t);
}

// A definition file in its own temp folder `sub` (its file name is its name).
std::string WriteDef(const std::string& sub, const std::string& text) {
  fs::create_directories(TempPath(sub));
  return WriteTempFile(sub + "/shard-compare.json", text);
}

std::set<std::string> Entries(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// Runs NAME (a definition path) on one box and in `shards` shards, merges, and checks the
// merged CSV equals the single run's except the time columns.
void ExpectShardedEqualsSingle(const std::vector<std::string>& def_args, size_t shards,
                               const std::string& tag) {
  const std::string single = TempPath(tag + "-single"), sharded = TempPath(tag + "-sharded");
  fs::remove_all(single);
  fs::remove_all(sharded);
  std::vector<std::string> run = {"experiment", "run"};
  run.insert(run.end(), def_args.begin(), def_args.end());
  auto one = run;
  one.insert(one.end(), {"--out", single, "--no-plots"});
  const auto r = RunCli(one);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (size_t i = 0; i < shards; ++i) {
    auto part = run;
    part.insert(part.end(), {"--out", sharded, "--shard",
                             std::to_string(i) + "/" + std::to_string(shards), "--jobs", "2"});
    const auto s = RunCli(part);
    ASSERT_EQ(s.exit_code, 0) << s.err;
    // A shard leaves its rows and meta.json and nothing else.
    const std::string dir =
        sharded + "/shard-" + std::to_string(i) + "-of-" + std::to_string(shards);
    EXPECT_EQ(Entries(dir), (std::set<std::string>{"meta.json", "rows.json"}));
  }
  std::vector<std::string> merge = {"experiment", "merge"};
  merge.insert(merge.end(), def_args.begin(), def_args.end());
  merge.insert(merge.end(), {"--out", sharded, "--no-plots"});
  const auto m = RunCli(merge);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(CsvWithoutTimes(sharded + "/results.csv"), CsvWithoutTimes(single + "/results.csv"));
  // The same files as a single run (meta.json, notebook, README, plot scripts).
  std::set<std::string> merged_files = Entries(sharded);
  for (size_t i = 0; i < shards; ++i) {
    merged_files.erase("shard-" + std::to_string(i) + "-of-" + std::to_string(shards));
  }
  EXPECT_EQ(merged_files, Entries(single));
}

TEST(Shards, MergedCsvIsTheSingleRunsForQuickStart) {
  ExpectShardedEqualsSingle({"quick-start", "--dir", SourcePath("experiments")}, 3, "qs");
}

TEST(Shards, MergedCsvIsTheSingleRunsForTable5) {
  // Another shipped quick experiment, of another kind (finder-frontier: built and checked
  // schedules), 8 tasks in 3 shards.
  ExpectShardedEqualsSingle({"table5-best-d4", "--dir", SourcePath("experiments")}, 3, "t5");
}

TEST(Shards, MergedCsvIsTheSingleRunsForAnotherDefinitionAndShardCounts) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  ExpectShardedEqualsSingle({def}, 2, "cmp2");
  // More shards than tasks: some shards are empty, the merge is still exact.
  ExpectShardedEqualsSingle({def}, 7, "cmp7");
}

TEST(Shards, MergeMetaRecordsTheShardsAndTheirCommit) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  const std::string out = TempPath("meta-merge");
  fs::remove_all(out);
  for (const char* s : {"0/2", "1/2"}) {
    ASSERT_EQ(RunCli({"experiment", "run", def, "--out", out, "--shard", s}).exit_code, 0);
  }
  const auto shard_meta = ParseJsonText(ReadTextFile(out + "/shard-1-of-2/meta.json"), "m");
  EXPECT_EQ(shard_meta["shard"]["index"], 1);
  EXPECT_EQ(shard_meta["shard"]["count"], 2);
  EXPECT_EQ(shard_meta["tasks_total"], 5);
  EXPECT_EQ(shard_meta["tasks"], nlohmann::json({1, 3}));
  EXPECT_TRUE(shard_meta["environment"].contains("git_commit"));
  EXPECT_EQ(shard_meta["definition_hash"].get<std::string>().substr(0, 8), "fnv1a64:");
  ASSERT_EQ(RunCli({"experiment", "merge", def, "--out", out, "--no-plots"}).exit_code, 0);
  const auto meta = ParseJsonText(ReadTextFile(out + "/meta.json"), "meta");
  EXPECT_EQ(meta["rows"], 5);
  EXPECT_EQ(meta["tasks"], 5);
  ASSERT_EQ(meta["shards"].size(), 2u);
  EXPECT_EQ(meta["shards"][1]["rows"], 2);
  EXPECT_EQ(meta["environment"]["git_commit"], shard_meta["environment"]["git_commit"]);
  EXPECT_EQ(meta["definition_hash"], shard_meta["definition_hash"]);
}

// Runs both shards of a 2-way split of kDefinition into a fresh folder; returns it.
std::string TwoShards(const std::string& tag, const std::string& def) {
  const std::string out = TempPath(tag);
  fs::remove_all(out);
  for (const char* s : {"0/2", "1/2"}) {
    EXPECT_EQ(RunCli({"experiment", "run", def, "--out", out, "--shard", s}).exit_code, 0);
  }
  return out;
}

TEST(Shards, MissingShardIsExit2NamingIt) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  const std::string out = TwoShards("missing", def);
  fs::remove_all(out + "/shard-1-of-2");
  const auto r = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(out + "/shard-1-of-2: missing shard 1 of 2"), std::string::npos) << r.err;
  // --shards N names a shard folder that is there but never finished (no meta.json).
  fs::create_directories(out + "/shard-1-of-2");
  const auto s = RunCli({"experiment", "merge", def, "--out", out, "--shards", "2"});
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_NE(s.err.find(out + "/shard-1-of-2: missing shard: no meta.json"), std::string::npos)
      << s.err;
  EXPECT_FALSE(fs::exists(out + "/results.csv"));
}

TEST(Shards, DuplicatedShardIsExit2NamingBothFolders) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  const std::string out = TwoShards("duplicated", def);
  fs::copy(out + "/shard-0-of-2", out + "/copy-of-shard-0", fs::copy_options::recursive);
  const auto r = RunCli({"experiment", "merge", def, "--out", out, out + "/shard-0-of-2",
                         out + "/copy-of-shard-0", out + "/shard-1-of-2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(out + "/copy-of-shard-0: shard: duplicated shard: shard 0 of 2 is also in " +
                       out + "/shard-0-of-2"),
            std::string::npos)
      << r.err;
}

TEST(Shards, ForeignShardsAreExit2NamingThem) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  // Another version of the definition (one algorithm less) made shard 1.
  std::string other = kDefinition;
  other.replace(other.find(", \"pipeline\""), 12, "");
  const std::string out = TwoShards("foreign", def);
  const std::string other_def = WriteDef("other", other);
  ASSERT_EQ(RunCli({"experiment", "run", other_def, "--out", out, "--shard", "1/2"}).exit_code, 0);
  const auto r = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(out + "/shard-1-of-2/meta.json: definition_hash: foreign shard"),
            std::string::npos)
      << r.err;

  // A shard of a 3-way split next to a 2-way one.
  const std::string mixed = TwoShards("foreign-n", def);
  ASSERT_EQ(RunCli({"experiment", "run", def, "--out", mixed, "--shard", "2/3"}).exit_code, 0);
  const auto n = RunCli({"experiment", "merge", def, "--out", mixed, "--no-plots"});
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find(mixed + "/shard-2-of-3: shard: foreign shard: one of 3 shards"),
            std::string::npos)
      << n.err;

  // A shard made at another commit.
  const std::string commit = TwoShards("foreign-commit", def);
  const std::string meta_path = commit + "/shard-1-of-2/meta.json";
  auto meta = ParseJsonText(ReadTextFile(meta_path), meta_path);
  meta["environment"]["git_commit"] = "0123456789abcdef0123456789abcdef01234567";
  std::ofstream(meta_path) << meta.dump(2);
  const auto c = RunCli({"experiment", "merge", def, "--out", commit, "--no-plots"});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find(commit + "/shard-1-of-2: environment.git_commit: foreign shard: made at "
                                "commit 0123456789abcdef0123456789abcdef01234567"),
            std::string::npos)
      << c.err;
}

TEST(Shards, TamperedRowsAreExit2NamingTheItem) {
  const std::string def = WriteDef("tampered", kDefinition);
  const std::string out = TwoShards("tampered-out", def);
  const std::string rows_path = out + "/shard-1-of-2/rows.json";
  const auto good = ParseJsonText(ReadTextFile(rows_path), rows_path);
  // A task of the other shard.
  auto wrong = good;
  wrong["tasks"][0]["task"] = 0;
  std::ofstream(rows_path) << wrong.dump();
  const auto r = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(rows_path + ": tasks[0].task: task 0 does not belong to shard 1 of 2"),
            std::string::npos)
      << r.err;
  // A task missing.
  auto fewer = good;
  fewer["tasks"].erase(1);
  std::ofstream(rows_path) << fewer.dump();
  const auto f = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find(rows_path + ": tasks: 1 tasks, shard 1 of 2 of 5 tasks has 2"),
            std::string::npos)
      << f.err;
  // A malformed row.
  auto bad = good;
  bad["tasks"][1]["rows"][0]["nodes"] = "nine";
  std::ofstream(rows_path) << bad.dump();
  const auto b = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find(rows_path + ": tasks[1].rows[0].nodes: missing or not an integer"),
            std::string::npos)
      << b.err;
}

// Every field of meta.json the merge reads is type-checked: a wrong type is exit 2 naming
// meta.json and the field (these were nlohmann type_errors, exit 3).
TEST(Shards, MistypedMetaFieldsAreExit2NamingTheField) {
  const std::string def = WriteDef("mistyped-meta", kDefinition);
  const std::string out = TwoShards("mistyped-meta-out", def);
  const std::string meta_path = out + "/shard-1-of-2/meta.json";
  const auto good = ParseJsonText(ReadTextFile(meta_path), meta_path);
  const std::vector<std::pair<nlohmann::json::json_pointer, nlohmann::json>> mutants = {
      {nlohmann::json::json_pointer("/jobs"), "2"},
      {nlohmann::json::json_pointer("/jobs"), 0},
      {nlohmann::json::json_pointer("/run_seconds"), "1.5"},
      {nlohmann::json::json_pointer("/run_seconds"), -1},
      {nlohmann::json::json_pointer("/rows"), "2"},
      {nlohmann::json::json_pointer("/rows"), -2},
      {nlohmann::json::json_pointer("/environment"), "here"},
      {nlohmann::json::json_pointer("/environment/git_commit"), 7},
      {nlohmann::json::json_pointer("/environment/git_dirty"), "no"},
      {nlohmann::json::json_pointer("/environment/machine"), nlohmann::json::array()},
      {nlohmann::json::json_pointer("/environment/machine/hostname"), 42},
  };
  for (const auto& [at, value] : mutants) {
    auto bad = good;
    bad[at] = value;
    std::ofstream(meta_path) << bad.dump();
    const auto r = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
    std::string field = at.to_string().substr(1);
    for (char& c : field) {
      if (c == '/') c = '.';
    }
    EXPECT_EQ(r.exit_code, 2) << field << " = " << value.dump() << ": " << r.err;
    EXPECT_EQ(r.err.rfind("collsynth: " + meta_path + ": " + field + ": ", 0), 0u)
        << field << " = " << value.dump() << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // The message says what was expected and what was found.
  auto jobs = good;
  jobs["jobs"] = "2";
  std::ofstream(meta_path) << jobs.dump();
  const auto r = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
  EXPECT_EQ(r.err, "collsynth: " + meta_path + ": jobs: expected an integer, got a string\n");
  // The untouched shard merges again.
  std::ofstream(meta_path) << good.dump();
  EXPECT_EQ(RunCli({"experiment", "merge", def, "--out", out, "--no-plots"}).exit_code, 0);
}

// A shard whose tasks_total is not the definition's (with rows to match) cannot shrink the
// merged run: it was merged silently, with the other tasks' rows missing.
TEST(Shards, TasksTotalMustBeTheDefinitions) {
  const std::string def = WriteDef("shrunk", kDefinition);
  const std::string out = TempPath("shrunk-out");
  fs::remove_all(out);
  ASSERT_EQ(RunCli({"experiment", "run", def, "--out", out, "--shard", "0/1"}).exit_code, 0);
  const std::string dir = out + "/shard-0-of-1";
  auto meta = ParseJsonText(ReadTextFile(dir + "/meta.json"), "meta");
  auto rows = ParseJsonText(ReadTextFile(dir + "/rows.json"), "rows");
  ASSERT_EQ(meta["tasks_total"], 5);
  meta["tasks_total"] = 2;
  meta["tasks"] = nlohmann::json::array({0, 1});
  nlohmann::json kept = nlohmann::json::array();
  kept.push_back(rows["tasks"][0]);
  kept.push_back(rows["tasks"][1]);
  rows["tasks"] = kept;
  std::ofstream(dir + "/meta.json") << meta.dump();
  std::ofstream(dir + "/rows.json") << rows.dump();
  const auto r = RunCli({"experiment", "merge", def, "--out", out, "--no-plots"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err,
            "collsynth: " + dir + "/meta.json: tasks_total: 2 tasks, but " + def + " makes 5\n");
  EXPECT_FALSE(fs::exists(out + "/results.csv"));
}

TEST(Shards, RerunningOneShardAndMergingAgainGivesTheSameCsv) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  const std::string out = TwoShards("rerun", def);
  ASSERT_EQ(RunCli({"experiment", "merge", def, "--out", out, "--no-plots"}).exit_code, 0);
  const std::string first = CsvWithoutTimes(out + "/results.csv");
  ASSERT_EQ(RunCli({"experiment", "run", def, "--out", out, "--shard", "1/2"}).exit_code, 0);
  ASSERT_EQ(RunCli({"experiment", "merge", def, "--out", out, "--no-plots"}).exit_code, 0);
  EXPECT_EQ(CsvWithoutTimes(out + "/results.csv"), first);
  // A rerun that fails leaves the shard missing, not its earlier result: here the output
  // folder cannot hold the shard's files.
  fs::remove_all(out + "/shard-1-of-2");
  std::ofstream(out + "/shard-1-of-2") << "not a folder";
  const auto bad = RunCli({"experiment", "run", def, "--out", out, "--shard", "1/2"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(RunCli({"experiment", "merge", def, "--out", out, "--no-plots"}).exit_code, 2);
}

TEST(Shards, BadShardSpecsAreExit2) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  for (const char* spec : {"3/3", "1", "a/2", "0/0", "-1/2", "1/2/3"}) {
    const auto r =
        RunCli({"experiment", "run", def, "--out", TempPath("bad-spec"), "--shard", spec});
    EXPECT_EQ(r.exit_code, 2) << spec;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
  }
  EXPECT_THROW(ParseShardSpec("2/2"), InputError);
  EXPECT_EQ(ParseShardSpec("2/5").index, 2u);
  EXPECT_EQ(ParseShardSpec("2/5").count, 5u);
  EXPECT_EQ(ShardDirName({2, 5}), "shard-2-of-5");
}

TEST(Shards, RowJsonRoundTripsEveryField) {
  ExperimentRow r;
  r.instance = "torus(3,3)";
  r.algorithm = "bfb";
  r.collective = Collective::kReduceScatter;
  r.nodes = 9;
  r.tl = Rational(2);
  r.tb = Rational(-7, 3);
  r.tb_unit = "(M/N)/b";
  r.verified = Verified::kNo;
  r.wall_seconds = 0.1 + 0.2;  // not exactly 0.3: the double must survive as it is
  r.extra = {{"k", "x,\"y\""}, {"time_us_1MB", ""}};
  const ExperimentRow back = RowFromJson(RowToJson(r), "f", "row");
  EXPECT_EQ(back.instance, r.instance);
  EXPECT_EQ(back.algorithm, r.algorithm);
  EXPECT_EQ(back.collective, r.collective);
  EXPECT_EQ(back.nodes, 9);
  EXPECT_EQ(back.tl, r.tl);
  EXPECT_EQ(back.tb, r.tb);
  EXPECT_FALSE(back.lower_bound.has_value());
  EXPECT_EQ(back.tb_unit, r.tb_unit);
  EXPECT_EQ(back.verified, Verified::kNo);
  EXPECT_EQ(back.wall_seconds, r.wall_seconds);
  EXPECT_EQ(back.extra, r.extra);
  auto bad = RowToJson(r);
  bad["tb"] = "1/0x";
  try {
    RowFromJson(bad, "rows.json", "tasks[0].rows[0]");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "rows.json");
    EXPECT_EQ(e.item(), "tasks[0].rows[0].tb");
  }
}

TEST(Shards, DefinitionHashIgnoresFormattingNotContent) {
  const auto a = LoadExperimentDefinition(WriteDef("h1", kDefinition));
  std::string reordered = kDefinition;  // same content, keys in another order, other spaces
  const std::string head = "\"name\": \"shard-compare\",\n  \"kind\": \"collective-compare\",";
  ASSERT_NE(reordered.find(head), std::string::npos);
  reordered.replace(reordered.find(head), head.size(),
                    "\"kind\":\"collective-compare\",   \"name\":\"shard-compare\",");
  const auto b = LoadExperimentDefinition(WriteDef("h2", reordered));
  std::string changed = kDefinition;
  changed.replace(changed.find("allgather"), 9, "allreduce");
  const auto c = LoadExperimentDefinition(WriteDef("h3", changed));
  EXPECT_EQ(DefinitionHash(a), DefinitionHash(b));
  EXPECT_NE(DefinitionHash(a), DefinitionHash(c));
  EXPECT_EQ(DefinitionHash(a).size(), 8u + 16u);
}

TEST(Slurm, ScriptsRunEveryShardAndMergeAfterThem) {
  SlurmSubmitSpec spec;
  spec.binary = "/opt/bin/collsynth";
  spec.definition = "/home/u/exp/experiments/quick-start.json";
  spec.name = "quick-start";
  spec.out = "/scratch/u/qs";
  spec.workdir = "/home/u/exp";
  spec.shards = 3;
  spec.partition = "short";
  spec.time = "0:10:00";
  spec.cpus_per_task = 4;
  const SlurmScripts s = MakeSlurmScripts(spec);
  EXPECT_EQ(s.array_path, "/scratch/u/qs/slurm/array.sbatch");
  EXPECT_EQ(s.merge_path, "/scratch/u/qs/slurm/merge.sbatch");
  for (const char* line :
       {"#SBATCH --array=0-2\n", "#SBATCH --cpus-per-task=4\n", "#SBATCH --partition=short\n",
        "#SBATCH --time=0:10:00\n", "#SBATCH --output=/scratch/u/qs/slurm/shard-%a.log\n",
        "#SBATCH --chdir=/home/u/exp\n",
        "exec '/opt/bin/collsynth' experiment run '/home/u/exp/experiments/quick-start.json' "
        "--shard \"${SLURM_ARRAY_TASK_ID}/3\" --out '/scratch/u/qs' --jobs 4\n"}) {
    EXPECT_NE(s.array_script.find(line), std::string::npos) << line << s.array_script;
  }
  EXPECT_NE(s.merge_script.find("exec '/opt/bin/collsynth' experiment merge "
                                "'/home/u/exp/experiments/quick-start.json' --out '/scratch/u/qs' "
                                "--shards 3\n"),
            std::string::npos)
      << s.merge_script;
  EXPECT_EQ(SlurmTaskLog(s, 2), "/scratch/u/qs/slurm/shard-2.log");
  // A value that would break out of an #SBATCH line is refused, naming the option.
  spec.partition = "short\n#SBATCH --exclusive";
  try {
    MakeSlurmScripts(spec);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "--partition");
  }
  spec.partition = "";
  spec.out = "/scratch/my results";
  EXPECT_THROW(MakeSlurmScripts(spec), InputError);
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
}

TEST(Slurm, ParsesScontrolAndSacctRecords) {
  const auto jobs = ParseScontrolJobs(
      "JobId=7 ArrayJobId=5 ArrayTaskId=2 ArrayTaskThrottle=0 JobName=x UserId=root(0) "
      "JobState=COMPLETED Reason=None Dependency=(null) ExitCode=0:0\n"
      "JobId=6 ArrayJobId=5 ArrayTaskId=1 JobName=x JobState=FAILED Reason=NonZeroExitCode "
      "ExitCode=2:0\n"
      "JobId=5 ArrayJobId=5 ArrayTaskId=3-9 JobState=PENDING Reason=Resources ExitCode=0:0\n");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].job_id, "7");
  EXPECT_EQ(jobs[0].array_task, 2u);
  EXPECT_EQ(jobs[0].state, "COMPLETED");
  EXPECT_EQ(jobs[1].state, "FAILED");
  EXPECT_EQ(jobs[1].exit_code, "2:0");
  EXPECT_EQ(jobs[1].reason, "NonZeroExitCode");
  EXPECT_FALSE(jobs[2].array_task.has_value());  // a range of pending tasks
  const auto acct = ParseSacctJobs("5_0|COMPLETED|0:0\n5_1|CANCELLED by 0|0:15\n8|FAILED|1:0\n");
  ASSERT_EQ(acct.size(), 3u);
  EXPECT_EQ(acct[1].array_task, 1u);
  EXPECT_EQ(acct[1].state, "CANCELLED");
  EXPECT_FALSE(acct[2].array_task.has_value());
  EXPECT_TRUE(IsFinalSlurmState("TIMEOUT"));
  EXPECT_FALSE(IsFinalSlurmState("RUNNING"));
}

TEST(Slurm, SubmitDryRunPrintsTheScriptsAndSubmitsNothing) {
  const std::string out = TempPath("dry-run");
  fs::remove_all(out);
  const auto r = RunCli({"experiment", "submit", "quick-start", "--dir", SourcePath("experiments"),
                         "--slurm", "--shards", "4", "--out", out, "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("#SBATCH --array=0-3\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--shard \"${SLURM_ARRAY_TASK_ID}/4\""), std::string::npos);
  EXPECT_NE(r.out.find("experiment merge "), std::string::npos);
  EXPECT_NE(r.out.find("--dependency=afterok:"), std::string::npos);
  EXPECT_FALSE(fs::exists(out));
}

// A bad parameter is refused before anything is submitted (each array task would fail on it).
TEST(Slurm, SubmitChecksTheParametersFirst) {
  std::string text = kDefinition;
  text.replace(text.find(R"("collective": "allgather")"), 25, R"("collective": 7)");
  const std::string def = WriteDef("submit-bad-param", text);
  const std::string out = TempPath("submit-bad-param-out");
  fs::remove_all(out);
  const auto r =
      RunCli({"experiment", "submit", def, "--slurm", "--shards", "2", "--out", out, "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err,
            "collsynth: " + def + ": params.collective: expected a string, got an integer\n");
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(fs::exists(out));
}

TEST(Slurm, SubmitWithoutSlurmIsAClearExit2) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  const auto no_flag = RunCli({"experiment", "submit", def, "--shards", "2", "--dry-run"});
  EXPECT_EQ(no_flag.exit_code, 2);
  EXPECT_NE(no_flag.err.find("--slurm"), std::string::npos) << no_flag.err;
  const auto no_shards = RunCli({"experiment", "submit", def, "--slurm", "--dry-run"});
  EXPECT_EQ(no_shards.exit_code, 2);
  EXPECT_NE(no_shards.err.find("--shards"), std::string::npos) << no_shards.err;
  // No sbatch on PATH (an empty folder as the whole PATH).
  const std::string empty = TempPath("empty-path");
  fs::create_directories(empty);
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", empty.c_str(), 1);
  const auto r = RunCli(
      {"experiment", "submit", def, "--slurm", "--shards", "2", "--out", TempPath("no-sbatch")});
  setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("collsynth: sbatch: not found on PATH"), std::string::npos) << r.err;
}

// Runs `experiment submit` with PATH = a folder holding fake Slurm tools (shell scripts).
::collsynth::testing::CliResult SubmitWithFakeSlurm(const std::string& bin_dir,
                                                    const std::vector<std::string>& args) {
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", bin_dir.c_str(), 1);
  const auto r = RunCli(args);
  setenv("PATH", saved.c_str(), 1);
  return r;
}

void WriteTool(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  fs::permissions(path, fs::perms::owner_all);
}

TEST(Slurm, RefusedSubmissionIsExit2WithSbatchsMessageAndNoOrphanArray) {
  const std::string def = WriteDef("refused", kDefinition);
  // sbatch refuses everything.
  const std::string refuse = TempPath("fake-refuse");
  fs::create_directories(refuse);
  WriteTool(refuse + "/sbatch",
            "echo 'sbatch: error: Batch job submission failed: Invalid partition name "
            "specified' >&2\nexit 1\n");
  const auto r =
      SubmitWithFakeSlurm(refuse, {"experiment", "submit", def, "--slurm", "--shards", "2", "--out",
                                   TempPath("refused-out"), "--partition", "nosuch"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("collsynth: sbatch: " + TempPath("refused-out") +
                       "/slurm/array.sbatch: submission refused (exit 1): sbatch: error: Batch "
                       "job submission failed: Invalid partition name specified"),
            std::string::npos)
      << r.err;
  // sbatch accepts the array (job 4242) and refuses the merge: the array is cancelled.
  const std::string half = TempPath("fake-half");
  fs::create_directories(half);
  WriteTool(half + "/sbatch",
            "for a in \"$@\"; do case \"$a\" in --dependency=*) echo 'sbatch: error: "
            "dependency refused' >&2; exit 1;; esac; done\necho '4242;cluster'\n");
  WriteTool(half + "/scancel", "echo \"$@\" > " + half + "/scancel.args\n");
  const auto h = SubmitWithFakeSlurm(
      half, {"experiment", "submit", def, "--slurm", "--shards", "2", "--out", TempPath("half")});
  EXPECT_EQ(h.exit_code, 2);
  EXPECT_NE(h.err.find("merge.sbatch: submission refused (exit 1): sbatch: error: dependency "
                       "refused; array job 4242 cancelled"),
            std::string::npos)
      << h.err;
  EXPECT_EQ(ReadTextFile(half + "/scancel.args"), "4242\n");
}

// submit --wait against fake tools: the array (11) has a failed task 1, so the merge (12) was
// cancelled: exit 1 naming the task and its log; then a completed merge: exit 0.
TEST(Slurm, WaitReportsFailedTasksWithTheirLogs) {
  const std::string def = WriteDef("wait", kDefinition);
  const std::string bin = TempPath("fake-wait");
  fs::create_directories(bin);
  const std::string state = bin + "/merge_state";
  WriteTool(bin + "/sbatch",
            "for a in \"$@\"; do case \"$a\" in --dependency=afterok:11) echo 12; exit 0;; "
            "esac; done\necho 11\n");
  WriteTool(bin + "/squeue", "exit 0\n");  // nothing queued any more
  WriteTool(bin + "/scontrol",
            "case \"$4\" in\n"
            "11) echo 'JobId=13 ArrayJobId=11 ArrayTaskId=0 JobState=COMPLETED Reason=None "
            "ExitCode=0:0'\n"
            "    echo 'JobId=11 ArrayJobId=11 ArrayTaskId=1 JobState=FAILED Reason=NonZeroExitCode "
            "ExitCode=2:0' ;;\n"
            "12) read st < " +
                state +  // a builtin: PATH holds only the fake tools
                "; echo \"JobId=12 JobName=m JobState=$st Reason=DependencyNeverSatisfied "
                "ExitCode=0:0\" ;;\n"
                "esac\n");
  std::ofstream(state) << "CANCELLED\n";
  const std::string out = TempPath("wait-out");
  const auto r = SubmitWithFakeSlurm(
      bin, {"experiment", "submit", def, "--slurm", "--shards", "2", "--out", out, "--wait"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("array job 11 (2 shards), merge job 12 (afterok:11)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("collsynth: task 1 of array job 11 ended FAILED (exit 2:0): log " + out +
                       "/slurm/shard-1.log\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("task 0 "), std::string::npos) << r.err;  // completed tasks: silent
  EXPECT_NE(r.err.find("merge job 12 ended CANCELLED (DependencyNeverSatisfied)"),
            std::string::npos)
      << r.err;
  std::ofstream(state) << "COMPLETED\n";
  const auto ok = SubmitWithFakeSlurm(
      bin, {"experiment", "submit", def, "--slurm", "--shards", "2", "--out", out, "--wait"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("done: 2 shards merged into " + out + "/results.csv"), std::string::npos)
      << ok.out;
}

// The cluster-sized definitions (docs/experiments.md "Cluster-sized definitions") are submitted as
// they are (--dry-run) and run in a small form (the same definition with its params scaled down),
// in shards merged back.
TEST(ClusterSized, DefinitionsHaveTheirTaskCountsAndSubmitDryRun) {
  const std::vector<std::pair<std::string, size_t>> defs = {{"finder-table-20k", 80},
                                                            {"theorem-sweeps-10x", 230},
                                                            {"time-vs-size-cluster", 57},
                                                            {"time-gap-long", 27}};
  for (const auto& [name, tasks] : defs) {
    const auto def = LoadExperimentDefinition(SourcePath("experiments/" + name + ".json"));
    ExperimentInput input;
    input.params = def.params;
    input.seeds = def.seeds;
    EXPECT_EQ((*FindExperimentKind(def.kind))(input).size(), tasks) << name;
    EXPECT_EQ(def.raw.dump().find("CORE_HOURS"), std::string::npos) << name;  // estimate filled
    const auto r = RunCli({"experiment", "submit", name, "--dir", SourcePath("experiments"),
                           "--slurm", "--shards", "16", "--out", TempPath(name), "--dry-run"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("#SBATCH --array=0-15\n"), std::string::npos) << r.out;
  }
}

// The shipped definition `name` with `params` replacing its params, in a folder of its own.
std::string SmallForm(const std::string& name, const nlohmann::json& params) {
  auto doc = ParseJsonText(ReadTextFile(SourcePath("experiments/" + name + ".json")), name);
  doc["params"] = params;
  fs::create_directories(TempPath("small-" + name));
  return WriteTempFile("small-" + name + "/" + name + ".json", doc.dump(2));
}

TEST(ClusterSized, SmallFormsRunInShardsAndMergeToTheSingleRun) {
  const std::string finder = SmallForm("finder-table-20k", {{"degrees", {2, 4, 8, 16}},
                                                            {"n_min", 5},
                                                            {"n_max", 60},
                                                            {"n_chunk", 20},
                                                            {"sizes_bytes", {1048576}}});
  ExpectShardedEqualsSingle({finder}, 3, "finder-small");
  const std::string sweeps =
      SmallForm("theorem-sweeps-10x",
                {{"sweeps", {"s000-thm22", "s004-thm1"}}, {"range_scale", 2}, {"chunks", 3}});
  ExpectShardedEqualsSingle({sweeps}, 2, "sweeps-small");
  // The time grid: two cases (a direct-connect one with its baselines, a switched one), all
  // three collectives, two sizes, P <= 2: 6 tasks in 4 shards.
  auto grid = LoadExperimentDefinition(SourcePath("experiments/time-vs-size-cluster.json")).params;
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : grid["cases"]) {
    if (c["topology"] == "hypercube(4)" || c["topology"] == "dgx1(1)") cases.push_back(c);
  }
  ASSERT_EQ(cases.size(), 2u);
  grid["cases"] = cases;
  grid["sizes"] = {"1KB", "1MB"};
  grid["chunks"] = {1, 2};
  ExpectShardedEqualsSingle({SmallForm("time-vs-size-cluster", grid)}, 4, "grid-small");
  // range_scale 2 doubles s000-thm22's default range 7..60 and chunks 3 cuts it in three.
  const CsvTable t = ParseCsv(ReadTextFile(TempPath("sweeps-small-single") + "/results.csv"), "t");
  const int range = t.Column("range"), inst = t.Column("instance");
  ASSERT_GE(range, 0);
  std::vector<std::string> thm22;
  for (const auto& row : t.rows) {
    if (row[static_cast<size_t>(inst)] == "s000-thm22") {
      thm22.push_back(row[static_cast<size_t>(range)]);
    }
  }
  EXPECT_EQ(thm22, (std::vector<std::string>{"7..42", "43..78", "79..114"}));
}

// Beyond its default range a sweep can outgrow a generator (johnson(51,3) has more than
// 20000 nodes): the chunk is a row saying so, not a failed run; a malformed "ranges" entry
// is exit 2 naming it.
TEST(ClusterSized, SweepChunkBeyondAGeneratorLimitIsARowNotAFailure) {
  const std::string def = SmallForm(
      "theorem-sweeps-10x",
      {{"sweeps", {"s000-thm18"}}, {"ranges", {{"s000-thm18", "51..52"}}}, {"chunks", 2}});
  const std::string out = TempPath("sweep-limit");
  const auto r = RunCli({"experiment", "run", def, "--out", out, "--no-plots"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CsvTable t = ParseCsv(ReadTextFile(out + "/results.csv"), "t");
  ASSERT_EQ(t.rows.size(), 2u);
  const int holds = t.Column("holds"), limit = t.Column("limit"), range = t.Column("range");
  ASSERT_GE(limit, 0);
  EXPECT_EQ(t.rows[0][static_cast<size_t>(range)], "51..51");
  EXPECT_EQ(t.rows[0][static_cast<size_t>(holds)], "n/a");
  EXPECT_NE(t.rows[0][static_cast<size_t>(limit)].find("johnson(51,3) has more than 20000 nodes"),
            std::string::npos);
  const std::string bad = SmallForm(
      "theorem-sweeps-10x", {{"sweeps", {"s000-thm18"}}, {"ranges", {{"s000-thm18", "9..12x"}}}});
  const auto b = RunCli({"experiment", "run", bad, "--out", TempPath("sweep-bad"), "--no-plots"});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("params.ranges.s000-thm18"), std::string::npos) << b.err;
}

// A shard is written through the one checked-output path (docs/cli.md "Written files"): a write
// that fails as a full disk would (COLLSYNTH_FAULT_INJECT=write-error) is exit 1 with one line
// naming the file and the OS error, never exit 2 or an internal error, and leaves no shard
// file and no .partial behind (so the shard is missing, not stale).
TEST(Shards, FailedShardWriteIsExit1NamingTheFileAndLeavesNothing) {
  const std::string def = WriteTempFile("shard-compare.json", kDefinition);
  const std::string out = TempPath("shard-write-error");
  fs::remove_all(out);
  setenv("COLLSYNTH_FAULT_INJECT", "write-error", 1);
  const auto r = RunCli({"experiment", "run", def, "--out", out, "--shard", "1/2"});
  unsetenv("COLLSYNTH_FAULT_INJECT");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string dir = out + "/shard-1-of-2";
  EXPECT_EQ(r.err, "collsynth: experiment run: " + dir +
                       "/rows.json.partial: cannot write: No space left on device; shard not "
                       "written\n");
  for (const char* f : {"/rows.json", "/meta.json", "/rows.json.partial", "/meta.json.partial"}) {
    EXPECT_FALSE(fs::exists(dir + f)) << f;
  }
  // Without the fault the same command writes the shard.
  EXPECT_EQ(RunCli({"experiment", "run", def, "--out", out, "--shard", "1/2"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(dir + "/meta.json"));
}

}  // namespace
}  // namespace collsynth::experiments
