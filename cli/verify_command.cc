// collsynth verify TOPOLOGY SCHEDULE [--json] [--bw-optimal] [--bfb] [--no-duplicates]
// Exit 0 valid, 1 invalid (prints the first violations), 2 bad input.
#include <iostream>

#include "cli/command_registry.h"
#include "graphs/topology_io.h"
#include "proofs_check/verify.h"

namespace collsynth::cli {
namespace {

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
  VerifyResult r = VerifyScheduleText(g, ReadTextFile(a.schedule), name, a.options);
  if (a.json) {
    std::cout << r.report.dump() << "\n";
  } else {
    // One line per violation whatever the node names (the JSON form escapes by itself).
    for (auto& e : r.report["errors"]) e = EscapeForMessage(e.get<std::string>());
    std::cout << r.Text();
  }
  return r.ok ? kExitOk : kExitCheckFailed;
}

CommandRegistrar reg_verify(0, [](CLI::App& app) {
  AddCommand(app, "verify", "Model-check a schedule (\"steps\" or \"pipeline\" JSON) on a topology",
             AddVerifyOptions, RunVerify);
});

}  // namespace
}  // namespace collsynth::cli
