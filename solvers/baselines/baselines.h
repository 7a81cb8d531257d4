// Baseline collective schedules by name, each a step schedule for the checker (seed 000 §8.2
// and App. E.1/I, seed 001 §II-III, seed 002 ShiftedRing). Entry point of `collsynth baseline`.
//
//   uniring             unidirectional ring (Table 9 UniRing, T_L = N-1)
//   biring              bidirectional ring, classic: half each way (T_L = N-1)
//   biring-bfb          bidirectional ring, BFB (App. E.1, T_L = ⌊N/2⌋)
//   torus               traditional torus: rings dimension by dimension (§5.3 / §8.2)
//   recursive-doubling  hypercube allgather (App. I); recursive-halving is its reduce-scatter
//   recursive-halving
//   dbtree              NCCL-style double binary tree (seed 000 §8.2 [35, 58]; seed 001 §II-C)
//   shiftedring         TopoOpt ShiftedRing: rings i <-> i+p, gcd(p, N) = 1, superposed
//   shiftedbfbring      the same rings with the BFB ring schedule (seed 000 §8.2)
//   multitree           MultiTree (seed 001 Algorithm 1)
//
// Collectives: allgather, reduce-scatter (Cor. 3.1: the reverse of the allgather built on
// G^T, so it lands on G), allreduce (reduce-scatter then allgather, seed 000 §3; MultiTree
// uses its own reverse-tree reduce-scatter, Algorithm 1 lines 16-18). Structure (ring order,
// grid, hypercube labels, shifts) is inferred by solvers/baselines/baseline_structure.h or given.
// Complexity: O(N²) to O(k·N²) sends (see each producer). Bad input: InputError.
#ifndef COLLSYNTH_SOLVERS_BASELINES_BASELINES_H_
#define COLLSYNTH_SOLVERS_BASELINES_BASELINES_H_

#include <optional>
#include <string>
#include <vector>

#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/step_schedule.h"

namespace collsynth {

struct BaselineOptions {
  std::string name;
  std::optional<Collective> collective;  // nullopt: the baseline's default
  std::vector<std::string> order;        // ring order (node names), rings only
  std::vector<int> dims;                 // grid dimensions (torus, multitree), row-major ids
  std::vector<int> shifts;               // shifted rings
  int fan_out = 0;                       // multitree k-ary cap (0 = none)
  int chunks = 1;                        // dbtree pipeline chunks P
};

// The names above, in that order.
const std::vector<std::string>& BaselineNames();
// allgather, except recursive-halving (reduce-scatter) and multitree/dbtree (allreduce).
Collective DefaultCollective(const std::string& name);
// InputError("<args>", "baseline 'NAME'", ...) unless `name` is one of BaselineNames().
void RequireKnownBaseline(const std::string& name);
// The collective spelled `text` when a baseline builds it (allgather, reduce-scatter,
// allreduce); InputError("<args>", "--collective", ...) otherwise, broadcast included.
Collective ParseBaselineCollective(const std::string& text);

StepSchedule BuildBaseline(const Topology& g, const BaselineOptions& options,
                           const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_BASELINES_H_
