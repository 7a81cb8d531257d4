// libFuzzer target: topology JSON (ParseJsonText + TopologyFromJson, docs/formats.md), then
// the round trips and structural queries of CheckTopology (fuzz_common.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_common.h"
#include "graphs/topology_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;  // -1: not added to the corpus
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::ExpectInputErrorOnly([&] {
    const Topology g = TopologyFromJson(ParseJsonText(text, "fuzz.json"), "fuzz.json");
    fuzz::CheckTopology(g);
  });
  return 0;
}
