#include "experiments/runner.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "graphs/input_error.h"

namespace collsynth::experiments {

RunResult RunExperiment(const ExperimentDefinition& def, const RunOptions& options) {
  const ExperimentKindFn* kind = FindExperimentKind(def.kind);
  if (kind == nullptr) throw InputError(def.path, "kind", "unknown experiment kind '" + def.kind + "'");
  ExperimentInput input;
  input.params = def.params;
  input.seeds = def.seeds;
  std::vector<ExperimentTask> tasks;
  try {
    tasks = (*kind)(input);
  } catch (const InputError& e) {
    // Kinds report the parameter at fault; make sure the definition file is named.
    if (e.file() == def.path) throw;
    throw InputError(def.path, "params" + (e.item().empty() ? "" : "." + e.item()), e.problem());
  }

  const auto start = std::chrono::steady_clock::now();
  std::vector<std::vector<ExperimentRow>> results(tasks.size());
  std::vector<std::exception_ptr> errors(tasks.size());
  std::atomic<size_t> next{0};
  std::mutex progress_mutex;
  size_t done = 0;
  auto worker = [&] {
    for (size_t i = next++; i < tasks.size(); i = next++) {
      try {
        results[i] = tasks[i].run();
      } catch (...) {
        errors[i] = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      if (options.progress) {
        RunProgress p;
        p.done = done;
        p.total = tasks.size();
        p.elapsed_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        p.last_label = tasks[i].label;
        options.progress(p);
      }
    }
  };
  const unsigned jobs = std::max(1u, std::min<unsigned>(options.jobs, tasks.size()));
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }

  RunResult out;
  out.tasks = tasks.size();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string unverified;
  for (auto& rs : results) {
    for (auto& r : rs) {
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
