// libFuzzer target: "pipeline" schedules (PipelineScheduleFromJson) against one of the fixed
// topologies (fuzz_common.h), checked by CheckPipelineSchedule and VerifyScheduleJson. The
// streamed writer must be byte-identical to the JSON-tree writer (pipeline_schedule.h), and
// its output must read back to a schedule with the same check.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/verify_json.h"
#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/verify.h"
#include "schedules/pipeline_schedule.h"
#include "tests/fixtures/json_tree_writers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const fuzz::ScheduleInput in = fuzz::SplitScheduleInput(data, size);
  const Topology& g = *in.topology;
  fuzz::ExpectInputErrorOnly([&] {
    const nlohmann::json j = ParseJsonText(in.text, "fuzz.json");
    const PipelineSchedule s = PipelineScheduleFromJson(j, g, "fuzz.json");
    const PipelineCheckReport r = CheckPipelineSchedule(g, s);
    const std::string report = cli::PipelineCheckReportJson(r).dump();
    nlohmann::json with_format = j;
    with_format["format"] = "pipeline";
    fuzz::Require(VerifyScheduleJson(g, with_format, "fuzz.json").ok == r.ok,
                  "VerifyScheduleJson and CheckPipelineSchedule disagree");
    const std::string text = PipelineScheduleToJsonText(s, g);
    fuzz::Require(text == PipelineScheduleToJson(s, g).dump(),
                  "streamed pipeline writer differs from the JSON-tree writer");
    const PipelineSchedule back =
        PipelineScheduleFromJson(ParseJsonText(text, "<roundtrip>"), g, "<roundtrip>");
    fuzz::Require(cli::PipelineCheckReportJson(CheckPipelineSchedule(g, back)).dump() == report,
                  "check after the writer's round trip differs: " + report);
    // The streaming read (VerifyScheduleText: trees converted while parsing), which `verify`
    // and every writing command's output check use, agrees with the plain read.
    fuzz::Require(cli::VerifyResultJson(VerifyScheduleText(g, text, "<roundtrip>")).dump() ==
                      cli::VerifyResultJson(
                          VerifyScheduleJson(g, ParseJsonText(text, "<roundtrip>"), "<roundtrip>"))
                          .dump(),
                  "streaming and plain reads of the written schedule check differently");
  });
  return 0;
}
