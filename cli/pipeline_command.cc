// collsynth pipeline FILE [--collective allgather|reduce-scatter|allreduce|broadcast]
//                         [--root NAME] [--fixed-k K] [--min-height | --height H]
//                         [--from OLD.json] -o SCHEDULE.json [--json]
//   Bandwidth-optimal pipeline schedule (seed 004 §2, §2.4, App. A-B). The schedule is
//   checked by proofs_check's CheckPipelineSchedule before it is written; a failed check
//   writes nothing and exits 1. There is no way to skip the check.
#include <chrono>
#include <iostream>
#include <memory>

#include "cli/command_registry.h"
#include "cli/height_choice.h"
#include "cli/pipeline_repair.h"
#include "cli/pipeline_request.h"
#include "cli/schedule_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "core/stopwatch.h"
#include "graphs/failed_links.h"
#include "graphs/perm_group_schreier_sims.h"
#include "graphs/properties.h"
#include "graphs/symmetry.h"
#include "graphs/topology_io.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "schedules/collective.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline/symmetric_overrides.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct PipelineArgs {
  std::string file;
  std::string collective;  // "" = allgather (or, with --from, OLD's)
  std::string root;
  std::string fixed_k;
  std::string output;
  std::string packing = "batch";
  std::string splitting = "whole";
  bool json = false;
  bool symmetric = false;
  bool no_symmetric = false;
  bool whole_group = false;  // --whole-group: case 2 of docs/symmetry.md
  bool min_height = false;   // --min-height (cli/height_choice.h)
  std::string height;        // --height H
  std::string from;          // --from OLD (cli/pipeline_repair.h)
  bool overrides = false;    // --overrides: symmetric part of the intact topology + overrides
};

// The symmetric path (docs/symmetry.md, docs/cli.md "Symmetric schedules"). Returns the exit code,
// or std::nullopt when no symmetric schedule was found (`*why` says why; the caller then runs the
// plain path).
int WriteSymmetric(const PipelineArgs& args, const Topology& g, SymmetricPipelineResult& built,
                   double build_s, const json& overrides);

std::optional<int> RunSymmetric(const PipelineArgs& args, const Topology& g, Collective collective,
                                bool whole_group, std::string* why, bool* no_regular_group) {
  auto t0 = std::chrono::steady_clock::now();
  SymmetricPipelineOptions options;
  options.whole_group = whole_group;
  SymmetricPipelineResult built = BuildSymmetricPipelineSchedule(g, collective, options);
  const double build_s = SecondsSince(t0);
  if (!built.schedule) {
    *why = built.why;
    *no_regular_group = built.no_regular_group;
    return std::nullopt;
  }
  return WriteSymmetric(args, g, built, build_s, json());
}

