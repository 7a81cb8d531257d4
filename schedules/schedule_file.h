// One loader for every schedule format: a JSON schedule file ("steps", "steps-compact",
// "pipeline", "pipeline-symmetric", "flows", "flows-symmetric"; docs/formats.md) read once into one
// typed value. Every command that consumes a schedule (verify, export msccl|mscclpp|chakra,
// simulate, schedule expand) loads it here, has proofs_check/verify.h check that very value, and
// then acts on it: what is lowered or simulated is the object that was checked
// (docs/architecture.md, "Where a schedule is loaded, checked, acted on and written").
//
// A "pipeline" file is parsed with PipelineTreeStreamHook, so its JSON tree is never held
// whole: memory is the typed schedule plus one tree's JSON. Bad input throws
// InputError(file, item, problem): a document that is not an object, a "format" that is
// missing or not a string, an unknown format, anything the format's reader refuses. Never
// prints. Cost: that of the format's reader, O(size of the file).
#ifndef COLLSYNTH_SCHEDULES_SCHEDULE_FILE_H_
#define COLLSYNTH_SCHEDULES_SCHEDULE_FILE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/compact_schedule.h"
#include "schedules/flat_step_schedule.h"
#include "schedules/flow_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_flow_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth {

using ScheduleValue = std::variant<StepSchedule, CompactStepSchedule, PipelineSchedule,
                                   SymmetricPipelineSchedule, FlowSchedule, SymmetricFlowSchedule>;

struct LoadedSchedule {
  std::string file;  // the name used in messages ("<stdin>" for "-")
  ScheduleValue value;

  // "steps", "steps-compact", "pipeline", "pipeline-symmetric", "flows" or "flows-symmetric".
  const char* Format() const;
  Collective collective() const;
};

// From the file at `path` ("-" is stdin), parsed as it is read (ParseJsonFile); errors while
// parsing and reading name `file` (errors of the file itself, such as a missing file, name
// `path`). A regular file whose top-level "format" is "steps" is read whole and through the
// fast reader (steps_text_reader.h: no JSON tree for the sends), and through the JSON reader
// only when that declines; same schedule and same errors either way.
LoadedSchedule LoadScheduleFile(const Topology& g, const std::string& path,
                                const std::string& file);
// From text already read (a "steps" text through the fast reader as above); `file` names it in
// messages.
LoadedSchedule LoadScheduleText(const Topology& g, const std::string& text,
                                const std::string& file);
// What a check reads (proofs_check/verify.h, VerifyScheduleText / VerifyScheduleFile): a
// "steps" document that the fast reader reads, in the flat form (flat_step_schedule.h: no
// Rational per endpoint; docs/performance.md, "A fast steps path"), else the loaded value as
// above. Same schedule (StepsFromFlat; without the producer metadata, which a check does not
// read) and same errors as LoadScheduleText / LoadScheduleFile.
using ScheduleForCheck = std::variant<LoadedSchedule, FlatStepSchedule>;
ScheduleForCheck LoadScheduleTextForCheck(const Topology& g, const std::string& text,
                                          const std::string& file);
ScheduleForCheck LoadScheduleFileForCheck(const Topology& g, const std::string& path,
                                          const std::string& file);
// From a parsed document (no streaming).
LoadedSchedule LoadScheduleJson(const Topology& g, const nlohmann::json& doc,
                                const std::string& file);

// The top-level "format" string of a JSON document ("" when absent or not a string), for
// dispatching on the format: parses only up to the first array element after the "format"
// member and keeps no array element (so a plain pipeline schedule written by collsynth costs
// one tree's parse). InputError on malformed JSON before that point.
std::string JsonTopLevelFormat(const std::string& text, const std::string& file);

// The value of the top-level "format" member of `doc`: InputError(file, "top level" or
// "format", ...) when `doc` is not an object or "format" is missing or not a string.
std::string ScheduleFormatOf(const nlohmann::json& doc, const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_SCHEDULE_FILE_H_
