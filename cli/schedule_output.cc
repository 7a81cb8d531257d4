#include "cli/schedule_output.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "core/checked_output.h"
#include "core/input_error.h"
#include "core/stopwatch.h"

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

// OUT.partial written by `write`, read back (streamed) and checked, then renamed to OUT, through
// the one checked-output path (core/checked_output.h: a failed write or rename is !ok naming the
// file and the OS error, and no OUT.partial is left behind). `written` runs once the bytes are
// on disk, before the read-back.
OutputCheck WriteAndCheckFile(const Topology& g, const ScheduleTextWriter& write,
                              const std::function<void()>& written, const std::string& path,
                              const VerifyOptions& options, const json& expected) {
  OutputCheck c;
  bool checked = false;
  const CheckedOutput out =
      WriteChecked({{path, write}}, [&](const std::vector<std::string>& partials) {
        if (written) written();
        const SteadyClock::time_point t1 = SteadyClock::now();
        c = CheckDocument([&] { return VerifyScheduleFile(g, partials[0], path, options); },
                          expected);
        c.seconds = SecondsSince(t1);
        checked = true;
        return c.ok ? std::string() : c.error;
      });
  if (!out.ok && (!checked || c.ok)) {  // a write or the rename failed, not the check
    c.ok = false;
    c.error = out.error;
  }
  return c;
}

}  // namespace

OutputCheck WriteCheckedSchedule(const Topology& g, std::string&& text, const std::string& path,
                                 const VerifyOptions& options, const json& expected) {
  if (FaultInjected()) Corrupt(text);
  if (path == "-") {
    const SteadyClock::time_point t0 = SteadyClock::now();
    OutputCheck c =
        CheckDocument([&] { return VerifyScheduleText(g, text, "<stdout>", options); }, expected);
    c.seconds = SecondsSince(t0);
    if (c.ok) std::cout << text << std::flush;
    return c;
  }
  return WriteAndCheckFile(
      g, [&text](std::ostream& out) { out << text; },
      [&text] { std::string().swap(text); },  // the read-back streams the file
      path, options, expected);
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
  return WriteAndCheckFile(g, write, written, path, options, expected);
}

void AddOutputCheck(json& summary, const OutputCheck& check) {
  summary["output_verified"] = check.ok;
  summary["output_verify_seconds"] = check.seconds;
}

}  // namespace collsynth::cli
