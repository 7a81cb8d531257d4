// The shared thread pool (core/thread_pool.h): every index runs once with the same result
// for any thread count, nested parallel-fors stay within the budget (docs/performance.md
// "Experiments and the topology finder": two experiment kinds started a pool inside each parallel
// task and oversubscribed the cores), and exceptions reach the caller, deterministically the lowest
// failing index's.
#include "core/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace collsynth {
namespace {

// Counts the bodies running at once and keeps the maximum (an atomic max).
class ConcurrencyMeter {
 public:
  void Enter() {
    const int now = ++active_;
    int seen = max_.load();
    while (now > seen && !max_.compare_exchange_weak(seen, now)) {
    }
  }
  void Leave() { --active_; }
  int max() const { return max_.load(); }

 private:
  std::atomic<int> active_{0}, max_{0};
};

// Work long enough that bodies on different threads overlap.
void Busy(ConcurrencyMeter& meter) {
  meter.Enter();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  meter.Leave();
}

std::uint64_t Mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  return x ^ (x >> 33);
}

TEST(ThreadPoolTest, EveryIndexRunsOnceWithTheSameResultForAnyThreadCount) {
  const std::size_t n = 5000;
  std::vector<std::uint64_t> reference;
  for (unsigned threads : {1u, 2u, 3u, 8u, 0u}) {
    std::vector<std::uint64_t> out(n, 0);
    std::vector<std::atomic<int>> calls(n);
    ParallelFor(n, threads, [&](std::size_t i) {
      ++calls[i];
      out[i] = Mix(i);
    });
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(calls[i].load(), 1) << "threads " << threads;
    if (reference.empty()) reference = out;
    EXPECT_EQ(out, reference) << "threads " << threads;
  }
  ParallelFor(0, 4, [](std::size_t) { FAIL() << "no index for n = 0"; });
}

TEST(ThreadPoolTest, WorkerIdsAreDenseAndEachWorkersScratchIsUsedByOneBodyAtATime) {
  ScopedThreadBudget budget(3);
  EXPECT_EQ(ParallelWorkers(100, 0), 3u);
  EXPECT_EQ(ParallelWorkers(100, 2), 2u);
  EXPECT_EQ(ParallelWorkers(100, 8), 3u);  // a request above the budget is capped
  EXPECT_EQ(ParallelWorkers(2, 0), 2u);
  EXPECT_EQ(ParallelWorkers(0, 0), 1u);
  const unsigned workers = ParallelWorkers(300, 0);
  std::vector<std::atomic<int>> in_use(workers);
  std::vector<std::int64_t> sum(workers, 0);
  std::atomic<bool> overlap{false}, out_of_range{false};
  ParallelForWorkers(300, 0, [&](std::size_t i, unsigned w) {
    if (w >= workers) {
      out_of_range = true;
      return;
    }
    if (++in_use[w] != 1) overlap = true;
    sum[w] += static_cast<std::int64_t>(i);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    --in_use[w];
  });
  EXPECT_FALSE(out_of_range);
  EXPECT_FALSE(overlap);
  std::int64_t total = 0;
  for (std::int64_t s : sum) total += s;
  EXPECT_EQ(total, 299 * 300 / 2);
}

// At the top level an explicit request above the hardware threads is honoured (the runner's
// --jobs J runs J tasks at once, as before the shared pool).
TEST(ThreadPoolTest, TopLevelRequestAboveTheHardwareIsHonoured) {
  const unsigned many = std::max(1u, std::thread::hardware_concurrency()) + 3;
  EXPECT_EQ(ParallelWorkers(1000, many), many);
  std::mutex m;
  std::set<std::thread::id> ids;
  ConcurrencyMeter meter;
  ParallelFor(4 * many, many, [&](std::size_t) {
    Busy(meter);
    std::lock_guard<std::mutex> lock(m);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_LE(ids.size(), many);
  EXPECT_LE(meter.max(), static_cast<int>(many));
}

// A parallel-for inside a parallel task shares the task's budget instead of
// starting a full pool of its own. Budget 4: two outer tasks at once get 2 threads each,
// four get 1 (inline); the inner calls ask for 0 (= budget) or for 8 (capped at the share).
TEST(ThreadPoolTest, Issue15NestedParallelForNeverRunsMoreThanTheBudget) {
  ScopedThreadBudget budget(4);
  for (unsigned outer : {0u, 2u, 4u}) {
    for (unsigned inner : {0u, 8u}) {
      ConcurrencyMeter meter;
      std::atomic<int> bodies{0};
      ParallelFor(8, outer, [&](std::size_t) {
        ParallelFor(8, inner, [&](std::size_t) {
          Busy(meter);
          ++bodies;
        });
      });
      EXPECT_EQ(bodies.load(), 64);
      EXPECT_LE(meter.max(), 4) << "outer " << outer << " inner " << inner;
    }
  }
  EXPECT_EQ(CurrentThreadBudget(), 4u);  // restored after the calls
}

TEST(ThreadPoolTest, ATasksBudgetIsItsShareAndThreeLevelsStayWithinTheBudget) {
  ScopedThreadBudget budget(5);
  // 5 split among 2 workers: worker 0 (the caller) gets 3, worker 1 gets 2.
  // Each body waits (at most 10 s) until both workers have run one, so both report.
  std::vector<std::atomic<unsigned>> seen(2);
  ParallelForWorkers(40, 2, [&](std::size_t, unsigned w) {
    seen[w] = CurrentThreadBudget();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((seen[0] == 0 || seen[1] == 0) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
  });
  EXPECT_EQ(seen[0].load(), 3u);
  EXPECT_EQ(seen[1].load(), 2u);
  ConcurrencyMeter meter;
  ParallelFor(3, 0, [&](std::size_t) {
    ParallelFor(3, 0, [&](std::size_t) { ParallelFor(3, 0, [&](std::size_t) { Busy(meter); }); });
  });
  EXPECT_LE(meter.max(), 5);
}

TEST(ThreadPoolTest, TheLowestFailingIndexsExceptionReachesTheCaller) {
  for (unsigned threads : {1u, 2u, 4u}) {
    std::atomic<int> after_failure_started{0};
    try {
      ParallelFor(200, threads, [&](std::size_t i) {
        if (i > 150) ++after_failure_started;
        if (i == 37 || i == 60) throw std::runtime_error("index " + std::to_string(i));
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "index 37") << "threads " << threads;
    }
    // No index is handed out after a failure is seen: with one thread none past 37 runs.
    if (threads == 1) {
      EXPECT_EQ(after_failure_started.load(), 0);
    }
  }
  // From a nested call through the outer one; the caller's budget is restored.
  ScopedThreadBudget budget(4);
  EXPECT_THROW(ParallelFor(4, 0,
                           [](std::size_t i) {
                             ParallelFor(4, 0, [i](std::size_t j) {
                               if (i == 2 && j == 3) throw std::logic_error("inner");
                             });
                           }),
               std::logic_error);
  EXPECT_EQ(CurrentThreadBudget(), 4u);
}

}  // namespace
}  // namespace collsynth
