// Time-indexed step-schedule synthesis MILP for allgather, in the style of SCCL/TACCL
// (seed 000 §8.5.1, Table 6 / Figure 9: the NP-hard baselines BFB is compared against).
//
// Each shard is split into P equal chunks; item i = (source s, chunk c) is the interval
// [c/P, (c+1)/P) of s's shard. For S comm steps the program has
//   x_{i,(u,v),t} ∈ {0,1}  item i crosses link (u,v) at step t          (t = 1..S)
//   h_{i,v,t}     ∈ {0,1}  node v holds item i after step t              (t = 0..S)
//   y_t >= 0               the bandwidth time of step t (shard units)
// and the constraints
//   h_{i,v,0} = [v = s]; h_{i,v,S} = 1                       (all nodes end with all chunks)
//   x_{i,(u,v),t} <= h_{i,u,t-1}                             (send only what is held)
//   h_{i,v,t} = h_{i,v,t-1} + Σ_u x_{i,(u,v),t}   (v ≠ s)    (hold = held before or received;
//                                                  so each node receives each item once)
//   Σ_i x_{i,e,t} <= C·m_e            (per-step capacity, C chunks per unit link; C = 0: none)
//   Σ_i x_{i,e,t} <= P·b_e·y_t        (step time >= every link's load / bandwidth)
// Variables that BFS distances rule out (d(s,u) > t−1 for a send at t) are not created.
// Objectives: kBandwidth minimizes Σ_t y_t = T_B (eq. (4)); kLeastSteps is SCCL's
// least-steps feasibility problem (needs C >= 1; objective 0, first feasible S wins).
// SynthesizeStepMilp searches S = min_steps, min_steps+1, …, max_steps (default: D(G) only),
// one CBC solve per S within one shared time budget; with kBandwidth the solves form the
// (T_L, T_B) trade-off of seed 000 Figure 9.
//
// Time limit (a wall-clock budget, steady clock): time_limit_seconds covers the whole MILP
// stage of one call — the preparation (BFS distances), and for every S the model build, the
// CBC call (loading, branch and bound, every LP solve inside it: lp_backend.h) and the
// rounding + exact check of the incumbent. Each CBC call gets what is left of the budget
// when it starts (RemainingBudgetSeconds); nothing left: the S is not solved
// (kTimeLimit, time_limit_reached). Not counted: the exact lower bound tb_lower_bound,
// computed after the search (polynomial). The stage can overrun the budget by one
// uninterruptible step: a model build already started, a CBC step without a simplex iteration
// (a cut generator or rounding pass), and the exact check of the incumbent (milliseconds on
// seed 000 Table 6's sizes; all are polynomial). A solve stopped by the budget never claims
// optimality or infeasibility (its CBC bound is dropped when an LP was cut short); its gap is
// measured against the exact cut bound.
//
// Every solution is rounded to 0/1, converted into a StepSchedule (empty steps removed,
// consecutive chunks of one send merged) and run through proofs_check's step checker; the
// reported T_L and T_B are the checker's exact values. Optimality: CBC's proof is in
// double precision, so the result is *certified* optimal only when the checker's T_B equals
// an exact lower bound (the cut bound ratio* of seed 004 eq. (1),
// solvers/pipeline/allgather_optimum.h, valid for every schedule; or, when CBC proved it, the
// P-chunk optimum is claimed as such).
//
// Complexity: NP-hard in general (that is the point of the comparison); the program has
// O(N·P·E·S) binaries. Intended for N <= ~30. Preconditions (InputError otherwise): a
// switchless topology, compute nodes strongly connected, N >= 2, 1 <= P <= kMaxMilpChunks,
// C >= 0 (>= 1 for kLeastSteps), 1 <= min_steps <= max_steps <= kMaxMilpSteps when given.
// The library never prints; CBC's log is switched off (lp_backend.h).
#ifndef COLLSYNTH_SOLVERS_BFB_STEP_MILP_H_
#define COLLSYNTH_SOLVERS_BFB_STEP_MILP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/step_schedule.h"