// The symmetric schedule built: checked, written, read back checked and summarised (with the
// `overrides` member when it has overrides, docs/cli.md "Failed links: --overrides").
int WriteSymmetric(const PipelineArgs& args, const Topology& g, SymmetricPipelineResult& built,
                   double build_s, const json& overrides) {
  SymmetricPipelineSchedule& s = *built.schedule;
  ClaimMeasuredHeight(&s);  // the claim the checker measures
  auto t_check = std::chrono::steady_clock::now();
  PipelineCheckReport rep = CheckSymmetricPipelineSchedule(g, s);
  if (!rep.ok) {
    PrintFailure(std::string("pipeline: the symmetric schedule failed the checker, not written: ") +
                 (rep.errors.empty() ? "?" : rep.errors[0]));
    return kExitCheckFailed;
  }
  const ExpectedCheck expected = SameFigures(rep);
  const double check_s = SecondsSince(t_check);
  auto t_write = std::chrono::steady_clock::now();
  std::string text = SymmetricPipelineScheduleToJsonText(s, g) + "\n";
  const double write_s = SecondsSince(t_write);
  const std::size_t bytes = text.size();
  OutputCheck written = WriteCheckedSchedule(g, std::move(text), args.output, {}, expected);
  if (!written.ok) {
    PrintFailure("pipeline: " + args.output + ": " + written.error + " (nothing written)");
    return kExitCheckFailed;
  }
  std::int64_t trees = 0;
  const std::vector<SymmetricPipelineSchedule> self = {s};
  const SymmetricPipelineSchedule& first = s.phases.empty() ? s : s.phases.back();
  for (const SymmetricPipelineSchedule& phase : s.phases.empty() ? self : s.phases) {
    for (const SymmetricRepresentative& rep_trees : phase.representatives) {
      trees += static_cast<std::int64_t>(rep_trees.trees.size());
    }
  }
  json sum;
  sum["format"] = "pipeline-symmetric";
  sum["collective"] = CollectiveName(s.collective);
  sum["ratio"] = RationalToJson(s.ratio);
  sum["optimal_ratio"] = RationalToJson(built.optimal_ratio);
  sum["U"] = RationalToJson(s.U);
  sum["k"] = s.k <= 1000000000000LL ? json(static_cast<std::int64_t>(s.k)) : json(ToString(s.k));
  sum["trees"] = trees;
  sum["verdict"] = PipelineVerdictName(rep.verdict);
  sum["height_hops"] = rep.height_hops;  // measured by the checker (docs/formats.md "Height")
  sum["height_lower_bound_hops"] = rep.height_lower_bound_hops;
  sum["symmetric"] = {{"used", true},
                      {"group_order", built.group_order},
                      {"generators", first.generators.size()},
                      {"representatives", first.representatives.size()},
                      {"link_orbits", built.link_orbits},
                      {"column_generation_rounds", built.stats.column_generation_rounds},
                      {"columns", built.stats.columns}};
  // Case 2 only, so that case 1's summary keeps its fields.
  if (first.stabiliser_invariant) sum["symmetric"]["action"] = "stabiliser-invariant";
  if (!overrides.is_null()) sum["overrides"] = overrides;
  sum["max_flows"] = {{"optimum", built.stats.optimum_max_flows}, {"splitting", 0}, {"packing", 0}};
  sum["seconds"] = build_s;
  sum["stage_seconds"] = {{"group", built.stats.group_seconds},
                          {"optimum", built.stats.optimum_seconds},
                          {"packing", built.stats.packing_seconds},
                          {"check", check_s},
                          {"write", write_s},
                          {"output_check", written.seconds}};
  sum["bytes"] = bytes;
  AddOutputCheck(sum, written);
  if (args.output == "-") {
    std::cerr << sum.dump() << "\n";
  } else if (args.json) {
    std::cout << sum.dump() << "\n";
  } else {
    std::cout << CollectiveName(s.collective) << ": ratio " << ToString(s.ratio) << " (optimum "
              << ToString(built.optimal_ratio) << "), U = " << ToString(s.U)
              << ", k = " << ToString(s.k) << ", " << trees << " distinct trees for "
              << first.representatives.size() << " representative(s) of a group of order "
              << built.group_order << "; " << PipelineVerdictName(rep.verdict) << "; height "
              << rep.height_hops << " links (lower bound " << rep.height_lower_bound_hops
              << "); written to " << args.output << " (pipeline-symmetric)\n";
  }
  return kExitOk;
}

// The topology as every command reads it (degraded when the file lists failed links). With
// --whole-group and failed links, the degraded topology declares no automorphisms; those of the
// intact topology's declared ones that map the failed set onto itself (the set-wise stabiliser,
// docs/symmetry.md "Failed links: the set-wise stabiliser") are automorphisms of it, and case 2
// runs on them. When there are none (or the group computation spends its budget), *why says so
// and the plain path runs.
Topology ReadPipelineTopology(const PipelineArgs& a, std::string* why) {
  TopologyWithFailures read = ReadTopologyWithFailures(a.file);
  if (read.failed.empty()) return std::move(read.intact);
  Topology g = DegradedTopology(read);
  const std::vector<std::vector<int>>& declared = read.intact.automorphisms();
  if (!a.whole_group || declared.empty()) return g;
  for (std::size_t i = 0; i < declared.size(); ++i) {
    AutomorphismCheck check = CheckAutomorphism(read.intact, declared[i]);
    if (!check.ok) {
      throw InputError(a.file, "automorphisms[" + std::to_string(i) + "]",
                       "not an automorphism of the intact topology: " + check.problem);
    }
  }
  const FailedLinkStabiliser f = StabiliseFailedLinks(read, declared);
  if (!f.group_complete || !f.stabiliser.complete) {
    *why = "the set-wise stabiliser of the failed links was not computed within its budget";
  } else if (f.stabiliser.generators.empty()) {
    *why = "no declared automorphism maps the failed links onto themselves";
  } else {
    g.set_automorphisms(f.stabiliser.generators);
  }
  return g;
}

