// StepSchedule: the "steps" schedule format (seed 000 Def. 6): a list of sends
// ((source, chunk), (from, to), step). This is a data type plus its JSON contract
// (docs/formats.md), shared by producers (solvers/) and the checker; it holds no logic
// beyond (de)serialization. Node fields are Topology node ids.
#ifndef COLLSYNTH_SCHEDULES_STEP_SCHEDULE_H_
#define COLLSYNTH_SCHEDULES_STEP_SCHEDULE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"

namespace collsynth {

// Half-open interval [lo, hi) of a shard, 0 <= lo < hi <= 1.
struct Interval {
  Rational lo;
  Rational hi;
};

struct StepSend {
  int source = -1;              // whose shard (compute node id)
  std::vector<Interval> chunk;  // union of half-open intervals of that shard
  int from = -1;                // sender
  int to = -1;                  // receiver (must be linked from `from`)
  int step = 0;                 // 1-based comm step; the checker rejects steps outside 1..T
};

struct StepSchedule {
  // Allgather, reduce-scatter, allreduce (RS then AG, steps numbered on) or broadcast.
  Collective collective = Collective::kAllgather;
  std::optional<int> root;  // broadcast only
  // allreduce: the last step of the reduce-scatter phase (steps > rs_steps are allgather);
  // the checker rejects values outside 0..T.
  std::optional<int> rs_steps;
  std::vector<StepSend> sends;
  // Optional claims the checker recomputes and compares: T_L (steps) and T_B (shard units).
  std::optional<int> claimed_tl;
  std::optional<Rational> claimed_tb;
  nlohmann::json extra = nlohmann::json::object();  // producer metadata, passed through
};

// Reads {"format": "steps", ...}; InputError(file, "sends[i]", ...) on malformed entries,
// unknown nodes, bad intervals.
StepSchedule StepScheduleFromJson(const nlohmann::json& j, const Topology& g,
                                  const std::string& file);
// Whether `key` is a top-level member of the "steps" format (docs/formats.md); any other
// member is producer metadata, kept in `extra`.
bool IsStepScheduleMember(const std::string& key);
// The document, streamed through JsonWriter (core/json_writer.h) in the order and bytes of a
// JSON tree's dump (sorted members; tests/fixtures/json_tree_writers.h is the reference),
// without building the tree. What `baseline`, `schedule expand` and `bfb` (when the
// schedule has no compact form) write.
std::string StepScheduleToJsonText(const StepSchedule& s, const Topology& g);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_STEP_SCHEDULE_H_
