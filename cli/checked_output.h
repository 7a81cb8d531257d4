// The one checked-output path of the commands that write files other than schedules (export
// msccl, export mscclpp, export chakra; schedules go through schedule_output.h, which keeps the
// same rules): every file is written to PATH.partial, the bytes on disk are checked, and only
// then is every file renamed to its PATH.
//
// One failure policy for all of them (docs/cli.md, "Written files"):
//   - PATH.partial cannot be created: InputError(PATH.partial, "", "cannot open file for
//     writing") (exit 2: the output path is the user's argument);
//   - a write or close fails (a full disk, an I/O error), the check rejects the bytes, or a
//     rename fails: the result is !ok with one line naming the file and the OS error or the
//     check's first problem (the command prints it, exit 1) -- never an internal error;
//   - any exception from a writer or the check (out of memory included) propagates.
// Whatever the outcome, no PATH.partial is left behind.
//
// Testing hook (docs/cli.md): COLLSYNTH_FAULT_INJECT=write-error makes every write fail as a
// full disk would (ENOSPC), so tests can show the policy above. It can only make a command
// fail.
#ifndef COLLSYNTH_CLI_CHECKED_OUTPUT_H_
#define COLLSYNTH_CLI_CHECKED_OUTPUT_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace collsynth::cli {

struct OutputFile {
  std::string path;                          // the final path
  std::function<void(std::ostream&)> write;  // writes the file's bytes
};

struct CheckedOutput {
  bool ok = false;
  std::string error;  // when !ok: one line, "PATH: what failed"
};

// `check` receives the PATH.partial paths, in the order of `files`, and returns "" when it
// accepts the bytes on disk, else its first problem (reported as "the written file is
// rejected: PROBLEM").
CheckedOutput WriteChecked(
    const std::vector<OutputFile>& files,
    const std::function<std::string(const std::vector<std::string>&)>& check);

// The step limit of export msccl and export chakra (CheckMscclProgramStepLimit,
// export/msccl_program.h): kMscclMaxProgramSteps (2^20). Testing hook (docs/cli.md): the
// environment variable COLLSYNTH_TEST_MAX_PROGRAM_STEPS=N (a decimal integer >= 0) lowers it to
// N, so that tests can show the refusal on a small schedule; a value above 2^20 leaves 2^20,
// so the hook can only make a command refuse more. Any other value is bad input
// (InputError naming the variable, exit 2).
std::int64_t MscclProgramStepLimit();

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_CHECKED_OUTPUT_H_
