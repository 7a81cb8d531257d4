#include "cli/pipeline_repair.h"

#include <climits>
#include <variant>

#include "cli/pipeline_request.h"
#include "cli/schedule_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "core/stopwatch.h"
#include "proofs_check/pipeline_checker.h"
#include "schedules/schedule_file.h"
#include "solvers/pipeline/repair.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;
using VK = PipelineViolationKind;

// What the repair is for: a violation of these kinds does not make OLD bad input.
bool RepairableViolation(VK kind) {
  return kind == VK::kMissingLink || kind == VK::kOverloaded || kind == VK::kWrongRatio ||
         kind == VK::kBadCut || kind == VK::kCutMismatch || kind == VK::kFixedKCut ||
         kind == VK::kWrongHeight;
}

json BigIntJson(const BigInt& z) {
  return z <= 1000000000000LL ? json(static_cast<std::int64_t>(z)) : json(ToString(z));
}

json NodeNames(const Topology& g, const std::vector<int>& nodes) {
  json names = json::array();
  for (int v : nodes) names.push_back(g.node(v).name);
  return names;
}

// The summary (docs/cli.md "pipeline --from").
// `s` holds the written schedule's collective, ratio, U and k (its trees are freed before the
// read-back check); `trees` is how many it had.
json RepairSummary(const Topology& g, const RepairResult& r, const PipelineSchedule& s,
                   std::size_t trees, const PipelineCheckReport& rep, const OutputCheck& written,
                   const json& seconds) {
  const RepairStats& st = r.stats;
  json sum;
  sum["format"] = "pipeline";
  sum["collective"] = CollectiveName(s.collective);
  sum["method"] = RepairMethodName(r.method);
  if (r.method == RepairMethod::kFresh) sum["why_fresh"] = r.why_fresh;
  sum["old_ratio"] = RationalToJson(r.old_ratio);
  sum["ratio"] = RationalToJson(s.ratio);
  sum["optimal_ratio"] = RationalToJson(r.optimum.ratio);
  sum["U"] = RationalToJson(s.U);
  sum["k"] = BigIntJson(s.k);
  sum["verdict"] = PipelineVerdictName(rep.verdict);
  sum["certificate"] = {{"certified_by", rep.certified_by},
                        {"cut_ratio", rep.cut_ratio ? RationalToJson(*rep.cut_ratio) : json()},
                        {"cut_compute", r.optimum.cut_compute},
                        {"cut_bandwidth", RationalToJson(r.optimum.cut_bandwidth)},
                        {"bottleneck_cut", NodeNames(g, r.optimum.bottleneck_cut)},
                        {"optimum_computed", st.optimum_computed},
                        {"targets_tried", st.attempts}};
  sum["trees"] = {{"old", st.trees_old},           {"kept", st.trees_kept},
                  {"rerouted", st.trees_rerouted}, {"replaced", st.trees_replaced},
                  {"added", st.trees_added},       {"total", trees}};
  sum["routes"] = {
      {"broken", st.routes_broken}, {"removed", st.routes_removed}, {"added", st.routes_added}};
  sum["height_hops"] = rep.height_hops;
  sum["height_lower_bound_hops"] = rep.height_lower_bound_hops;
  sum["stage_seconds"] = seconds;
  AddOutputCheck(sum, written);
  return sum;
}

std::string RepairText(const json& sum, const std::string& output) {
  const json& t = sum["trees"];
  const json& rt = sum["routes"];
  const json& c = sum["certificate"];
  std::string text =
      sum["collective"].get<std::string>() + ": repaired (" + sum["method"].get<std::string>() +
      "): ratio " + sum["ratio"].get<std::string>() + " (was " +
      sum["old_ratio"].get<std::string>() + "), k = " + sum["k"].dump() + "; trees " +
      t["old"].dump() + " old: " + t["kept"].dump() + " kept, " + t["rerouted"].dump() +
      " rerouted, " + t["replaced"].dump() + " replaced by " + t["added"].dump() + "; routes " +
      rt["broken"].dump() + " broken, " + rt["removed"].dump() + " removed, " + rt["added"].dump() +
      " added; " + sum["verdict"].get<std::string>() + " by the cut of " + c["cut_compute"].dump() +
      " compute nodes, B+(S) = " + c["cut_bandwidth"].get<std::string>() + "; written to " +
      output + "\n";
  if (sum.contains("why_fresh")) {
    text += "fresh synthesis because: " + sum["why_fresh"].get<std::string>() + "\n";
  }
  return text;
}

}  // namespace

