// Topologies from real machines (docs/machine_import.md): the matrix printed by
// `nvidia-smi topo -m` and the XML that NCCL writes with NCCL_TOPO_DUMP_FILE, read into a
// Topology whose compute nodes are the GPUs and whose switches are the PCIe switches, host
// bridges, CPU sockets, NVSwitches and NICs; optionally replicated into a K-node cluster joined
// through the NICs (a rail or a two-level leaf/spine fabric).
// Bandwidths are exact rationals in GB/s per direction, from the per-generation table of
// docs/machine_import.md (NCCL's own figures, NVIDIA/nccl src/graph/topo.h and topo.cc), each
// overridable by connection type. Every reader error is an InputError naming the file, the line
// (nvidia-smi) or the element (XML) and the problem; the library prints nothing.
// O(d^2) for a matrix of d devices, O(size) for the XML (tinyxml2, Debian libtinyxml2-dev).
#ifndef COLLSYNTH_GRAPHS_MACHINE_IMPORT_H_
#define COLLSYNTH_GRAPHS_MACHINE_IMPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

enum class MachineFabric { kRail, kFatTree };

struct MachineImportOptions {
  // Connection type (docs/machine_import.md "Bandwidth table": NVLINK, PCIE, SYS, NET, FABRIC)
  // -> bandwidth in GB/s that replaces the table's value; each value > 0.
  std::map<std::string, Rational> link_bandwidth;
  // nvidia-smi only: the GPU model whose row of the table applies ("V100", "A100", ...); empty
  // = the model named in the dump's other lines, else the generic row.
  std::string gpu_model;
  // Keep only the GPUs and their NVLinks (and NVSwitches): the view of msccl-tools'
  // nvlink_only(). Incompatible with nodes > 1.
  bool nvlink_only = false;
  std::int64_t nodes = 1;  // K >= 1 copies of the machine
  MachineFabric fabric = MachineFabric::kRail;
};

// The connection types that MachineImportOptions::link_bandwidth accepts.
const std::vector<std::string>& MachineLinkTypes();

// Parses "TYPE=VALUE" (TYPE one of MachineLinkTypes(), VALUE an exact rational > 0) into
// `out`; InputError naming `item` (e.g. "--link-bandwidth") otherwise.
void ParseLinkBandwidthOverride(const std::string& text, const std::string& item,
                                std::map<std::string, Rational>* out);

// `nvidia-smi topo -m` output (tabs or blanks; legend, "CPU Affinity", "NUMA Affinity" and
// "GPU NUMA ID" columns and any lines before the header tolerated).
Topology ImportNvidiaSmiTopology(const std::string& text, const std::string& file,
                                 const MachineImportOptions& options);

// NCCL's topology XML (<system><cpu><pci><gpu><nvlink/></gpu></pci><nic><net/></nic></cpu>).
Topology ImportNcclTopologyXml(const std::string& text, const std::string& file,
                               const MachineImportOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_MACHINE_IMPORT_H_
