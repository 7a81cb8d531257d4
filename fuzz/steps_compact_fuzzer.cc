// libFuzzer target: "steps-compact" schedules (CompactStepScheduleFromJson) against one of
// the fixed topologies (fuzz_common.h). The compact check must give the same report as the
// check of StepsFromCompact (documented in step_checker.h) and as VerifyScheduleJson.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/verify_json.h"
#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/verify.h"
#include "schedules/compact_schedule.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const fuzz::ScheduleInput in = fuzz::SplitScheduleInput(data, size);
  const Topology& g = *in.topology;
  fuzz::ExpectInputErrorOnly([&] {
    const nlohmann::json j = ParseJsonText(in.text, "fuzz.json");
    const CompactStepSchedule c = CompactStepScheduleFromJson(j, g, "fuzz.json");
    StepCheckOptions o;
    o.check_bandwidth_optimal = o.check_bfb = o.check_no_duplicates = true;
    const StepCheckReport r = CheckStepSchedule(g, c, o);
    const std::string report = cli::StepCheckReportJson(r).dump();
    // Def. 6: an accepted schedule's steps lie in 1..T_L and rs_steps in 0..T_L.
    // (checked without the optional properties, which may reject for their own reasons)
    StepCheckOptions base;
    if (CheckStepSchedule(g, c, base).ok) {
      for (std::size_t i = 0; i < c.steps.size(); ++i) {
        fuzz::Require(
            c.steps[i].num_sends() == 0 || (c.steps[i].step >= 1 && c.steps[i].step <= r.tl),
            "accepted schedule has steps[" + std::to_string(i) +
                "] = " + std::to_string(c.steps[i].step) +
                " with sends, outside 1..T_L = " + std::to_string(r.tl));
      }
      if (c.rs_steps) {
        fuzz::Require(*c.rs_steps >= 0 && *c.rs_steps <= r.tl,
                      "accepted schedule has rs_steps " + std::to_string(*c.rs_steps) +
                          " outside 0..T_L = " + std::to_string(r.tl));
      }
    }
    fuzz::Require(
        cli::StepCheckReportJson(CheckStepSchedule(g, StepsFromCompact(c), o)).dump() == report,
        "compact check and check of StepsFromCompact differ: " + report);
    VerifyOptions vo;
    vo.check_bandwidth_optimal = vo.check_bfb = vo.check_no_duplicates = true;
    nlohmann::json with_format = j;
    with_format["format"] = "steps-compact";
    fuzz::Require(VerifyScheduleJson(g, with_format, "fuzz.json", vo).ok == r.ok,
                  "VerifyScheduleJson and CheckStepSchedule disagree");
    // The writer's text must read back to a schedule with the same check.
    const std::string text = CompactStepScheduleToText(c, g);
    const CompactStepSchedule back =
        CompactStepScheduleFromJson(ParseJsonText(text, "<roundtrip>"), g, "<roundtrip>");
    fuzz::Require(cli::StepCheckReportJson(CheckStepSchedule(g, back, o)).dump() == report,
                  "check after the compact writer's round trip differs: " + report);
  });
  return 0;
}
