// libFuzzer target: `topo gen` expressions (graphs/expression.h). The canonical form must
// be a fixed point and name the evaluated topology; the result goes through CheckTopology
// (fuzz_common.h). Evaluation costs what the generators cost: an expression that takes
// longer than -timeout or more than -rss_limit_mb is a finding (the size guards must
// refuse it first, docs/formats.md "Limits"). Legal but large expressions (by the size estimate)
// are skipped: their cost is the generators', measured in bench/.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz/fuzz_common.h"
#include "graphs/expression.h"

namespace {

constexpr long kMaxUnsizedArgument = 16;

// Whether some run of digits in `text` reads as a number above `limit`.
bool HasNumberAbove(const std::string& text, long limit) {
  long value = 0;
  bool in_number = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      value = in_number ? std::min(value * 10 + (c - '0'), limit + 1) : c - '0';
      in_number = true;
      if (value > limit) return true;
    } else {
      in_number = false;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > 1024) return -1;  // real expressions are short; kMaxExpressionLength is tested
  const std::string expr(reinterpret_cast<const char*>(data), size);
  fuzz::ExpectInputErrorOnly([&] {
    const std::string canonical = CanonicalTopologyExpression(expr);
    fuzz::Require(CanonicalTopologyExpression(canonical) == canonical,
                  "canonical expression is not a fixed point: " + canonical);
    // Legal sizes reach 2^20 nodes / 2^23 links (1.8 GB natively, more under ASan): the
    // target evaluates only what is small by the expression's own size estimate, which also
    // refuses what is above the limits (an InputError). Families without a size function
    // guard their own size before building.
    const std::optional<TopologySize> size = EstimateTopologyExpressionSize(expr);
    if (size && (size->nodes > (1 << 16) || size->links > (1 << 19))) return;
    // A family without a size function (e.g. polarstar) is measured only once built, and at
    // the link limit that is legal but over this target's 2 GB cap under ASan
    // (polarstar(8,232,iq): 8.2 M links, 2.2 GB, 48 s). Such expressions are evaluated only
    // with every number <= kMaxUnsizedArgument, which keeps them to a few hundred thousand
    // links; their large legal sizes are the generators' own tests and bench/.
    if (!size && HasNumberAbove(canonical, kMaxUnsizedArgument)) return;
    const Topology g = EvaluateTopologyExpression(expr);
    fuzz::Require(
        g.name() == canonical,
        "evaluated name '" + g.name() + "' differs from the canonical form '" + canonical + "'");
    // The round trips are linear but slow under ASan on the 10^6-node topologies the
    // generators legally build; evaluation itself stays under the timeout.
    if (g.num_nodes() <= 10000 && g.num_links() <= 100000) fuzz::CheckTopology(g);
  });
  return 0;
}
