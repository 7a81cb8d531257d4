// collsynth verify TOPOLOGY SCHEDULE [--json] [--bw-optimal] [--bfb] [--no-duplicates]
// Exit 0 valid, 1 invalid (prints the first violations), 2 bad input.
#include <iostream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "cli/command_registry.h"
#include "cli/verify_json.h"
#include "core/json_io.h"
#include "core/rational.h"
#include "graphs/topology_io.h"
#include "proofs_check/verify.h"
#include "schedules/collective.h"

namespace collsynth::cli {
namespace {

// The human-readable summary, several lines; one line per violation whatever the node names
// (EscapeForMessage; the JSON form escapes by itself).
std::string VerifyResultText(const VerifyResult& r) {
  std::ostringstream o;
  o << "verdict    " << ScheduleVerdictName(r.verdict) << "\n";
  o << "format     " << r.format << " (" << CollectiveName(r.collective) << ")\n";
  if (const StepCheckReport* s = std::get_if<StepCheckReport>(&r.report)) {
    o << "T_L        " << s->tl << " steps\n";
    o << "T_B        " << ToString(s->tb) << " shard units (M/N per unit bandwidth)\n";
    if (s->bandwidth_lower_bound) {
      o << "T_B bound  " << ToString(*s->bandwidth_lower_bound) << " ((N-1)/N · M/B, Thm 6)\n";
    }
  } else if (const FlowCheckReport* f = std::get_if<FlowCheckReport>(&r.report)) {
    o << "T          " << (f->time ? ToString(*f->time) : std::string("-"))
      << " (demand units per unit bandwidth; claimed " << ToString(f->claimed_time) << ")\n";
    if (!f->bottleneck_link.empty()) o << "bottleneck " << f->bottleneck_link << "\n";
    if (f->time_lower_bound) {
      o << "T bound    " << ToString(*f->time_lower_bound)
        << " (the file's lengths: " << (*f->optimal ? "T is optimal, certified" : "T is above it")
        << ")\n";
    }
    o << "pairs      " << f->pairs << ", paths " << f->paths << "\n";
  } else {
    const PipelineCheckReport& p = std::get<PipelineCheckReport>(r.report);
    const bool bcast = r.collective == Collective::kBroadcast;
    o << "ratio      " << ToString(p.ratio)
      << (bcast ? " (T_B in units of M)\n" : " (T_B in units of M/N)\n");
    if (p.cut_ratio) o << "cut ratio  " << ToString(*p.cut_ratio) << " (bottleneck cut)\n";
    if (p.ok) {  // the height is measured over valid trees only
      o << "height     " << p.height_hops << " links (lower bound " << p.height_lower_bound_hops
        << ", the largest root-to-node distance)\n";
    }
    if (p.fixed_k_certified) {
      o << "fixed k    no schedule with k trees per root has a smaller ratio (fixed_k_cut)\n";
    }
  }
  const std::vector<std::string>& errors = r.Errors();
  if (!errors.empty()) {
    o << "errors     " << r.NumViolations() << " violation(s); first " << errors.size() << ":\n";
    for (const std::string& e : errors) o << "  " << EscapeForMessage(e) << "\n";
  }
  return o.str();
}

struct VerifyArgs {
  std::string topology, schedule;
  bool json = false;
  VerifyOptions options;
};

void AddVerifyOptions(CLI::App* cmd, VerifyArgs* args) {
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule, "schedule JSON file ('-' = stdin)")->required();
  cmd->add_flag("--json", args->json, "print one JSON object {ok, tl, tb, ratio, errors, ...}");
  cmd->add_flag("--bw-optimal", args->options.check_bandwidth_optimal,
                "steps: also require bandwidth optimality (seed 000 Thm 7)");
  cmd->add_flag("--bfb", args->options.check_bfb,
                "steps: also require the BFB property (seed 000 Def. 15 / Thm 14)");
  cmd->add_flag("--no-duplicates", args->options.check_no_duplicates,
                "steps: also require that no node receives an element twice");
  cmd->add_option("--max-errors", args->options.max_errors, "violations to list (default 10)")
      ->check(CLI::Range(1, 1000000));
}

int RunVerify(const VerifyArgs& a) {
  Topology g = ReadTopologyFile(a.topology);
  const std::string name = a.schedule == "-" ? "<stdin>" : a.schedule;
  const VerifyResult r = VerifyScheduleText(g, ReadTextFile(a.schedule), name, a.options);
  std::cout << (a.json ? VerifyResultJson(r).dump() + "\n" : VerifyResultText(r));
  return r.ok ? kExitOk : kExitCheckFailed;
}

CommandRegistrar reg_verify(0, [](CLI::App& app) {
  AddCommand(app, "verify",
             "Model-check a schedule (\"steps\", \"pipeline\" or \"flows\" JSON) on a topology",
             AddVerifyOptions, RunVerify);
});

}  // namespace
}  // namespace collsynth::cli
