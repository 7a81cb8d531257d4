// collsynth topo convert IN OUT [--fail FILE]   JSON <-> edge list (by OUT's extension)
#include "cli/command_registry.h"
#include "cli/topo_common.h"
#include "core/json_io.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

struct TopoConvertArgs {
  std::string in, out, fail;
};

void AddTopoConvertOptions(CLI::App* cmd, TopoConvertArgs* args) {
  cmd->add_option("input", args->in, "input topology")->required();
  cmd->add_option("output", args->out, "output file ('-' = JSON to stdout)")->required();
  cmd->add_option("--fail", args->fail,
                  "add the failed links of FILE (docs/formats.md \"Failed links\"); JSON keeps "
                  "them, an edge list gets the degraded topology");
}

int RunTopoConvert(const TopoConvertArgs& a) {
  TopologyWithFailures t = ReadTopologyWithFailures(a.in);
  AddFailFile(t, a.fail);
  WriteTopologyFile(t, a.out);
  return kExitOk;
}

CommandRegistrar reg_topo_convert(11, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("topo"), "convert",
             "Convert JSON <-> edge list (by the output's extension: .json or other)",
             AddTopoConvertOptions, RunTopoConvert);
});

}  // namespace
}  // namespace collsynth::cli
