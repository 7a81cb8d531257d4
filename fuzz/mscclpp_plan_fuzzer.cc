// libFuzzer target: MSCCL++ JSON execution plans through the plan replay checker
// (ReplayMscclppPlan, stages 0-3). As for msccl_xml there is no expected exception: the
// checker turns any text into a verdict, so every exception is a finding. Invariants checked:
//   - the verdict is deterministic (two runs give the same summary);
//   - JSON round trip: when the text parses, its compact dump replays to the same verdict
//     (ok, number and kinds of violations, chunks per pair);
//   - a nop only adds order: an accepted plan stays accepted with a nop appended to every
//     thread block that has room for one (fewer than 64 operations).
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz/fuzz_common.h"
#include "proofs_check/mscclpp_replay.h"

namespace {

using namespace collsynth;

std::string Summary(const ReplayResult& r) {
  std::string s = r.ok ? "ok" : "rejected";
  s += " total=" + std::to_string(r.violations_total);
  for (const ReplayViolation& v : r.violations) {
    s += std::string(" ") + ReplayStageName(v.stage) + "/" + ReplayViolationKindName(v.kind);
  }
  for (const ReplayPairChunks& p : r.bytes_per_pair) {
    s += " " + std::to_string(p.src) + ">" + std::to_string(p.dst) + ":" + std::to_string(p.chunks);
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const MscclppReplayOptions o;
    const ReplayResult r = ReplayMscclppPlan(text, "fuzz.json", o);
    const std::string summary = Summary(r);
    fuzz::Require(Summary(ReplayMscclppPlan(text, "fuzz.json", o)) == summary,
                  "replay is not deterministic: " + summary);
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    fuzz::Require(doc.is_discarded() ==
                      (!r.violations.empty() && r.violations[0].stage == ReplayStage::kLexical),
                  "JSON parser and replay stage 0 disagree: " + summary);
    if (doc.is_discarded()) return 0;
    const std::string compact = doc.dump();
    fuzz::Require(Summary(ReplayMscclppPlan(compact, "fuzz.json", o)) == summary,
                  "the compact dump replays differently: " + summary);
    if (r.ok) {
      nlohmann::json more = doc;
      for (auto& gpu : more["gpus"]) {
        for (auto& tb : gpu["threadblocks"]) {
          if (tb["ops"].size() < 64) tb["ops"].push_back({{"name", "nop"}});
        }
      }
      const ReplayResult m = ReplayMscclppPlan(more.dump(), "fuzz.json", o);
      fuzz::Require(m.ok, "accepted, but not with a nop appended to every block: " + Summary(m));
    }
  } catch (const std::exception& e) {
    fuzz::Fail(std::string("exception from the plan replay checker: ") + e.what());
  }
  return 0;
}
