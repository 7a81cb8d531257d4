// Model checker for step schedules (seed 000 Appendix A Def. 6/7, Appendix B Thm 5-7,
// Appendix D Def. 15 / Thm 14), written from the definitions, independent of the producers.
// Exact: sweeps the elementary intervals cut by all chunk endpoints of each source shard.
// Cost: O(S + Σ_v (N · I_v + S_v · I_v)) for S sends, S_v of them carrying v's shard cut into
// I_v elementary intervals, plus one BFS per source with check_bfb. Loads are summed in int64
// over a common denominator when one fits (else exactly as Rationals).
#ifndef COLLSYNTH_PROOFS_CHECK_STEP_CHECKER_H_
#define COLLSYNTH_PROOFS_CHECK_STEP_CHECKER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/compact_schedule.h"
#include "schedules/flat_step_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth {

// Why a schedule fails; tests assert on these, the CLI prints the messages.
enum class StepViolationKind {
  kMissingLink,          // a send over a link the topology does not have
  kBadSource,            // the source is not a compute node / not the broadcast root
  kNotHeld,              // the sender does not hold the data before the send's step
  kMissing,              // some node never receives (a part of) a shard
  kDuplicate,            // a node receives the same element twice (--no-duplicates)
  kNotBfb,               // d(v,u) = d(v,w) + 1 = t violated (Def. 15 / Thm 14)
  kNotBandwidthOptimal,  // T_B above (N-1)/N · M/B (Thm 7 / Cor. 6.1)
  kWrongTl,              // the claimed "tl" differs from the recomputed T_L
  kWrongTb,              // the claimed "tb" differs from the recomputed T_B
  kStepOutOfRange,  // a send whose step is outside 1..T (T = "tl" if claimed, else the last step)
  kBadRsSteps,      // allreduce "rs_steps" outside 0..T
};

const char* StepViolationKindName(StepViolationKind kind);

// One violation in the orientation of the schedule as written (reduce-scatter violations
// found on the reversed schedule are translated back). Fields that do not apply are -1.
struct StepViolation {
  StepViolationKind kind = StepViolationKind::kMissing;
  int send_index = -1;  // index into StepSchedule::sends
  int source = -1;      // shard owner
  int node = -1;        // the node at fault (receiver lacking data, sender not holding it)
  int step = -1;
  std::optional<Interval> interval;  // the first offending element interval
  std::string message;
};

struct StepCheckOptions {
  bool check_bandwidth_optimal = false;  // Thm 7: T_B == (N-1)/N · M/B on a regular graph
  bool check_bfb = false;                // Def. 15 / Thm 14
  bool check_no_duplicates = false;      // no node receives the same element twice
  int max_errors = 10;
};

// The checker's verdict on a step schedule: kInvalid when any violation was found, else
// kValid plus the optional properties that were checked and hold (StepCheckOptions):
// bandwidth optimal (seed 000 Thm 7) and/or BFB (Def. 15).
enum class StepVerdict { kInvalid, kValid, kBandwidthOptimal, kBfb, kBandwidthOptimalBfb };
// "invalid", "valid", "valid, bandwidth optimal (Thm 7)", "valid, BFB (Def. 15)",
// "valid, bandwidth optimal (Thm 7), BFB (Def. 15)": the "verdict" of `collsynth verify`.
const char* StepVerdictName(StepVerdict v);

struct StepCheckReport {
  bool ok = false;
  std::vector<std::string>
      errors;  // first violations, each naming source, interval, node, step or link
  std::vector<StepViolation> violations;  // the same, structured (at most max_errors)
  std::int64_t num_violations = 0;        // all violations found (may exceed max_errors)
  int tl = 0;                             // number of comm steps T_L
  Rational tb;                            // sum_t max_link data(t)/bandwidth, in shard units
  std::optional<bool> bandwidth_optimal;
  std::optional<bool> bfb;
  std::optional<bool> no_duplicates;
  // (N-1)/B per phase (Thm 6), when the topology is regular with uniform link bandwidth.
  std::optional<Rational> bandwidth_lower_bound;
  StepVerdict verdict() const;  // from ok, bandwidth_optimal and bfb
};

StepCheckReport CheckStepSchedule(const Topology& g, const StepSchedule& s,
                                  const StepCheckOptions& options = {});
// The same check on the flat form (flat_step_schedule.h: what the fast reader of "steps" text
// gives), without a Rational per endpoint: the same report as on StepsFromFlat(s), send
// indices included.
StepCheckReport CheckStepSchedule(const Topology& g, const FlatStepSchedule& s,
                                  const StepCheckOptions& options = {});
// The same check on the compact form (compact_schedule.h), without a Rational per endpoint;
// send_index then counts sends in StepsFromCompact order. Same report as on
// StepsFromCompact(s).
StepCheckReport CheckStepSchedule(const Topology& g, const CompactStepSchedule& s,
                                  const StepCheckOptions& options = {});

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_STEP_CHECKER_H_
