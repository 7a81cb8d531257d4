#include "cli/schedule_output.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <variant>
#include <vector>

#include "graphs/input_error.h"
#include "graphs/topology_io.h"

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

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

// The first figure of `expected` the re-check `r` does not reproduce, as "KEY = GOT, the
// schedule in memory with WANT" (values spelled as in `verify --json`, a figure the report
// does not have as null; keys in that report's order), or "" when all agree.
std::string FirstMismatch(const VerifyResult& r, const ExpectedCheck& expected) {
  const StepCheckReport* steps = std::get_if<StepCheckReport>(&r.report);
  const PipelineCheckReport* pipeline = std::get_if<PipelineCheckReport>(&r.report);
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

// The read-back of OUT.partial (streamed), then the rename to OUT, or its removal.
OutputCheck CheckWrittenFile(const Topology& g, const std::string& partial, const std::string& path,
                             const VerifyOptions& options, const ExpectedCheck& expected) {
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

OutputCheck WriteCheckedSchedule(const Topology& g, std::string&& text, const std::string& path,
                                 const VerifyOptions& options, const ExpectedCheck& expected) {
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
                                 const VerifyOptions& options, const ExpectedCheck& expected) {
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
