// libFuzzer target: topology JSON (ParseJsonText + TopologyFromJson, docs/formats.md) and its
// per-link latencies (LinkLatenciesFromJson), then the round trips and structural queries of
// CheckTopology (fuzz_common.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "graphs/link_latency.h"
#include "graphs/topology_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;  // -1: not added to the corpus
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::ExpectInputErrorOnly([&] {
    const nlohmann::json doc = ParseJsonText(text, "fuzz.json");
    const Topology g = TopologyFromJson(doc, "fuzz.json");
    if (LinkLatenciesFromJson(doc, g, "fuzz.json").size() !=
        static_cast<std::size_t>(g.num_links())) {
      fuzz::Fail("LinkLatenciesFromJson: not one entry per link");
    }
    fuzz::CheckTopology(g);
  });
  return 0;
}
