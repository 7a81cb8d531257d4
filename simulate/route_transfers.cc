#include "simulate/route_transfers.h"

#include <stdexcept>

namespace collsynth {

std::vector<int> RouteLinks(const Topology& g, const std::vector<int>& path, bool upward) {
  std::vector<int> links;
  const int len = static_cast<int>(path.size());
  for (int i = 0; i + 1 < len; ++i) {
    const int a = upward ? path[len - 1 - i] : path[i];
    const int b = upward ? path[len - 2 - i] : path[i + 1];
    std::optional<int> e = g.FindLink(a, b);
    if (!e) throw std::logic_error("RouteLinks: a route over a missing link");
    links.push_back(*e);
  }
  return links;
}

std::uint64_t RouteHops(std::uint64_t links, SwitchModel model) {
  return model == SwitchModel::kCutThrough ? (links > 0 ? 1 : 0) : links;
}

ChunkedRoute AddChunkedRoute(FlowSimulation* sim, const std::vector<int>& links,
                             const Rational& bytes, std::int64_t chunks, SwitchModel model,
                             bool reduce_last, TransferLabel label) {
  if (links.empty()) throw std::logic_error("AddChunkedRoute: a route without links");
  const bool cut_through = model == SwitchModel::kCutThrough;
  ChunkedRoute r;
  r.hops = cut_through ? 1 : static_cast<int>(links.size());
  for (std::int64_t j = 0; j < chunks; ++j) {
    for (int h = 0; h < r.hops; ++h) {
      label.chunk = static_cast<int>(j);
      label.hop = cut_through ? -1 : h;
      const std::vector<int> on = cut_through ? links : std::vector<int>{links[h]};
      const int id = sim->AddTransfer(on, bytes, reduce_last && h == r.hops - 1, label);
      if (r.first < 0) r.first = id;
      if (h > 0) sim->AddDependency(id - 1, id);       // the previous link
      if (j > 0) sim->AddDependency(id - r.hops, id);  // the previous chunk
    }
  }
  return r;
}

}  // namespace collsynth
