// Model checker for pipeline schedules (seed 004 §1-2, Appendices A-B), written from the
// definitions, independent of the producers: trees are spanning arborescences over the
// compute nodes, routes are walks over existing links with only switches inside, route
// multiplicities add up, each root's trees sum to k, link loads <= U·b_e; recomputes the
// ratio max_e load_e/(k·b_e) and, when a bottleneck cut is claimed, |S ∩ V_c| / B+(S).
// Fixed-k certificate (seed 004 §2.4, Theorem 13): a node set X holding some compute node
// (for broadcast, not the root) with Σ ⌊U'·b_e⌋ over links entering X (leaving X for
// reduce-scatter, whose data flows on reversed paths) < k·|V_c \ X| (k for broadcast), where
// U' is the largest U < k·ratio at which some U·b_e is an integer. Then no schedule with k
// trees per root has a smaller ratio: its integral loads would be <= ⌊U'·b_e⌋, and each of
// the k·|V_c \ X| trees rooted outside X must enter X (routed or branching at switches).
// Allreduce (Appendix B): the phases are checked as above; the optimality certificate is a
// cut for bound (6) and/or one cut per compute node for bound (7) (Corollary 18); the bound
// is the larger of the two and certifies the schedule when it equals the summed ratio.
#ifndef COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECKER_H_
#define COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECKER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

enum class PipelineViolationKind {
  kRootNotCompute,       // a tree rooted at a switch, or (broadcast) not at the root
  kBadEdge,              // a tree edge touching a switch, or a self-loop
  kMissingNode,          // a tree that does not reach some compute node
  kExtraParent,          // a node with two parents in one tree, or a root with a parent
  kCycle,                // tree edges that form a cycle (unreachable from the root)
  kBadRouteEnds,         // a route that does not run from the edge's tail to its head
  kMissingLink,          // a route step over a link the topology does not have
  kRouteThroughCompute,  // a compute node inside a route
  kRouteMultiplicity,    // route multiplicities do not add up to the tree's
  kRootSum,              // a root whose trees' multiplicities do not sum to k
  kOverloaded,           // a link with load > U·b_e
  kWrongRatio,           // claimed ratio differs from the recomputed one
  kBadCut,               // the bottleneck cut is not a cut the bound applies to
  kCutMismatch,          // the claimed cut does not certify the ratio
  kFixedKCut,            // the fixed-k cut does not certify that no k-tree schedule is better
  kWrongHeight,          // claimed height_hops differs from the measured height
  // pipeline-symmetric only (symmetric_pipeline_checker.h):
  kNotAutomorphism,  // a generator that is not a permutation of the nodes or not an automorphism
  kGroupRelation,    // two generators that do not commute, or gen_i^{orders[i]} != identity
  kNotRegular,       // a root orbit reached twice with different exponents: H is not regular
  kRootList,         // roots/representatives inconsistent: a compute node missing or listed
                     // twice, a switch listed, wrong representative or exponents (or, case 2,
                     // a word g_s that does not map the representative to s)
  kNotInvariant,     // case 2: a representative's trees not invariant under its stabiliser
  kBadOverride,      // overrides: an edge that is not in the root's tree, one overridden twice,
                     // a root replaced twice or also rerouted, a failed link that is not one
  kFailedLinkUsed,   // overrides: a failed link still carrying load after the overrides
};

const char* PipelineViolationKindName(PipelineViolationKind kind);

struct PipelineViolation {
  PipelineViolationKind kind = PipelineViolationKind::kMissingNode;
  std::string item;  // "trees[3].edges[1].routes[0]", "link a -> b", "phases[1].trees[0]", ...
  int node = -1;     // the node concerned, if any
  int link = -1;     // the link concerned, if any
  std::string message;
};

// The checker's verdict on a pipeline schedule: kInvalid when any violation was found;
// kOptimalCertified when valid and the claimed cut's bound equals the ratio; kValid otherwise.
enum class PipelineVerdict { kInvalid, kValid, kOptimalCertified };
// "invalid", "valid", "optimal (certified)": the report's "verdict" (docs/cli.md).
const char* PipelineVerdictName(PipelineVerdict v);

// What the symmetric checker (proofs_check/symmetric_pipeline_checker.h) found about the group.
// Declared outside PipelineCheckReport: clang does not treat a nested struct with default member
// initializers as default-constructible inside its enclosing class (std::optional::emplace()).
struct PipelineSymmetryFacts {
  std::int64_t generators = 0;
  std::int64_t representatives = 0;
  // |H| (= the product of the orders, = every root orbit's size) once the regular action is
  // verified; the number of H-orbits on the links once the generators are permutations.
  std::optional<std::int64_t> group_order;
  std::optional<std::int64_t> link_orbits;
  // Case 2 (docs/symmetry.md): the stabiliser-invariant form, and the number of distinct
  // non-identity Schreier generators of the representatives' stabilisers the trees were
  // checked against (summed over representatives; once the generators are permutations).
  bool stabiliser_invariant = false;
  std::optional<std::int64_t> stabiliser_generators;
};

