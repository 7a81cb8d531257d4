#include "schedules/schedule_file.h"

#include <string>
#include <utility>
#include <vector>

#include "graphs/input_error.h"
#include "graphs/topology_io.h"

namespace collsynth {

using nlohmann::json;

namespace {

constexpr const char* kFormats =
    "\"steps\", \"steps-compact\", \"pipeline\" or \"pipeline-symmetric\"";

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
    default:
      return "pipeline-symmetric";
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

LoadedSchedule LoadScheduleText(const Topology& g, const std::string& text,
                                const std::string& file) {
  StreamedPipelineTrees trees;
  const json doc = ParseJsonText(text, file, PipelineTreeStreamHook(g, file, &trees));
  return Load(g, doc, file, &trees);
}

LoadedSchedule LoadScheduleFile(const Topology& g, const std::string& path,
                                const std::string& file) {
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
