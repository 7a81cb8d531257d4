// A certified lower bound on the ratio of every pipeline schedule of height <= h
// (docs/min_height.md "A ratio bound at each height"), and from it a height lower bound for
// schedules of a given ratio.
//
// Relaxation (P_h): for each root r a usage y_r(e) >= 0 of every link (a schedule's
// Σ route multiplicities over r's trees, / k), for each pair (r, t) a unit flow from r to t in
// the h-layered copy of the topology (a walk of <= h links; reduce-scatter: from t to r) with
// Σ_layers flow(e) <= y_r(e), and Σ_r y_r(e) <= b_e·z; minimise z. Every schedule of height
// <= h is a feasible point with z = its ratio (docs/min_height.md has the proof), so z* is a
// lower bound. CLP solves (P_h) in floating point; its duals of the rows
// Σ_layers flow(e) <= y_r(e) are the lengths μ_{r,t}(e) of the certificate
// (schedules/height_bound_certificate.h), rounded to rationals; any lengths >= 0 give a valid
// bound, so the rounding only loosens it, and the bound reported is the checker's
// (proofs_check/height_bound_check.h), recomputed exactly.
// Size: columns = Σ over pairs of the layered arcs that lie on some walk of <= h links (pruned by
// hop distances) + N·E; above options.max_columns no program is built (`why` says so).
// Collectives: allgather, reduce-scatter. Preconditions: none beyond a valid Topology; fewer
// than two compute nodes gives no bound (`why`).
#ifndef COLLSYNTH_SOLVERS_PIPELINE_HEIGHT_BOUND_H_
#define COLLSYNTH_SOLVERS_PIPELINE_HEIGHT_BOUND_H_

#include <cstdint>
#include <optional>
#include <string>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/height_bound_certificate.h"

namespace collsynth {

struct HeightBoundOptions {
  std::int64_t max_columns = 200000;  // columns of (P_h)
};

struct HeightBoundResult {
  // The certificate and what the checker makes of it; nullopt with `why` when no program was
  // built or CLP did not reach an optimum.
  std::optional<HeightBoundCertificate> certificate;
  std::string why;
  Rational bound;            // the checker's bound (every schedule of height <= h has ratio >= it)
  bool no_schedule = false;  // some pair is more than h links apart: no schedule that low
  double lp_value = 0;       // (P_h)'s optimum as CLP found it: a floating-point hint
  std::int64_t columns = 0;
};

// The tallest height that matters: (N - 1)·(S + 1) for N compute nodes and S switches. A tree
// has at most N - 1 edges from its root to a node, and a route with a repeated switch can be
// shortened to a simple one (at most S switches, S + 1 links) without adding load; so every
// schedule has one of ratio no larger and height at most this, and a bound at this height
// holds at every height above it (docs/min_height.md "A ratio bound at each height").
std::int64_t TallestUsefulHeight(const Topology& g);

// The bound at height h for `collective` (allgather or reduce-scatter; std::invalid_argument
// otherwise); for h above TallestUsefulHeight(g), the bound at that height (the certificate's
// max_height_hops says which height was solved). O(CLP on (P_h)) plus the check.
HeightBoundResult CertifyRatioAtHeight(const Topology& g, Collective collective, std::int64_t h,
                                       const HeightBoundOptions& options = {});

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_HEIGHT_BOUND_H_
