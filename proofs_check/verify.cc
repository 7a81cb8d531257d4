#include "proofs_check/verify.h"

#include <sstream>

#include "graphs/input_error.h"
#include "graphs/topology_io.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth {

using nlohmann::json;

namespace {

VerifyResult Verify(const Topology& g, const json& schedule, const std::string& file,
                    const VerifyOptions& options, StreamedPipelineTrees* streamed) {
  if (!schedule.is_object()) {
    throw InputError(file, "top level",
                     std::string("expected a JSON object, got ") + schedule.type_name());
  }
  auto it = schedule.find("format");
  if (it == schedule.end() || !it->is_string()) {
    const char* kFormats = "(\"steps\", \"steps-compact\", \"pipeline\" or \"pipeline-symmetric\")";
    if (it == schedule.end()) {
      throw InputError(file, "top level", std::string("missing field 'format' ") + kFormats);
    }
    throw InputError(file, "format",
                     std::string("must be a string ") + kFormats + ", got " + it->dump());
  }
  VerifyResult result;
  result.format = it->get<std::string>();
  if (result.format == "steps" || result.format == "steps-compact") {
    StepCheckOptions o;
    o.check_bandwidth_optimal = options.check_bandwidth_optimal;
    o.check_bfb = options.check_bfb;
    o.check_no_duplicates = options.check_no_duplicates;
    o.max_errors = options.max_errors;
    StepCheckReport r;
    Collective collective = Collective::kAllgather;
    try {
      if (result.format == "steps") {
        StepSchedule s = StepScheduleFromJson(schedule, g, file);
        r = CheckStepSchedule(g, s, o);
        collective = s.collective;
      } else {
        CompactStepSchedule s = CompactStepScheduleFromJson(schedule, g, file);
        r = CheckStepSchedule(g, s, o);
        collective = s.collective;
      }
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError(file, e.item(), e.problem());  // a checker limit: name the file
    }
    result.ok = r.ok;
    result.verdict = r.verdict();
    result.report = r.ToJson();
    result.report["format"] = result.format;
    result.report["collective"] = CollectiveName(collective);
  } else if (result.format == "pipeline" || result.format == "pipeline-symmetric") {
    if (options.check_bfb || options.check_bandwidth_optimal || options.check_no_duplicates) {
      throw InputError("<args>", "options",
                       "--bw-optimal, --bfb and --no-duplicates apply to \"steps\" schedules; a "
                       "pipeline schedule's optimality is certified by its bottleneck_cut");
    }
    PipelineCheckReport r;
    Collective collective = Collective::kAllgather;
    if (result.format == "pipeline") {
      PipelineSchedule s = PipelineScheduleFromJson(schedule, g, file, streamed);
      r = CheckPipelineSchedule(g, s, options.max_errors);
      collective = s.collective;
    } else {
      SymmetricPipelineSchedule s = SymmetricPipelineScheduleFromJson(schedule, g, file);
      r = CheckSymmetricPipelineSchedule(g, s, options.max_errors);
      collective = s.collective;
    }
    result.ok = r.ok;
    result.verdict = r.verdict;
    result.report = r.ToJson();
    result.report["format"] = result.format;
    result.report["collective"] = CollectiveName(collective);
  } else {
    throw InputError(file, "format",
                     "unknown schedule format \"" + result.format +
                         "\" (expected \"steps\", \"steps-compact\", \"pipeline\" or "
                         "\"pipeline-symmetric\")");
  }
  result.report["verdict"] = ScheduleVerdictName(result.verdict);
  return result;
}

}  // namespace

const char* ScheduleVerdictName(const ScheduleVerdict& v) {
  if (const StepVerdict* s = std::get_if<StepVerdict>(&v)) return StepVerdictName(*s);
  return PipelineVerdictName(std::get<PipelineVerdict>(v));
}

VerifyResult VerifyScheduleJson(const Topology& g, const json& schedule, const std::string& file,
                                const VerifyOptions& options) {
  return Verify(g, schedule, file, options, nullptr);
}

VerifyResult VerifyScheduleText(const Topology& g, const std::string& text, const std::string& file,
                                const VerifyOptions& options) {
  StreamedPipelineTrees trees;
  const json doc = ParseJsonText(text, file, PipelineTreeStreamHook(g, file, &trees));
  return Verify(g, doc, file, options, &trees);
}

VerifyResult VerifyScheduleFile(const Topology& g, const std::string& path, const std::string& file,
                                const VerifyOptions& options) {
  StreamedPipelineTrees trees;
  const json doc = ParseJsonFile(path, file, PipelineTreeStreamHook(g, file, &trees));
  return Verify(g, doc, file, options, &trees);
}

std::string VerifyResult::Text() const {
  std::ostringstream o;
  auto s = [](const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  const json& r = report;
  o << "verdict    " << ScheduleVerdictName(verdict) << "\n";
  o << "format     " << format << " (" << s(r.value("collective", json(""))) << ")\n";
  if (format == "steps" || format == "steps-compact") {
    o << "T_L        " << s(r["tl"]) << " steps\n";
    o << "T_B        " << s(r["tb"]) << " shard units (M/N per unit bandwidth)\n";
    if (!r["bandwidth_lower_bound"].is_null()) {
      o << "T_B bound  " << s(r["bandwidth_lower_bound"]) << " ((N-1)/N · M/B, Thm 6)\n";
    }
  } else {
    const bool bcast = r.value("collective", json("")) == CollectiveName(Collective::kBroadcast);
    o << "ratio      " << s(r["ratio"])
      << (bcast ? " (T_B in units of M)\n" : " (T_B in units of M/N)\n");
    if (!r["cut_ratio"].is_null()) o << "cut ratio  " << s(r["cut_ratio"]) << " (bottleneck cut)\n";
    if (r.value("fixed_k_certified", false)) {
      o << "fixed k    no schedule with k trees per root has a smaller ratio (fixed_k_cut)\n";
    }
  }
  const json& errors = r["errors"];
  if (!errors.empty()) {
    o << "errors     " << s(r["num_violations"]) << " violation(s); first " << errors.size()
      << ":\n";
    for (const json& e : errors) o << "  " << s(e) << "\n";
  }
  return o.str();
}

}  // namespace collsynth
