// Sharding an experiment over independent processes (Slurm array tasks, experiments/slurm.h,
// or any other way of running N commands on a shared file system) and merging the pieces
// back into exactly the rows of a single-box run.
//
// Shard I of N runs the tasks whose index i (the kind's deterministic task order) has
// i mod N == I: a round-robin split, so the families and sizes a kind lists in order spread
// evenly over the shards (no cost model: a shard's wall time is roughly 1/N of the run when
// the tasks are many, and the largest task's time at worst). It leaves OUT/shard-I-of-N/
// with exactly two files:
//   rows.json  {"tasks": [{"task": i, "rows": [ROW, ...]}, ...]}: every row as produced
//              (rationals as exact "p/q" strings, wall_seconds as a JSON number)
//   meta.json  experiment, definition_hash, shard {index, count}, tasks_total, tasks (the
//              indices run), rows, jobs, run_seconds, environment (git commit, dirty flag,
//              machine, libraries: outputs.h EnvironmentJson)
// PrepareShardDir removes both before the shard runs and WriteShard writes meta.json last
// (each file renamed into place), so a shard folder with a meta.json is a finished shard, a
// failed or killed rerun leaves it missing, and rerunning a shard replaces it (idempotent).
//
// MergeShards checks that the shards belong to the definition being merged (same name and
// DefinitionHash), to one commit (git commit and dirty flag) and one N, that their tasks_total
// is the number of tasks the definition makes (MakeExperimentTasks, experiments/runner.h), that
// every index 0..N-1 is there exactly once and that every task 0..T-1 is in exactly the shard it
// belongs to; it returns the rows in task order, so RowsToTable of the result is the table a single
// `experiment run` produces (byte-identical CSV except the time columns). Every problem is an
// InputError naming the shard folder or file: missing, duplicated, foreign (another
// definition, commit or N) or malformed. O(total rows) time and memory.
#ifndef COLLSYNTH_EXPERIMENTS_SHARDS_H_
#define COLLSYNTH_EXPERIMENTS_SHARDS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/checked_output.h"
#include "experiments/definition.h"
#include "experiments/experiment.h"
#include "experiments/runner.h"

namespace collsynth::experiments {

struct ShardSpec {
  size_t index = 0;
  size_t count = 1;
};

// "I/N" with 0 <= I < N <= 100000; InputError(option, "", ...) otherwise.
ShardSpec ParseShardSpec(const std::string& text, const std::string& option = "--shard");

// "shard-I-of-N".
std::string ShardDirName(const ShardSpec& shard);

// A fingerprint of the definition's content (FNV-1a 64 of its canonical JSON: key order and
// white space do not matter), "fnv1a64:" + 16 hex digits. Not cryptographic: it tells
// shards of different versions of a definition apart, it does not defend against forgery.
std::string DefinitionHash(const ExperimentDefinition& def);

// Creates OUT/shard-I-of-N/ and removes its rows.json and meta.json; returns the folder.
std::string PrepareShardDir(const std::string& out, const ShardSpec& shard);

// Writes rows.json, then meta.json, into the folder PrepareShardDir returned, through the one
// checked-output path (core/checked_output.h: PATH.partial, read back, renamed; rows.json is
// renamed first, meta.json last, so a folder with meta.json holds a complete shard). A failed
// write, read-back or rename is !ok with one line naming the file (the CLI prints it, exit 1;
// docs/cli.md "Written files"); no PATH.partial is left, and a folder without meta.json is a
// missing shard.
CheckedOutput WriteShard(const std::string& shard_dir, const ExperimentDefinition& def,
                         const ShardSpec& shard, const RunResult& result,
                         const nlohmann::json& environment, unsigned jobs);

// The shard folders to merge from OUT: with count > 0, OUT/shard-I-of-count for every I
// (existing or not, so a missing one is named by MergeShards); with count == 0, every
// OUT/shard-I-of-N/ folder present, ordered by (N, I). InputError when there are none.
std::vector<std::string> FindShardDirs(const std::string& out, size_t count);

// One shard as merged. The fields of meta.json the merge reads are type-checked (a wrong
// type is an InputError naming meta.json and the key, experiments/params.h); absent ones
// take the defaults below.
struct ShardInfo {
  std::string dir;
  ShardSpec spec;
  nlohmann::json meta;
  size_t rows = 0;                       // "rows"
  unsigned jobs = 1;                     // "jobs" (1..2^32-1)
  double run_seconds = 0;                // "run_seconds" (>= 0)
  nlohmann::json environment = nullptr;  // "environment" (an object; null when absent)
  // environment.machine.hostname: nullopt without "machine", "" when it has no hostname.
  std::optional<std::string> hostname;
};

struct MergedShards {
  std::vector<ExperimentRow> rows;  // all rows, in task order
  size_t tasks = 0;
  std::vector<ShardInfo> shards;  // ordered by shard index
};

MergedShards MergeShards(const ExperimentDefinition& def, const std::vector<std::string>& dirs);

// The JSON form of a row in rows.json and its inverse (InputError(file, item, ...) when
// malformed). RowFromJson(RowToJson(r)) == r field by field.
nlohmann::json RowToJson(const ExperimentRow& row);
ExperimentRow RowFromJson(const nlohmann::json& j, const std::string& file,
                          const std::string& item);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_SHARDS_H_
