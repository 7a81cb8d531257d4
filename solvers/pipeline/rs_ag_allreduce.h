// Allreduce as reduce-scatter then allgather (seed 004 §5 and Appendix B), composed once for the
// plain pipeline schedule (pipeline_schedule_builder.h) and the symmetric one
// (symmetric_pipeline.h): the phases in order, T_B the sum of the phases' (the ratio of an RS+AG
// schedule), U and k of the allgather phase; then the certificate of the allreduce lower bound
// max((6), (7)) that T_B attains — the (6) cut S (N / B+(S)) and/or the (7) cuts S_v, one per
// compute node (2(N-1) / max_v B+(S_v)) — carried by the schedule for the checker, returned typed,
// and recorded in the schedule's extras "allreduce_lower_bound" and "rs_ag_optimal" (written from
// the typed value, never read back). O(N) plus the copies of the cuts.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_RS_AG_ALLREDUCE_H_
#define COLLSYNTH_SOLVERS_PIPELINE_RS_AG_ALLREDUCE_H_

#include <optional>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "schedules/collective.h"

namespace collsynth {

struct RsAgCertificate {
  Rational lower_bound;  // max of bounds (6) and (7), in units of M/N
  bool attains_bound6 = false;
  bool attains_bound7 = false;
  bool rs_ag_optimal = false;  // as recorded: RS+AG proven optimal (see CertifyRsAgAllreduce)
};

// Schedule: PipelineSchedule or SymmetricPipelineSchedule (the same fields for this).
template <class Schedule>
Schedule ComposeRsAgAllreduce(Schedule reduce_scatter, Schedule allgather) {
  Schedule s;
  s.collective = Collective::kAllreduce;
  s.ratio = reduce_scatter.ratio + allgather.ratio;
  s.U = allgather.U;
  s.k = allgather.k;
  s.phases.push_back(std::move(reduce_scatter));
  s.phases.push_back(std::move(allgather));
  return s;
}

// Attaches to `s` (a composed allreduce) the (6) cut when s.ratio == bound6 (and a cut is
// given) and the (7) cuts when s.ratio == bound7. `rs_ag_optimal`: the caller's proof that RS+AG
// is optimal (Theorem 19, ComputeAllreduceBounds), or nullopt for s.ratio == max(bound6, bound7).
template <class Schedule>
RsAgCertificate CertifyRsAgAllreduce(Schedule& s, const Rational& bound6,
                                     const std::optional<std::vector<int>>& cut6,
                                     const Rational& bound7,
                                     std::vector<std::vector<int>> single_cuts,
                                     std::optional<bool> rs_ag_optimal = std::nullopt) {
  RsAgCertificate c;
  c.lower_bound = bound6 > bound7 ? bound6 : bound7;
  c.attains_bound6 = cut6 && s.ratio == bound6;
  c.attains_bound7 = s.ratio == bound7;
  c.rs_ag_optimal = rs_ag_optimal.value_or(s.ratio == c.lower_bound);
  if (c.attains_bound6) s.bottleneck_cut = *cut6;
  if (c.attains_bound7) s.single_node_cuts = std::move(single_cuts);
  s.extra["allreduce_lower_bound"] = ToString(c.lower_bound);
  s.extra["rs_ag_optimal"] = c.rs_ag_optimal;
  return c;
}

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_RS_AG_ALLREDUCE_H_
