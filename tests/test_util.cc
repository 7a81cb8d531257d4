#include "test_util.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace collsynth::testing {
namespace {

std::string ReadAll(int fd) {
  std::string s;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<size_t>(n));
  return s;
}

const std::filesystem::path& TempDir() {
  static const std::filesystem::path dir = [] {
    auto p =
        std::filesystem::temp_directory_path() / ("collsynth_test_" + std::to_string(getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  return dir;
}

}  // namespace

CliResult RunCli(const std::vector<std::string>& args, const std::string& stdin_text) {
  return RunCliIn("", args, stdin_text);
}

CliResult RunCliIn(const std::string& cwd, const std::vector<std::string>& args,
                   const std::string& stdin_text) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    std::vector<char*> argv;
    std::string bin = COLLSYNTH_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  std::thread writer([&] {
    std::size_t off = 0;
    while (off < stdin_text.size()) {
      ssize_t n = write(in_pipe[1], stdin_text.data() + off, stdin_text.size() - off);
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    close(in_pipe[1]);
  });
  CliResult r;
  std::thread err_reader([&] { r.err = ReadAll(err_pipe[0]); });
  r.out = ReadAll(out_pipe[0]);
  err_reader.join();
  writer.join();
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string TempPath(const std::string& name) { return (TempDir() / name).string(); }

std::string WriteTempFile(const std::string& name, const std::string& content) {
  std::string p = TempPath(name);
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uint64_t TestSeed(std::uint64_t default_seed) {
  if (const char* s = std::getenv("COLLSYNTH_SEED")) return std::strtoull(s, nullptr, 10);
  return default_seed;
}

std::string SourcePath(const std::string& relative) {
  return std::string(COLLSYNTH_SOURCE_DIR) + "/" + relative;
}

}  // namespace collsynth::testing
