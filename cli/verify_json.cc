#include "cli/verify_json.h"

#include <variant>

#include "core/rational.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"

namespace collsynth::cli {

using nlohmann::json;

json StepCheckReportJson(const StepCheckReport& r) {
  json j;
  j["ok"] = r.ok;
  j["format"] = "steps";
  j["tl"] = r.tl;
  j["tb"] = ToString(r.tb);
  j["ratio"] = ToString(r.tb);  // T_B / (M/N): the seed-004 runtime ratio, in shard units
  j["errors"] = r.errors;
  j["num_violations"] = r.num_violations;
  json kinds = json::array();
  for (const StepViolation& v : r.violations) kinds.push_back(StepViolationKindName(v.kind));
  j["error_kinds"] = std::move(kinds);
  j["bandwidth_lower_bound"] =
      r.bandwidth_lower_bound ? json(ToString(*r.bandwidth_lower_bound)) : json(nullptr);
  if (r.bandwidth_optimal) j["bandwidth_optimal"] = *r.bandwidth_optimal;
  if (r.bfb) j["bfb"] = *r.bfb;
  if (r.no_duplicates) j["no_duplicates"] = *r.no_duplicates;
  return j;
}

json PipelineCheckReportJson(const PipelineCheckReport& r) {
  json j;
  j["ok"] = r.ok;
  j["format"] = "pipeline";
  j["verdict"] = PipelineVerdictName(r.verdict);
  j["tl"] = nullptr;            // a pipeline has no step count
  j["tb"] = ToString(r.ratio);  // T_B in units of M/N (of M for broadcast)
  j["ratio"] = ToString(r.ratio);
  j["cut_ratio"] = r.cut_ratio ? json(ToString(*r.cut_ratio)) : json(nullptr);
  j["certified_optimal"] = r.certified_optimal;
  j["certified_by"] = r.certified_by.empty() ? json(nullptr) : json(r.certified_by);
  j["fixed_k_certified"] = r.fixed_k_certified;
  j["height_hops"] = r.ok ? json(r.height_hops) : json(nullptr);
  j["height_lower_bound_hops"] = r.height_lower_bound_hops;
  j["errors"] = r.errors;
  j["num_violations"] = r.num_violations;
  json kinds = json::array();
  for (const PipelineViolation& v : r.violations)
    kinds.push_back(PipelineViolationKindName(v.kind));
  j["error_kinds"] = std::move(kinds);
  if (r.symmetric) {
    j["format"] = "pipeline-symmetric";
    j["format_checked"] = "pipeline-symmetric";
    j["num_generators"] = r.symmetric->generators;
    j["num_representatives"] = r.symmetric->representatives;
    j["group_order"] = r.symmetric->group_order ? json(*r.symmetric->group_order) : json(nullptr);
    j["link_orbits"] = r.symmetric->link_orbits ? json(*r.symmetric->link_orbits) : json(nullptr);
    if (r.symmetric->stabiliser_invariant) {  // case 2 only: case-1 reports keep their keys
      j["action"] = "stabiliser-invariant";
      j["stabiliser_generators"] = r.symmetric->stabiliser_generators
                                       ? json(*r.symmetric->stabiliser_generators)
                                       : json(nullptr);
    }
  }
  if (!r.phases.empty()) {
    json ph = json::array();
    for (const PipelineCheckReport& p : r.phases) ph.push_back(PipelineCheckReportJson(p));
    j["phases"] = std::move(ph);
  }
  return j;
}

json FlowCheckReportJson(const FlowCheckReport& r) {
  json j;
  j["ok"] = r.ok;
  j["format"] = "flows";
  j["verdict"] = FlowVerdictName(r.verdict);
  j["tl"] = nullptr;  // a flow routing has no steps
  j["tb"] = r.time ? json(ToString(*r.time)) : json(nullptr);
  j["time"] = j["tb"];
  j["claimed_time"] = ToString(r.claimed_time);
  j["bottleneck_link"] = r.bottleneck_link.empty() ? json(nullptr) : json(r.bottleneck_link);
  j["time_lower_bound"] = r.time_lower_bound ? json(ToString(*r.time_lower_bound)) : json(nullptr);
  j["optimal"] = r.optimal ? json(*r.optimal) : json(nullptr);
  j["pairs"] = r.pairs;
  j["paths"] = r.paths;
  j["errors"] = r.errors;
  j["num_violations"] = r.num_violations;
  if (r.link_orbits) j["link_orbits"] = *r.link_orbits;  // flows-symmetric only
  if (r.group_order) j["group_order"] = *r.group_order;
  return j;
}

json VerifyResultJson(const VerifyResult& r) {
  json j = std::visit([](const auto& report) { return CheckReportJson(report); }, r.report);
  j["format"] = r.format;
  j["collective"] = CollectiveName(r.collective);
  j["verdict"] = ScheduleVerdictName(r.verdict);
  return j;
}

}  // namespace collsynth::cli
