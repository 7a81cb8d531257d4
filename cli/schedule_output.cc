#include "cli/schedule_output.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

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
  for (const char* key : {"sends", "steps", "trees", "flows"}) {
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

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

// The first figure of `expected` the re-check `r` does not reproduce, as "KEY = GOT, the
// schedule in memory with WANT" (values spelled as in `verify --json`, a figure the report
// does not have as null; keys in that report's order), or "" when all agree.
std::string FirstMismatch(const VerifyResult& r, const ExpectedCheck& expected) {
  const StepCheckReport* steps = std::get_if<StepCheckReport>(&r.report);
  const PipelineCheckReport* pipeline = std::get_if<PipelineCheckReport>(&r.report);
  const FlowCheckReport* flows = std::get_if<FlowCheckReport>(&r.report);
  std::string mismatch;
  auto compare = [&](const char* key, bool differs, const std::string& got,
                     const std::string& want) {
    if (mismatch.empty() && differs) {
      mismatch = std::string(key) + " = " + got + ", the schedule in memory with " + want;
    }
  };
  const std::string null = "null";
  if (const auto& want = expected.height_hops) {
    compare("height_hops", !pipeline || pipeline->height_hops != *want,
            pipeline ? std::to_string(pipeline->height_hops) : null, std::to_string(*want));
  }
  if (const auto& want = expected.ratio) {
    compare("ratio", !pipeline || pipeline->ratio != *want,
            pipeline ? Quoted(ToString(pipeline->ratio)) : null, Quoted(ToString(*want)));
  }
  if (const auto& want = expected.tb) {
    compare("tb", !steps || steps->tb != *want, steps ? Quoted(ToString(steps->tb)) : null,
            Quoted(ToString(*want)));
  }
  if (const auto& want = expected.time) {
    const bool have = flows && flows->time;
    compare("time", !have || *flows->time != *want, have ? Quoted(ToString(*flows->time)) : null,
            Quoted(ToString(*want)));
  }
  if (const auto& want = expected.time_lower_bound) {
    const bool have = flows && flows->time_lower_bound;
    compare("time_lower_bound", !have || *flows->time_lower_bound != *want,
            have ? Quoted(ToString(*flows->time_lower_bound)) : null, Quoted(ToString(*want)));
  }
  if (const auto& want = expected.tl) {
    compare("tl", !steps || steps->tl != *want, steps ? std::to_string(steps->tl) : null,
            std::to_string(*want));
  }
  if (const auto& want = expected.verdict) {
    compare("verdict", !pipeline || pipeline->verdict != *want,
            pipeline ? Quoted(PipelineVerdictName(pipeline->verdict)) : null,
            Quoted(PipelineVerdictName(*want)));
  }
  return mismatch;
}

// Checks the document (read as `verify` reads it, by `verify`) and compares it with what the
// in-memory check found.
template <typename VerifyFn>
OutputCheck CheckDocument(const VerifyFn& verify, const ExpectedCheck& expected) {
  OutputCheck c;
  try {
    c.result = verify();
  } catch (const InputError& e) {
    c.error = std::string("the written file does not read back: ") + e.what();
    return c;
  }
  if (!c.result.ok) {
    const std::vector<std::string>& errors = c.result.Errors();
    c.error = "the written file fails the checker: " +
              (errors.empty() ? std::string("?") : errors.front());
    return c;
  }
  const std::string mismatch = FirstMismatch(c.result, expected);
  if (!mismatch.empty()) {
    c.error = "the written file checks with " + mismatch;
    return c;
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
                              const VerifyOptions& options, const ExpectedCheck& expected) {
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

ExpectedCheck SameFigures(const StepCheckReport& r) {
  ExpectedCheck e;
  e.tl = r.tl;
  e.tb = r.tb;
  return e;
}

ExpectedCheck SameFigures(const PipelineCheckReport& r) {
  ExpectedCheck e;
  e.ratio = r.ratio;
  e.verdict = r.verdict;
  e.height_hops = r.height_hops;
  return e;
}

ExpectedCheck SameFigures(const FlowCheckReport& r) {
  ExpectedCheck e;
  e.time = r.time;
  e.time_lower_bound = r.time_lower_bound;
  return e;
}

OutputCheck WriteCheckedSchedule(const Topology& g, std::string&& text, const std::string& path,
                                 const VerifyOptions& options, const ExpectedCheck& expected) {
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
                                 const VerifyOptions& options, const ExpectedCheck& expected) {
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
