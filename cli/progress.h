// Progress lines on stderr for long commands: "collsynth: WHAT: DONE/TOTAL UNIT".
// Nothing is printed while the command has run for less than kProgressAfter (2 s); after
// that at most one line per kProgressEvery (0.5 s), plus every DONE = TOTAL line. Never stdout. The
// environment variable COLLSYNTH_PROGRESS_AFTER_MS overrides the 2 s (tests use 0 to see the lines
// on a small input). Not thread-safe: call it from one thread (the library calls its
// ProgressCallback on the calling thread).
#ifndef COLLSYNTH_CLI_PROGRESS_H_
#define COLLSYNTH_CLI_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "core/progress.h"

namespace collsynth::cli {

class ProgressPrinter {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kProgressAfter{2000};
  static constexpr std::chrono::milliseconds kProgressEvery{500};

  explicit ProgressPrinter(std::string what) : what_(std::move(what)), start_(Clock::now()) {
    if (const char* env = std::getenv("COLLSYNTH_PROGRESS_AFTER_MS")) {
      char* end = nullptr;
      long long ms = std::strtoll(env, &end, 10);
      if (end != env && *end == '\0' && ms >= 0) after_ = std::chrono::milliseconds(ms);
    }
  }

  // "collsynth: WHAT: TEXT" when the command has been running for longer than the delay
  // (for stages that report no counts).
  void Stage(const std::string& text) {
    if (Clock::now() - start_ >= after_) Print(text);
  }

  // A callback printing "DONE/TOTAL UNIT[ SUFFIX]" (throttled as above).
  ProgressCallback Counter(std::string unit, std::string prefix = "") {
    return [this, unit = std::move(unit), prefix = std::move(prefix)](std::int64_t done,
                                                                      std::int64_t total) {
      auto now = Clock::now();
      if (now - start_ < after_) return;
      if (done < total && printed_ && now - last_ < kProgressEvery) return;
      Print(prefix + std::to_string(done) + "/" + std::to_string(total) + " " + unit);
    };
  }

 private:
  void Print(const std::string& text) {
    std::cerr << "collsynth: " << what_ << ": " << text << std::endl;
    printed_ = true;
    last_ = Clock::now();
  }

  std::string what_;
  Clock::time_point start_, last_;
  std::chrono::milliseconds after_ = kProgressAfter;
  bool printed_ = false;
};

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_PROGRESS_H_
