#include "core/checked_output.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "core/input_error.h"

namespace collsynth {
namespace {

bool WriteErrorInjected() {
  const char* v = std::getenv("COLLSYNTH_FAULT_INJECT");
  return v != nullptr && std::strcmp(v, "write-error") == 0;
}

// Removes every PATH.partial still on disk when it goes out of scope.
class PartialFiles {
 public:
  ~PartialFiles() {
    for (const std::string& p : paths_) {
      if (!p.empty()) std::remove(p.c_str());
    }
  }
  void Add(const std::string& partial) { paths_.push_back(partial); }
  const std::vector<std::string>& paths() const { return paths_; }
  void Renamed(std::size_t i) { paths_[i].clear(); }

 private:
  std::vector<std::string> paths_;
};

}  // namespace

CheckedOutput WriteChecked(
    const std::vector<OutputFile>& files,
    const std::function<std::string(const std::vector<std::string>&)>& check) {
  CheckedOutput result;
  PartialFiles partials;
  for (const OutputFile& f : files) {
    const std::string partial = f.path + ".partial";
    std::ofstream out(partial, std::ios::binary);
    if (!out) throw InputError(partial, "", "cannot open file for writing");
    partials.Add(partial);
    f.write(out);
    out.flush();
    int error = out ? 0 : errno;
    if (WriteErrorInjected()) error = ENOSPC;
    out.close();
    if (error == 0 && !out) error = errno;
    if (error != 0) {
      result.error = partial + ": cannot write: " + std::strerror(error != 0 ? error : EIO);
      return result;
    }
  }
  const std::string problem = check(partials.paths());
  if (!problem.empty()) {
    result.error = "the written file is rejected: " + problem;
    return result;
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (std::rename(partials.paths()[i].c_str(), files[i].path.c_str()) != 0) {
      result.error = "cannot rename " + partials.paths()[i] + " to " + files[i].path + ": " +
                     std::strerror(errno);
      return result;
    }
    partials.Renamed(i);
  }
  result.ok = true;
  return result;
}

}  // namespace collsynth
