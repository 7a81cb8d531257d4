#include "graphs/lemon_view.h"

namespace collsynth {

LemonView::LemonView(const Topology& g) : node_id(graph), link_id(graph), bandwidth(graph) {
  graph.reserveNode(g.num_nodes());
  graph.reserveArc(g.num_links());
  nodes.reserve(g.num_nodes());
  for (int v = 0; v < g.num_nodes(); ++v) {
    nodes.push_back(graph.addNode());
    node_id[nodes.back()] = v;
  }
  arcs.reserve(g.num_links());
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    arcs.push_back(graph.addArc(nodes[l.from], nodes[l.to]));
    link_id[arcs.back()] = e;
    bandwidth[arcs.back()] = l.bandwidth;
  }
}

}  // namespace collsynth
