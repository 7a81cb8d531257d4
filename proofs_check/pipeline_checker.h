// Model checker for pipeline schedules (seed 004 §1-2, Appendices A-B), written from the
// definitions, independent of the producers: trees are spanning arborescences over the
// compute nodes, routes are walks over existing links with only switches inside, route
// multiplicities add up, each root's trees sum to k, link loads <= U·b_e; recomputes the
// ratio max_e load_e/(k·b_e) and, when a bottleneck cut is claimed, |S ∩ V_c| / B+(S).
#ifndef COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECKER_H_
#define COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECKER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "graphs/rational.h"
#include "graphs/topology.h"
#include "proofs_check/pipeline_schedule.h"

namespace collsynth {

struct PipelineCheckReport {
  bool ok = false;
  std::vector<std::string> errors;  // first violations: tree, edge, route, link
  Rational ratio;                   // recomputed runtime ratio (T_B / (M/N))
  std::optional<Rational> cut_ratio;  // |S ∩ V_c| / B+(S) of the claimed cut
  bool certified_optimal = false;     // cut_ratio == ratio
  std::string verdict;                // "optimal (certified)", "valid", "invalid"
  nlohmann::json ToJson() const;      // {"ok", "ratio", "errors", "verdict", ...}
};

PipelineCheckReport CheckPipelineSchedule(const Topology& g, const PipelineSchedule& s,
                                          int max_errors = 10);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECKER_H_
