// Progress reporting for long library computations. The library never prints: a function
// that can run for long takes an optional ProgressCallback and calls it with (done, total)
// units of work on the calling thread; the CLI decides what to print and how often
// (throttled to a few lines per second, only after a couple of seconds).
#ifndef COLLSYNTH_CORE_PROGRESS_H_
#define COLLSYNTH_CORE_PROGRESS_H_

#include <cstdint>
#include <functional>

namespace collsynth {

using ProgressCallback = std::function<void(std::int64_t done, std::int64_t total)>;

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_PROGRESS_H_
