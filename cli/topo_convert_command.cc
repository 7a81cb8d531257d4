// collsynth topo convert IN OUT         JSON <-> edge list (by OUT's extension)
#include "cli/command_registry.h"
#include "core/json_io.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

struct TopoConvertArgs {
  std::string in, out;
};

void AddTopoConvertOptions(CLI::App* cmd, TopoConvertArgs* args) {
  cmd->add_option("input", args->in, "input topology")->required();
  cmd->add_option("output", args->out, "output file ('-' = JSON to stdout)")->required();
}

int RunTopoConvert(const TopoConvertArgs& a) {
  WriteTopologyFile(ReadTopologyFile(a.in), a.out);
  return kExitOk;
}

CommandRegistrar reg_topo_convert(11, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("topo"), "convert",
             "Convert JSON <-> edge list (by the output's extension: .json or other)",
             AddTopoConvertOptions, RunTopoConvert);
});

}  // namespace
}  // namespace collsynth::cli
