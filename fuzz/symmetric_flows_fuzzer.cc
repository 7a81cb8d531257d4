// libFuzzer target: "flows-symmetric" schedules (SymmetricFlowScheduleFromJson, docs/formats.md
// "Symmetric flows schedule JSON") against one of the fixed topologies (fuzz_common.h: a leading
// '0'..'3' picks it). Bad input must end in InputError (the reader's, or a checker's limit on
// exact sums). The compact check must agree with VerifyScheduleJson; an accepted schedule's T is
// its claimed time, the bound of its lengths (when given) is at most T; the writer's text must
// read back to a schedule with the same report; and an accepted schedule's expansion must pass
// the plain flows checker with the same T and bound (docs/alltoall.md "Symmetric all-to-all").
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "cli/verify_json.h"
#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/symmetric_flow_checker.h"
#include "proofs_check/verify.h"
#include "schedules/symmetric_flow_schedule.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const fuzz::ScheduleInput in = fuzz::SplitScheduleInput(data, size);
  const Topology& g = *in.topology;
  fuzz::ExpectInputErrorOnly([&] {
    nlohmann::json j = ParseJsonText(in.text, "fuzz.json");
    const SymmetricFlowSchedule s = SymmetricFlowScheduleFromJson(j, g, "fuzz.json");
    const FlowCheckReport r = CheckSymmetricFlowSchedule(g, s);
    const std::string report = cli::FlowCheckReportJson(r).dump();
    if (r.ok) fuzz::Require(r.time && *r.time == s.time, "accepted with T != the claim");
    if (r.time_lower_bound) {  // weak duality
      fuzz::Require(
          r.ok && *r.time_lower_bound <= *r.time && *r.optimal == (*r.time_lower_bound == *r.time),
          "the lengths' bound is above T or disagrees with optimal");
    }
    j["format"] = "flows-symmetric";
    fuzz::Require(VerifyScheduleJson(g, j, "fuzz.json").ok == r.ok,
                  "VerifyScheduleJson and CheckSymmetricFlowSchedule disagree");
    std::ostringstream text;
    WriteSymmetricFlowSchedule(text, s, g);
    const SymmetricFlowSchedule back =
        SymmetricFlowScheduleFromJson(ParseJsonText(text.str(), "<roundtrip>"), g, "<roundtrip>");
    fuzz::Require(cli::FlowCheckReportJson(CheckSymmetricFlowSchedule(g, back)).dump() == report,
                  "check after the writer's round trip differs: " + report);
    if (!r.ok) return;
    const FlowCheckReport plain = CheckFlowSchedule(g, ExpandSymmetricFlowSchedule(s, g));
    fuzz::Require(plain.ok && plain.time == r.time && plain.time_lower_bound == r.time_lower_bound,
                  "the expansion's plain check disagrees with the compact one");
  });
  return 0;
}
