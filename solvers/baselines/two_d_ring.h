// 2D-ring allreduce, the baseline MultiTree compares against (seed 001 §I, §II-C Table I,
// §VI "2D-RING: two-dimensional ring all-reduce that is dedicated to 2D Torus and Mesh
// networks [28]"), as the MultiTree paper defines it: a ring allreduce of the data along one
// dimension, then a ring allreduce of the (row-reduced) data along the other, "two ring
// allreduce phases in the two dimensions"; per phase (reduce-scatter half of the traffic) it
// sends 2N(N-1) shards per node on an N×N torus where the flat ring sends N²-1 (§I, §II-C,
// shard = M/N²), and it "utilizes all the links": the data is split in two halves running
// concurrently, half 0 along dimension 0 then 1, half 1 along dimension 1 then 0. Each line
// allreduce is the classic ring of seed 000 (reduce-scatter then allgather), bidirectional
// (half each way) on a line of d >= 3 nodes, the single link pair on d = 2.
//
// The whole 2D-ring is not one reduce-scatter-then-allgather step schedule on the torus (the
// second phase reduces row sums that the first phase's allgather replicated, so per shard the
// data does not flow along one reduction tree and one broadcast), so the result is the list of
// line allreduces, each a step schedule on its own line topology that the step checker
// verifies, plus their placement in time; TwoDRingLinkLoads maps them onto the links of g.
// Steps: 2(d_0 - 1) + 2(d_1 - 1). Complexity O(N·(d_0 + d_1)) sends.
// Preconditions (InputError otherwise): g is a 2-dimensional grid (InferGrid) whose +1 and -1
// links along both dimensions exist, wrap-around included (a torus; a mesh only when both
// dimensions are 2: on a larger mesh the ring's closing hop is d-1 links, which the paper
// names as the reason 2D-RING loses to RING on the 8×8 mesh, and which a one-hop step model
// cannot express).
#ifndef COLLSYNTH_SOLVERS_BASELINES_TWO_D_RING_H_
#define COLLSYNTH_SOLVERS_BASELINES_TWO_D_RING_H_

#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/step_schedule.h"
#include "solvers/baselines/baseline_structure.h"

namespace collsynth {

struct TwoDRingLine {
  int half = 0;            // 0: dimension 0 then 1; 1: dimension 1 then 0
  int dimension = 0;       // the grid dimension the line runs along
  int first_step = 1;      // the step of the whole 2D-ring at which the line's step 1 runs
  Rational share;          // the part of the data M this allreduce carries (1/2)
  std::vector<int> nodes;  // g's node ids along the line; node i of `ring` is nodes[i]
  Topology ring;           // the line's links copied from g (same bandwidths)
  StepSchedule allreduce;  // ring allreduce on `ring` (steps 1..2(d-1))
};

struct TwoDRingResult {
  std::vector<TwoDRingLine> lines;
  int total_steps = 0;
};

TwoDRingResult BuildTwoDRing(const Topology& g, const Grid& grid, const std::string& file);

// loads[t-1][e]: data on g's link e in step t, in g's shard units M/N (a line send of x line
// shards carries x·share·N/d of them), not yet divided by the link's bandwidth.
std::vector<std::vector<Rational>> TwoDRingLinkLoads(const Topology& g, const TwoDRingResult& r);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BASELINES_TWO_D_RING_H_
