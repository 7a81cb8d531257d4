#include "proofs_check/verify.h"

#include <sstream>

#include "core/input_error.h"
#include "graphs/topology_io.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/schedule_file.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth {

using nlohmann::json;

namespace {

// The checker of the loaded format, on the loaded value.
struct Checker {
  const Topology& g;
  const VerifyOptions& options;
  const std::string& file;
  VerifyResult* result;

  StepCheckOptions StepOptions() const {
    StepCheckOptions o;
    o.check_bandwidth_optimal = options.check_bandwidth_optimal;
    o.check_bfb = options.check_bfb;
    o.check_no_duplicates = options.check_no_duplicates;
    o.max_errors = options.max_errors;
    return o;
  }
  template <typename S>
  void Steps(const S& s) {
    StepCheckReport r;
    try {
      r = CheckStepSchedule(g, s, StepOptions());
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError(file, e.item(), e.problem());  // a checker limit: name the file
    }
    result->ok = r.ok;
    result->verdict = r.verdict();
    result->report = r.ToJson();
  }
  void Pipeline(const PipelineCheckReport& r) {
    result->ok = r.ok;
    result->verdict = r.verdict;
    result->report = r.ToJson();
  }
  void RefuseStepOptions() const {
    if (options.check_bfb || options.check_bandwidth_optimal || options.check_no_duplicates) {
      throw InputError("<args>", "options",
                       "--bw-optimal, --bfb and --no-duplicates apply to \"steps\" schedules; a "
                       "pipeline schedule's optimality is certified by its bottleneck_cut");
    }
  }
  void operator()(const StepSchedule& s) { Steps(s); }
  void operator()(const CompactStepSchedule& s) { Steps(s); }
  void operator()(const PipelineSchedule& s) {
    RefuseStepOptions();
    Pipeline(CheckPipelineSchedule(g, s, options.max_errors));
  }
  void operator()(const SymmetricPipelineSchedule& s) {
    RefuseStepOptions();
    Pipeline(CheckSymmetricPipelineSchedule(g, s, options.max_errors));
  }
};

}  // namespace

VerifyResult VerifyLoadedSchedule(const Topology& g, const LoadedSchedule& schedule,
                                  const VerifyOptions& options) {
  VerifyResult result;
  result.format = schedule.Format();
  std::visit(Checker{g, options, schedule.file, &result}, schedule.value);
  result.report["format"] = result.format;
  result.report["collective"] = CollectiveName(schedule.collective());
  result.report["verdict"] = ScheduleVerdictName(result.verdict);
  return result;
}

std::string VerifyResult::FirstError() const {
  const auto it = report.find("errors");
  if (it != report.end() && it->is_array() && !it->empty() && (*it)[0].is_string()) {
    return (*it)[0].get<std::string>();
  }
  return ScheduleVerdictName(verdict);
}

const char* ScheduleVerdictName(const ScheduleVerdict& v) {
  if (const StepVerdict* s = std::get_if<StepVerdict>(&v)) return StepVerdictName(*s);
  return PipelineVerdictName(std::get<PipelineVerdict>(v));
}

VerifyResult VerifyScheduleJson(const Topology& g, const json& schedule, const std::string& file,
                                const VerifyOptions& options) {
  return VerifyLoadedSchedule(g, LoadScheduleJson(g, schedule, file), options);
}

VerifyResult VerifyScheduleText(const Topology& g, const std::string& text, const std::string& file,
                                const VerifyOptions& options) {
  return VerifyLoadedSchedule(g, LoadScheduleText(g, text, file), options);
}

VerifyResult VerifyScheduleFile(const Topology& g, const std::string& path, const std::string& file,
                                const VerifyOptions& options) {
  return VerifyLoadedSchedule(g, LoadScheduleFile(g, path, file), options);
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
    if (!r.value("height_hops", json()).is_null()) {
      o << "height     " << s(r["height_hops"]) << " links (lower bound "
        << s(r["height_lower_bound_hops"]) << ", the largest root-to-node distance)\n";
    }
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
