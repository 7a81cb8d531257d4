// The exact optimal allgather bandwidth runtime (seed 004 §1.1 eq. (1), §2.1).
//
// Problem: ratio* = max over S ⊂ V with S ⊉ V_c of |S ∩ V_c| / B+(S); the optimal allgather
// (and, on an Eulerian graph, reduce-scatter) bandwidth runtime is T_B* = (M/N) · ratio*.
// The certificate is a bottleneck cut S* attaining it; the matching lower-bound argument is
// Theorem 1: min_v F(s, v; G_x) >= N·x at x = 1/ratio*.
// Methods (both exact, both return the certificate):
//  * kDinkelbach (default): start from S = V - v (v the compute node of least ingress), then
//    repeat: test Theorem 1 at λ = ratio(S); every failing test's minimum cut is a set with a
//    strictly larger ratio (it maximises q·|S∩V_c| - p·B+(S) for λ = p/q), so λ increases
//    superlinearly; stop when the test passes. Each test is one rooted minimum cut
//    (Hao-Orlin) on a direct-connect topology, N max-flows with switch nodes.
//  * kBinarySearch: the paper's §2.1 search on [(N-1)/min_v B-(v), N-1] down to width
//    1/X², X = min_v B-(v) (Proposition 2), then the closest fraction with denominator <= X
//    (continued fractions); the cut is then certified by Dinkelbach steps from the best cut
//    seen. O(log(N X²)) tests.
// U and k are Proposition 3's: the least k with U = k·ratio* making every U·b_e an integer.
// Complexity: O(iterations · maxflow(V, E)) direct-connect, O(iterations · N · maxflow(V, E))
// with switches (a 10^4-node ring: one test, one rooted cut; docs/performance.md).
// Preconditions: Eulerian, compute nodes strongly connected, N >= 2 (std::invalid_argument).
// Number types: Rational bandwidths, scaled to integers (solvers/pipeline/integer_bandwidths.h);
// BigInt/int64 capacities in the max-flows.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_ALLGATHER_OPTIMUM_H_
#define COLLSYNTH_SOLVERS_PIPELINE_ALLGATHER_OPTIMUM_H_

#include <cstdint>
#include <vector>

#include "core/progress.h"
#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

enum class OptimumMethod { kDinkelbach, kBinarySearch };

struct AllgatherOptimum {
  Rational ratio;                   // ratio* = T_B* / (M/N)
  std::vector<int> bottleneck_cut;  // S* (node ids, ascending)
  int cut_compute = 0;              // |S* ∩ V_c|
  Rational cut_bandwidth;           // B+(S*)
  Rational U;                       // Proposition 3
  BigInt k;
  OptimumMethod method = OptimumMethod::kDinkelbach;
  int tests = 0;  // Theorem-1 tests performed
  std::int64_t max_flow_calls = 0;
  std::int64_t rooted_min_cuts = 0;  // tests decided by one Hao-Orlin run
};

// `progress` (optional) is called on the calling thread with (sinks done, sinks) during each
// Theorem-1 test (once with (N, N) when the test is one rooted cut).
// `sinks` (docs/symmetry.md "How the producer finds the trees"): when not empty, the Theorem-1
// tests compute F(s, v) only for these compute nodes. Precondition (the caller's proof obligation):
// every compute node is the image of one of them under an automorphism of g. The source s feeds
// every compute node equally, so an automorphism fixes s and F(s, v) = F(s, π(v)): one max-flow per
// orbit instead of N, and the result (ratio*, S*) is the same. Violating it gives a ratio that may
// be too small (the checker's cut test then fails), never a wrong certificate.
AllgatherOptimum ComputeAllgatherOptimum(const Topology& g,
                                         OptimumMethod method = OptimumMethod::kDinkelbach,
                                         const ProgressCallback& progress = {},
                                         const std::vector<int>& sinks = {});

// Proposition 3 on rational bandwidths: the least k >= 1 such that U = k·ratio has U·b_e
// integral for every link; returns {U, k}.
void MinimalUk(const Topology& g, const Rational& ratio, Rational* U, BigInt* k);

// Theorem 1's oracle alone: true iff min_v F(s, v; G_x) >= N·x with x = 1/ratio, i.e. iff
// ratio >= ratio*. ratio > 0.
bool AllgatherRatioFeasible(const Topology& g, const Rational& ratio);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_ALLGATHER_OPTIMUM_H_
