// The one checked-output path of every file the project writes other than schedules (export
// msccl, export mscclpp, export chakra, the shards of `experiment run --shard`; schedules go
// through cli/schedule_output.h, which keeps the same rules): every file is written to
// PATH.partial, the bytes on disk are checked, and only then is every file renamed to its PATH.
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
#ifndef COLLSYNTH_CORE_CHECKED_OUTPUT_H_
#define COLLSYNTH_CORE_CHECKED_OUTPUT_H_

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace collsynth {

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

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_CHECKED_OUTPUT_H_