PipelineSchedule LoadRepairInput(const Topology& g, const PipelineRepairRequest& r) {
  LoadedSchedule loaded = LoadScheduleFile(g, r.from, r.from);
  auto* old = std::get_if<PipelineSchedule>(&loaded.value);
  if (!old) {
    throw InputError(
        r.from, "format",
        std::string("--from takes a plain \"pipeline\" schedule, got \"") + loaded.Format() + "\"");
  }
  if (r.collective && *r.collective != old->collective) {
    throw InputError(r.from, "collective",
                     std::string("is ") + CollectiveName(old->collective) +
                         ", but --collective asks for " + CollectiveName(*r.collective));
  }
  if (old->collective != Collective::kAllgather && old->collective != Collective::kReduceScatter) {
    throw InputError(r.from, "collective",
                     std::string("--from repairs allgather and reduce-scatter schedules, got ") +
                         CollectiveName(old->collective));
  }
  PipelineCheckReport rep = CheckPipelineSchedule(g, *old, INT_MAX);
  for (const PipelineViolation& v : rep.violations) {
    if (!RepairableViolation(v.kind)) {
      throw InputError(r.from, v.item, v.message + " (does not fit " + r.topology_file + ")");
    }
  }
  return std::move(*old);
}

CommandOutcome RunPipelineRepair(const Topology& g, const PipelineRepairRequest& r) {
  auto t_in = SteadyClock::now();
  PipelineSchedule old = LoadRepairInput(g, r);
  const double input_s = SecondsSince(t_in);
  RepairResult repaired = RepairPipelineSchedule(g, std::move(old), r.fresh);
  PipelineSchedule& s = repaired.schedule;
  s.extra["repair_method"] = RepairMethodName(repaired.method);
  s.extra["repair_old_ratio"] = ToString(repaired.old_ratio);
  ClaimMeasuredHeight(&s);
  auto t_check = SteadyClock::now();
  PipelineCheckReport rep = CheckPipelineSchedule(g, s);
  if (!rep.ok || rep.verdict != PipelineVerdict::kOptimalCertified) {
    return OutcomeFailed(
        "pipeline --from: the repaired schedule is not certified optimal, not "
        "written: " +
        (rep.errors.empty() ? std::string("no certificate") : rep.errors[0]));
  }
  const double check_s = SecondsSince(t_check);
  auto t_write = SteadyClock::now();
  double write_s = 0;
  // What the summary needs; the trees are released once written, before the read-back check
  // holds its own copy (as the plain path does, docs/performance.md "Plain pipeline path: where
  // the memory goes").
  PipelineSchedule head;
  head.collective = s.collective;
  head.ratio = s.ratio;
  head.U = s.U;
  head.k = s.k;
  const std::size_t trees = s.trees.size();
  OutputCheck written = WriteCheckedSchedule(
      g,
      [&](std::ostream& out) {
        WritePipelineScheduleJson(s, g, out);
        out << '\n';
      },
      [&] {
        s = PipelineSchedule();
        write_s = SecondsSince(t_write);
      },
      r.output, {}, SameFigures(rep));
  if (!written.ok) {
    return OutcomeFailed("pipeline --from: " + r.output + ": " + written.error +
                         " (nothing written)");
  }
  const RepairStats& st = repaired.stats;
  const json seconds = {{"input_check", input_s},
                        {"optimum", st.optimum_seconds},
                        {"repair", st.repair_seconds},
                        {"fresh", st.fresh_seconds},
                        {"check", check_s},
                        {"write", write_s},
                        {"output_check", written.seconds}};
  CommandOutcome outcome;
  outcome.json = RepairSummary(g, repaired, head, trees, rep, written, seconds);
  outcome.text = RepairText(outcome.json, r.output);
  return outcome;
}

}  // namespace collsynth::cli
