// Building blocks that several topology generators share: the nodes of a row-major grid
// (torus, mesh) and the declared automorphisms from node -> image functions. Internal to
// graphs/generators/ (the entry points are the generators).
#ifndef COLLSYNTH_GRAPHS_GENERATORS_GENERATOR_PARTS_H_
#define COLLSYNTH_GRAPHS_GENERATORS_GENERATOR_PARTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

// The strides of the row-major order of a grid d_1 × ... × d_k: node index Σ x_p · stride[p],
// the last position's stride 1. O(k).
std::vector<std::int64_t> GridStrides(const std::vector<int>& dims);

// A topology named "FAMILY(d_1,...,d_k)" holding the grid's N = Π d_p compute nodes, named
// "t{x_1}_{x_2}_.." in row-major order (node i at the coordinates GridStrides gives), and no
// links. The caller checks each d_p (>= 2) first; std::invalid_argument (CheckTopologySize)
// when N nodes or 2·k·N links exceed the generator limits. O(k·N).
Topology GridNodes(const std::string& family, const std::vector<int>& dims);

// Sets g's declared automorphisms (graphs/topology.h) to the permutations built by `images`
// (each a node -> image function), dropping identities. O(|images| · V).
void SetAutomorphisms(Topology& g, const std::vector<std::function<int(int)>>& images);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_GENERATOR_PARTS_H_
