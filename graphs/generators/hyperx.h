// HyperX (Ahn et al., SC'09; seed 003 ref. [2], Table 3, Figs 1/9–14): the L-dimensional
// HyperX with sides S_1..S_L and unit trunking is the Cartesian product K_{S_1} □ ... □ K_{S_L}
// of complete graphs: routers are coordinate vectors, joined when they differ in exactly one
// coordinate. Π S_i routers, radix Σ (S_i − 1), diameter = the number of sides >= 2.
// Table 3's HX row is hyperx(9,9,8): 648 routers, radix 23.
//
// Nodes "h<x_1>_<x_2>_..." (0-based), numbered in mixed radix with x_1 most significant;
// unit duplex links. Complexity O(Π S_i · Σ S_i). 1 <= L <= 16 sides, each S_i >= 2;
// std::invalid_argument otherwise or above the generator size limit (checked first).
#ifndef COLLSYNTH_GRAPHS_GENERATORS_HYPERX_H_
#define COLLSYNTH_GRAPHS_GENERATORS_HYPERX_H_

#include <cstdint>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// Closed forms (validate the sides like HyperX()).
BigInt HyperXOrder(const std::vector<std::int64_t>& sides);
std::int64_t HyperXRadix(const std::vector<std::int64_t>& sides);

// hyperx(S_1,...,S_L), named "hyperx(S_1,...,S_L)".
Topology HyperX(const std::vector<std::int64_t>& sides);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_HYPERX_H_
