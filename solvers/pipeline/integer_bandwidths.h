// Integer bandwidths: seed 004 §2 assumes integer link bandwidths ("when bandwidths are
// rational numbers, one can always scale them up"). ScaleToIntegers multiplies every link
// bandwidth by the least common multiple L of their denominators; cut ratios of the scaled
// graph are those of the original divided by L. O(E) big-integer operations; exact.
#ifndef COLLSYNTH_SOLVERS_PIPELINE_INTEGER_BANDWIDTHS_H_
#define COLLSYNTH_SOLVERS_PIPELINE_INTEGER_BANDWIDTHS_H_

#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

struct IntegerBandwidths {
  BigInt scale = 1;            // L: b_e · L is an integer for every link
  std::vector<BigInt> values;  // by link id: b_e · L
};

IntegerBandwidths ScaleToIntegers(const Topology& g);

// B+(S) and |S ∩ V_c| of a node set given by membership flags (by node id), in the
// topology's own (rational) bandwidths.
Rational OutBandwidthOfSet(const Topology& g, const std::vector<char>& in_set);
int ComputeCount(const Topology& g, const std::vector<char>& in_set);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_PIPELINE_INTEGER_BANDWIDTHS_H_
