// libFuzzer target: the options of `collsynth export msccl|mscclpp|chakra` on small valid
// schedules, through the library functions the commands run, in the commands' order (option
// check, lowering, limits, self-checks, writer, replay of the written text). The input is one
// JSON object; every member is optional and a member of the wrong JSON type is left out:
//   "schedule": integer, picks a fixture (fuzz_common.h ValidSchedules());
//   "format": "msccl" (default), "mscclpp" or "chakra";
//   "profile", "proto": strings; "max_tbs", "max_channels", "max_chunks", "instances",
//   "pieces", "slices", "size", "min_bytes", "max_bytes": integers; "fuse", "inplace",
//   "root_specific": booleans.
// Contract: InputError (exit 2) and ExportLimitError (exit 1, a limit named) are the expected
// failures, as are the commands' other limits (steps, plan blocks). Any other exception is a
// finding, and so is every exit 1 that says the exporter is wrong: a lowered program that
// breaks its own invariants, a written file or program the independent replay rejects (at the
// kernel's connector depth or at depth 1), traces that fail their check.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "export/chakra_et.h"
#include "export/msccl_program.h"
#include "export/msccl_xml.h"
#include "export/mscclpp_plan.h"
#include "fuzz/fuzz_common.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/mscclpp_plan.h"
#include "proofs_check/mscclpp_replay.h"

namespace {

using namespace collsynth;
using nlohmann::json;

// A command-line integer: absent leaves *out; outside [lo, hi] of the C++ type (CLI11 refuses
// to convert it, exit 2) returns false.
template <typename T>
bool GetInt(const json& doc, const char* key, T* out) {
  auto it = doc.find(key);
  if (it == doc.end() || !it->is_number_integer()) return true;
  if (it->is_number_unsigned() && it->get<std::uint64_t>() > std::uint64_t{INT64_MAX}) {
    return false;
  }
  const std::int64_t v = it->get<std::int64_t>();
  if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
      v > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
    return false;
  }
  *out = static_cast<T>(v);
  return true;
}

bool GetBool(const json& doc, const char* key) {
  auto it = doc.find(key);
  return it != doc.end() && it->is_boolean() && it->get<bool>();
}

std::string GetString(const json& doc, const char* key, const std::string& fallback) {
  auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : fallback;
}

MscclExportResult Lower(const fuzz::ValidSchedule& v, const Topology& g,
                        const MscclExportOptions& o) {
  return v.pipeline ? ExportPipelineToMscclProgram(g, *v.pipeline, DefaultRanks(g), o, v.name)
                    : ExportStepsToMscclProgram(g, *v.steps, DefaultRanks(g), o, v.name);
}

void RequireReplayAccepts(const std::string& xml, MscclExportProfile profile, int root,
                          const std::string& what) {
  ReplayOptions ro;
  ro.profile = profile == MscclExportProfile::kLegacy ? MscclProfile::kLegacy
               : profile == MscclExportProfile::kRccl ? MscclProfile::kRccl
                                                      : MscclProfile::kExecutor;
  ro.root = root < 0 ? 0 : root;
  for (int depth : {0, 1}) {
    ro.fifo_depth = depth;
    const ReplayResult r = ReplayMscclXml(xml, "fuzz.xml", ro);
    fuzz::Require(r.ok, "the replay rejects " + what + " at connector depth " +
                            std::to_string(depth) + ": " +
                            (r.violations.empty() ? std::string("?") : r.violations[0].message));
  }
}

