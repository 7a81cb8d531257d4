// The certified optimal all-to-all flow as a "flows" schedule (schedules/flow_schedule.h): the
// certificate's exact per-source flow (schedules/alltoall_flow.h, one commodity per source) is
// decomposed into paths, exactly. Per commodity s, for each destination t with λ·d_st still to
// route, the walk goes backwards from t along links that still carry flow (conservation
// guarantees one: a node that forwards receives at least as much) until it reaches s; a node met
// twice closes a cycle, whose least flow is cancelled (removing a cycle only lowers loads); the
// path then carries min(rest of λ·d_st, least flow on its links), which zeroes a link or the
// rest, so the walk ends after at most E + |destinations| paths per commodity. Each path's share
// is its amount / (λ·d_st): the shares of a pair sum to exactly 1, every link carries at most
// what the certificate put on it, so the loads of the schedule are at most c_e/λ per unit
// demand and its time is T = 1/λ (the claim written; proofs_check/flow_checker.h recomputes it).
// Without relay the certificate's flow leaves no compute node but the source, so no path relays
// at one. Precondition: the certificate passed proofs_check/alltoall_certificate_check.h.
// Cost: O(K·(E + P)·V) link scans and exact rational operations (P = pairs).
#ifndef COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_PATHS_H_
#define COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_PATHS_H_

#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"
#include "schedules/flow_schedule.h"

namespace collsynth {

// `uniform`: the demand is UniformDemand(g) and is written as "uniform".
FlowSchedule FlowScheduleFromCertificate(const Topology& g, const AlltoallCertificate& cert,
                                         bool uniform);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_PATHS_H_
