// collsynth baseline NAME TOPOLOGY -o SCHEDULE.json [--collective C] [--chunks P]
//                   [--order a,b,..] [--dims 4,4] [--shifts 1,5] [--fan-out K]
// Builds a baseline schedule (solvers/baselines/baselines.h: uniring, biring, biring-bfb, torus,
// recursive-doubling, recursive-halving, dbtree, shiftedring, shiftedbfbring, multitree),
// runs the step checker and writes it only when valid (exit 1 otherwise). A topology that does
// not fit the baseline is bad input (exit 2).
#include <iostream>
#include <memory>

#include "cli/command_registry.h"
#include "cli/schedule_output.h"
#include "graphs/input_error.h"
#include "graphs/topology_io.h"
#include "proofs_check/step_checker.h"
#include "schedules/step_schedule.h"
#include "solvers/baselines/baselines.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct BaselineArgs {
  BaselineOptions options;
  std::string collective;  // --collective as given; empty: the baseline's default
  std::string topology, out;
  bool json = false;
};

CommandRegistrar reg_baseline(0, [](CLI::App& app) {
  auto a = std::make_shared<BaselineArgs>();
  std::string names;
  for (const auto& n : BaselineNames()) names += (names.empty() ? "" : ", ") + n;
  auto* cmd =
      app.add_subcommand("baseline", "Baseline collective schedules, checked (" + names + ")");
  cmd->add_option("name", a->options.name, "baseline: " + names)->required();
  cmd->add_option("topology", a->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("-o,--output", a->out, "output schedule JSON ('-' = stdout)")->required();
  cmd->add_option("--collective", a->collective,
                  "allgather, reduce-scatter or allreduce (default: the baseline's own)");
  cmd->add_option("--chunks", a->options.chunks, "pipeline chunks P (dbtree)");
  cmd->add_option("--order", a->options.order, "ring order, node names (rings, dbtree)")
      ->delimiter(',');
  cmd->add_option("--dims", a->options.dims,
                  "grid dimensions, row-major node ids (torus, multitree)")
      ->delimiter(',');
  cmd->add_option("--shifts", a->options.shifts, "ring shifts p, gcd(p, N) = 1 (shifted rings)")
      ->delimiter(',');
  cmd->add_option("--fan-out", a->options.fan_out, "k-ary cap on MultiTree children (0 = none)");
  cmd->add_flag("--json", a->json, "print the check report as JSON");
  cmd->callback([a]() {
    RunCommand([&]() {
      Topology g = ReadTopologyFile(a->topology);
      BaselineOptions options = a->options;
      if (!a->collective.empty()) {
        RequireKnownBaseline(options.name);  // an unknown name is reported first
        options.collective = ParseBaselineCollective(a->collective);
      }
      StepSchedule s = BuildBaseline(g, options, a->topology);
      StepCheckReport r = CheckStepSchedule(g, s);
      if (!r.ok) {  // never written unchecked
        PrintFailure("baseline " + a->options.name +
                     " failed the checker: " + (r.errors.empty() ? std::string("?") : r.errors[0]));
        return kExitCheckFailed;
      }
      s.claimed_tl = r.tl;
      s.claimed_tb = r.tb;
      // The written bytes are the checked artifact (schedule_output.h).
      OutputCheck out = WriteCheckedSchedule(g, StepScheduleToJsonText(s, g) + "\n", a->out, {},
                                             json{{"tl", r.tl}, {"tb", ToString(r.tb)}});
      if (!out.ok) {
        PrintFailure("baseline " + a->options.name + ": " + a->out + ": " + out.error +
                     " (nothing written)");
        return kExitCheckFailed;
      }
      std::ostream& info = a->out == "-" ? std::cerr : std::cout;  // keep stdout pure JSON
      if (a->json) {
        json j = r.ToJson();
        j["baseline"] = a->options.name;
        j["collective"] = CollectiveName(s.collective);
        AddOutputCheck(j, out);
        info << j.dump() << "\n";
      } else {
        info << a->options.name << " on " << g.name() << ": " << CollectiveName(s.collective)
             << ", T_L = " << r.tl << ", T_B = " << ToString(r.tb)
             << " (shard units); output verified\n";
      }
      return kExitOk;
    });
  });
});

}  // namespace
}  // namespace collsynth::cli
