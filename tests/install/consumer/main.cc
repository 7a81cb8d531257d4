// consumer D...: for each D, the exact allgather optimum ratio* of the hypercube Q_D (unit links)
// computed through the installed library, one "D RATIO" line each (tests/install/install_test.sh
// compares it with seed 004 eq. (1): (2^D - 1)/D).
#include <cstdlib>
#include <iostream>
#include <string>

#include "core/rational.h"
#include "graphs/generators/seed000_generators.h"
#include "solvers/pipeline/allgather_optimum.h"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const int d = std::atoi(argv[i]);
    const collsynth::AllgatherOptimum opt =
        collsynth::ComputeAllgatherOptimum(collsynth::Hypercube(d));
    std::cout << d << " " << collsynth::ToString(opt.ratio) << "\n";
  }
  return 0;
}
