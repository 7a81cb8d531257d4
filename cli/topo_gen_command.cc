// collsynth topo gen 'EXPR' -o FILE     build a topology from an expression (graphs/expression.h)
// collsynth topo gen --list             every family: signature, paper reference, description
#include <iostream>

#include "cli/command_registry.h"
#include "cli/progress.h"
#include "cli/topo_common.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/expression.h"
#include "graphs/family.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

struct TopoGenArgs {
  std::string expr;
  std::string out;
  std::string fail;
  bool list = false;
  bool no_automorphisms = false;
};

void AddTopoGenOptions(CLI::App* cmd, TopoGenArgs* args) {
  cmd->add_option("expression", args->expr, "topology expression (docs/topologies.md)");
  cmd->add_option(
      "-o,--output", args->out,
      "output file: .json -> JSON, other extensions -> edge list, '-' -> JSON on stdout");
  cmd->add_option("--fail", args->fail,
                  "failed links (docs/formats.md \"Failed links\"): JSON output keeps the "
                  "topology and lists them in \"failed_links\", an edge list gets the degraded "
                  "topology");
  cmd->add_flag("--list", args->list, "list every topology family and exit");
  cmd->add_flag("--no-automorphisms", args->no_automorphisms,
                "do not write the generator's automorphisms (the \"automorphisms\" field)");
}

int RunTopoGen(const TopoGenArgs& a) {
  if (a.list) {
    for (const Family& f : AllFamilies()) {
      std::cout << f.signature << "\n    " << f.description << "  [" << f.reference << "]\n";
    }
    return kExitOk;
  }
  if (a.expr.empty())
    throw InputError("<args>", "expression",
                     "missing; e.g. collsynth topo gen 'kautz(2,3)' -o k.json");
  if (a.out.empty()) throw InputError("<args>", "-o", "missing output file ('-' for stdout)");
  ProgressPrinter progress("topo gen");
  Topology g = EvaluateTopologyExpression(a.expr);
  if (a.no_automorphisms) g.set_automorphisms({});
  progress.Stage("built " + std::to_string(g.num_nodes()) + " nodes and " +
                 std::to_string(g.num_links()) + " links; writing " + a.out);
  TopologyWithFailures t{std::move(g), {}};
  AddFailFile(t, a.fail);
  WriteTopologyFile(t, a.out);
  return kExitOk;
}

CommandRegistrar reg_topo_gen(13, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("topo"), "gen",
             "Generate a topology from an expression, e.g. 'line(line(circulant(16,3,4)))' (see "
             "--list)",
             AddTopoGenOptions, RunTopoGen);
});

}  // namespace
}  // namespace collsynth::cli