void ExportMsccl(const fuzz::ValidSchedule& v, const Topology& g, const json& doc, bool chakra) {
  MscclExportOptions o;
  if (!chakra) {
    try {
      o.profile = ParseMscclExportProfile(GetString(doc, "profile", "executor"));
    } catch (const std::invalid_argument&) {
      return;  // the CLI: InputError("<args>", "--profile", ...)
    }
    o.proto = GetString(doc, "proto", o.proto);
    o.inplace = GetBool(doc, "inplace");
    o.root_specific = GetBool(doc, "root_specific");
    if (!GetInt(doc, "min_bytes", &o.min_bytes) || !GetInt(doc, "max_bytes", &o.max_bytes) ||
        !GetInt(doc, "instances", &o.instances)) {
      return;
    }
  }
  o.fuse = GetBool(doc, "fuse");
  ChakraOptions co;
  co.size_bytes = 3 << 20;
  if (!GetInt(doc, "max_tbs", &o.max_tbs) || !GetInt(doc, "max_channels", &o.max_channels) ||
      !GetInt(doc, "max_chunks", &o.max_chunks) || !GetInt(doc, "slices", &co.slices) ||
      !GetInt(doc, "size", &co.size_bytes)) {
    return;
  }
  if (chakra) CheckChakraSize(co.size_bytes);
  ValidateMscclExportOptions(o, /*runtime_file=*/!chakra);
  const Collective collective = v.pipeline ? v.pipeline->collective : v.steps->collective;
  if (chakra && collective == Collective::kBroadcast) {
    return;  // export chakra: InputError(file, "collective", ...)
  }
  MscclExportResult r;
  try {
    r = Lower(v, g, o);
    CheckMscclProgramStepLimit(r.program);
  } catch (const ExportLimitError&) {
    return;  // exit 1, the limit named (steps included)
  }
  if (chakra) CheckChakraOptions(r.program, co);
  const std::vector<std::string> violations = CheckMscclProgramInvariants(r.program, o);
  fuzz::Require(violations.empty(), "the lowered program breaks " +
                                        (violations.empty() ? std::string() : violations[0]));
  if (!chakra) {
    CheckMscclLegacyScratchRange(r.program, o);
    RequireReplayAccepts(MscclXmlText(r.program, o.profile), o.profile, r.root_rank,
                         "the written XML");
    return;
  }
  RequireReplayAccepts(MscclXmlText(r.program, MscclExportProfile::kExecutor),
                       MscclExportProfile::kExecutor, 0, "the program behind the traces");
  ChakraTraces t;
  try {
    t = LowerMscclProgramToChakra(r.program, co);
  } catch (const ExportLimitError&) {
    return;
  }
  const std::vector<std::string> bad = CheckChakraTraces(t);
  fuzz::Require(bad.empty(), "the traces break: " + (bad.empty() ? std::string() : bad[0]));
}

void ExportMscclpp(const fuzz::ValidSchedule& v, const Topology& g, const json& doc) {
  MscclppExportOptions o;
  o.proto = GetString(doc, "proto", o.proto);
  o.inplace = GetBool(doc, "inplace");
  if (!GetInt(doc, "min_bytes", &o.min_bytes) || !GetInt(doc, "max_bytes", &o.max_bytes) ||
      !GetInt(doc, "max_tbs", &o.max_tbs) || !GetInt(doc, "max_chunks", &o.max_chunks) ||
      !GetInt(doc, "instances", &o.instances) || !GetInt(doc, "pieces", &o.pieces)) {
    return;
  }
  ValidateMscclppExportOptions(o);
  MscclppExportResult r;
  try {
    r = v.pipeline ? ExportPipelineToMscclppPlan(g, *v.pipeline, DefaultRanks(g), o, v.name)
                   : ExportStepsToMscclppPlan(g, *v.steps, DefaultRanks(g), o, v.name);
  } catch (const ExportLimitError&) {
    return;
  }
  std::int64_t blocks = 0;
  for (const std::vector<int>& gpu : r.ops_per_block) blocks += gpu.size();
  if (blocks > mscclpp_check::kMaxBlocksTotal) return;  // exit 1, limit blocks
  const ReplayResult replay =
      ReplayMscclppPlan(MscclppPlanText(r), "fuzz.json", MscclppReplayOptions{});
  fuzz::Require(replay.ok,
                "the replay rejects the written plan: " +
                    (replay.violations.empty() ? std::string("?") : replay.violations[0].message));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::optional<json> input = fuzz::ParseOptionsInput(data, size);
  if (!input) return 0;
  const json& doc = *input;
  const std::vector<fuzz::ValidSchedule>& fixtures = fuzz::ValidSchedules();
  const fuzz::ValidSchedule& v = fixtures[fuzz::PickIndex(doc, fixtures.size())];
  const Topology& g = fuzz::FixedTopology(v.topology_index);
  const std::string format = GetString(doc, "format", "msccl");
  fuzz::ExpectInputErrorOnly([&] {
    if (format == "mscclpp") {
      ExportMscclpp(v, g, doc);
    } else if (format == "chakra") {
      ExportMsccl(v, g, doc, true);
    } else {
      ExportMsccl(v, g, doc, false);
    }
  });
  return 0;
}