namespace collsynth {

inline constexpr int kMaxMilpChunks = 64;
inline constexpr int kMaxMilpSteps = 64;
// Above this many binaries a solve is refused (StepMilpOutcome::kTooLarge), not attempted.
inline constexpr std::int64_t kMaxMilpBinaries = 2000000;

enum class StepMilpObjective { kBandwidth, kLeastSteps };
std::string ToString(StepMilpObjective objective);

enum class StepMilpOutcome {
  kOptimal,      // CBC proved optimality (feasibility for kLeastSteps)
  kFeasible,     // time limit hit with an incumbent: a valid schedule, optimality unknown
  kInfeasible,   // no schedule with these S, P, C
  kTimeLimit,    // time limit hit without a feasible solution
  kTooLarge,     // more than kMaxMilpBinaries binaries: not attempted
  kSolverError,  // numerical trouble or a solution the checker rejects (a bug)
};
std::string ToString(StepMilpOutcome outcome);

struct StepMilpOptions {
  StepMilpObjective objective = StepMilpObjective::kBandwidth;
  int chunks = 1;                  // P
  int capacity = 0;                // C chunks per unit link per step; 0 = unlimited
  int min_steps = 0;               // 0 = D(G)
  int max_steps = 0;               // 0 = min_steps
  double time_limit_seconds = 60;  // total over the S search; <= 0 = none
  bool standard_cuts = true;       // CBC cut generators and heuristics (lp_backend.h)
  std::string file = "<topology>";
};

// One CBC solve (fixed S).
struct StepMilpSolve {
  int steps = 0;  // S (the schedule may use fewer: empty steps are removed)
  StepMilpOutcome outcome = StepMilpOutcome::kSolverError;
  std::int64_t binaries = 0;
  std::int64_t rows = 0;
  double cbc_objective = 0;      // T_B by CBC (doubles)
  double cbc_bound = 0;          // CBC's proven lower bound on T_B (doubles; 0 for least-steps)
  bool cbc_bound_valid = false;  // CBC proved cbc_bound (false when the budget cut an LP short)
  double seconds = 0;            // build + solve + check
  double cbc_time_limit = 0;     // seconds given to CBC: the budget left when it started (0: none
                                 // or CBC not called)
  bool time_limit_reached = false;  // stopped by the budget (kFeasible / kTimeLimit)
  bool has_schedule = false;        // kOptimal or kFeasible
  StepSchedule schedule;            // allgather, chunks k/P, claimed_tl/tb set from the checker
  bool verified = false;            // the step checker accepted the schedule
  std::vector<std::string> check_errors;  // the checker's first violations otherwise
  int tl = 0;                             // checker's T_L (comm steps)
  Rational tb;                            // checker's T_B (shard units, Σ_t max_e load/b_e)
};

struct StepMilpResult {
  std::vector<StepMilpSolve> solves;  // one per S tried, in order
  int best = -1;            // index into solves: least T_B (then fewest steps) among verified
                            // schedules; kLeastSteps: the first verified one; -1 when none
  int diameter = 0;         // D(G): no schedule has fewer steps
  Rational tb_lower_bound;  // ratio* (cut bound, shard units); computed only with a schedule
  bool certified_optimal = false;   // the best schedule's T_B equals tb_lower_bound
  bool time_limit_reached = false;  // the budget stopped a solve or the S search
  double seconds = 0;               // the budgeted stage (see "Time limit" above)
  const StepMilpSolve* Best() const { return best < 0 ? nullptr : &solves[best]; }
};

StepMilpResult SynthesizeStepMilp(const Topology& g, const StepMilpOptions& options = {});

// One solve at fixed S = steps (SynthesizeStepMilp calls it per S), with its own budget
// (counted from entry, as above).
StepMilpSolve SolveStepMilpOnce(const Topology& g, int steps, const StepMilpOptions& options,
                                double time_limit_seconds);

// The budget arithmetic: seconds left of a `budget_seconds` stage after `elapsed_seconds`
// (budget - elapsed; <= 0 means exhausted), +infinity when budget_seconds <= 0 (no limit).
double RemainingBudgetSeconds(double budget_seconds, double elapsed_seconds);

// Relative gap of a schedule against a lower bound: (tb - bound) / tb, exact; 0 when tb <= 0.
Rational RelativeGap(const Rational& tb, const Rational& bound);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BFB_STEP_MILP_H_
