// FlatStepSchedule: a "steps" schedule (step_schedule.h; seed 000 Def. 6) with flat per-send
// arrays and each interval endpoint an index into one table of values: what the fast reader
// of "steps" text gives for a check (steps_text_reader.h; docs/performance.md, "A fast steps
// path"), and what the step checker reads directly (proofs_check/step_checker.h), without a
// Rational or a vector per send. Same semantics as StepSchedule: StepsFromFlat gives the
// StepSchedule it stands for (send i of one is send i of the other). Node fields are Topology
// node ids. A data type only; never prints.
#ifndef COLLSYNTH_SCHEDULES_FLAT_STEP_SCHEDULE_H_
#define COLLSYNTH_SCHEDULES_FLAT_STEP_SCHEDULE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "core/rational.h"
#include "schedules/collective.h"
#include "schedules/step_schedule.h"

namespace collsynth {

struct FlatStepSchedule {
  Collective collective = Collective::kAllgather;
  std::optional<int> root;
  std::optional<int> rs_steps;
  std::optional<int> claimed_tl;
  std::optional<Rational> claimed_tb;
  nlohmann::json extra = nlohmann::json::object();
  std::vector<int> source, from, to, step;      // per send
  std::vector<std::int64_t> interval_begin{0};  // send i: intervals [begin[i], begin[i+1])
  std::vector<std::int32_t> lo, hi;             // per interval: indices into values
  std::vector<Rational> values;                 // endpoint values (a value may repeat)

  std::size_t num_sends() const { return source.size(); }
};

// The StepSchedule `f` stands for: interval q of a send is [values[lo[q]], values[hi[q]]).
StepSchedule StepsFromFlat(const FlatStepSchedule& f);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_FLAT_STEP_SCHEDULE_H_
