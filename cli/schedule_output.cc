#include "cli/schedule_output.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/input_error.h"
#include "core/json_io.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

bool FaultInjected() {
  const char* v = std::getenv("COLLSYNTH_FAULT_INJECT");
  return v != nullptr && std::strcmp(v, "corrupt-output") == 0;
}

// The testing hook: drop the last element of the document's main array.
void DropLast(json& j) {
  if (auto p = j.find("phases"); p != j.end() && p->is_array() && !p->empty()) {
    DropLast(p->back());  // allreduce: the allgather phase's trees
    return;
  }
  for (const char* key : {"sends", "steps", "trees"}) {
    auto it = j.find(key);
    if (it != j.end() && it->is_array() && !it->empty()) {
      it->erase(it->size() - 1);
      return;
    }
  }
}

void Corrupt(std::string& text) {
  json j = json::parse(text);
  DropLast(j);
  text = j.dump() + "\n";
}

// Checks the document (read as `verify` reads it, by `verify`) and compares it with what the
// in-memory check found.
template <typename VerifyFn>
OutputCheck CheckDocument(const VerifyFn& verify, const json& expected) {
  OutputCheck c;
  try {
    c.result = verify();
  } catch (const InputError& e) {
    c.error = std::string("the written file does not read back: ") + e.what();
    return c;
  }
  if (!c.result.ok) {
    const json& errors = c.result.report["errors"];
    c.error = "the written file fails the checker: " +
              (errors.empty() ? std::string("?") : errors.front().get<std::string>());
    return c;
  }
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    const json& got =
        c.result.report.contains(it.key()) ? c.result.report[it.key()] : json(nullptr);
    if (got != it.value()) {
      c.error = "the written file checks with " + it.key() + " = " + got.dump() +
                ", the schedule in memory with " + it.value().dump();
      return c;
    }
  }
  c.ok = true;
  return c;
}

// The read-back of OUT.partial (streamed), then the rename to OUT, or its removal.
OutputCheck CheckWrittenFile(const Topology& g, const std::string& partial, const std::string& path,
                             const VerifyOptions& options, const json& expected) {
  const auto t1 = std::chrono::steady_clock::now();
  OutputCheck c;
  try {
    c = CheckDocument([&] { return VerifyScheduleFile(g, partial, path, options); }, expected);
  } catch (...) {  // out of memory, ...: no OUT.partial is left behind (checked_output.h)
    std::remove(partial.c_str());
    throw;
  }
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  if (c.ok && std::rename(partial.c_str(), path.c_str()) != 0) {
    c.ok = false;
    c.error = "cannot rename " + partial + " to " + path + ": " + std::strerror(errno);
  }
  if (!c.ok) std::remove(partial.c_str());
  return c;
}

}  // namespace

OutputCheck WriteCheckedSchedule(const Topology& g, std::string&& text, const std::string& path,
                                 const VerifyOptions& options, const json& expected) {
  if (FaultInjected()) Corrupt(text);
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (path == "-") {
    OutputCheck c =
        CheckDocument([&] { return VerifyScheduleText(g, text, "<stdout>", options); }, expected);
    c.seconds = seconds();
    if (c.ok) std::cout << text << std::flush;
    return c;
  }
  const std::string partial = path + ".partial";
  WriteTextFile(partial, text);
  std::string().swap(text);  // the read-back streams the file (VerifyScheduleFile)
  return CheckWrittenFile(g, partial, path, options, expected);
}

OutputCheck WriteCheckedSchedule(const Topology& g, const ScheduleTextWriter& write,
                                 const std::function<void()>& written, const std::string& path,
                                 const VerifyOptions& options, const json& expected) {
  if (path == "-" || FaultInjected()) {  // small documents: through the text
    std::ostringstream text;
    write(text);
    if (written) written();
    return WriteCheckedSchedule(g, text.str(), path, options, expected);
  }
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary);
    if (!out) throw InputError(partial, "", "cannot open file for writing");
    try {
      write(out);
    } catch (...) {
      out.close();
      std::remove(partial.c_str());
      throw;
    }
    out.close();
    if (!out) {
      std::remove(partial.c_str());
      throw InputError(partial, "", "write failed");
    }
  }
  if (written) written();
  return CheckWrittenFile(g, partial, path, options, expected);
}

void AddOutputCheck(json& summary, const OutputCheck& check) {
  summary["output_verified"] = check.ok;
  summary["output_verify_seconds"] = check.seconds;
}

}  // namespace collsynth::cli
