// `collsynth experiment submit --slurm`: an experiment as a Slurm job array plus a merge job,
// driven through Slurm's command-line tools only (sbatch --parsable, squeue, scontrol, and
// sacct when scontrol has forgotten a job); nothing links against Slurm's library.
//
// Assumes a file system shared by the submitting host and the compute nodes (the usual
// $HOME or project space): the jobs run the same collsynth binary, read the same definition
// and write the shards and the merged outputs into the same --out folder, all by absolute
// path. The array task I runs `collsynth experiment run DEF --shard I/N --out OUT --jobs C`
// (experiments/shards.h); the merge job, submitted with --dependency=afterok:ARRAY and
// --kill-on-invalid-dep=yes (a failed task cancels it instead of leaving it pending), runs
// `collsynth experiment merge DEF --out OUT --shards N`. Scripts and logs are in OUT/slurm/:
//   array.sbatch, merge.sbatch, shard-I.log (task I's stdout and stderr), merge.log.
// Everything here is pure text handling except SubmitSlurmJobs and the queries, which run
// the Slurm tools without a shell (program_run.h). Never prints.
#ifndef COLLSYNTH_EXPERIMENTS_SLURM_H_
#define COLLSYNTH_EXPERIMENTS_SLURM_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace collsynth::experiments {

struct SlurmSubmitSpec {
  std::string binary;      // absolute path of the collsynth binary the jobs run
  std::string definition;  // absolute path of the definition file
  std::string name;        // the experiment's name (job names)
  std::string out;         // absolute output folder (shards, merged outputs, slurm/)
  std::string workdir;     // absolute folder the jobs start in
  size_t shards = 1;
  std::string partition;  // empty: the cluster's default
  std::string time;       // empty: the partition's default; else sbatch --time syntax
  unsigned cpus_per_task = 1;
  bool no_plots = false;  // the merge job passes --no-plots
};

struct SlurmScripts {
  std::string array_path, merge_path;  // OUT/slurm/array.sbatch, OUT/slurm/merge.sbatch
  std::string array_script, merge_script;
  std::string log_dir;  // OUT/slurm
};

// The two batch scripts. Paths, partition and time reach #SBATCH lines, which no shell
// parses, so they are restricted to [A-Za-z0-9._/+,=:@-] (InputError naming the option
// otherwise); the command lines are single-quoted for bash.
SlurmScripts MakeSlurmScripts(const SlurmSubmitSpec& spec);

// s as one bash word ('...' with ' written as '\'').
std::string ShellQuote(const std::string& s);

// The log of array task `task` and of the merge job.
std::string SlurmTaskLog(const SlurmScripts& scripts, size_t task);
std::string SlurmMergeLog(const SlurmScripts& scripts);

struct SlurmJobIds {
  std::string array, merge;
};

// Writes both scripts (creating OUT/slurm/) and submits them with `sbatch --parsable`.
// InputError("sbatch", ...) when sbatch is not on PATH or refuses a script (its message);
// when the array was accepted but the merge job refused, the array is cancelled (scancel).
SlurmJobIds SubmitSlurmJobs(const SlurmScripts& scripts);

// One job record (an array task is its own record once it has started).
struct SlurmJobRecord {
  std::string job_id;
  std::optional<size_t> array_task;  // ArrayTaskId, when a single task
  std::string state;                 // JobState, e.g. COMPLETED, FAILED, CANCELLED, PENDING
  std::string exit_code;             // ExitCode "status:signal"
  std::string reason;                // Reason, e.g. DependencyNeverSatisfied
};

// Parses `scontrol show job -o` output (one record per line of Key=Value fields).
std::vector<SlurmJobRecord> ParseScontrolJobs(const std::string& text);

// Parses `sacct -n -P -X -o JobID,State,ExitCode` output ("123_4|FAILED|3:0").
std::vector<SlurmJobRecord> ParseSacctJobs(const std::string& text);

// True for the states a job leaves no more (COMPLETED, FAILED, CANCELLED, TIMEOUT, ...).
bool IsFinalSlurmState(const std::string& state);

enum class QueueStatus { kQueued, kGone, kError };

// Whether any of `job_ids` is still pending or running (`squeue -h -j IDS -o %i`); kGone
// also when squeue no longer knows the ids; kError (with squeue's message in *error) when
// squeue cannot be run or the controller does not answer.
QueueStatus SlurmQueueStatus(const std::vector<std::string>& job_ids, std::string* error);

// The records of a job (all tasks of an array) from `scontrol show job -o ID`, or, when the
// controller has forgotten it and sacct is on PATH, from sacct. Empty when neither knows it.
std::vector<SlurmJobRecord> SlurmJobRecords(const std::string& job_id);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_SLURM_H_
