// libFuzzer target: "flows" schedules (FlowScheduleFromJson, docs/formats.md "Flows schedule
// JSON") against one of the fixed topologies (fuzz_common.h: a leading '0'..'3' picks it). Bad
// input must end in InputError (the reader's, or the checker's limit on exact sums). The check
// must agree with VerifyScheduleJson, and the writer's text must read back to a schedule with
// the same report; an accepted schedule's T is the claimed time, and the bound of its "lengths"
// (when given) is at most T.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "cli/verify_json.h"
#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/verify.h"
#include "schedules/flow_schedule.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const fuzz::ScheduleInput in = fuzz::SplitScheduleInput(data, size);
  const Topology& g = *in.topology;
  fuzz::ExpectInputErrorOnly([&] {
    nlohmann::json j = ParseJsonText(in.text, "fuzz.json");
    const FlowSchedule s = FlowScheduleFromJson(j, g, "fuzz.json");
    const FlowCheckReport r = CheckFlowSchedule(g, s);
    const std::string report = cli::FlowCheckReportJson(r).dump();
    if (r.ok) fuzz::Require(r.time && *r.time == s.time, "accepted with T != the claim");
    if (r.time_lower_bound) {  // weak duality: the lengths' bound never exceeds the achieved T
      fuzz::Require(
          r.ok && *r.time_lower_bound <= *r.time && *r.optimal == (*r.time_lower_bound == *r.time),
          "the lengths' bound is above T or disagrees with optimal");
    }
    j["format"] = "flows";
    fuzz::Require(VerifyScheduleJson(g, j, "fuzz.json").ok == r.ok,
                  "VerifyScheduleJson and CheckFlowSchedule disagree");
    std::ostringstream text;
    WriteFlowSchedule(text, s, g);
    const FlowSchedule back =
        FlowScheduleFromJson(ParseJsonText(text.str(), "<roundtrip>"), g, "<roundtrip>");
    fuzz::Require(cli::FlowCheckReportJson(CheckFlowSchedule(g, back)).dump() == report,
                  "check after the flows writer's round trip differs: " + report);
  });
  return 0;
}
