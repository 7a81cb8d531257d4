// Mesh d_1 × ... × d_k (seed 001 §VI: the 2D Mesh networks MultiTree is evaluated on): the torus
// without its wrap-around links, i.e. the Cartesian product of paths. Every d_i >= 2; nodes
// "t{x_1}_{x_2}_.." in row-major order (the torus's names, so the baselines' grid inference
// and MultiTree's Y-before-X order apply); duplex unit links between nodes that differ by 1 in
// one coordinate. Not regular when some d_i > 2; mesh(2,2) is the 4-cycle of seed 001 Fig. 3.
// O(k·N); std::invalid_argument on bad or absurd sizes.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_MESH_H_
#define COLLSYNTH_GRAPHS_GENERATORS_MESH_H_

#include <vector>

#include "graphs/topology.h"

namespace collsynth {

Topology Mesh(const std::vector<int>& dims);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_MESH_H_
