// Switch removal by edge splitting (seed 004 §2.2, Algorithm 1, Theorems 6-8; Appendix A).
//
// Problem: given an integer-capacity Eulerian digraph D = (V_s ∪ V_c, E) (capacities = U·b_e
// in the pipeline construction), "source capacities" c_u >= 0 on the compute nodes and a
// threshold T with min_{v∈V_c} F(s, v; D_c) >= T, where D_c adds a source s and arcs
// s -> u of capacity c_u, replace every switch w by direct arcs: repeatedly split off
// (u, w), (w, t) into (u, t) by the maximal amount M of Theorem 8 (computed by max-flows,
// never one unit at a time) so that min_v F(s, v; D_c) >= T is kept. Allgather uses
// c_u = k for all u and T = N·k (Theorem 5); broadcast from r uses c_r = k, others 0, T = k.
// Theorem 7 (via Bang-Jensen-Frank-Jackson's Theorem 6 on D_c plus arcs v -> s of capacity
// c_v, which is Eulerian) guarantees that every arc (w, t) can be split off completely.
// Certificate/recovery: every arc of the result keeps the list of physical paths (walks in
// D whose inner nodes are switches) whose capacities it carries, with multiplicities — the
// fully expanded form of the paper's recursive routing table. Capacity that splitting turns
// into a self-loop (u, w), (w, u) -> (u, u) is dropped (a loop never helps a tree).
// Complexity: each switch is first split off whole along a rotation pairing of its
// neighbours (two rotations tried) and kept when one rooted min cut (Hao-Orlin) shows the
// threshold holds; otherwise
// O(deg_in(w)·deg_out(w)) evaluations of (2), each 2 max-flows when a cheap bound settles it
// and at most 2(N+1) otherwise (Theorem 8's min over v; those N start from the base flow).
// One flow network per egress arc (w, t), updated in place; switches with the fewest
// neighbour pairs are split off first.
// Preconditions: Eulerian (per-node in = out capacity), the threshold holds
// (std::logic_error otherwise: a caller fault). Number types: BigInt capacities.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_EDGE_SPLITTING_H_
#define COLLSYNTH_SOLVERS_PIPELINE_EDGE_SPLITTING_H_

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// An integer-capacity multigraph over the nodes of a Topology (ids shared).
struct CapacityGraph {
  // (from, to) -> capacity; only positive entries are kept.
  std::map<std::pair<int, int>, BigInt> capacity;
};

// G({c·b_e}) for a rational multiplier c with every c·b_e integral (std::logic_error
// otherwise); floor_values = true gives G({⌊c·b_e⌋}) (Theorem 13) instead.
CapacityGraph ScaledCapacityGraph(const Topology& g, const Rational& c, bool floor_values = false);

struct RoutedPath {
  std::vector<int> nodes;  // physical walk; inner nodes are switches
  BigInt multiplicity;
};

struct SplitResult {
  // G* = (V_c, E*): capacities of the compute-to-compute arcs.
  CapacityGraph direct;
  // For each arc of `direct`: its physical paths; multiplicities sum to its capacity.
  std::map<std::pair<int, int>, std::vector<RoutedPath>> routes;
  // min_v F(s, v; D*_c) after splitting (certificate that T was preserved).
  BigInt preserved_connectivity;
  std::int64_t split_operations = 0;
  std::int64_t max_flow_calls = 0;
  // Switches split off whole by the rotation fast path, and the rooted min cuts it ran.
  std::int64_t whole_switch_splits = 0;
  std::int64_t rooted_min_cuts = 0;
  // Relaxed mode only: capacity left at a switch that had lost all its ingress (or all its
  // egress) capacity, dropped because it lies on no s -> v path.
  BigInt dropped_capacity = 0;
};

struct SplittingOptions {
  // Try to split each switch off whole along a rotation pairing of its neighbours, kept
  // when one rooted min cut certifies min_v F(s, v) >= T (strict mode only). false runs
  // the paper's Algorithm 1 pair by pair with Theorem 8 alone (the in-process baseline of
  // bench/pipeline_bench, and a cross-check in the tests). Either way the result keeps T.
  bool whole_switches = true;
};

// Source capacities are given per node id (0 for switches). Throws std::logic_error if
// the input is not Eulerian or the threshold does not hold; std::logic_error if an internal
// invariant fails (a switch that cannot be isolated).
// require_eulerian = false (used for §2.4's G({⌊U·b_e⌋}), which need not be Eulerian) skips
// the Eulerian precondition; Theorem 7 then no longer guarantees success: each switch gets a
// second pass, capacity left at a switch with no ingress (or no egress) left is dropped
// (it lies on no s -> v path, so every F(s, v) is kept), and a switch that still has both
// is reported by std::logic_error.
SplitResult SplitOffSwitches(const Topology& g, const CapacityGraph& d,
                             const std::vector<BigInt>& source_capacity, const BigInt& threshold,
                             bool require_eulerian = true, const SplittingOptions& options = {});

// min_{v∈V_c} F(s, v; D_c) for a capacity graph over g's nodes (switch nodes may be absent).
BigInt MinSourceConnectivity(const Topology& g, const CapacityGraph& d,
                             const std::vector<BigInt>& source_capacity,
                             std::int64_t* max_flow_calls = nullptr);

// The sink side X (node ids, ascending; s excluded) of a minimum s-v cut of D_c for the first
// compute v with F(s, v; D_c) < threshold, or std::nullopt when every v reaches it. The
// certificate that the threshold fails: c_D(into X) + Σ_{u ∈ X} c_u < threshold.
std::optional<std::vector<int>> SourceConnectivityCut(const Topology& g, const CapacityGraph& d,
                                                      const std::vector<BigInt>& source_capacity,
                                                      const BigInt& threshold);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_EDGE_SPLITTING_H_
