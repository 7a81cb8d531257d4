// libFuzzer target: `nvidia-smi topo -m` text (ImportNvidiaSmiTopology, docs/machine_import.md)
// after an options byte (fuzz/machine_import_fuzz.h).
#include "fuzz/machine_import_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return collsynth::fuzz::FuzzMachineImport(data, size, collsynth::ImportNvidiaSmiTopology,
                                            "fuzz.txt");
}
