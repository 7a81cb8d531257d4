// Running another program without a shell: gnuplot for the figures (outputs.h), git for
// meta.json, Slurm's command-line tools for `experiment submit` (slurm.h).
//
// The program is found on PATH and started with posix_spawnp and an argument vector, so no
// character of any argument has a meaning; stdin is /dev/null. Never prints. Blocks until the
// program exits; O(output) memory, at most kMaxProgramOutput bytes kept per stream.
#ifndef COLLSYNTH_EXPERIMENTS_PROGRAM_RUN_H_
#define COLLSYNTH_EXPERIMENTS_PROGRAM_RUN_H_

#include <cstddef>
#include <string>
#include <vector>

namespace collsynth::experiments {

inline constexpr std::size_t kMaxProgramOutput = 16384;

enum class StderrMode {
  kDiscard,  // stderr to /dev/null
  kMerge,    // stderr into `output`, interleaved with stdout
  kCapture,  // stderr into `errors`
};

struct ProgramRun {
  int spawn_error = 0;   // errno of posix_spawnp (ENOENT: no such program on PATH), 0 if started
  int exit_status = -1;  // exit code, or -1 when killed by a signal
  std::string output;    // stdout (with stderr when kMerge)
  std::string errors;    // stderr when kCapture
};

// Runs argv[0] (searched on PATH) with argv, in folder `cwd` (empty: the current one).
ProgramRun RunProgram(const std::vector<std::string>& argv, const std::string& cwd,
                      StderrMode stderr_mode);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_PROGRAM_RUN_H_
