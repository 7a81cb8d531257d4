// The fast reader of "steps" schedule text (docs/formats.md; docs/performance.md, "A fast steps
// path"): what `verify` and the output check of `bfb`, `baseline` and `schedule expand` read a
// "steps" file with, before any JSON tree is built. A BFB hypercube(10) schedule is 114 MB
// of "steps" text with 1,077,248 sends; through the JSON reader (nlohmann's tree, then
// StepScheduleFromJson) its read-back took most of `bfb`'s time and 1.4 GB.
//
// StepScheduleFromStepsText reads the subset of JSON that collsynth's writers produce: a
// top-level object whose "sends" is an array of objects with exactly the members "source",
// "chunk", "from", "to" and "step", node names and endpoints as strings of printable ASCII
// without escapes, endpoints also as unsigned integers, steps as unsigned integers of at most
// nine digits, any JSON whitespace between tokens. Every other top-level member (the header
// and producer metadata) is handed to the JSON reader (ParseJsonText) value by value and read
// by StepScheduleFromJson, so the header has the plain read's rules. Anything outside that
// subset, and anything the plain read would refuse, gives nullopt: the caller then reads the
// text with the JSON reader (schedules/schedule_file.h), which names the problem. So the
// schedule returned is the plain read's (ParseJsonText + StepScheduleFromJson) and a
// malformed file gets the plain read's error. Never throws InputError; O(size of the text),
// memory the schedule plus the caches of distinct names and endpoints.
//
// FlatStepScheduleFromStepsText is the same reader giving the flat form
// (flat_step_schedule.h: each distinct endpoint text parsed once, no Rational per endpoint),
// what a check reads (proofs_check/verify.h); StepScheduleFromStepsText is StepsFromFlat of it
// with keep_extra. Without keep_extra the producer metadata (top-level members outside the
// contract) is read with the same rules (ParseJsonText) but not kept: `extra` is empty, as a
// check does not read it.
#ifndef COLLSYNTH_SCHEDULES_STEPS_TEXT_READER_H_
#define COLLSYNTH_SCHEDULES_STEPS_TEXT_READER_H_

#include <optional>
#include <streambuf>
#include <string>
#include <string_view>

#include "graphs/topology.h"
#include "schedules/flat_step_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth {

std::optional<FlatStepSchedule> FlatStepScheduleFromStepsText(std::string_view text,
                                                              const Topology& g,
                                                              const std::string& file,
                                                              bool keep_extra = true);
std::optional<StepSchedule> StepScheduleFromStepsText(std::string_view text, const Topology& g,
                                                      const std::string& file);

// The value of the top-level "format" member when it is a string of printable ASCII without
// escapes, found by scanning the bytes (no JSON tree, no validation): for choosing a reader
// before reading a file whole, never for accepting one. Stops at that member; nullopt when the
// input ends first or is not an object. O(bytes up to the member), O(1) memory.
std::optional<std::string> ScanTopLevelFormat(std::streambuf& in);
std::optional<std::string> ScanTopLevelFormat(std::string_view text);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_STEPS_TEXT_READER_H_
