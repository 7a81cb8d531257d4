// Structure that baselines need and a topology file does not state explicitly: a ring order,
// grid (torus/mesh) coordinates, hypercube labels, circulant shifts. Each is inferred from
// the links and node names (the generators' documented names: "0".."n-1", "t{x1}_{x2}_..",
// bit strings) or given explicitly, and always verified against the links; a topology that
// does not fit throws InputError(file, item, problem) naming what is missing.
// All O(V + E) except circulant shifts O(n·E). Exact: no numbers beyond node ids.
#ifndef COLLSYNTH_SOLVERS_BASELINES_BASELINE_STRUCTURE_H_
#define COLLSYNTH_SOLVERS_BASELINES_BASELINE_STRUCTURE_H_

#include <string>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

// A Hamiltonian cycle order[0] -> order[1] -> ... -> order[N-1] -> order[0] over the compute
// nodes (direct-connect). explicit_order (node names) is verified if given; otherwise: follow
// the unique out-neighbour (unidirectional ring), the two neighbours (bidirectional ring), or
// nodes named "0".."N-1" with links i -> i+1. bidirectional: also require order[i+1] -> order[i].
std::vector<int> RingOrder(const Topology& g, const std::vector<std::string>& explicit_order,
                           bool bidirectional, const std::string& file);

// Grid: node id of coordinates x is Σ x[k]·stride[k] (row-major, dimension 0 most
// significant) after `node_at`; dims from --dims or from names "t{x1}_{x2}_..".
struct Grid {
  std::vector<int> dims;
  std::vector<int> node_at;             // row-major index -> node id
  std::vector<std::vector<int>> coord;  // node id -> coordinates
  int Index(const std::vector<int>& x) const;
};
Grid InferGrid(const Topology& g, const std::vector<int>& explicit_dims, const std::string& file);

// Hypercube labels: label[v] in [0, 2^k) with v ~ v ^ 2^j linked both ways for every j.
// Names as bit strings (the hypercube generator) or integers, else node ids in order.
std::vector<int> HypercubeLabels(const Topology& g, const std::string& file);

// Circulant shifts p (1 <= p <= N/2, gcd(p, N) = 1) such that every i <-> i+p mod N is a
// link pair, over nodes named "0".."N-1" (else in id order); explicit shifts are verified.
std::vector<int> CirculantRingShifts(const Topology& g, const std::vector<int>& explicit_shifts,
                                     const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_BASELINE_STRUCTURE_H_
