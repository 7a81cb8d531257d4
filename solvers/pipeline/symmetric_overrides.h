// A symmetric schedule of the intact topology made valid on the degraded one by overrides
// (docs/symmetry.md "Failed links: a symmetric part plus overrides"; format: docs/formats.md
// "Overrides").
//
// Problem: given a topology G with failed links F and a case-1 "pipeline-symmetric" schedule S
// of G (allgather, reduce-scatter, or an allreduce whose phases are), keep S as the symmetric
// part and list, for every tree edge of the expansion whose routes cross a link of F, new routes
// through switches of G − F within the residual capacity at S's ratio (⌊k·ratio·b_e⌋ minus the
// expansion's load, the broken edges' loads released first), so that the result is valid on
// G − F with ratio <= S's ratio:
//  1. loads: the expansion's load on every link of G from the link orbits of the group
//     (union-find over the generators' link images; Σ_r |Hr|·L_r(O) / |O| on every link of O);
//  2. broken edges: every root s's trees g_s(T) are mapped (O(m) per node, once per root) and
//     every route step checked against F (a lookup only at the nodes with a failed out-link);
//  3. reroute: each broken edge's demand (the tree's multiplicity) on paths u -> v through
//     switches with residual room (residual_routes.h: one path, else halves, quarters, ...);
//     reduce-scatter searches G − F transposed (data flows child -> parent).
// The ratio reported is the exact max over G − F of load/(k·b_e). The certificates (bottleneck
// cut, single-node cuts) are kept only when the checker still finds that they certify that
// ratio on G − F (on a fat-tree the single-host cut is untouched by switch-link failures);
// otherwise they are dropped and the schedule is valid, not certified optimal.
// Not built: whole-root replacements (topologies without switches, or an edge no path can
// carry): then `why` says which edge could not be rerouted and no schedule is returned.
// Complexity: O(N·(V·m + routes of the representatives' trees)) to find the broken edges (the
// scan is over the expansion's routes, but nothing of the expansion is stored) plus one BFS
// O(V + E) per broken edge (per piece). Memory O(V + E + broken edges).
// Preconditions: S is a case-1 schedule of t.intact that the symmetric checker accepts.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_SYMMETRIC_OVERRIDES_H_
#define COLLSYNTH_SOLVERS_PIPELINE_SYMMETRIC_OVERRIDES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "core/rational.h"
#include "graphs/failed_links.h"
#include "graphs/topology.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth {

struct SymmetricOverridesStats {
  std::int64_t edges_broken = 0;   // tree edges of the expansion with a route crossing F
  std::int64_t routes_added = 0;   // routes of the overrides
  std::int64_t roots_changed = 0;  // roots with at least one override
};

struct SymmetricOverridesResult {
  std::optional<SymmetricPipelineSchedule> schedule;  // for `degraded`, with overrides
  std::string why;                                    // why there is none
  Rational intact_ratio;                              // S's ratio on G
  bool certified = false;  // the kept certificate proves the ratio optimal on G − F
  SymmetricOverridesStats stats;
};

// `degraded` is DegradedTopology(t). S is taken by value (moved into the result).
SymmetricOverridesResult AddFailureOverrides(const TopologyWithFailures& t,
                                             const Topology& degraded,
                                             SymmetricPipelineSchedule intact);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_SYMMETRIC_OVERRIDES_H_
