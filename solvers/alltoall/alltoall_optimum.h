// The exact all-to-all throughput optimum: the maximum concurrent flow λ* of a demand matrix
// (schedules/alltoall_flow.h) on a topology, with its primal and dual certificate
// (TopoOpt's routing that "minimizes the maximum link utilization", seed 002 §5.5, solved
// exactly). docs/cli.md "## optimum".
//
// Method (STYLE.md rule 8): the source-aggregated multicommodity-flow LP (one commodity per
// source, a flow variable per commodity and link, conservation rows per commodity and node,
// one capacity row per link; max λ; the demand scaled to largest entry 1) is solved with CLP in
// double. Its answer is a hint:
// - dual: the capacity rows' duals (normalized to max 1, rounded to fractions with denominator
//   <= D by continued fractions) are a length function ℓ >= 0 with the exact bound
//   λ_hi = Σ c ℓ / Σ d dist_ℓ >= λ*;
// - primal, two candidates: (1) ECMP over ℓ-shortest paths (complementary slackness: optimal
//   flows use only ℓ-shortest paths), and first over hop and 1/c lengths (no dual needed),
//   exact and scaled to the least c_e / load_e; it meets λ_hi on link-transitive topologies
//   (tori, hypercubes, rings, complete graphs); (2) the LP flow decomposed into paths, each path's
//   share of its pair rounded at D, normalized, aimed at λ_hi and scaled into the bandwidths;
// every candidate is checked by proofs_check/alltoall_certificate_check.h; D grows
// (10^2 .. 10^12) until the best λ_lo == the best λ_hi. Only then is λ* reported (kCertified);
// otherwise the exact bounds (kNotCertified): the LP's vertex on large degenerate instances
// (genkautz at N = 64) is not recovered by rounding, and no float is ever reported.
// Complexity: one LP with K·E + 1 columns and K·V + E rows (K = sources), O(K·E) path
// extraction, O(P·E) rational operations for the split (P = pairs) and O(K·E log V) exact
// Dijkstra per denominator tried.
// Precondition: every demand pair is connected (under the relay rule); the demand is well
// formed (proofs_check's rules). Number types: exact Rational, double only inside CLP.
#ifndef COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_OPTIMUM_H_
#define COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_OPTIMUM_H_

#include <string>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"

namespace collsynth {

enum class AlltoallOutcome {
  kCertified,     // certificate.lambda == λ*, both certificates checked
  kNotCertified,  // exact bounds lower < upper only (no denominator closed the gap)
  kLpFailed,      // CLP did not report an optimum (detail says which outcome)
};

std::string ToString(AlltoallOutcome outcome);

struct AlltoallOptions {
  bool relay = true;  // compute nodes other than the source may forward
};

struct AlltoallOptimum {
  AlltoallOutcome outcome = AlltoallOutcome::kLpFailed;
  std::string detail;
  AlltoallCertificate certificate;            // when kCertified: lambda = λ*
  Rational lower, upper;                      // exact bounds on λ* (equal when kCertified)
  bool has_lower = false, has_upper = false;  // whether a checked flow / length gave them
  double lp_lambda = 0.0;                     // CLP's hint (never reported as a result)
  int lp_columns = 0, lp_rows = 0;
  long long denominator = 0;  // the bound D that certified
};

// The maximum concurrent flow of `demand` on `g`, certified exactly.
AlltoallOptimum ComputeAlltoallOptimum(const Topology& g, const DemandMatrix& demand,
                                       const AlltoallOptions& options = {});

// Which demand pair has no path (under the relay rule), as "s->t", or "" when all do. O(S·E).
std::string DisconnectedDemandPair(const Topology& g, const DemandMatrix& demand, bool relay);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_OPTIMUM_H_
