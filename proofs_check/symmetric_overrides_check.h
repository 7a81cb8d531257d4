// The overrides of a "pipeline-symmetric" schedule (docs/symmetry.md "Failed links: a symmetric
// part plus overrides", docs/formats.md "Overrides"), checked without expanding: internal to
// proofs_check/, called by the symmetric checker (symmetric_pipeline_checker.h) once it has
// checked the symmetric part on the restored topology G' = g + overrides.failed_links.
//
// Given the expanded symmetric part's load on every link of G' (constant on each link orbit of
// H: orbit_load / |O|, case 1), the check computes the loads of the schedule the overrides make
// of it, exactly, touching only the overridden routes and the replaced roots' trees:
//  - a route override (root s, tree t, edge u -> v of g_s(T_t), routes R): the edge exists in
//    g_s(T_t) (its preimage g_s⁻¹(u) -> g_s⁻¹(v) is an edge of T_t), no edge is overridden
//    twice, s is not also replaced; R runs from u to v through switches over links of g
//    (reversed for reduce-scatter) with multiplicities summing to T_t's; the loads of g_s(R_old)
//    are subtracted, those of R added;
//  - a replaced root s: listed once; its explicit trees are spanning arborescences on g rooted
//    at s (PipelineTreeChecker) with multiplicities summing to k; the loads of g_s(F_r) are
//    subtracted, those of the trees added;
//  - every link of G' not in g (a failed link) ends with load 0 — kFailedLinkUsed; every link of
//    g with load <= U·b_e — kOverloaded; the ratio max_e load/(k·b_e) over the links of g and the
//    height of the schedule as changed are returned (the caller compares the claims).
// Cost: O(E) for the orbit counts plus O(m) per route step of the overrides and of the
// replaced roots' images, plus their trees' sizes, plus O(tree size) per changed (root, tree)
// for the height: N·(changed trees) array steps, N² only when every root is changed (12·10^6
// at fattree(24) with 1 % failed links), never an expansion.
#ifndef COLLSYNTH_PROOFS_CHECK_SYMMETRIC_OVERRIDES_CHECK_H_
#define COLLSYNTH_PROOFS_CHECK_SYMMETRIC_OVERRIDES_CHECK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "proofs_check/pipeline_check_parts.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth {

// G' = g plus the failed links, which get the link ids g.num_links(), ... in their order. A
// failed link that is a link of g or listed twice is kBadOverride (and left out of G').
// `failed_ids` receives, per entry of failed_links, its id in G' or -1.
Topology RestoreFailedLinks(const Topology& g, const std::vector<SymmetricFailedLink>& failed,
                            const std::string& prefix, PipelineViolationCollector& out,
                            std::vector<int>* failed_ids);

// What the symmetric checker established on G' (all of it valid: generators commuting
// automorphisms acting regularly, roots consistent).
struct SymmetricPartLoads {
  const Topology& restored;  // G'
  const Topology& g;         // the topology the schedule is for
  const SymmetricPipelineSchedule& s;
  // g_s(v) for the root listed at s.roots[entry] (inverse: g_s⁻¹(v)). O(m).
  std::function<int(std::size_t entry, int v, bool inverse)> apply;
  std::vector<int> entry;                              // node -> index into s.roots, or -1
  std::vector<int> link_orbit;                         // per link of G': its orbit's id
  std::vector<BigInt> orbit_load;                      // per orbit id: Σ_r |Hr|·L_r(O)
  std::vector<std::int64_t> orbit_links;               // per orbit id: |O|
  std::vector<std::int64_t> orbit_roots;               // per representative: |Hr|
  std::vector<std::vector<std::int64_t>> tree_height;  // per representative, per tree
};

struct OverridesOutcome {
  Rational ratio;           // max over the links of g of load / (k·b_e)
  std::int64_t height = 0;  // the changed schedule's height
};

OverridesOutcome CheckSymmetricOverrides(const SymmetricPartLoads& part, const std::string& prefix,
                                         PipelineViolationCollector& out);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_SYMMETRIC_OVERRIDES_CHECK_H_
