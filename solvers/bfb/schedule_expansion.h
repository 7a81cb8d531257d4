// Schedule expansions: turn an allgather step schedule on a base topology G into a schedule
// on a larger topology built from G, together with that topology.
//
//   LineGraphSchedule        L(G), seed 000 §5.1 Def. 1/2, Thm 1 (T_L + 1, T_B <= d·T_B + 1/b
//                            in shard units), Thm 10 (equality for BFB schedules).
//   DegreeExpandedSchedule   G * n, seed 000 §5.2 Def. 3/4, Thm 11 (T_L + 1,
//                            T_B + (n-1)/(n·d·b) in shard units).
//   CartesianPowerSchedule   G^{□n}, seed 000 §5.3 / App. C.3 Def. 5/14, Thm 12 (n·T_L,
//                            T_B·(N^n - 1)/(n·(N-1)) in shard units).
//   ReverseSchedule          A^T on G^T, seed 000 App. A Def. 7 / Thm 3 (allgather <->
//                            reduce-scatter, same T_L and T_B).
//   BidirectionalSchedule    G ∪ G^T, seed 000 App. F (half the shard on A, half on g(A) for
//                            an isomorphism g: G -> G^T; same T_L, T_B halves in shard units
//                            since every node has twice the links of the same bandwidth).
//   ConcatenateAllreduce     reduce-scatter then allgather (seed 000 §3), steps numbered on.
//
// Shard units: T_B counts data in shards (M/N) over link bandwidth, as the checker reports.
// The paper's statements (in M/B with B = d·b) translate to the formulas above.
//
// Complexity: output size. Line graph O(d·|A| + d·|E|); degree O(n²·|A| + n²·N·d); Cartesian
// power O(n·N^{2n-1}·|A|) sends (every phase j relays N^j sources over N^{n-1} copies).
// Bidirectional runs Boost.Graph's isomorphism search (exponential worst case, fast on the
// symmetric families of seed 000) and verifies the mapping exactly before use.
//
// Preconditions (violations throw InputError(file, item, problem)): direct-connect topology
// (no switches); the input schedule is an allgather schedule on g (the reverse also accepts
// reduce-scatter). Line graph: every link has multiplicity 1 and all links share one
// bandwidth. Degree expansion: no self-loops, n >= 1. Cartesian power: n >= 1 and N^n nodes
// within kMaxExpandedNodes. Bidirectional: no pair of opposite links in G, G ≅ G^T.
// Numbers: chunk endpoints are exact Rationals; shards are [0, 1).
//
// The expanded topologies are built by graphs/expansions.h (LineGraphExpansion,
// DegreeExpansionWithMap, CartesianPowerWithMap, Bidirectional), so names and node ids are
// the generator's ("u>v", "v*i", "a|b"); its std::invalid_argument becomes an InputError.
#ifndef COLLSYNTH_SOLVERS_BFB_SCHEDULE_EXPANSION_H_
#define COLLSYNTH_SOLVERS_BFB_SCHEDULE_EXPANSION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphs/topology.h"
#include "schedules/step_schedule.h"

namespace collsynth {

// Guard against absurd expansions (bad input rather than out-of-memory).
inline constexpr std::int64_t kMaxExpandedNodes = 1 << 20;

struct ExpandedSchedule {
  Topology topology;
  StepSchedule schedule;
  // origin[x] = the base node (or, for the line graph, the base link id) that node x of the
  // expanded topology comes from (-1 for Cartesian power, whose base nodes are
  // coordinates[x][k]).
  std::vector<int> origin;
  std::vector<std::vector<int>> coordinates;  // Cartesian power only: coordinates[x][k]
};

ExpandedSchedule LineGraphSchedule(const Topology& g, const StepSchedule& a,
                                   const std::string& file = "<schedule>");
ExpandedSchedule DegreeExpandedSchedule(const Topology& g, const StepSchedule& a, int n,
                                        const std::string& file = "<schedule>");
ExpandedSchedule CartesianPowerSchedule(const Topology& g, const StepSchedule& a, int n,
                                        const std::string& file = "<schedule>");
// Result topology is g.Transpose() (same node ids); collective flips.
ExpandedSchedule ReverseSchedule(const Topology& g, const StepSchedule& a,
                                 const std::string& file = "<schedule>");
ExpandedSchedule BidirectionalSchedule(const Topology& g, const StepSchedule& a,
                                       const std::string& file = "<schedule>");

// Allreduce = reduce-scatter rs, then allgather ag shifted by T_L(rs) steps; rs_steps set.
StepSchedule ConcatenateAllreduce(const StepSchedule& rs, const StepSchedule& ag);

// Largest step in a schedule (0 when empty).
int MaxStep(const StepSchedule& a);

// Maps a chunk of [0,1) affinely into the sub-interval [lo, hi) of the shard.
std::vector<Interval> MapChunk(const std::vector<Interval>& chunk, const Rational& lo,
                               const Rational& hi);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BFB_SCHEDULE_EXPANSION_H_
