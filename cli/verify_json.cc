#include "cli/verify_json.h"

#include <variant>

#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"

namespace collsynth::cli {

using nlohmann::json;

json VerifyResultJson(const VerifyResult& r) {
  json j = std::visit([](const auto& report) { return report.ToJson(); }, r.report);
  j["format"] = r.format;
  j["collective"] = CollectiveName(r.collective);
  j["verdict"] = ScheduleVerdictName(r.verdict);
  return j;
}

}  // namespace collsynth::cli
