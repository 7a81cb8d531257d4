// The one thread pool of the workbench: a parallel-for over the indices [0, n) with a thread
// budget, used by the BFS metrics (graphs/metrics.h), the BFB plan (solvers/bfb/) and the
// experiment runner (experiments/runner.h).
//
// ParallelFor(n, threads, body) runs body(i) for every i in [0, n) on W workers: the calling
// thread (worker 0) and W - 1 threads started for the call and joined before it returns.
// Indices are handed out one at a time in increasing order (tasks of uneven cost balance);
// ParallelForWorkers also passes the worker id in [0, W) so callers can keep per-worker
// scratch (one body call at a time per worker id).
//
// Budget (nested parallelism never multiplies threads). The budget of a call is the number of
// threads it may keep busy at once, its own thread included:
//   - outside any pool task: max(threads, hardware concurrency);
//   - inside a pool task (or under a ScopedThreadBudget): that task's share.
// W = min(n, threads, budget), with threads = 0 meaning the budget. The budget is split among
// the W workers (budget / W each, the first budget % W workers one more), and a ParallelFor
// started inside a task uses at most that task's share: with share 1 it runs inline on the
// task's thread. So at any moment at most the outermost budget of threads run pool work:
// `experiment run --jobs 2` on 2 cores runs each task's BFB plan inline, `--jobs 1` lets the
// one task's BFB plan use both cores.
//
// Errors: when body throws, no further index is handed out; after every worker has stopped,
// the exception of the lowest failing index is rethrown. That choice is deterministic: indices
// are handed out in order, so every index below a failing one was handed out and ran.
//
// Cost: W - 1 thread starts per call (none when W = 1) and one atomic increment plus one
// std::function call per index; bodies should do at least microseconds of work.
#ifndef COLLSYNTH_CORE_THREAD_POOL_H_
#define COLLSYNTH_CORE_THREAD_POOL_H_

#include <cstddef>
#include <functional>

namespace collsynth {

// Runs body(i) for i in [0, n) (see above). Rethrows the lowest failing index's exception.
void ParallelFor(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body);

// Runs body(i, worker) for i in [0, n); worker in [0, ParallelWorkers(n, threads)).
void ParallelForWorkers(std::size_t n, unsigned threads,
                        const std::function<void(std::size_t index, unsigned worker)>& body);

// The number of workers W a ParallelFor(n, threads, ...) started from the calling thread
// uses (>= 1, also for n = 0).
unsigned ParallelWorkers(std::size_t n, unsigned threads);

// The calling thread's budget: its share inside a pool task or under a ScopedThreadBudget,
// the hardware concurrency (>= 1) elsewhere.
unsigned CurrentThreadBudget();

// Sets the calling thread's budget to `threads` (>= 1; 0 is taken as 1) for its lifetime, as
// if the thread were a pool task with that share; restores the previous budget on exit. For
// tests and for callers that must stay within a given number of threads.
class ScopedThreadBudget {
 public:
  explicit ScopedThreadBudget(unsigned threads);
  ~ScopedThreadBudget();
  ScopedThreadBudget(const ScopedThreadBudget&) = delete;
  ScopedThreadBudget& operator=(const ScopedThreadBudget&) = delete;

 private:
  unsigned saved_;
};

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_THREAD_POOL_H_
