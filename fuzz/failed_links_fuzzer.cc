// libFuzzer target: a `--fail FILE` document (graphs/failed_links.h, docs/formats.md "Failed
// links") against a fixed small topology whose node names contain '-' and blanks: ParseJsonText,
// FailedLinkList, AppendFailedLinks. Accepted lists must name each link once, the degraded
// topology must have exactly the other links (CheckTopology, fuzz_common.h), and the JSON with
// "failed_links" must read back as the same list and the same degraded topology.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "core/json_io.h"
#include "fuzz/fuzz_common.h"
#include "graphs/failed_links.h"
#include "graphs/topology_io.h"

namespace {

collsynth::Topology FixedTopology() {
  collsynth::Topology g("fail-fuzz");
  g.AddNode("a");
  g.AddNode("b-c");
  g.AddNode("d e");
  g.AddSwitch("s");
  for (int u = 0; u < 3; ++u) {
    g.AddDuplexLink(u, 3, collsynth::Rational(2));
    g.AddLink(u, (u + 1) % 3, collsynth::Rational(1), 1 + u);
  }
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;  // -1: not added to the corpus
  const std::string text(reinterpret_cast<const char*>(data), size);
  static const Topology g = FixedTopology();
  fuzz::ExpectInputErrorOnly([&] {
    const nlohmann::json doc = ParseJsonText(text, "fuzz.json");
    TopologyWithFailures t{g, {}};
    AppendFailedLinks(g, FailedLinkList(doc, "fuzz.json"), "fuzz.json", "failed_links", t.failed);
    if (std::set<int>(t.failed.begin(), t.failed.end()).size() != t.failed.size())
      fuzz::Fail("AppendFailedLinks: a link listed twice was accepted");
    const Topology d = DegradedTopology(t);
    if (d.num_links() + static_cast<int>(t.failed.size()) != g.num_links())
      fuzz::Fail("DegradedTopology: wrong number of links");
    for (int e : t.failed) {
      if (d.FindLink(g.link(e).from, g.link(e).to)) fuzz::Fail("a failed link survived");
    }
    fuzz::CheckTopology(d);
    const std::string written = WriteTopologyJson(t);
    const TopologyWithFailures back = TopologyWithFailuresFromJson(
        ParseJsonText(written, "<roundtrip.json>"), "<roundtrip.json>");
    if (back.failed != t.failed) fuzz::Fail("failed_links did not round-trip");
    if (WriteTopologyJson(DegradedTopology(back)) != WriteTopologyJson(d))
      fuzz::Fail("the degraded topology did not round-trip");
  });
  return 0;
}
