// The certificate of a lower bound on the ratio of every pipeline schedule of bounded height
// (docs/min_height.md "A ratio bound at each height"): data only, no algorithm. The producer is
// solvers/pipeline/height_bound.h, the checker proofs_check/height_bound_check.h; the type lives
// here, below both, so the checker never includes a producer header.
//
// Statement (proved in docs/min_height.md): fix h >= 0. Data flows along a link e from its tail to
// its head (allgather; for reduce-scatter, whose data climbs the trees over the reversed routes,
// head and tail are swapped: the head of u -> v is u). The certificate gives
//  - pairs i: a root r_i and a target t_i (distinct compute nodes) and lengths μ_i >= 0 on
//    the links; d_i is the least μ_i-length of a walk of at most h links from r_i to t_i
//    (allgather; from t_i to r_i over links for reduce-scatter);
//  - per root r, free potentials σ_r(v) on compute nodes v != r ("each tree enters v once") and
//    ψ_r(s) on switches ("a route leaves every switch it enters").
// For a root r and a link e whose head is not r, let
//    c_r(e) = Σ_{i: r_i = r} μ_i(e) + σ_r(head e) + ψ_r(head e) - ψ_r(tail e)
// (σ_r at compute heads, ψ_r at switch ends, absent values 0), and w_e = max(0, max_r c_r(e)).
// Then every pipeline schedule (seed 004 §2, docs/formats.md) of height <= h has
//    ratio >= (Σ_i d_i + Σ_r Σ_v σ_r(v)) / Σ_e b_e·w_e.
// It is the dual of the hop-bounded relaxation of solvers/pipeline/height_bound.h.
// Exact: every length is a Rational.
#ifndef COLLSYNTH_SCHEDULES_HEIGHT_BOUND_CERTIFICATE_H_
#define COLLSYNTH_SCHEDULES_HEIGHT_BOUND_CERTIFICATE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "schedules/collective.h"

namespace collsynth {

struct HeightBoundPair {
  int root = -1;    // compute node id
  int target = -1;  // compute node id, != root
  // Sparse μ_i: (link id, length >= 0); absent links have length 0.
  std::vector<std::pair<int, Rational>> lengths;
};

// The potentials of one root (sparse; absent nodes have 0).
struct HeightBoundRoot {
  int root = -1;
  std::vector<std::pair<int, Rational>> receive;  // σ_r(v): compute node v != root
  std::vector<std::pair<int, Rational>> forward;  // ψ_r(s): switch s
};

struct HeightBoundCertificate {
  Collective collective = Collective::kAllgather;  // allgather or reduce-scatter
  std::int64_t max_height_hops = 0;                // h
  std::vector<HeightBoundPair> pairs;
  std::vector<HeightBoundRoot> roots;
};

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_HEIGHT_BOUND_CERTIFICATE_H_
