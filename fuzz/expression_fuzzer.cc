// libFuzzer target: `topo gen` expressions (graphs/expression.h). The canonical form must
// be a fixed point and name the evaluated topology; the result goes through CheckTopology
// (fuzz_common.h). Evaluation costs what the generators cost: an expression that takes
// longer than -timeout or more than -rss_limit_mb is a finding (the size guards must
// refuse it first, docs/formats.md "Limits"). Legal but large expressions (by the size estimate)
// are skipped: their cost is the generators', measured in bench/.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_common.h"
#include "graphs/expression.h"

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
    if (auto size = EstimateTopologyExpressionSize(expr);
        size && (size->nodes > (1 << 16) || size->links > (1 << 19))) {
      return;
    }
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
