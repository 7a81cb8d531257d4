// The pipeline allgather optimum as a linear program (seed 004 §2.1, Theorem 1), solved
// with CLP and certified exactly — an independent cross-check of the combinatorial optimum
// (solvers/pipeline/allgather_optimum.h).
//
// Theorem 1: min_{v ∈ V_c} F(s, v; G_x) >= N·x  iff  1/x >= ratio* = max_S |S ∩ V_c|/B+(S),
// where G_x adds a super source s with an arc s→u of capacity x to every compute node u.
// So x* = 1/ratio* is the optimum of the LP with one flow commodity per compute node v
// (the destination; each commodity has its own copy of the link capacities, because the
// theorem takes the minimum of N separate max flows):
//   maximize x  s.t. for every v ∈ V_c:  0 <= f^v_e <= b_e (e ∈ E),  0 <= g^v_u <= x (u ∈ V_c),
//     conservation of (f^v, g^v) at every node but v, net inflow into v >= N·x.
// (A formulation with shared link capacities and one unicast flow per (source, destination)
// pair would bound a different, routing-only problem; Theorem 1 is the multicast one.)
// The optimum is T_B* = (M/N)·ratio*, i.e. ratio* in shard units.
//
// Exact certification (STYLE.md rule 8): CLP's 1/x* is a hint. ratio* = |S*∩V_c|/B+(S*)
// has a denominator at most X = L·min_v B-(v) (L = lcm of the bandwidth denominators;
// B+(S*) <= min_v B-(v) by the §2.1 argument), so the hint is rounded to the closest
// fraction r with denominator <= X, and then
//   (a) Theorem 1's oracle at r holds (N exact max flows)          ⇒ r >= ratio*;
//   (b) Theorem 1's oracle at r − 1/(2X²) fails                    ⇒ ratio* > r − 1/(2X²),
//       and two distinct fractions with denominators <= X differ by >= 1/X² (Prop. 2) ⇒ r = ratio*.
// Independently, r is compared with ComputeAllgatherOptimum's ratio and with the ratio of its
// bottleneck cut S*, recomputed here from the topology.
// Complexity: one LP with 1 + N·(E + N) columns and N·(V + N) rows, plus 2N + O(Dinkelbach)
// exact max flows. Preconditions (std::invalid_argument otherwise, as allgather_optimum.h):
// Eulerian, compute nodes strongly connected, N >= 2. Number types: doubles inside CLP only;
// every reported Rational is exact.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_PIPELINE_LP_H_
#define COLLSYNTH_SOLVERS_PIPELINE_PIPELINE_LP_H_

#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "solvers/backends/lp_backend.h"

namespace collsynth {

enum class PipelineLpStatus {
  kCertified,     // (a) and (b) hold: ratio == ratio* exactly
  kLpFailed,      // CLP did not reach an optimum (lp_outcome says why)
  kNotCertified,  // the rounded hint failed (a) or (b): the LP answer was too inaccurate
};
std::string ToString(PipelineLpStatus status);

struct PipelineLpResult {
  PipelineLpStatus status = PipelineLpStatus::kLpFailed;
  LpOutcome lp_outcome = LpOutcome::kBadInput;
  int lp_cols = 0;
  int lp_rows = 0;
  double lp_x = 0;           // CLP's x* (per-source throughput, shards per unit time)
  double lp_ratio = 0;       // 1 / x*
  BigInt denominator_bound;  // X
  Rational ratio;            // the rounded hint; ratio* when kCertified
  bool upper_holds = false;  // (a)
  bool lower_holds = false;  // (b)
  // Cross-check against the combinatorial optimum (computed by SolvePipelineLp).
  Rational combinatorial_ratio;
  Rational cut_ratio;                  // |S*∩V_c|/B+(S*), recomputed from the topology
  bool matches_combinatorial = false;  // ratio == combinatorial_ratio == cut_ratio
  double lp_seconds = 0;
  double certify_seconds = 0;
};

PipelineLpResult SolvePipelineLp(const Topology& g);

// The LP alone (for tests and inspection): column 0 is x; minimizes −x.
LpProblem BuildPipelineLp(const Topology& g);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_PIPELINE_LP_H_
