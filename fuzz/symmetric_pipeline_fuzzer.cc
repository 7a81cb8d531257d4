// libFuzzer target: "pipeline-symmetric" schedules (SymmetricPipelineScheduleFromJson,
// docs/formats.md) against one of the fixed topologies (fuzz_common.h). A schedule that reads must
// write back to a document that reads to the same schedule (the writer's output is a fixed point);
// its expansion must be what the consumers' helper (ExpandedPipelineScheduleText) produces from the
// input text, and the plain checker must give the same report on the expansion in memory and on
// its written text read back the way `verify` reads it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz/fuzz_common.h"
#include "graphs/topology_io.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/verify.h"
#include "schedules/pipeline_schedule.h"
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
    const std::optional<std::string> helper = ExpandedPipelineScheduleText(g, in.text, "fuzz.json");
    fuzz::Require(helper.has_value() && *helper == plain,
                  "ExpandedPipelineScheduleText differs from the expansion");
    const PipelineCheckReport r = CheckPipelineSchedule(g, expanded);
    const VerifyResult v = VerifyScheduleText(g, plain, "<expanded>");
    fuzz::Require(
        v.ok == r.ok && v.report.dump() ==
                            [&] {
                              nlohmann::json j = r.ToJson();
                              j["collective"] = CollectiveName(expanded.collective);
                              j["verdict"] = PipelineVerdictName(r.verdict);
                              return j.dump();
                            }(),
        "the expansion checks differently in memory and from its written text");
  });
  return 0;
}
