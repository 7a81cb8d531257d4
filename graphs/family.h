// Family: one named topology family of the generator expression language
// (`collsynth topo gen 'EXPR'`, docs/topologies.md). An expression such as
// line(line(circulant(16,3,4))) is evaluated by graphs/expression.{h,cc}, which looks the
// name up in AllFamilies() (graphs/families.cc), the concatenation of each generator group's
// list. A family's build function validates its arguments and throws std::invalid_argument
// with a clear message (the evaluator adds the expression as the item).
#ifndef COLLSYNTH_GRAPHS_FAMILY_H_
#define COLLSYNTH_GRAPHS_FAMILY_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graphs/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// One argument of a family call: a number (exact rational; integers have denominator 1),
// a bare word (e.g. `iq`, `paley`), or a nested topology expression.
struct GenArg {
  enum class Kind { kNumber, kWord, kTopology };
  Kind kind = Kind::kNumber;
  Rational number;
  std::string word;
  std::shared_ptr<const Topology> topology;
};

struct Family {
  std::string name;         // e.g. "kautz"
  std::string signature;    // e.g. "kautz(d,n)"
  std::string reference;    // e.g. "seed 000 App. E.2"
  std::string description;  // one line
  std::function<Topology(const std::vector<GenArg>&)> build;
};

// Every family, sorted by name (graphs/families.cc).
const std::vector<Family>& AllFamilies();

// Groups, each defined next to its generators.
std::vector<Family> Seed000Families();    // graphs/generators/seed000_families.cc
std::vector<Family> ExpansionFamilies();  // graphs/expansions_families.cc: line, degree, ...
std::vector<Family> OtherFamilies();      // graphs/generators/other_families.cc: PolarStar,
                                          // TopoOpt, switch topologies, DGX-1

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_FAMILY_H_
