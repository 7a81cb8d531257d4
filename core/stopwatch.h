// The one stopwatch: wall-clock seconds on the steady clock, for the time columns of reports,
// experiment rows and benchmarks. Times are reported, never used to decide a result (the
// solvers' wall-clock budgets read them only to stop early and say so).
#ifndef COLLSYNTH_CORE_STOPWATCH_H_
#define COLLSYNTH_CORE_STOPWATCH_H_

#include <chrono>
#include <utility>

namespace collsynth {

using SteadyClock = std::chrono::steady_clock;

// Seconds from `start` to `end` (default: now).
inline double SecondsBetween(SteadyClock::time_point start, SteadyClock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}
inline double SecondsSince(SteadyClock::time_point start) {
  return SecondsBetween(start, SteadyClock::now());
}

// Runs f() and returns the seconds it took.
template <typename F>
double SecondsToRun(F&& f) {
  const SteadyClock::time_point start = SteadyClock::now();
  std::forward<F>(f)();
  return SecondsSince(start);
}

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_STOPWATCH_H_