// --overrides (docs/symmetry.md "Failed links: a symmetric part plus overrides"): the symmetric
// schedule of the intact topology, its routes across failed links rerouted, checked on the
// degraded topology without expanding. No symmetric schedule, or an edge that cannot be
// rerouted: the plain path on the degraded topology, with the reason.
int RunWithOverrides(const PipelineArgs& a, PipelineOptions opt);

void AddPipelineOptions(CLI::App* cmd, PipelineArgs* args) {
  cmd->add_option("file", args->file, "topology file (JSON or edge list)")->required();
  cmd->add_option("--collective", args->collective,
                  "allgather (default), reduce-scatter, allreduce, broadcast");
  cmd->add_option("--root", args->root, "broadcast root (default: first compute node)");
  cmd->add_option("--fixed-k", args->fixed_k, "exactly K trees per root (seed 004 §2.4)");
  cmd->add_option("-o,--output", args->output, "schedule JSON file ('-' = stdout)")->required();
  cmd->add_option(
      "--packing", args->packing,
      "Algorithm 2 variant: batch (default; greedy spanning proposals certified by condition (3)) "
      "or arc-by-arc (one Theorem-12 max-flow per tree arc, as in the paper)");
  cmd->add_option(
      "--splitting", args->splitting,
      "Algorithm 1 variant: whole (default; each switch first split off whole along a rotation "
      "pairing certified by one rooted min cut) or pairwise (Theorem 8 pair by pair, as in the "
      "paper)");
  cmd->add_flag("--json", args->json, "print the summary as one JSON object");
  cmd->add_flag("--symmetric", args->symmetric,
                "write the compact pipeline-symmetric format (the default when the topology "
                "declares automorphisms; allgather and reduce-scatter)");
  cmd->add_flag("--whole-group", args->whole_group,
                "symmetric path with every declared generator, not only a subgroup acting "
                "regularly: one representative per orbit of the whole group, trees invariant "
                "under each representative's stabiliser (docs/symmetry.md, case 2)");
  cmd->add_flag("--no-symmetric", args->no_symmetric,
                "ignore declared automorphisms: the plain pipeline format");
  cmd->add_flag("--min-height", args->min_height,
                "among the checked schedules of least ratio, one of least height "
                "(docs/min_height.md)");
  cmd->add_option("--height", args->height,
                  "the best ratio among the checked schedules of height <= H links");
  cmd->add_flag("--overrides", args->overrides,
                "FILE lists failed links: the symmetric schedule of the intact topology plus "
                "overrides for the routes the failures break, in one pipeline-symmetric file "
                "checked on the degraded topology (docs/symmetry.md)");
  cmd->add_option("--from", args->from,
                  "repair OLD (a plain allgather or reduce-scatter schedule, optimal before "
                  "some links failed) for FILE: keep, reroute or replace its trees "
                  "(docs/repair.md)");
}

// What the plain path's checker measured, for the summary.
struct PlainCheck {
  PipelineVerdict verdict = PipelineVerdict::kInvalid;
  bool fixed_k_certified = false;  // by the checker, from the schedule's fixed_k_cut
  std::int64_t height = 0, height_lower_bound = 0;
};

