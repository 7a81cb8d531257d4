#include "core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace collsynth {
namespace {

// The calling thread's share when it runs a pool task (or under a ScopedThreadBudget);
// 0 outside any: the budget is then the hardware concurrency.
thread_local unsigned t_budget = 0;

unsigned HardwareThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

unsigned BudgetOf(unsigned threads) {
  return t_budget != 0 ? t_budget : std::max(threads, HardwareThreads());
}

}  // namespace

unsigned CurrentThreadBudget() { return t_budget != 0 ? t_budget : HardwareThreads(); }

ScopedThreadBudget::ScopedThreadBudget(unsigned threads) : saved_(t_budget) {
  t_budget = std::max(1u, threads);
}

ScopedThreadBudget::~ScopedThreadBudget() { t_budget = saved_; }

unsigned ParallelWorkers(std::size_t n, unsigned threads) {
  const unsigned budget = BudgetOf(threads);
  const unsigned w = threads != 0 ? std::min(threads, budget) : budget;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(w, n)));
}

void ParallelForWorkers(std::size_t n, unsigned threads,
                        const std::function<void(std::size_t, unsigned)>& body) {
  if (n == 0) return;
  const unsigned budget = BudgetOf(threads);
  const unsigned workers = ParallelWorkers(n, threads);
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::size_t error_index = n;
  std::exception_ptr error;
  auto run = [&](unsigned worker) {
    ScopedThreadBudget share(budget / workers + (worker < budget % workers ? 1 : 0));
    for (std::size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        body(i, worker);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (i < error_index) {
          error_index = i;
          error = std::current_exception();
        }
        next.store(n);  // hand out no further index
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (unsigned w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(run, w);
    } catch (const std::system_error&) {
      break;  // no more threads available: the started workers (and this one) do the rest
    }
  }
  run(0);
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

void ParallelFor(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body) {
  ParallelForWorkers(n, threads, [&body](std::size_t i, unsigned) { body(i); });
}

}  // namespace collsynth
