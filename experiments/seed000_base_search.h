// The exhaustive searches that reconstruct seed 000's Diamond and DBJMod(d,n) base graphs
// (Table 9, Figs. 16/17: the figures are not in the text) and score each candidate by the
// Table 4 rows built on it. Experiment kind "seed000-base-search" (seed000_base_search.cc).
//
// Graphs here are small digraphs given by out-neighbour lists (no self-loops, no multi-links).
//
// Diamond: every strongly connected 2-regular digraph on 8 nodes (in- and out-degree 2, no
// self-loops or multi-links), up to isomorphism. The enumeration labels the nodes in BFS
// order from node 0 (each node's unlabelled out-neighbours get the next labels), which reaches
// every strongly connected graph at least once; isomorphic copies are merged by
// CanonicalCode. Milliseconds.
//
// DBJMod(d,n): de Bruijn B(d,n) minus its self-loops (words aa…a) and 2-cycles (words abab…
// and baba…, a != b), plus one directed cycle through exactly the d² nodes that lost a link
// (so every degree stays d), such that no self-loop or multi-link appears. The cycles are
// listed from the word 00…0; for (4,2) (15! cycles) only the cycles invariant under the
// letter rotation c -> c + 1 mod 4 (as a shift of the cycle by 4 or 12 positions) are listed:
// the restriction is documented in docs/topologies.md.
#ifndef COLLSYNTH_EXPERIMENTS_SEED000_BASE_SEARCH_H_
#define COLLSYNTH_EXPERIMENTS_SEED000_BASE_SEARCH_H_

#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/step_schedule.h"

namespace collsynth::experiments {

using SmallDigraph = std::vector<std::vector<int>>;  // out-neighbours per node

// A canonical form under relabelling: equal for two digraphs iff they are isomorphic.
// Minimum over every root and every order of each node's newly labelled out-neighbours of
// the BFS-labelled adjacency rows (sorted labels, row after row), with prefix pruning.
// Requires out-regular digraphs that are strongly connected (std::logic_error otherwise).
// Fine up to ~20 nodes of degree <= 4.
std::vector<int> CanonicalCode(const SmallDigraph& g);

SmallDigraph Transposed(const SmallDigraph& g);

// Largest BFS distance, or -1 when not strongly connected. O(N (N + E)).
int SmallDiameter(const SmallDigraph& g);

// Definition 8: isomorphic to its transpose.
bool IsReverseSymmetric(const SmallDigraph& g);

// Nodes "0".."N-1", unit bandwidth per link.
Topology ToTopology(const SmallDigraph& g, const std::string& name);

// One representative per isomorphism class of the strongly connected 2-regular digraphs on
// n nodes without self-loops or multi-links (n <= 10), in increasing canonical-code order.
std::vector<SmallDigraph> TwoRegularDigraphs(int n);

// The DBJMod(d,n) rewirings (nodes = de Bruijn word indices, as in DeBruijn(d,n)), each with
// its cycle (word indices in cycle order, from 0); see the header comment. `restricted`
// says whether only the rotation-invariant cycles were listed.
struct DbjRewiring {
  SmallDigraph graph;
  std::vector<int> cycle;
};
struct DbjRewirings {
  std::vector<DbjRewiring> rewirings;
  bool restricted = false;
  long long cycles_listed = 0;  // cycles looked at (valid or not)
};
DbjRewirings DbjModRewirings(int d, int n);

// Does g (unit links, d-regular, no switches) have an allgather of exactly `steps` steps with
// P = `chunks` equal chunks per shard and T_B = (N-1)/d shard units (Thm 6's bound)? A
// feasibility 0/1 program with what that bound forces, so much smaller and tighter than the
// step MILP's T_B objective: every node receives every chunk exactly once, over links that
// already hold it (causality), and every link carries the same number L_t of chunks at step
// t, with sum_t L_t = P(N-1)/d. CBC with `seconds` of wall clock (solvers/backends). The
// schedule, when found, is the step checker's to accept (`checked`).
struct ExactOnceResult {
  std::string outcome;  // "found", "none" (CBC proved infeasible) or "time limit"
  StepSchedule schedule;
  bool checked = false;    // the step checker accepted it, with T_L = steps and T_B the bound
  std::vector<int> loads;  // L_t, t = 1..steps (chunks per link)
};
ExactOnceResult ExactOnceStepMilp(const Topology& g, int steps, int chunks, double seconds);

// BFB allgather T_B of g (shard units, unit bandwidth) and T_L = D(g): solvers/bfb.
struct BfbValue {
  int tl = 0;
  Rational tb;
};
BfbValue BfbAllgather(const Topology& g);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_SEED000_BASE_SEARCH_H_