// The summary of a plain schedule that was written and read back checked (docs/cli.md
// "pipeline"): printed as one JSON object (on stderr when the schedule went to stdout) or as
// one line.
void PrintPlainSummary(const PipelineArgs& a, const PipelineSchedule& s,
                       const PipelineBuildResult& built, const PlainCheck& check,
                       const std::string& symmetric_why, const OutputCheck& written, double build_s,
                       double check_s, double write_s) {
  json sum;
  sum["format"] = "pipeline";
  if (!symmetric_why.empty()) sum["symmetric"] = {{"used", false}, {"why", symmetric_why}};
  sum["collective"] = CollectiveName(s.collective);
  sum["ratio"] = RationalToJson(s.ratio);
  sum["optimal_ratio"] = RationalToJson(built.optimal_ratio);
  sum["U"] = RationalToJson(s.U);
  sum["k"] = s.k <= 1000000000000LL ? json(static_cast<std::int64_t>(s.k)) : json(ToString(s.k));
  sum["trees"] = built.stats.trees;
  sum["verdict"] = PipelineVerdictName(check.verdict);
  sum["height_hops"] = check.height;  // measured by the checker (docs/formats.md "Height")
  sum["height_lower_bound_hops"] = check.height_lower_bound;
  if (built.fixed_k) {
    sum["theorem15_bound"] = RationalToJson(built.fixed_k->theorem15_bound);
    sum["fixed_k_lower_bound"] = RationalToJson(built.fixed_k->lower_bound);
    sum["fixed_k_certified"] = check.fixed_k_certified;
  }
  sum["max_flows"] = {{"optimum", built.stats.optimum_max_flows},
                      {"splitting", built.stats.splitting_max_flows},
                      {"packing", built.stats.packing_max_flows}};
  sum["splitting"] = {{"mode", a.splitting},
                      {"whole_switches", built.stats.split_whole_switches},
                      {"rooted_min_cuts", built.stats.split_rooted_cuts},
                      {"splits", built.stats.split_operations}};
  sum["packing"] = {{"mode", a.packing},
                    {"condition_checks", built.stats.packing_condition_checks},
                    {"rejected_proposals", built.stats.packing_rejected_proposals},
                    {"certified_arcs", built.stats.packing_batch_arcs}};
  sum["seconds"] = build_s;  // optimum + splitting + packing (stage times below)
  sum["stage_seconds"] = {{"optimum", built.stats.optimum_seconds},
                          {"splitting", built.stats.splitting_seconds},
                          {"packing", built.stats.packing_seconds},
                          {"check", check_s},
                          {"write", write_s},
                          {"output_check", written.seconds}};
  AddOutputCheck(sum, written);
  if (a.output == "-") {
    std::cerr << sum.dump() << "\n";
    return;
  }
  if (a.json) {
    std::cout << sum.dump() << "\n";
    return;
  }
  std::cout << CollectiveName(s.collective) << ": ratio " << ToString(s.ratio) << " (optimum "
            << ToString(built.optimal_ratio) << "), U = " << ToString(s.U)
            << ", k = " << ToString(s.k) << ", " << built.stats.trees << " distinct trees; "
            << PipelineVerdictName(check.verdict) << "; height " << check.height
            << " links (lower bound " << check.height_lower_bound << ")";
  if (built.fixed_k) {
    std::cout << "; fixed k: "
              << (check.fixed_k_certified
                      ? "best for this k (certified by the fixed-k cut)"
                      : "lower bound U*/k = " + ToString(built.fixed_k->lower_bound));
  }
  std::cout << "; written to " << a.output << "\n";
}

// The plain path (seed 004 Algorithms 1-2): built, checked, written and read back checked.
int RunPlain(const PipelineArgs& a, const Topology& g, const PipelineOptions& opt,
             const std::string& symmetric_why) {
  auto t0 = std::chrono::steady_clock::now();
  PipelineBuildResult built = BuildPipelineSchedule(g, opt);
  const double build_s = SecondsSince(t0);
  ClaimMeasuredHeight(&built.schedule);
  PlainCheck check;
  ExpectedCheck expected;
  auto t_check = std::chrono::steady_clock::now();
  {  // never written or reported unchecked
    PipelineCheckReport rep = CheckPipelineSchedule(g, built.schedule);
    if (!rep.ok) {
      PrintFailure(std::string("pipeline: the schedule failed the checker, not written: ") +
                   (rep.errors.empty() ? "?" : rep.errors[0]));
      return kExitCheckFailed;
    }
    check = {rep.verdict, rep.fixed_k_certified, rep.height_hops, rep.height_lower_bound_hops};
    expected = SameFigures(rep);
  }
  const double check_s = SecondsSince(t_check);
  auto t_write = std::chrono::steady_clock::now();
  // Keep what the summary needs; the text goes straight to the file (never held whole),
  // and the schedule is released before the read-back check of the written file, which
  // streams the file and holds its own copy of the schedule (docs/performance.md, "Plain
  // pipeline path: where the memory goes").
  PipelineSchedule s;
  s.collective = built.schedule.collective;
  s.ratio = built.schedule.ratio;
  s.U = built.schedule.U;
  s.k = built.schedule.k;
  double write_s = 0;
  OutputCheck written = WriteCheckedSchedule(
      g,
      [&](std::ostream& out) {
        WritePipelineScheduleJson(built.schedule, g, out);
        out << '\n';
      },
      [&] {
        built.schedule = PipelineSchedule();
        write_s = SecondsSince(t_write);
      },
      a.output, {}, expected);
  if (!written.ok) {
    PrintFailure("pipeline: " + a.output + ": " + written.error + " (nothing written)");
    return kExitCheckFailed;
  }
  PrintPlainSummary(a, s, built, check, symmetric_why, written, build_s, check_s, write_s);
  return kExitOk;
}

