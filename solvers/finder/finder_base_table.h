// Precomputed optimal-BFB values of the generalized Kautz digraphs Π_{d,m} (seed 000 Def. 16,
// App. E.2, Figure 12) for the topology finder: T_L = D(Π_{d,m}) and T_B in shard units
// (Σ_t max_u U_{u,t}, unit links), for d ∈ {2, 4, 8, 16} and d+2 <= m <= 2000 (7966 entries).
//
// The numbers were produced by ComputeBfbValue (solvers/finder/finder_bfb_value.h) with
// `collsynth finder --emit-genkautz-table D MAX` and are checked against GenerateBfbSchedule
// and the step checker on samples in tests/solvers/finder/finder_test.cc. Lookup is O(log n).
#ifndef COLLSYNTH_SOLVERS_FINDER_FINDER_BASE_TABLE_H_
#define COLLSYNTH_SOLVERS_FINDER_FINDER_BASE_TABLE_H_

#include <optional>

#include "core/rational.h"

namespace collsynth {

struct GenKautzTableEntry {
  int degree = 0;
  int nodes = 0;
  int diameter = 0;
  Rational tb_shard;  // shard units over unit link bandwidth
};

// nullopt when (d, m) is not in the table.
std::optional<GenKautzTableEntry> LookupGenKautzTable(int degree, int nodes);

// Number of entries (for tests and docs).
int GenKautzTableSize();

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_FINDER_FINDER_BASE_TABLE_H_
