// Checker of the ratio-at-height certificate (schedules/height_bound_certificate.h), written from
// its statement (docs/min_height.md "A ratio bound at each height"), apart from the producer
// (solvers/pipeline/height_bound.h): it recomputes everything it reports.
// - form: h >= 0; the collective is allgather or reduce-scatter; every pair's root and target
//   are distinct compute nodes; every link id exists and every length is >= 0; σ is given on
//   compute nodes other than its root, ψ on switches;
// - d_i: the least μ_i-length of a walk of at most h links from r_i to t_i (t_i to r_i for
//   reduce-scatter), by h rounds of Bellman–Ford in exact rationals;
// - c_r(e) and w_e as the certificate's header states; bound = (Σ d_i + Σ σ) / Σ_e b_e·w_e.
// Every pipeline schedule of height <= h then has ratio >= bound. When some pair has no walk
// of <= h links at all, no schedule of height <= h exists (`no_schedule`; the eccentricity
// bound, docs/formats.md "Height", says the same).
// Complexity: O(P·h·E) rational operations for P pairs (a Bellman–Ford per pair), O((P + R)·E)
// for w over R roots.
#ifndef COLLSYNTH_PROOFS_CHECK_HEIGHT_BOUND_CHECK_H_
#define COLLSYNTH_PROOFS_CHECK_HEIGHT_BOUND_CHECK_H_

#include <cstdint>
#include <string>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/height_bound_certificate.h"

namespace collsynth {

struct HeightBoundReport {
  bool ok = false;        // the certificate is well formed (then `bound` holds)
  std::string violation;  // the first problem, naming the pair and link; "" when ok
  // Every schedule of height <= h has ratio >= bound (0 when Σ b_e·w_e = 0 or the numerator is
  // not positive: nothing bounded).
  Rational bound;
  bool no_schedule = false;  // some pair has no walk of <= h links: no schedule that low
  std::int64_t max_height_hops = 0;
};

// Never throws on a malformed certificate (ids, sizes, negative lengths): it is a violation.
HeightBoundReport CheckHeightBoundCertificate(const Topology& g, const HeightBoundCertificate& c);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_HEIGHT_BOUND_CHECK_H_