// --from: the repair of a schedule made before a failure (cli/pipeline_repair.h).
int RunRepair(const PipelineArgs& a, const Topology& g, const PipelineOptions& opt) {
  if (!a.fixed_k.empty() || a.symmetric || a.whole_group || a.min_height || !a.height.empty()) {
    throw InputError("<args>", "--from",
                     "cannot be combined with --fixed-k, --symmetric, --whole-group, --min-height "
                     "or --height");
  }
  PipelineRepairRequest r{a.file, a.from, a.output, std::nullopt, opt};
  if (!a.collective.empty()) r.collective = opt.collective;
  CommandOutcome outcome = RunPipelineRepair(g, r);
  if (outcome.ok && a.output == "-") {
    std::cerr << outcome.json.dump() << "\n";
    return kExitOk;
  }
  return PrintOutcome(outcome, a.json);
}

int RunPipeline(const PipelineArgs& a) {
  PipelineOptions opt = ParsePipelineOptions(a.collective.empty() ? "allgather" : a.collective,
                                             a.fixed_k, kCliPipelineOptionNames);
  if (a.packing == "arc-by-arc") {
    opt.packing.batch_certify = false;
  } else if (a.packing != "batch") {
    throw InputError("<args>", "--packing", "'" + a.packing + "' is not batch or arc-by-arc");
  }
  if (a.splitting == "pairwise") {
    opt.splitting.whole_switches = false;
  } else if (a.splitting != "whole") {
    throw InputError("<args>", "--splitting", "'" + a.splitting + "' is not whole or pairwise");
  }
  if (a.overrides) return RunWithOverrides(a, opt);
  std::string symmetric_why;  // why the symmetric path is not taken (the summary's `why`)
  Topology g = ReadPipelineTopology(a, &symmetric_why);
  SetPipelineTopology(g, a.file, a.root, kCliPipelineOptionNames, &opt);
  if (!a.from.empty()) return RunRepair(a, g, opt);
  if (a.min_height || !a.height.empty()) {  // cli/height_choice.h
    const bool other = opt.fixed_k || a.symmetric || a.no_symmetric || a.whole_group;
    return RunPipelineHeightChoice(
        g, {a.file, opt.collective, a.min_height, a.height, other, a.output, a.json});
  }
  if (a.symmetric && a.no_symmetric) {
    throw InputError("<args>", "--symmetric", "contradicts --no-symmetric");
  }
  if (a.whole_group && a.no_symmetric) {
    throw InputError("<args>", "--whole-group", "contradicts --no-symmetric");
  }
  const bool symmetric = a.symmetric || a.whole_group;
  const char* symmetric_flag = a.whole_group ? "--whole-group" : "--symmetric";
  const bool symmetric_collective = SymmetricPathApplies(opt);
  if (symmetric && !symmetric_collective) {
    throw InputError("<args>", symmetric_flag,
                     "applies to allgather, reduce-scatter and allreduce without --fixed-k");
  }
  if (symmetric && g.automorphisms().empty() && symmetric_why.empty()) {
    throw InputError(a.file, "automorphisms",
                     std::string(symmetric_flag) +
                         " needs declared automorphisms (`collsynth topo symmetry FILE` finds "
                         "them)");
  }
  if (!symmetric_why.empty() && !a.json && a.output != "-") {
    std::cerr << "collsynth: note: no symmetric schedule (" << symmetric_why
              << "); using the plain path\n";
  }
  if (!a.no_symmetric && symmetric_collective && !g.automorphisms().empty()) {
    for (std::size_t i = 0; i < g.automorphisms().size(); ++i) {
      AutomorphismCheck check = CheckAutomorphism(g, g.automorphisms()[i]);
      if (!check.ok) {
        throw InputError(a.file, "automorphisms[" + std::to_string(i) + "]",
                         "not an automorphism: " + check.problem);
      }
    }
    bool no_regular_group = false;
    if (std::optional<int> code =
            RunSymmetric(a, g, opt.collective, a.whole_group, &symmetric_why, &no_regular_group)) {
      return *code;
    }
    // No subgroup acts regularly (case 1 keeps no generator): the whole group (case 2), which
    // needs no regular action, before the plain path.
    if (no_regular_group) {
      if (!a.json && a.output != "-") {
        std::cerr << "collsynth: note: " << symmetric_why << "; trying the whole group\n";
      }
      if (std::optional<int> code =
              RunSymmetric(a, g, opt.collective, true, &symmetric_why, &no_regular_group)) {
        return *code;
      }
    }
    if (!a.json && a.output != "-") {
      std::cerr << "collsynth: note: no symmetric schedule (" << symmetric_why
                << "); using the plain path\n";
    }
  }
  return RunPlain(a, g, opt, symmetric_why);
}

