// collsynth topo import nvidia-smi|nccl-xml FILE [-o OUT]   a topology from a real machine's
// `nvidia-smi topo -m` matrix or NCCL topology XML (graphs/machine_import.h,
// docs/machine_import.md), optionally replicated into a K-node cluster.
#include <stdexcept>

#include "cli/command_registry.h"
#include "cli/progress.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/machine_import.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

struct TopoImportArgs {
  std::string format;
  std::string file;
  std::string out = "-";
  std::vector<std::string> link_bandwidth;
  std::string gpu_model;
  bool nvlink_only = false;
  std::int64_t nodes = 1;
  std::string fabric = "rail";
};

void AddTopoImportOptions(CLI::App* cmd, TopoImportArgs* args) {
  cmd->add_option("format", args->format,
                  "nvidia-smi (the matrix of `nvidia-smi topo -m`) or nccl-xml")
      ->required();
  cmd->add_option("file", args->file, "the dump ('-' = stdin)")->required();
  cmd->add_option("-o,--output", args->out,
                  "output file: .json -> JSON, other extensions -> edge list, '-' (default) -> "
                  "JSON on stdout");
  cmd->add_option("--link-bandwidth", args->link_bandwidth,
                  "TYPE=VALUE (repeatable): GB/s per direction for NVLINK (per link), PCIE, SYS, "
                  "NET or FABRIC, an exact rational (docs/machine_import.md)");
  cmd->add_option("--gpu-model", args->gpu_model,
                  "nvidia-smi: the GPU model whose row of the bandwidth table applies (P100, V100, "
                  "A100, A800, H100, H800, H200, B200, GB200)");
  cmd->add_flag("--nvlink-only", args->nvlink_only,
                "keep only the GPUs and their NVLinks (and NVSwitches)");
  cmd->add_option("--nodes", args->nodes, "replicate the machine into K nodes joined by its NICs");
  cmd->add_option("--fabric", args->fabric,
                  "how the nodes' NICs are joined: rail (NIC i on rail switch i) or fattree "
                  "(a leaf per node, a spine per NIC index)");
}

int RunTopoImport(const TopoImportArgs& a) {
  MachineImportOptions o;
  for (const std::string& s : a.link_bandwidth) {
    ParseLinkBandwidthOverride(s, "--link-bandwidth", &o.link_bandwidth);
  }
  o.gpu_model = a.gpu_model;
  o.nvlink_only = a.nvlink_only;
  o.nodes = a.nodes;
  if (a.fabric == "rail") {
    o.fabric = MachineFabric::kRail;
  } else if (a.fabric == "fattree") {
    o.fabric = MachineFabric::kFatTree;
  } else {
    throw InputError("<args>", "--fabric",
                     "'" + Abbreviated(a.fabric) + "' is not rail or fattree");
  }
  if (a.format != "nvidia-smi" && a.format != "nccl-xml") {
    throw InputError("<args>", "format",
                     "'" + Abbreviated(a.format) + "' is not nvidia-smi or nccl-xml");
  }
  ProgressPrinter progress("topo import");
  const std::string text = ReadTextFile(a.file);
  const Topology g = a.format == "nvidia-smi" ? ImportNvidiaSmiTopology(text, a.file, o)
                                              : ImportNcclTopologyXml(text, a.file, o);
  progress.Stage("built " + std::to_string(g.num_nodes()) + " nodes and " +
                 std::to_string(g.num_links()) + " links; writing " + a.out);
  WriteTopologyFile(g, a.out);
  if (a.out != "-") {
    // Read back what was written: the same nodes, links and bandwidths.
    const Topology back = ReadTopologyFile(a.out);
    bool same = back.num_nodes() == g.num_nodes() && back.num_links() == g.num_links();
    for (int e = 0; same && e < g.num_links(); ++e) {
      same = back.link(e).from == g.link(e).from && back.link(e).to == g.link(e).to &&
             back.link(e).bandwidth == g.link(e).bandwidth &&
             back.link(e).multiplicity == g.link(e).multiplicity;
    }
    if (!same) throw std::logic_error("topo import: " + a.out + " does not read back as written");
  }
  return kExitOk;
}

CommandRegistrar reg_topo_import(15, [](CLI::App& app) {
  AddCommand(*app.get_subcommand("topo"), "import",
             "Import a real machine: `nvidia-smi topo -m` output or NCCL's topology XML "
             "(docs/machine_import.md)",
             AddTopoImportOptions, RunTopoImport);
});

}  // namespace
}  // namespace collsynth::cli
