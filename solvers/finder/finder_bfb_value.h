// The value (T_L, T_B) of the optimal BFB allgather schedule of a topology, without building
// the schedule: the topology finder's fast path (seed 000 §5.4) for base topologies and small
// expanded candidates.
//
// Problem: for every receiver u and step t, LP (3) balances the shards of the sources at
// distance t from u over u's in-links from in-neighbours at distance t-1 from the source; its
// optimum is U_{u,t} = max_J |J| / b(N(J)) over job sets J (Thm 19: the balancing "jobs and
// processors" form). The optimal BFB schedule has T_L = D(G) (Thm 15) and
// T_B = Σ_t max_u U_{u,t} in shard units (eq. (4)), the value GenerateBfbSchedule
// (solvers/bfb/bfb_schedule.h) reports and the step checker recomputes.
// Method: distance layers as bitsets (R_t[u] = sources within t hops, one OR per in-link), jobs
// grouped by their set of eligible in-neighbours (a 64-bit mask); a cell whose masks are all
// singletons is read off directly, otherwise by the exact BFB cell engine (solvers/bfb/bfb_cell.h:
// Dinkelbach's iteration over a small int64 max flow; an impossible state is std::logic_error).
// Complexity: O(D·E·N/64) for the layers plus O(N^2) job visits; O(N^2/8) bytes.
// Preconditions (InputError): no switch nodes, strongly connected, 2 <= N <= kMaxBfbValueNodes,
// at most 64 distinct in-neighbours per node, link bandwidths whose common denominator
// scales them to integers below 2^31. Exact: U and T_B are Rationals.
#ifndef COLLSYNTH_SOLVERS_FINDER_FINDER_BFB_VALUE_H_
#define COLLSYNTH_SOLVERS_FINDER_FINDER_BFB_VALUE_H_

#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

inline constexpr int kMaxBfbValueNodes = 16384;

struct BfbValue {
  int diameter = 0;                  // T_L in steps (Thm 15)
  Rational tb_shard;                 // Σ_t max_u U_{u,t}: shard units over link bandwidth
  std::vector<Rational> step_u_max;  // max_u U_{u,t}, t = 1..D
  // T_B in units of M/B (B = a node's egress bandwidth) when every node has the same egress:
  // tb_shard · B / N.
  std::optional<Rational> tb;
  std::optional<bool> bandwidth_optimal;  // tb == (N-1)/N (Cor. 6.1)
  long long dinkelbach_cells = 0;         // cells that needed the max-flow iteration
};

BfbValue ComputeBfbValue(const Topology& g, const std::string& file = "<topology>");

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_FINDER_FINDER_BFB_VALUE_H_
