// Structure that baselines need and a topology file does not state explicitly: a ring order,
// grid (torus/mesh) coordinates, hypercube labels, circulant shifts, GPU boxes and rails. Each
// is inferred from the links and node names (the generators' documented names: "0".."n-1",
// "t{x1}_{x2}_..", bit strings, "b<b>g<i>") or given explicitly, and verified against the
// links (boxes: names only, see InferBoxes); a topology that does not fit throws
// InputError(file, item, problem) naming what is missing.
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

// The boxes of a GPU cluster and their rails: gpu[b][i] is GPU i of box b; GPU i of every box
// has the same local name, so "GPU i of each box talks to GPU i of the other boxes" is the rail
// pairing (NCCL's rings and trees leave and enter a node on the same NIC unless NCCL_CROSS_NIC
// is set, NVIDIA/nccl src/graph/search.cc). Read from the
// compute nodes' names as the generators and importers write them: "b<b>g<i>" (gpuboxes,
// graphs/generators/switch_topologies.h) or "<box>.<local>" (`topo import --nodes K`:
// "n<c>.<gpu>", graphs/machine_import.h). Boxes in order of their first GPU's id, GPUs within a
// box in id order. Requires every compute node to follow one of the two forms, at least two
// boxes, and every box to hold the same local names; otherwise `why` says what is missing and
// `gpu` is empty. Names only; routes are the builders' business. O(N log N).
struct Boxes {
  std::vector<std::vector<int>> gpu;
  std::string why;  // empty when the boxes were found
};
Boxes InferBoxes(const Topology& g);

// A ring order over the GPUs of `boxes` whose box-to-box steps stay on one rail: box b is left
// from GPU c[b] and box b+1 entered at GPU c[b] (c = 0, 1, 0, 1, ..., and 2 for the last box
// when the number of boxes is odd), each box walked from its entry GPU through the others in
// order to its exit GPU. Every step is on a rail when the number of boxes is even or a box has
// at least 3 GPUs; otherwise (an odd number of boxes of 2 GPUs; with 1 GPU per box every step
// is on rail 0) the closing step leaves the rails. O(N).
std::vector<int> RailAwareRingOrder(const Boxes& boxes);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_BASELINE_STRUCTURE_H_
