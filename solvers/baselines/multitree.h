// MultiTree allreduce (seed 001 §III, Algorithm 1, as read in papers/README.md): all N trees
// grow together from their roots, one level per comm step. In step t every directed unit link
// may be used by at most one tree (a link of multiplicity m is m unit links); trees take turns
// in ascending root order, each adding at most one node per turn, by the first parent p (in
// order of addition, among nodes added in earlier steps) with a free link p -> c to a node c
// not yet in the tree, neighbours of p tried in `neighbour order`. An optional k-ary cap limits
// each parent's children per tree. With tot_t steps, the allgather sends (p -> c, t) become
// step tot_t + t and the reduce-scatter sends are (c -> p, tot_t - t + 1).
//
// Neighbour order: on a grid (names t{x}_{y}.. or --dims) the Y dimension (the last coordinate,
// the one that changes between vertically adjacent nodes of a row-major drawing) before X,
// +1 before -1; otherwise the topology's link order. Every send carries a whole shard, and a
// unit link carries at most one shard per step, so T_B = T_L / b in shard units for each phase.
//
// Complexity O(tot_t · N · (N + E)) per the paper's O(|V|²|E|) bound. Preconditions:
// direct-connect (switch walks are not expressible as single steps), strongly connected
// (InputError otherwise; the loop would never finish). Exact integers only.
#ifndef COLLSYNTH_SOLVERS_BASELINES_MULTITREE_H_
#define COLLSYNTH_SOLVERS_BASELINES_MULTITREE_H_

#include <optional>
#include <string>
#include <vector>

#include "graphs/topology.h"
#include "schedules/step_schedule.h"
#include "solvers/baselines/baseline_structure.h"

namespace collsynth {

struct MultiTreeOptions {
  int fan_out = 0;           // k-ary cap on children per parent per tree; 0 = none
  std::optional<Grid> grid;  // neighbour order Y before X when given
};

struct MultiTreeEdge {
  int parent = -1;
  int child = -1;
  int step = 0;  // allgather level t (1-based)
};

struct MultiTreeResult {
  int total_steps = 0;                            // tot_t
  std::vector<std::vector<MultiTreeEdge>> trees;  // trees[root]: edges in order of addition
  StepSchedule allgather;                         // (p -> c, t)
  StepSchedule reduce_scatter;                    // (c -> p, tot_t - t + 1)
  StepSchedule allreduce;                         // reduce-scatter then allgather at tot_t + t
};

MultiTreeResult BuildMultiTree(const Topology& g, const MultiTreeOptions& options,
                               const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_MULTITREE_H_
