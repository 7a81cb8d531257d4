// libFuzzer target: edge-list topology text (ParseEdgeList, docs/formats.md), then the round
// trips and structural queries of CheckTopology (fuzz_common.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "graphs/topology_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::ExpectInputErrorOnly([&] {
    const Topology g = ParseEdgeList(text, "fuzz.txt");
    fuzz::CheckTopology(g);
  });
  return 0;
}
