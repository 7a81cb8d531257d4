// libFuzzer target: NCCL topology XML (ImportNcclTopologyXml, docs/machine_import.md) after an
// options byte (fuzz/machine_import_fuzz.h).
#include "fuzz/machine_import_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return collsynth::fuzz::FuzzMachineImport(data, size, collsynth::ImportNcclTopologyXml,
                                            "fuzz.xml");
}
