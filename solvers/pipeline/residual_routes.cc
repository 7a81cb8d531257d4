#include "solvers/pipeline/residual_routes.h"

namespace collsynth {

std::vector<int> PathNodes(const Topology& g, const std::vector<int>& links) {
  std::vector<int> nodes = {g.link(links.front()).from};
  for (int e : links) nodes.push_back(g.link(e).to);
  return nodes;
}

bool RouteThroughSwitches(const Topology& g, SwitchSearch& search, int u, int v, BigInt amount,
                          const std::vector<BigInt>& res,
                          const std::function<void(const std::vector<int>&, const BigInt&)>& charge,
                          std::vector<PipelineRoute>* routes) {
  std::vector<char> reached(g.num_nodes(), 0);
  reached[u] = 1;
  BigInt piece = amount;
  while (amount > 0) {
    if (piece > amount) piece = amount;
    std::vector<int> found = search.Run({u}, reached, res, piece, v);
    if (found.empty() || found.back() != v) {
      piece /= 2;
      if (piece == 0) return false;
      continue;
    }
    std::vector<int> links = search.PathLinks(v, reached);
    charge(links, piece);
    routes->push_back({PathNodes(g, links), piece});
    amount -= piece;
  }
  return true;
}

}  // namespace collsynth
