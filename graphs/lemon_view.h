// LemonView: a LEMON SmartDigraph mirror of a Topology, for LEMON algorithms (Preflow, BFS,
// connectivity). Node i of the topology is nodes[i]; each arc knows its link id and carries
// the link's exact bandwidth in an ArcMap<Rational>. Build cost O(V + E). The view holds a
// copy of the data, not a reference to the topology. Not copyable (LEMON graphs are not).
#ifndef COLLSYNTH_GRAPHS_LEMON_VIEW_H_
#define COLLSYNTH_GRAPHS_LEMON_VIEW_H_

#include <lemon/smart_graph.h>

#include <vector>

#include "graphs/topology.h"

namespace collsynth {

class LemonView {
 public:
  using Digraph = lemon::SmartDigraph;
  explicit LemonView(const Topology& g);
  LemonView(const LemonView&) = delete;
  LemonView& operator=(const LemonView&) = delete;

  Digraph graph;
  std::vector<Digraph::Node> nodes;  // by topology node id
  std::vector<Digraph::Arc> arcs;    // by topology link id
  Digraph::NodeMap<int> node_id;
  Digraph::ArcMap<int> link_id;
  Digraph::ArcMap<Rational> bandwidth;
};

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_LEMON_VIEW_H_
