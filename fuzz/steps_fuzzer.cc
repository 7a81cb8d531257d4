// libFuzzer target: "steps" schedules (StepScheduleFromJson) against one of the fixed
// topologies (fuzz_common.h: a leading '0'..'3' picks it). The fast reader `verify` and the
// output check use (StepScheduleFromStepsText) must give the plain read's schedule whenever it
// gives one (on everything else the loader uses the plain read), and the check of its flat form
// (FlatStepScheduleFromStepsText, what verify checks) must be the check of that schedule. What
// reads is checked with every option on, and the check must agree with
//   - VerifyScheduleJson on the same document (the CLI's path),
//   - the check of the compact form (CompactFromSteps, same report documented),
//   - the check of the written-and-reread schedule (StepScheduleToJson round trip), and the
//     streamed text (StepScheduleToJsonText) byte-identical to that tree's dump(),
//   - the brute-force simulator (validity, T_L, T_B) on small schedules without claims.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cli/verify_json.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "proofs_check/brute_force_simulator.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/verify.h"
#include "schedules/compact_schedule.h"
#include "schedules/flat_step_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/steps_text_reader.h"
#include "tests/fixtures/json_tree_writers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const fuzz::ScheduleInput in = fuzz::SplitScheduleInput(data, size);
  const Topology& g = *in.topology;
  // The fast reader against the plain read: whatever it reads, the plain read reads the same.
  fuzz::ExpectInputErrorOnly([&] {
    const std::optional<StepSchedule> fast = StepScheduleFromStepsText(in.text, g, "fuzz.json");
    if (!fast) return;
    std::string plain;
    try {
      plain = StepScheduleToJsonText(
          StepScheduleFromJson(ParseJsonText(in.text, "fuzz.json"), g, "fuzz.json"), g);
    } catch (const InputError& e) {
      plain = std::string("error: ") + e.what();
    }
    fuzz::Require(
        StepScheduleToJsonText(*fast, g) == plain,
        "the fast reader read a schedule the plain read does not: " + plain.substr(0, 200));
    // Its flat form (what verify and the output check read) checks as the schedule it stands
    // for: the same report, send indices included.
    const std::optional<FlatStepSchedule> flat =
        FlatStepScheduleFromStepsText(in.text, g, "fuzz.json");
    fuzz::Require(flat.has_value(), "the fast reader read the text but not its flat form");
    StepCheckOptions o;
    o.check_bandwidth_optimal = o.check_bfb = o.check_no_duplicates = true;
    const std::string want = cli::StepCheckReportJson(CheckStepSchedule(g, *fast, o)).dump();
    fuzz::Require(cli::StepCheckReportJson(CheckStepSchedule(g, *flat, o)).dump() == want,
                  "the check of the flat form differs: " + want.substr(0, 200));
  });
  fuzz::ExpectInputErrorOnly([&] {
    const nlohmann::json j = ParseJsonText(in.text, "fuzz.json");
    const StepSchedule s = StepScheduleFromJson(j, g, "fuzz.json");
    StepCheckOptions o;
    o.check_bandwidth_optimal = o.check_bfb = o.check_no_duplicates = true;
    const StepCheckReport r = CheckStepSchedule(g, s, o);
    const std::string report = cli::StepCheckReportJson(r).dump();
    // Def. 6: an accepted schedule's sends lie in steps 1..T_L and rs_steps in 0..T_L.
    // (checked without the optional properties, which may reject for their own reasons)
    StepCheckOptions base;
    if (CheckStepSchedule(g, s, base).ok) {
      for (std::size_t i = 0; i < s.sends.size(); ++i) {
        fuzz::Require(s.sends[i].step >= 1 && s.sends[i].step <= r.tl,
                      "accepted schedule has sends[" + std::to_string(i) + "] at step " +
                          std::to_string(s.sends[i].step) +
                          ", outside 1..T_L = " + std::to_string(r.tl));
      }
      if (s.rs_steps) {
        fuzz::Require(*s.rs_steps >= 0 && *s.rs_steps <= r.tl,
                      "accepted schedule has rs_steps " + std::to_string(*s.rs_steps) +
                          " outside 0..T_L = " + std::to_string(r.tl));
      }
    }

    VerifyOptions vo;
    vo.check_bandwidth_optimal = vo.check_bfb = vo.check_no_duplicates = true;
    nlohmann::json with_format = j;
    with_format["format"] = "steps";
    fuzz::Require(VerifyScheduleJson(g, with_format, "fuzz.json", vo).ok == r.ok,
                  "VerifyScheduleJson and CheckStepSchedule disagree");

    // The compact form groups a step's sends by link, so the first violations listed (and
    // their send indices) may differ; the verdicts and counts may not.
    if (auto c = CompactFromSteps(s)) {
      const StepCheckReport rc = CheckStepSchedule(g, *c, o);
      fuzz::Require(fuzz::StepVerdicts(rc) == fuzz::StepVerdicts(r),
                    "check of the compact form differs: " + fuzz::StepVerdicts(rc) +
                        " instead of " + fuzz::StepVerdicts(r));
    }
    fuzz::Require(StepScheduleToJsonText(s, g) == StepScheduleToJson(s, g).dump(),
                  "the streamed steps text (JsonWriter) differs from the tree's dump()");
    const StepSchedule back = StepScheduleFromJson(StepScheduleToJson(s, g), g, "<roundtrip>");
    fuzz::Require(cli::StepCheckReportJson(CheckStepSchedule(g, back, o)).dump() == report,
                  "check after the JSON round trip differs: " + report);

    int max_step = 0;
    for (const StepSend& e : s.sends) max_step = std::max(max_step, e.step);
    if (!s.claimed_tl && !s.claimed_tb && s.sends.size() <= 64 && max_step <= 64) {
      StepCheckOptions plain;
      plain.max_errors = 1 << 20;
      const StepCheckReport p = CheckStepSchedule(g, s, plain);
      const BruteForceResult b = SimulateStepSchedule(g, s);
      fuzz::Require(p.ok == b.valid && p.tl == b.tl && p.tb == b.tb,
                    "checker and brute-force simulator disagree: checker ok=" +
                        std::to_string(p.ok) + " tl=" + std::to_string(p.tl) +
                        " tb=" + ToString(p.tb) + ", brute force valid=" + std::to_string(b.valid) +
                        " tl=" + std::to_string(b.tl) + " tb=" + ToString(b.tb));
    }
  });
  return 0;
}
