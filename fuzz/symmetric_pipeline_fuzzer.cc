// libFuzzer target: "pipeline-symmetric" schedules (SymmetricPipelineScheduleFromJson,
// docs/formats.md) against one of the fixed topologies (fuzz_common.h). A schedule that reads must
// write back to a document that reads to the same schedule (the writer's output is a fixed point);
// the consumers' loader (LoadScheduleText, schedules/schedule_file.h) must read the input text to
// the same schedule, the check `verify` runs must give the same verdict on the loaded value and
// on the text, and the plain checker must give the same report on the expansion in memory and
// on its written text read back the way `verify` reads it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "cli/verify_json.h"
#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/verify.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/schedule_file.h"
#include "schedules/symmetric_pipeline_schedule.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const fuzz::ScheduleInput in = fuzz::SplitScheduleInput(data, size);
  const Topology& g = *in.topology;
  fuzz::ExpectInputErrorOnly([&] {
    const SymmetricPipelineSchedule s =
        SymmetricPipelineScheduleFromJson(ParseJsonText(in.text, "fuzz.json"), g, "fuzz.json");
    const std::string text = SymmetricPipelineScheduleToJsonText(s, g);
    const SymmetricPipelineSchedule back =
        SymmetricPipelineScheduleFromJson(ParseJsonText(text, "<roundtrip>"), g, "<roundtrip>");
    fuzz::Require(SymmetricPipelineScheduleToJsonText(back, g) == text,
                  "the symmetric writer's output does not read back to itself");
    fuzz::Require(JsonTopLevelFormat(in.text, "fuzz.json") == "pipeline-symmetric",
                  "JsonTopLevelFormat misses the format of a document that reads");
    const PipelineSchedule expanded = ExpandSymmetricPipelineSchedule(s, g);
    const std::string plain = PipelineScheduleToJsonText(expanded, g);
    const LoadedSchedule loaded = LoadScheduleText(g, in.text, "fuzz.json");
    const auto* as_loaded = std::get_if<SymmetricPipelineSchedule>(&loaded.value);
    fuzz::Require(
        as_loaded != nullptr &&
            PipelineScheduleToJsonText(ExpandSymmetricPipelineSchedule(*as_loaded, g), g) == plain,
        "the consumers' loader reads another schedule");
    fuzz::Require(cli::VerifyResultJson(VerifyLoadedSchedule(g, loaded)).dump() ==
                      cli::VerifyResultJson(VerifyScheduleText(g, in.text, "fuzz.json")).dump(),
                  "the loaded schedule checks differently from its text");
    const PipelineCheckReport r = CheckPipelineSchedule(g, expanded);
    const VerifyResult v = VerifyScheduleText(g, plain, "<expanded>");
    fuzz::Require(
        v.ok == r.ok && cli::VerifyResultJson(v).dump() ==
                            [&] {
                              nlohmann::json j = cli::PipelineCheckReportJson(r);
                              j["collective"] = CollectiveName(expanded.collective);
                              j["verdict"] = PipelineVerdictName(r.verdict);
                              return j.dump();
                            }(),
        "the expansion checks differently in memory and from its written text");
  });
  return 0;
}
