// Model checker for step schedules (seed 000 Appendix A Def. 6/7, Appendix B Thm 5-7,
// Appendix D Def. 15 / Thm 14), written from the definitions, independent of the producers.
// Exact: sweeps the elementary intervals cut by all chunk endpoints of each source shard.
#ifndef COLLSYNTH_PROOFS_CHECK_STEP_CHECKER_H_
#define COLLSYNTH_PROOFS_CHECK_STEP_CHECKER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "graphs/rational.h"
#include "graphs/topology.h"
#include "proofs_check/step_schedule.h"

namespace collsynth {

struct StepCheckOptions {
  bool check_bandwidth_optimal = false;  // Thm 7: T_B == (N-1)/N · M/B on a regular graph
  bool check_bfb = false;                // Def. 15 / Thm 14
  bool check_no_duplicates = false;      // no node receives the same element twice
  int max_errors = 10;
};

struct StepCheckReport {
  bool ok = false;
  std::vector<std::string> errors;  // first violations, each naming source, interval, node, step or link
  int tl = 0;                       // number of comm steps T_L
  Rational tb;                      // sum_t max_link data(t)/bandwidth, in shard units
  std::optional<bool> bandwidth_optimal;
  std::optional<bool> bfb;
  std::optional<bool> no_duplicates;
  nlohmann::json ToJson() const;  // {"ok", "tl", "tb", "errors", ...}
};

StepCheckReport CheckStepSchedule(const Topology& g, const StepSchedule& s,
                                  const StepCheckOptions& options = {});

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_STEP_CHECKER_H_
