// Runs an experiment definition: builds the kind's tasks, executes them on `jobs` workers of
// the shared pool (core/thread_pool.h; each task on one worker; results are stored by task
// index, so the row order — and the CSV — is independent of jobs and timing) and enforces the
// verification rule: a row that stands for a schedule the checker did not accept
// (Verified::kNo) fails the run. Parallel work inside a task (a BFB plan, BFS metrics) uses
// the task's share of the thread budget: with jobs >= cores it runs inline, so jobs x inner
// threads never oversubscribe the machine.
//
// Sharding (experiments/shards.h): with shard_count = N > 1 only the tasks whose index i has
// i mod N == shard_index run; the result lists which tasks ran and which task each row came
// from, so the rows of N shards merge into exactly the single run's rows.
//
// Errors: InputError from the kind (bad params) propagates; an exception in a task stops the
// handing out of further tasks and is rethrown after all workers stop, for the lowest failing
// task index (deterministic); an InputError a task throws is rethrown naming the definition
// file and the task ("task I (LABEL)") with the original message; unverified rows raise
// UnverifiedRowError listing them.
#ifndef COLLSYNTH_EXPERIMENTS_RUNNER_H_
#define COLLSYNTH_EXPERIMENTS_RUNNER_H_

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/definition.h"
#include "experiments/experiment.h"

namespace collsynth::experiments {

class UnverifiedRowError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunProgress {
  size_t done = 0, total = 0;
  double elapsed_seconds = 0;
  std::string last_label;
};

struct RunOptions {
  unsigned jobs = 1;
  // Called (serialized, from worker threads) after each task.
  std::function<void(const RunProgress&)> progress;
  // Run only the tasks i with i % shard_count == shard_index (0 <= shard_index < shard_count;
  // otherwise std::invalid_argument).
  size_t shard_index = 0;
  size_t shard_count = 1;
};

struct RunResult {
  std::vector<ExperimentRow> rows;
  size_t tasks = 0;               // tasks of the whole definition (all shards)
  std::vector<size_t> ran_tasks;  // indices of the tasks this run executed, ascending
  std::vector<size_t> row_task;   // row_task[k]: the task index rows[k] came from
  double seconds = 0;
};

RunResult RunExperiment(const ExperimentDefinition& def, const RunOptions& options = {});

// The kind's task list for `def`, built and not run: every parameter is checked on the way
// (InputError naming the definition file and the key, experiments/params.h). RunExperiment
// starts with it; `experiment submit` calls it so that a bad parameter is refused before any
// job is submitted. Costs what the kind's task builder costs (no task runs).
std::vector<ExperimentTask> MakeExperimentTasks(const ExperimentDefinition& def);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_RUNNER_H_
