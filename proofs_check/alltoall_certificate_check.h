// Checker of the all-to-all throughput certificate (schedules/alltoall_flow.h), written from
// the definition of the maximum concurrent flow and its LP duality, apart from the producer
// (solvers/alltoall/): it recomputes everything it reports.
// - primal: every flow value >= 0; without relay, a commodity leaves no compute node but its
//   source; at every node v other than the source, inflow - outflow = λ·d(s, v) exactly
//   (0 for switches and unrequested nodes); every link's total load <= its bandwidth; λ > 0.
//   Then λ* >= λ.
// - dual: every length ℓ_e >= 0; dist_ℓ(s, t) by its own Dijkstra (exact rationals; without
//   relay only through switches); upper = Σ_e c_e ℓ_e / Σ d_st dist_ℓ(s, t) (the denominator must
//   be > 0). Then λ* <= upper (weak duality: a flow of λ·d pays λ·Σ d dist_ℓ <= Σ c ℓ).
// Verdict ok = both parts hold and upper == λ (then λ* = λ exactly).
// Complexity: O(K·(V + E)) for the primal, O(S·E log V) rational operations for the dual
// (S = distinct demand sources).
#ifndef COLLSYNTH_PROOFS_CHECK_ALLTOALL_CERTIFICATE_CHECK_H_
#define COLLSYNTH_PROOFS_CHECK_ALLTOALL_CERTIFICATE_CHECK_H_

#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"

namespace collsynth {

struct AlltoallCheckReport {
  bool primal_ok = false;  // the flow is feasible at λ
  bool dual_ok = false;    // ℓ >= 0, every demand pair connected, Σ d dist > 0
  bool ok = false;         // both, and upper == λ
  std::string violation;   // the first violation, naming commodity/node/link; "" when ok
  Rational lower;          // λ (when primal_ok)
  Rational upper;          // Σ c ℓ / Σ d dist_ℓ (when dual_ok)
};

// Checks `cert` against `g`. Never throws on a malformed certificate (sizes, ids): it is a
// violation.
AlltoallCheckReport CheckAlltoallCertificate(const Topology& g, const AlltoallCertificate& cert);

// The dual part alone: for lengths ℓ (one per link id), "" and *upper = Σ_e c_e ℓ_e /
// Σ d_st dist_ℓ(s, t) >= λ* when ℓ is a valid length function (every ℓ_e >= 0, every demand pair
// connected, Σ d dist > 0); otherwise the problem (naming the link or pair). 1 / *upper is then
// a lower bound on the time T of every routing of `demand` (proofs_check/flow_checker.h uses it
// for the "lengths" of a flows file). The demand is assumed well formed.
std::string AlltoallDualBound(const Topology& g, const DemandMatrix& demand,
                              const std::vector<Rational>& length, bool relay, Rational* upper);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_ALLTOALL_CERTIFICATE_CHECK_H_
