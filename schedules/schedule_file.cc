#include "schedules/schedule_file.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/json_io.h"
#include "schedules/steps_text_reader.h"

namespace collsynth {

using nlohmann::json;

namespace {

constexpr const char* kFormats =
    "\"steps\", \"steps-compact\", \"pipeline\", \"pipeline-symmetric\", \"flows\" or "
    "\"flows-symmetric\"";

LoadedSchedule Load(const Topology& g, const json& doc, const std::string& file,
                    StreamedPipelineTrees* streamed) {
  const std::string format = ScheduleFormatOf(doc, file);
  LoadedSchedule out;
  out.file = file;
  if (format == "steps") {
    out.value = StepScheduleFromJson(doc, g, file);
  } else if (format == "steps-compact") {
    out.value = CompactStepScheduleFromJson(doc, g, file);
  } else if (format == "pipeline") {
    out.value = PipelineScheduleFromJson(doc, g, file, streamed);
  } else if (format == "pipeline-symmetric") {
    out.value = SymmetricPipelineScheduleFromJson(doc, g, file);
  } else if (format == "flows") {
    out.value = FlowScheduleFromJson(doc, g, file);
  } else if (format == "flows-symmetric") {
    out.value = SymmetricFlowScheduleFromJson(doc, g, file);
  } else {
    throw InputError(file, "format",
                     "unknown schedule format \"" + format + "\" (expected " + kFormats + ")");
  }
  return out;
}

}  // namespace

const char* LoadedSchedule::Format() const {
  switch (value.index()) {
    case 0:
      return "steps";
    case 1:
      return "steps-compact";
    case 2:
      return "pipeline";
    case 3:
      return "pipeline-symmetric";
    case 4:
      return "flows";
    default:
      return "flows-symmetric";
  }
}

Collective LoadedSchedule::collective() const {
  return std::visit([](const auto& s) { return s.collective; }, value);
}

std::string ScheduleFormatOf(const json& doc, const std::string& file) {
  if (!doc.is_object()) {
    throw InputError(file, "top level",
                     std::string("expected a JSON object, got ") + doc.type_name());
  }
  auto it = doc.find("format");
  if (it == doc.end()) {
    throw InputError(file, "top level", std::string("missing field 'format' (") + kFormats + ")");
  }
  if (!it->is_string()) {
    std::string value = it->dump();
    if (value.size() > 40) value = value.substr(0, 37) + "...";
    throw InputError(file, "format",
                     std::string("must be a string (") + kFormats + "), got " + value);
  }
  return it->get<std::string>();
}

LoadedSchedule LoadScheduleJson(const Topology& g, const json& doc, const std::string& file) {
  return Load(g, doc, file, nullptr);
}

namespace {

// A "steps" text through the fast reader (steps_text_reader.h); nullopt when it declines.
std::optional<LoadedSchedule> FastSteps(const Topology& g, const std::string& text,
                                        const std::string& file) {
  std::optional<StepSchedule> s = StepScheduleFromStepsText(text, g, file);
  if (!s) return std::nullopt;
  LoadedSchedule out;
  out.file = file;
  out.value = std::move(*s);
  return out;
}

// Through the JSON reader (what names the problem of a malformed file).
LoadedSchedule LoadParsedText(const Topology& g, const std::string& text, const std::string& file) {
  StreamedPipelineTrees trees;
  const json doc = ParseJsonText(text, file, PipelineTreeStreamHook(g, file, &trees));
  return Load(g, doc, file, &trees);
}

// Whether the regular file at `path` looks like a "steps" schedule (its top-level "format"),
// to read it whole for the fast reader; anything else is read as it is parsed.
bool LooksLikeSteps(const std::string& path) {
  std::error_code ec;
  if (path == "-" || !std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  return in && ScanTopLevelFormat(*in.rdbuf()) == "steps";
}

}  // namespace

ScheduleForCheck LoadScheduleTextForCheck(const Topology& g, const std::string& text,
                                          const std::string& file) {
  if (ScanTopLevelFormat(text) == "steps") {
    if (std::optional<FlatStepSchedule> f = FlatStepScheduleFromStepsText(text, g, file, false))
      return std::move(*f);
  }
  return LoadParsedText(g, text, file);
}

ScheduleForCheck LoadScheduleFileForCheck(const Topology& g, const std::string& path,
                                          const std::string& file) {
  if (LooksLikeSteps(path)) {
    std::optional<FlatStepSchedule> f;
    {
      const std::string text = ReadTextFile(path);
      f = FlatStepScheduleFromStepsText(text, g, file, false);
      if (!f) return LoadParsedText(g, text, file);
    }  // the text is released before the schedule is checked
    return std::move(*f);
  }
  return LoadScheduleFile(g, path, file);
}

LoadedSchedule LoadScheduleText(const Topology& g, const std::string& text,
                                const std::string& file) {
  if (ScanTopLevelFormat(text) == "steps") {
    if (std::optional<LoadedSchedule> fast = FastSteps(g, text, file)) return std::move(*fast);
  }
  return LoadParsedText(g, text, file);
}

LoadedSchedule LoadScheduleFile(const Topology& g, const std::string& path,
                                const std::string& file) {
  if (LooksLikeSteps(path)) {
    // The same result and errors as parsing the file as it is read (ParseJsonFile's contract).
    std::optional<LoadedSchedule> fast;
    {
      const std::string text = ReadTextFile(path);
      fast = FastSteps(g, text, file);
      if (!fast) return LoadParsedText(g, text, file);
    }  // the text is released before the schedule is checked
    return std::move(*fast);
  }
  StreamedPipelineTrees trees;
  const json doc = ParseJsonFile(path, file, PipelineTreeStreamHook(g, file, &trees));
  return Load(g, doc, file, &trees);
}

std::string JsonTopLevelFormat(const std::string& text, const std::string& file) {
  struct Seen {};
  std::string format;
  bool seen = false;
  auto look = [&](const json& root) {
    if (!root.is_object()) return;
    auto it = root.find("format");
    if (it == root.end()) return;
    if (it->is_string()) format = it->get<std::string>();
    seen = true;
  };
  json doc;
  try {
    doc = ParseJsonText(text, file,
                        [&](const std::vector<std::string>&, json&, const json& root) -> bool {
                          look(root);
                          if (seen) throw Seen{};
                          return true;  // keep nothing: only "format" is wanted
                        });
  } catch (const Seen&) {
    return format;
  }
  look(doc);
  return format;
}

}  // namespace collsynth
