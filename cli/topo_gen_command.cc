// collsynth topo gen 'EXPR' -o FILE     build a topology from an expression (graphs/expression.h)
// collsynth topo gen --list             every family: signature, paper reference, description
#include <iostream>

#include "cli/command_registry.h"
#include "cli/progress.h"
#include "core/input_error.h"
#include "graphs/expression.h"
#include "graphs/family.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

CommandRegistrar reg_topo_gen(10, [](CLI::App& app) {
  auto* topo = app.get_subcommand("topo");
  struct GenArgs {
    std::string expr;
    std::string out;
    bool list = false;
    bool no_automorphisms = false;
  };
  auto args = std::make_shared<GenArgs>();
  auto* gen = topo->add_subcommand(
      "gen",
      "Generate a topology from an expression, e.g. 'line(line(circulant(16,3,4)))' (see --list)");
  gen->add_option("expression", args->expr, "topology expression (docs/topologies.md)");
  gen->add_option(
      "-o,--output", args->out,
      "output file: .json -> JSON, other extensions -> edge list, '-' -> JSON on stdout");
  gen->add_flag("--list", args->list, "list every topology family and exit");
  gen->add_flag("--no-automorphisms", args->no_automorphisms,
                "do not write the generator's automorphisms (the \"automorphisms\" field)");
  gen->callback([args]() {
    RunCommand([&]() {
      if (args->list) {
        for (const Family& f : AllFamilies()) {
          std::cout << f.signature << "\n    " << f.description << "  [" << f.reference << "]\n";
        }
        return kExitOk;
      }
      if (args->expr.empty())
        throw InputError("<args>", "expression",
                         "missing; e.g. collsynth topo gen 'kautz(2,3)' -o k.json");
      if (args->out.empty())
        throw InputError("<args>", "-o", "missing output file ('-' for stdout)");
      ProgressPrinter progress("topo gen");
      Topology g = EvaluateTopologyExpression(args->expr);
      if (args->no_automorphisms) g.set_automorphisms({});
      progress.Stage("built " + std::to_string(g.num_nodes()) + " nodes and " +
                     std::to_string(g.num_links()) + " links; writing " + args->out);
      WriteTopologyFile(g, args->out);
      return kExitOk;
    });
  });
});

}  // namespace
}  // namespace collsynth::cli
