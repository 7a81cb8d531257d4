// Sweeps of seed 000's expansion theorems (§5, App. C, Table 3): each builds the expanded
// schedule with solvers/bfb/schedule_expansion.h from a checked base schedule, runs the step
// checker and compares (T_L, T_B) with the formula, which is a parameter so that tests can
// hand in a wrong one. Ranges are base sizes; defaults run in about a second each.
#ifndef COLLSYNTH_EXPERIMENTS_SWEEPS_EXPANSION_SWEEPS_H_
#define COLLSYNTH_EXPERIMENTS_SWEEPS_EXPANSION_SWEEPS_H_

#include <functional>

#include "experiments/sweeps/sweep.h"
#include "theory/expansion_bounds.h"

namespace collsynth::sweeps {

// f(base performance, n) -> predicted performance of the n-fold expansion.
using ExpansionFormula = std::function<AllgatherPerformance(const AllgatherPerformance&, int)>;

// Thm 1 / Cor 1.1: L^n of a (non-BFB) degree-expanded schedule and of BFB schedules: T_L
// exact, T_B <= bound. Range: ring size m of biring(2,m)*2 and genkautz(2,m).
SweepReport SweepLineGraphBound(const SweepRange& r, const ExpansionFormula& bound);
// Thm 2: BW-optimal base C(m, Thm 22 offsets): T_B(L^n)/T_B*(d^n N) <= 1 + 1/((d-1)N).
SweepReport SweepLineGraphRatio(const SweepRange& r);
// Thm 10 / Cor 10.1: L^n of the optimal BFB schedule is BFB, has T_B = formula and equals
// the optimal BFB value of L^n(G). Range: m of genkautz(2,m), genkautz(3,m), circulant(m,..).
SweepReport SweepLineGraphBfb(const SweepRange& r, const ExpansionFormula& formula);
// Thm 11: G*n, n = 2, 3: T_L + 1, T_B exact.
SweepReport SweepDegreeExpansion(const SweepRange& r, const ExpansionFormula& formula);
// Thm 12: G^□n: n·T_L, T_B exact.
SweepReport SweepCartesianPower(const SweepRange& r, const ExpansionFormula& formula);
// Thm 13: products of simple BW-optimal BFB topologies: BFB is BW optimal, T_L = Σ D.
SweepReport SweepCartesianProduct(const SweepRange& r);

}  // namespace collsynth::sweeps

#endif  // COLLSYNTH_EXPERIMENTS_SWEEPS_EXPANSION_SWEEPS_H_
