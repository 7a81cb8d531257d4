// TopoOpt (seed 002): TotientPerms (Alg. 2, App. E.1 Theorem 2), SelectPermutations (Alg. 3),
// ShiftedRing (seed 000 §8.2).
#include "graphs/generators/topoopt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "graphs/metrics.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

// Seed 002 §4.3: "for n = 12 servers, the ring generation rule for p = 1, 5, 7, 11".
TEST(TopoOpt, TotientShiftsOfTwelve) {
  EXPECT_EQ(TotientShifts(12), (std::vector<std::int64_t>{1, 5, 7, 11}));
  EXPECT_EQ(TotientShifts(7).size(), 6u);
  EXPECT_THROW(TotientShifts(1), std::invalid_argument);
}

// Theorem 2: each coprime shift is a Hamiltonian cycle; a non-coprime one is not.
TEST(TopoOpt, CoprimeShiftIsHamiltonianCycle) {
  for (std::int64_t n = 2; n <= 40; ++n) {
    const std::vector<std::int64_t> shifts = TotientShifts(n);
    for (std::int64_t p = 1; p < n; ++p) {
      std::set<std::int64_t> seen;
      std::int64_t v = 0;
      do {
        seen.insert(v);
        v = (v + p) % n;
      } while (v != 0);
      bool coprime = std::find(shifts.begin(), shifts.end(), p) != shifts.end();
      EXPECT_EQ(static_cast<std::int64_t>(seen.size()) == n, coprime) << n << " " << p;
    }
    Topology g = TotientPerms(n);
    DegreeReport deg = ComputeDegrees(g);
    EXPECT_EQ(deg.min_out, static_cast<std::int64_t>(TotientShifts(n).size()));
    EXPECT_EQ(deg.max_in, deg.min_out);
    EXPECT_TRUE(CheckStronglyConnected(g).strongly_connected);
  }
}

// Algorithm 3 by hand: n = 12, d = 2, x = sqrt(12) ≈ 3.46: q = 1 -> q' ≈ 3.46 -> nearest
// unused coprime shift 5 (|5-3.46| < |1-...|; 1 used). n = 64, d = 3, x = 4: 1 -> 4 -> nearest
// odd 3 or 5 (tie at distance 1, smaller wins: 3) -> 12 -> 11 or 13 (tie, 11).
TEST(TopoOpt, SelectPermutationsFollowsGeometricSequence) {
  EXPECT_EQ(SelectPermutations(12, 2), (std::vector<std::int64_t>{1, 5}));
  EXPECT_EQ(SelectPermutations(64, 3), (std::vector<std::int64_t>{1, 3, 11}));
  EXPECT_EQ(SelectPermutations(100, 2),
            (std::vector<std::int64_t>{1, 9}));  // x = 10: 9 or 11, tie -> 9
  Topology g = SelectPerms(64, 3);
  EXPECT_EQ(ComputeDegrees(g).max_out, 3);
  EXPECT_TRUE(CheckEulerian(g).eulerian);
  EXPECT_THROW(SelectPermutations(12, 5), std::invalid_argument);
  EXPECT_THROW(SelectPermutations(12, 0), std::invalid_argument);
}

TEST(TopoOpt, ShiftedRingIsTwoBidirectionalRings) {
  Topology g = ShiftedRing(12);
  DegreeReport deg = ComputeDegrees(g);
  EXPECT_TRUE(deg.regular);
  EXPECT_EQ(deg.degree, 4);
  EXPECT_TRUE(g.FindLink(0, 5).has_value());
  EXPECT_TRUE(g.FindLink(5, 0).has_value());
  EXPECT_TRUE(g.FindLink(0, 11).has_value());
  Topology small = ShiftedRing(6);  // no second coprime shift: ring doubled
  EXPECT_EQ(small.link(*small.FindLink(0, 1)).multiplicity, 2);
  EXPECT_THROW(ShiftedRing(2), std::invalid_argument);
  EXPECT_THROW(TotientPerms(100000000), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
