// Rational schedule data -> integer MSCCL chunks (docs/export.md "Chunking").
//
// A pipeline schedule splits each root's shard over its trees with rational weights (tree
// multiplicity / k); a step schedule cuts shards into rational intervals. The MSCCL executor
// cuts the buffer into `nchunksperloop` equal integer chunks, so every weight or interval
// endpoint must become a whole number of chunks per shard (K). Exact when K = lcm of the
// denominators fits the chunk budget; otherwise the weights are rounded to the budget by the
// largest-remainder method and the caller reports the ratio the rounded chunks achieve next
// to the exact one. Pure functions, exact arithmetic, never print.
#ifndef COLLSYNTH_EXPORT_CHUNKING_H_
#define COLLSYNTH_EXPORT_CHUNKING_H_

#include <cstdint>
#include <vector>

#include "core/rational.h"

namespace collsynth {

// lcm of the denominators of `values` (1 for an empty list). O(n) big-integer lcms.
BigInt LcmOfDenominators(const std::vector<Rational>& values);

// Integer counts c_i >= 0 with sum c_i = total and |c_i - w_i·total| < 1 (largest remainder:
// every weight gets floor(w_i·total), the remaining units go to the largest fractional parts,
// ties to the lower index). `weights` must be >= 0 and sum to 1 (std::invalid_argument
// otherwise); total >= 0. O(n log n).
std::vector<std::int64_t> LargestRemainder(const std::vector<Rational>& weights,
                                           std::int64_t total);

// Chunking of several weight groups (one per root and phase, each summing to 1) with one
// common number of chunks per shard.
struct WeightChunking {
  std::int64_t chunks_per_shard = 0;              // K
  bool exact = false;                             // K = lcm of all denominators (no rounding)
  BigInt exact_chunks_per_shard;                  // the lcm, whether or not it fitted
  std::vector<std::vector<std::int64_t>> counts;  // counts[g][i] = chunks of weight i of group g
};

// K = lcm of every denominator when it is <= budget (then counts are exact: w·K); else
// K = budget and each group is rounded by LargestRemainder (a weight may get 0 chunks).
// budget >= 1 (std::invalid_argument otherwise).
WeightChunking ChunkWeightGroups(const std::vector<std::vector<Rational>>& groups,
                                 std::int64_t budget);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPORT_CHUNKING_H_
