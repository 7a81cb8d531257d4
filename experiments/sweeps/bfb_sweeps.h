// Sweeps of seed 000's BFB and generative-topology claims (App. D, E, Figure 12):
// Thm 17 (BW optimality of a BFB schedule iff balanced layers and loads), Thm 18 (undirected
// graphs with two of N_x, a_x, b_x constant), Thm 19 (LP (3) optimum = max_J |J|/|N(J)|),
// Thm 21 (generalized Kautz within one step of Moore optimal), Thm 22 (circulant diameter),
// Conjecture 1 (circulants, k = 2 and 3) and Figure 12 (Π_{d,N} within 2× of T_B*).
// Exact values come from GenerateBfbSchedule + the step checker, or from the finder's fast
// exact BFB value (solvers/finder/finder_bfb_value.h) with spot checks by the full pipeline.
#ifndef COLLSYNTH_EXPERIMENTS_SWEEPS_BFB_SWEEPS_H_
#define COLLSYNTH_EXPERIMENTS_SWEEPS_BFB_SWEEPS_H_

#include <functional>

#include "core/rational.h"
#include "experiments/sweeps/sweep.h"

namespace collsynth::sweeps {

SweepReport SweepTheorem17(const SweepRange& r);
// moreover: check the theorem's side claim that the third constant exists (it does not for
// C(7,{1,2}): N_2 = 2 and b_2 = 3 are constant, a_2 is 1 or 2).
SweepReport SweepTheorem18(const SweepRange& r, bool moreover);
SweepReport SweepTheorem19(const SweepRange& r);
// holds(d, m, D): Thm 21's claim for Π_{d,m} of diameter D (default: CheckTheorem21).
SweepReport SweepTheorem21(const SweepRange& r, const std::function<bool(int, int, int)>& holds);
// offset(n): Thm 22's m (default Theorem22Offset).
SweepReport SweepTheorem22(const SweepRange& r,
                           const std::function<std::int64_t(std::int64_t)>& offset);
SweepReport SweepConjecture1(const SweepRange& r, int k);
// Figure 12: T_B(Π_{d,N}) <= factor · T_B*(N) for d ∈ {2,4,8,16}, N in range (<= 2000).
SweepReport SweepFigure12(const SweepRange& r, const Rational& factor);

}  // namespace collsynth::sweeps

#endif  // COLLSYNTH_EXPERIMENTS_SWEEPS_BFB_SWEEPS_H_
