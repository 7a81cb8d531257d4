#include "experiments/runner.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>

#include "core/input_error.h"
#include "core/thread_pool.h"

namespace collsynth::experiments {

std::vector<ExperimentTask> MakeExperimentTasks(const ExperimentDefinition& def) {
  const ExperimentKindFn* kind = FindExperimentKind(def.kind);
  if (kind == nullptr)
    throw InputError(def.path, "kind", "unknown experiment kind '" + def.kind + "'");
  ExperimentInput input;
  input.params = def.params;
  input.seeds = def.seeds;
  input.file = def.path;
  std::vector<ExperimentTask> tasks;
  try {
    tasks = (*kind)(input);
  } catch (const InputError& e) {
    // Kinds report the parameter at fault; make sure the definition file is named.
    if (e.file() == def.path) throw;
    throw InputError(def.path, "params" + (e.item().empty() ? "" : "." + e.item()), e.problem());
  }
  return tasks;
}

RunResult RunExperiment(const ExperimentDefinition& def, const RunOptions& options) {
  const std::vector<ExperimentTask> tasks = MakeExperimentTasks(def);

  if (options.shard_count == 0 || options.shard_index >= options.shard_count) {
    throw std::invalid_argument("RunExperiment: shard index " +
                                std::to_string(options.shard_index) + " not below shard count " +
                                std::to_string(options.shard_count));
  }
  std::vector<size_t> selected;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (i % options.shard_count == options.shard_index) selected.push_back(i);
  }

  const auto start = std::chrono::steady_clock::now();
  std::vector<std::vector<ExperimentRow>> results(selected.size());
  std::mutex progress_mutex;
  size_t done = 0;
  // One task per index on `jobs` workers of the shared pool; a task's own parallel work
  // (e.g. a BFB plan) gets the task's share of the thread budget (core/thread_pool.h), so
  // jobs x inner threads never oversubscribe the cores. The pool rethrows the exception of
  // the lowest failing task index once every worker has stopped.
  ParallelFor(selected.size(), std::max(1u, options.jobs), [&](size_t k) {
    const size_t i = selected[k];
    try {
      results[k] = tasks[i].run();
    } catch (const InputError& e) {
      // Input a task finds bad only when it runs (a topology the expression check could not
      // size, a condition on the built topology): name the definition and the task.
      if (e.file() == def.path) throw;
      throw InputError(def.path, "task " + std::to_string(i) + " (" + tasks[i].label + ")",
                       e.what());
    }
    if (!options.progress) return;
    std::lock_guard<std::mutex> lock(progress_mutex);
    ++done;
    RunProgress p;
    p.done = done;
    p.total = selected.size();
    p.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    p.last_label = tasks[i].label;
    options.progress(p);
  });

  RunResult out;
  out.tasks = tasks.size();
  out.ran_tasks = selected;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string unverified;
  for (size_t k = 0; k < results.size(); ++k) {
    for (auto& r : results[k]) {
      out.row_task.push_back(selected[k]);
      if (r.verified == Verified::kNo) {
        unverified += "\n  " + r.instance + " / " + r.algorithm +
                      (r.collective ? std::string(" / ") + CollectiveName(*r.collective) : "");
      }
      out.rows.push_back(std::move(r));
    }
  }
  if (!unverified.empty()) {
    throw UnverifiedRowError("experiment " + def.name +
                             ": rows whose schedule the checker did not accept:" + unverified);
  }
  return out;
}

}  // namespace collsynth::experiments
