// The shared body of the machine-dump targets (nvidia_smi_fuzzer.cc, nccl_xml_fuzzer.cc): the
// first byte picks the options (bit 0: --nvlink-only, bits 1-2: --nodes 1..3, bit 3: fattree
// instead of rail), the rest is the dump, read by `reader`; then the round trips and structural
// queries of CheckTopology (fuzz_common.h). InputError is the only expected failure.
#ifndef COLLSYNTH_FUZZ_MACHINE_IMPORT_FUZZ_H_
#define COLLSYNTH_FUZZ_MACHINE_IMPORT_FUZZ_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_common.h"
#include "graphs/machine_import.h"

namespace collsynth::fuzz {

using MachineReader = Topology (*)(const std::string&, const std::string&,
                                   const MachineImportOptions&);

inline int FuzzMachineImport(const std::uint8_t* data, std::size_t size, MachineReader reader,
                             const char* file) {
  if (size < 1 || size > kMaxInputBytes) return -1;
  MachineImportOptions o;
  o.nvlink_only = (data[0] & 1) != 0;
  o.nodes = 1 + ((data[0] >> 1) & 3) % 3;
  o.fabric = (data[0] & 8) != 0 ? MachineFabric::kFatTree : MachineFabric::kRail;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  ExpectInputErrorOnly([&] {
    const Topology g = reader(text, file, o);
    CheckTopology(g);
  });
  return 0;
}

}  // namespace collsynth::fuzz

#endif  // COLLSYNTH_FUZZ_MACHINE_IMPORT_FUZZ_H_
