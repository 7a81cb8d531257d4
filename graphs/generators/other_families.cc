// OtherFamilies(): filled by the switch/PolarStar/TopoOpt generators (the other generator
// helper owns this file and replaces this placeholder).
#include "graphs/family.h"

namespace collsynth {

std::vector<Family> OtherFamilies() { return {}; }

}  // namespace collsynth