struct PipelineCheckReport {
  bool ok = false;
  std::vector<std::string> errors;            // first violations: tree, edge, route, link
  std::vector<PipelineViolation> violations;  // the same, structured (at most max_errors)
  std::int64_t num_violations = 0;            // all violations found
  Rational ratio;                             // recomputed runtime ratio (T_B / (M/N))
  // |S ∩ V_c| / B+(S) of the claimed cut (allgather, seed 004 (1)); |S ∩ V_c| / B-(S) for
  // reduce-scatter (the bound on G^T); 1 / B+(S) for broadcast ((5), units of M);
  // N / B+(S) for allreduce ((6), units of M/N); for an allreduce with bound (7) cuts, the
  // larger of (6) and 2(N-1) / max_v B+(S_v) ((7), units of M/N).
  std::optional<Rational> cut_ratio;
  // What certifies the optimality: "bound (1)", "bound (1) on G^T", "bound (5)", "bound (6)",
  // "bound (7)" or "bounds (6) and (7)" (the ones that equal the ratio); "" if not certified.
  std::string certified_by;
  std::vector<PipelineCheckReport> phases;  // allreduce: reduce-scatter, allgather
  bool certified_optimal = false;           // cut_ratio == ratio
  // A fixed-k cut was given and certifies that no schedule with k trees per root (per phase,
  // for allreduce: every phase's cut) has a smaller ratio.
  bool fixed_k_certified = false;
  PipelineVerdict verdict = PipelineVerdict::kInvalid;
  // Height (docs/formats.md "Height"), measured by the checker over the trees it checked: the
  // largest number of links from a root to a compute node along a tree's routes (an edge
  // counts its longest route); allreduce: the sum of the phases' heights. And its lower bound
  // (PipelineHeightLowerBound): every schedule of this collective on this topology is at
  // least this tall. Meaningful when ok (the plain checker leaves the bound 0 when a tree
  // was invalid).
  std::int64_t height_hops = 0;
  std::int64_t height_lower_bound_hops = 0;
  // Set by CheckSymmetricPipelineSchedule (the schedule was checked in the compact
  // "pipeline-symmetric" form, without expanding it); an allreduce's phases carry their own.
  using SymmetryFacts = PipelineSymmetryFacts;
  std::optional<SymmetryFacts> symmetric;
};

PipelineCheckReport CheckPipelineSchedule(const Topology& g, const PipelineSchedule& s,
                                          int max_errors = 10);

// The height lower bound (docs/formats.md "Height"): a tree rooted at r reaches every compute
// node v by routes over links, so its height is at least the hop distance dist(r, v) (for
// reduce-scatter the data climbs from v to r, dist(v, r)). Returns max over r in `roots`
// and compute v of that distance (0 when nothing is reachable), by one BFS per root:
// O(|roots| · (|V| + |E|)). Allgather and reduce-scatter take every compute node as a root
// (or, for a schedule invariant under automorphisms, one root per orbit: distances are
// invariant); broadcast its root; allreduce is the sum of its phases' bounds.
std::int64_t PipelineHeightLowerBound(const Topology& g, Collective collective,
                                      const std::vector<int>& roots);

// The height in α-time (docs/formats.md "Height"): the largest sum of link latencies from a
// tree's root to a compute node along the tree's edges, where an edge counts its slowest route
// (the links of route path p are p[i] -> p[i+1]; reduce-scatter data climbs the reversed path,
// p[i+1] -> p[i]); over all trees; an allreduce: the sum of its phases'. `alpha` has one
// latency per link id (simulate/simulation_model.h LinkLatencies gives the simulator's). With
// every latency 1 it equals the checker's height_hops. Measured here from the trees, never
// from a producer's claim. Precondition: CheckPipelineSchedule accepted `s` (std::logic_error
// on a route step without a link, an alpha of the wrong size or a tree with a cycle).
// O(size of the schedule) Rational additions, plus O(|V|) once.
Rational PipelineHeightAlpha(const Topology& g, const PipelineSchedule& s,
                             const std::vector<Rational>& alpha);

// A lower bound on T_B derived from a certificate, recomputed exactly from the topology (the
// same code the schedule check uses, so any producer's rows can be certified with it).
struct CutBound {
  bool ok = false;    // the certificate is one the bound ranges over and bounds something
  Rational bound;     // in the units of PipelineCheckReport::ratio
  std::string name;   // "bound (1)", "bound (1) on G^T", "bound (5)", "bound (6)", "bound (7)"
  std::string error;  // why not, when !ok
};

// One cut S: allgather (1) |S ∩ V_c| / B+(S); reduce-scatter |S ∩ V_c| / B-(S); broadcast (5)
// 1 / B+(S) with the root in S; allreduce (6) N / B+(S). S must hold some but not all compute
// nodes. Node ids must be valid (the reader guarantees it). O(|V| + |E|).
CutBound CheckCutBound(const Topology& g, Collective collective, const std::vector<int>& cut,
                       std::optional<int> root = std::nullopt);

// Allreduce bound (7) from one set S_v per compute node v with S_v ∩ V_c = {v} (each compute
// node exactly once, N >= 2): 2(N-1) / max_v B+(S_v), valid because B+(S_v) >= μ_v.
// O(|V| + Σ_v Σ_{u ∈ S_v} outdeg(u)) time, O(|V|) extra memory.
CutBound CheckSingleNodeCutsBound(const Topology& g, const std::vector<std::vector<int>>& cuts);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECKER_H_
