// Checker of a "flows-symmetric" schedule (schedules/symmetric_flow_schedule.h, docs/formats.md
// "Symmetric flows schedule JSON"), WITHOUT expanding it, from the argument of docs/alltoall.md
// "Symmetric all-to-all": written apart from any producer (no solvers/ header).
// - group: every generator is an automorphism of the topology (graphs/symmetry.h), the generators
//   commute pairwise, gen_i^{n_i} = identity (every cycle length divides n_i), Π n_i = N (the
//   compute nodes), every compute node s is listed once in `sources` and its exponents give
//   g_s(root) = s (own cycle arithmetic). Then H = {g_s} has exactly N elements and acts
//   regularly on the compute nodes, so the expansion gives every source its pairs once.
// - the root's paths: checked by the plain checker (proofs_check/flow_checker.h) as a schedule of
//   the demand {(root, t): t a compute node} (every destination once, shares > 0 summing to 1,
//   paths along links, the relay rule).
// - time: f(e) = Σ share over the root's paths through e; link orbits of H by union-find over
//   the generator images; the expansion loads every link of orbit O with N·f(O)/|O|
//   (docs/alltoall.md), so T = max_O N·f(O) / (|O|·b_O), computed here; it must equal `time`.
// - lengths (optional): the listed links' lengths extended to their orbits (two listed links of
//   one orbit with different lengths: "not H-invariant", invalid); the bound B = N·Σ_t dist_ℓ(r,
//   t) / Σ_e b_e ℓ_e, dist_ℓ by the certificate checker's own Dijkstra from the root
//   (AlltoallDualBound, proofs_check/alltoall_certificate_check.h), is a lower bound on the T of
//   every routing of the uniform demand; `optimal` when T = B.
// Verdicts and report as the plain checker's (FlowCheckReport; `pairs`/`paths` count the root's,
// `link_orbits` and `group_order` are set). Cost O(m·(V + E) + m² V + N·m + root's paths + E log
// V Dijkstra), never Θ(N²). Never prints.
#ifndef COLLSYNTH_PROOFS_CHECK_SYMMETRIC_FLOW_CHECKER_H_
#define COLLSYNTH_PROOFS_CHECK_SYMMETRIC_FLOW_CHECKER_H_

#include "graphs/topology.h"
#include "proofs_check/flow_checker.h"
#include "schedules/symmetric_flow_schedule.h"

namespace collsynth {

FlowCheckReport CheckSymmetricFlowSchedule(const Topology& g, const SymmetricFlowSchedule& s,
                                           int max_errors = 10);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_SYMMETRIC_FLOW_CHECKER_H_
