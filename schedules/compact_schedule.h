// CompactStepSchedule: the "steps-compact" schedule format, an exact re-encoding of the
// "steps" format (seed 000 Def. 6; docs/formats.md, "Compact steps") for large schedules.
// The sends of one comm step are grouped by link (from, to), and every interval endpoint of
// that step is an integer numerator over one common denominator of the step, so a send costs
// a few integers instead of an object with four strings and a list of "p/q" pairs. Same
// semantics as StepSchedule (one compact send = one StepSend); the checker reads it directly
// (step_checker.h) without a Rational per endpoint.
//
// Limits: numerators and per-step denominators are int64; a schedule whose step needs a
// larger common denominator has no compact form (CompactFromSteps returns nullopt) and is
// written as "steps". Node fields are Topology node ids; the file lists node names once.
// Cost: conversions and I/O are linear in the number of intervals. Never prints.
#ifndef COLLSYNTH_SCHEDULES_COMPACT_SCHEDULE_H_
#define COLLSYNTH_SCHEDULES_COMPACT_SCHEDULE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/step_schedule.h"

namespace collsynth {

// All sends of one comm step (a step number may appear in several CompactSteps).
struct CompactStep {
  int step = 0;                    // 1-based
  std::int64_t denominator = 1;    // every endpoint of this step is numerator / denominator
  std::vector<std::int32_t> from;  // per link record
  std::vector<std::int32_t> to;
  std::vector<std::int64_t> record_begin{
      0};                            // sends of record r: [record_begin[r], record_begin[r+1])
  std::vector<std::int32_t> source;  // per send: whose shard
  std::vector<std::int64_t> interval_begin{
      0};                        // intervals of send i: [interval_begin[i], interval_begin[i+1])
  std::vector<std::int64_t> lo;  // per interval: numerators, 0 <= lo < hi <= denominator
  std::vector<std::int64_t> hi;

  std::size_t num_sends() const { return source.size(); }
  // Appends a link record; then AddSend/AddInterval fill it.
  void AddRecord(int from_node, int to_node);
  void AddSend(int source_node);
  void AddInterval(std::int64_t lo_num, std::int64_t hi_num);
};

struct CompactStepSchedule {
  Collective collective = Collective::kAllgather;
  std::optional<int> root;
  std::optional<int> rs_steps;
  std::optional<int> claimed_tl;
  std::optional<Rational> claimed_tb;
  nlohmann::json extra = nlohmann::json::object();
  std::vector<CompactStep> steps;

  std::size_t num_sends() const;
};

// Copies the header fields shared by both forms (collective, root, rs_steps, claims).
template <typename From, typename To>
void CopyStepHeader(const From& from, To& to) {
  to.collective = from.collective;
  to.root = from.root;
  to.rs_steps = from.rs_steps;
  to.claimed_tl = from.claimed_tl;
  to.claimed_tb = from.claimed_tb;
}

// Exact conversions. CompactFromSteps groups the sends of each step by link (in order of
// first appearance) and returns nullopt when a step's common denominator or a numerator
// does not fit int64. StepsFromCompact lists the sends step record by record.
std::optional<CompactStepSchedule> CompactFromSteps(const StepSchedule& s);
StepSchedule StepsFromCompact(const CompactStepSchedule& c);

// The file: {"format": "steps-compact", "collective", "root"?, "rs_steps"?, "tl"?, "tb"?,
// "nodes": [name, ...], "steps": [{"step": t, "den": L, "links": [[from, to, [source, n,
// lo_1, hi_1, ..., lo_n, hi_n, source, ...]], ...]}, ...]} plus producer metadata; node fields
// are indices into "nodes". Written as text directly (no JSON tree for the sends).
std::string CompactStepScheduleToText(const CompactStepSchedule& c, const Topology& g);
// The same bytes written to `out` 16 KiB at a time (core/json_writer.h), never held whole;
// the stream's state says whether they were written.
void WriteCompactStepScheduleText(const CompactStepSchedule& c, const Topology& g,
                                  std::ostream& out);
// Reads it; InputError(file, "steps[i].links[j]...", ...) on malformed entries.
CompactStepSchedule CompactStepScheduleFromJson(const nlohmann::json& j, const Topology& g,
                                                const std::string& file);
// The "steps" JSON document of c (the contract), streamed as text: equal as JSON to
// StepScheduleToJsonText(StepsFromCompact(c), g) without building Rationals or a JSON tree.
std::string StepsJsonTextFromCompact(const CompactStepSchedule& c, const Topology& g);
// The same bytes written to `out` as WriteCompactStepScheduleText writes.
void WriteStepsJsonFromCompact(const CompactStepSchedule& c, const Topology& g, std::ostream& out);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_COMPACT_SCHEDULE_H_