int RunWithOverrides(const PipelineArgs& a, PipelineOptions opt) {
  if (!a.from.empty() || !a.fixed_k.empty() || a.whole_group || a.no_symmetric || a.min_height ||
      !a.height.empty()) {
    throw InputError("<args>", "--overrides",
                     "cannot be combined with --from, --fixed-k, --whole-group, --no-symmetric, "
                     "--min-height or --height");
  }
  TopologyWithFailures read = ReadTopologyWithFailures(a.file);
  if (read.failed.empty()) {
    throw InputError(a.file, "failed_links", "--overrides needs a topology with failed links");
  }
  const Topology g = DegradedTopology(read);
  SetPipelineTopology(g, a.file, a.root, kCliPipelineOptionNames, &opt);
  if (!SymmetricPathApplies(opt)) {
    throw InputError("<args>", "--overrides", "applies to allgather, reduce-scatter and allreduce");
  }
  const std::vector<std::vector<int>>& declared = read.intact.automorphisms();
  if (declared.empty()) {
    throw InputError(a.file, "automorphisms",
                     "--overrides needs the intact topology's declared automorphisms");
  }
  for (std::size_t i = 0; i < declared.size(); ++i) {
    AutomorphismCheck check = CheckAutomorphism(read.intact, declared[i]);
    if (!check.ok) {
      throw InputError(a.file, "automorphisms[" + std::to_string(i) + "]",
                       "not an automorphism of the intact topology: " + check.problem);
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  SymmetricPipelineResult built = BuildSymmetricPipelineSchedule(read.intact, opt.collective);
  std::string why = built.why;
  if (built.schedule) {
    SymmetricOverridesResult o = AddFailureOverrides(read, g, std::move(*built.schedule));
    built.schedule = std::move(o.schedule);
    if (built.schedule) {
      const double build_s = SecondsSince(t0);
      json summary = {{"failed_links", read.failed.size()},
                      {"intact_ratio", RationalToJson(o.intact_ratio)},
                      {"edges_broken", o.stats.edges_broken},
                      {"routes_added", o.stats.routes_added},
                      {"roots_changed", o.stats.roots_changed},
                      {"certified", o.certified}};
      return WriteSymmetric(a, g, built, build_s, summary);
    }
    why = o.why;
  }
  if (!a.json && a.output != "-") {
    std::cerr << "collsynth: note: no schedule with overrides (" << why
              << "); using the plain path on the degraded topology\n";
  }
  return RunPlain(a, g, opt, why);
}

CommandRegistrar reg_pipeline(0, [](CLI::App& app) {
  AddCommand(app, "pipeline",
             "Bandwidth-optimal pipeline schedule (seed 004), checked before writing",
             AddPipelineOptions, RunPipeline);
});

}  // namespace
}  // namespace collsynth::cli
