// Discrete chunked BFB schedules (seed 000 App. D.2).
//
// (a) LcmChunkCount: the number of equal chunks per shard (LCM of the denominators of all
//     interval endpoints) that makes an exact BFB schedule integral.
// (b) Exactly P chunks per shard: for every (u, t) the integer program (12)
//       min W  s.t. Σ_v y_{v,(w,u)} <= W (∀w),  Σ_w y_{v,(w,u)} = P (∀v),  y ∈ {0..P},
//     solved with Coin-OR CBC and certified exactly: the LP optimum U* (solvers/bfb/bfb_lp.h,
//     with its witness J) gives W >= ceil(P·b·U*), and this bound is attained by an integral
//     max flow (integrality of network flows), so CBC's answer is accepted only when it
//     reaches it and is otherwise repaired by an exact integer max flow (LEMON Preflow).
//     The LP relaxation is rounded as in App. D.2 (floor, then +1 to the largest fractional
//     parts, so y < y_LP + 1). Reported: T_B of the LP, the ILP and the rounding (shard units,
//     Σ_t max_u W_{u,t} / (P·b)) and Theorem 20's bound
//       T_B(round) <= T_B(OPT) + (M/B)·d(d^D − 1)/((d − 1)PN)   = Σ_{i=0}^{D−1} d^i / (P·b)
//     in shard units (M/B = N/(d·b)), or + (M/B)·d/P = N/(P·b) when G is Moore optimal.
// Complexity: one CBC solve per (u, t) (small ILPs) plus the BFB plan (bfb_schedule.h).
// Preconditions (InputError otherwise): those of SolveBfbPlan, all links of equal bandwidth
// b (LP (12) is the homogeneous program), no α, 1 <= P <= kMaxChunks. Exact throughout;
// CBC's doubles are rounded to integers and checked.
#ifndef COLLSYNTH_SOLVERS_BFB_DISCRETE_CHUNKS_H_
#define COLLSYNTH_SOLVERS_BFB_DISCRETE_CHUNKS_H_

#include <cstdint>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/step_schedule.h"
#include "solvers/bfb/bfb_schedule.h"

namespace collsynth {

inline constexpr std::int64_t kMaxChunks = 1000000;

// LCM of the denominators of every x_{v,(w,u),t} and interval endpoint of the plan.
BigInt LcmChunkCount(const BfbPlan& plan);

struct DiscreteChunkOptions {
  bool use_cbc = true;  // false: exact integer max flow only (no CBC)
  unsigned threads = 0;
  std::string file = "<topology>";
};

struct DiscreteChunkResult {
  std::int64_t chunks = 0;  // P
  int degree = 0;           // max in-degree d (unit links)
  int diameter = 0;
  bool moore_optimal = false;
  Rational tb_lp;            // LP relaxation (= the exact BFB schedule), shard units
  Rational tb_ilp;           // ILP (12) optimum per (u, t), shard units
  Rational tb_rounded;       // rounded LP relaxation, shard units
  Rational thm20_gap;        // Theorem 20's additive bound, shard units
  bool thm20_holds = false;  // tb_rounded <= tb_ilp + thm20_gap
  std::int64_t cbc_solves = 0;
  std::int64_t cbc_repaired = 0;  // CBC answers that missed the certified optimum
  StepSchedule ilp_schedule;      // chunks k/P, allgather
  StepSchedule rounded_schedule;
};

DiscreteChunkResult SolveDiscreteChunks(const Topology& g, std::int64_t chunks,
                                        const DiscreteChunkOptions& options = {});

// Exactly P chunks per shard from one solved LP: rounding of P·x (App. D.2), y[i][k].
std::vector<std::vector<std::int64_t>> RoundBfbShares(const BfbSubproblem& p, const BfbLpResult& r,
                                                      std::int64_t chunks);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BFB_DISCRETE_CHUNKS_H_
