#include "experiments/program_run.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

extern "C" char** environ;

namespace collsynth::experiments {
namespace {

void Append(std::string* s, const char* buf, std::size_t n) {
  const std::size_t room = kMaxProgramOutput - std::min(kMaxProgramOutput, s->size());
  s->append(buf, std::min(room, n));
}

}  // namespace

ProgramRun RunProgram(const std::vector<std::string>& argv, const std::string& cwd,
                      StderrMode stderr_mode) {
  ProgramRun run;
  const bool capture = stderr_mode == StderrMode::kCapture;
  int out_fds[2] = {-1, -1}, err_fds[2] = {-1, -1};
  if (pipe2(out_fds, O_CLOEXEC) != 0) {
    run.spawn_error = errno;
    return run;
  }
  if (capture && pipe2(err_fds, O_CLOEXEC) != 0) {
    run.spawn_error = errno;
    close(out_fds[0]);
    close(out_fds[1]);
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fds[1], 1);
  switch (stderr_mode) {
    case StderrMode::kDiscard:
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
      break;
    case StderrMode::kMerge:
      posix_spawn_file_actions_adddup2(&actions, out_fds[1], 2);
      break;
    case StderrMode::kCapture:
      posix_spawn_file_actions_adddup2(&actions, err_fds[1], 2);
      break;
  }
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  std::vector<char*> args;
  std::vector<std::string> copy = argv;
  for (auto& a : copy) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid = -1;
  run.spawn_error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_fds[1]);
  if (capture) close(err_fds[1]);
  if (run.spawn_error != 0) {
    close(out_fds[0]);
    if (capture) close(err_fds[0]);
    return run;
  }
  // Read both pipes until both are closed (a full stderr pipe must not block the program).
  pollfd fds[2] = {{out_fds[0], POLLIN, 0}, {capture ? err_fds[0] : -1, POLLIN, 0}};
  std::string* sinks[2] = {&run.output, &run.errors};
  int open_count = capture ? 2 : 1;
  char buf[4096];
  while (open_count > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
        continue;
      }
      Append(sinks[i], buf, static_cast<std::size_t>(n));
    }
  }
  for (const auto& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return run;
  }
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace collsynth::experiments
