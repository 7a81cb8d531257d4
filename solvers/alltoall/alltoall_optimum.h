// The exact all-to-all throughput optimum: the maximum concurrent flow λ* of a demand matrix
// (schedules/alltoall_flow.h) on a topology, with its primal and dual certificate
// (TopoOpt's routing that "minimizes the maximum link utilization", seed 002 §5.5, solved
// exactly). docs/cli.md "## optimum".
//
// Method (STYLE.md rule 8): the source-aggregated multicommodity-flow LP (one commodity per
// source, a flow variable per commodity and link, conservation rows per commodity and node,
// one capacity row per link; max λ; the demand scaled to largest entry 1) is solved with CLP in
// double (dual simplex; the other CLP methods of solvers/backends/lp_backend.h are options,
// measured no faster here). Its answer is a hint:
// - exact basis (first): CLP's optimal basis is re-solved in rationals
//   (solvers/backends/exact_basis.h) on the same LP with exact coefficients: the basic flow
//   values and λ from B x_B = b, the row prices from y B = c_B; the capacity rows' prices give
//   the lengths ℓ = -y. When the basis is optimal in exact arithmetic this is an exact optimal
//   flow and an exact optimal dual, whatever their denominators (kautz(2,4), genkautz at
//   N = 64, whose vertices rounding does not recover). certified_by = "exact basis".
// - rounding (fallback, when the basis is degenerate or slightly infeasible in exact
//   arithmetic): the capacity rows' duals (normalized to max 1, rounded to fractions with
//   denominator <= D by continued fractions) are a length function ℓ >= 0 with the exact bound
//   λ_hi = Σ c ℓ / Σ d dist_ℓ >= λ*; primal candidates: (1) ECMP over ℓ-shortest paths
//   (complementary slackness: optimal flows use only ℓ-shortest paths), and first over hop and
//   1/c lengths (no dual needed), exact and scaled to the least c_e / load_e; it meets λ_hi on
//   link-transitive topologies (tori, hypercubes, rings, complete graphs); (2) the LP flow
//   decomposed into paths, each path's share of its pair rounded at D, normalized, aimed at
//   λ_hi and scaled into the bandwidths; D grows (10^2 .. 10^12) until the best λ_lo == the
//   best λ_hi. The exact basis's halves that the checker accepts on their own are bounds here
//   too. certified_by = "rounding".
// Regular-group reduction (first, when it applies): when the topology's declared automorphisms
// (graphs/topology.h) generate a group G acting regularly on the nodes (tori and hypercubes as
// generated; not circulant(...), which declares a reflection too) and the demand is G-invariant
// (the uniform all-to-all), averaging an optimal flow over G keeps it optimal, so one source's
// commodity suffices: with π_s the element mapping node 0 to s, the LP has source 0's flow f_0 per
// link, its conservation rows and one capacity row per link e: Σ_s f_0(π_s^-1(e)) <= c_e (E + 1
// columns, V - 1 + E rows instead of K·E + 1 and K·V + E). Its basis is re-solved exactly; the
// expanded flow f_s = f_0∘π_s^-1 and the group-averaged lengths ℓ̄(e) = (1/N) Σ_s ℓ(π_s(e))
// (G-invariant, so every source sees the reduced LP's distances and the checker's dual ratio equals
// the reduced LP's optimum) go to the checker; when it does not accept them, the source-aggregated
// LP above runs. certified_by = "regular group". Every candidate is checked by
// proofs_check/alltoall_certificate_check.h; only when a flow and a length meet is λ* reported
// (kCertified); otherwise the exact bounds (kNotCertified). No float is ever reported. Complexity:
// the regular-group reduction costs O(V·generators·(V + E)) to list the group and one LP with E + 1
// columns, V - 1 + E rows and V·E nonzeros; otherwise one LP with K·E + 1 columns and K·V + E rows
// (K = sources); the exact basis solve is sparse rational elimination on a system of at most K·V +
// E rows (near-triangular: each commodity's basic flows form a forest); the fallback adds O(K·E)
// path extraction, O(P·E) rational operations for the split (P = pairs) and O(K·E log V) exact
// Dijkstra per denominator tried. Precondition: every demand pair is connected (under the relay
// rule); the demand is well formed (proofs_check's rules). Number types: exact Rational, double
// only inside CLP.
#ifndef COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_OPTIMUM_H_
#define COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_OPTIMUM_H_

#include <string>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"
#include "solvers/backends/exact_basis.h"

namespace collsynth {

enum class AlltoallOutcome {
  kCertified,     // certificate.lambda == λ*, both certificates checked
  kNotCertified,  // exact bounds lower < upper only (no denominator closed the gap)
  kLpFailed,      // CLP did not report an optimum (detail says which outcome)
};

std::string ToString(AlltoallOutcome outcome);

// Where a bound of the certificate came from (AlltoallOptimum::primal_from, dual_from,
// certified_by).
inline constexpr const char* kFromExactBasis = "exact basis";
inline constexpr const char* kFromShortestPathSplit = "shortest-path split";
inline constexpr const char* kFromRounding = "rounding";
inline constexpr const char* kFromRegularGroup = "regular group";

struct AlltoallOptions {
  bool relay = true;  // compute nodes other than the source may forward
  // Try the exact re-solve at CLP's basis first; false = the rounding ladder only (for the
  // differential tests that compare the two certifications).
  bool exact_basis = true;
  // How CLP solves the LP. Dual simplex on the LP as given is the default: presolve, primal,
  // Forrest's idiot crash, sprint and barrier with crossover were measured no faster on the
  // multicommodity LP (docs/performance.md "All-to-all optimum at N = 256").
  ClpMethod clp_method = ClpMethod::kDual;
  // Try the regular-group reduction first (see the header comment); false = the full LP only
  // (for the tests that compare the two).
  bool regular_group = true;
};

struct AlltoallOptimum {
  AlltoallOutcome outcome = AlltoallOutcome::kLpFailed;
  std::string detail;
  AlltoallCertificate certificate;            // when kCertified: lambda = λ*
  Rational lower, upper;                      // exact bounds on λ* (equal when kCertified)
  bool has_lower = false, has_upper = false;  // whether a checked flow / length gave them
  double lp_lambda = 0.0;                     // CLP's hint (never reported as a result)
  int lp_columns = 0, lp_rows = 0;
  long long denominator = 0;  // the bound D that certified (0: no rounding was needed)
  // kFromExactBasis when the exact basis gave both halves, else kFromRounding (kCertified).
  std::string certified_by;
  // which construction gave the kept flow and the kept lengths (kFrom*; "" when none)
  std::string primal_from, dual_from;
  ExactBasisOutcome basis_outcome = ExactBasisOutcome::kBadBasis;  // the exact re-solve's verdict
  std::string basis_detail;  // why the basis was not optimal in exact arithmetic ("" when it was)
};

// The maximum concurrent flow of `demand` on `g`, certified exactly.
AlltoallOptimum ComputeAlltoallOptimum(const Topology& g, const DemandMatrix& demand,
                                       const AlltoallOptions& options = {});

// Which demand pair has no path (under the relay rule), as "s->t", or "" when all do. O(S·E).
std::string DisconnectedDemandPair(const Topology& g, const DemandMatrix& demand, bool relay);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_OPTIMUM_H_
