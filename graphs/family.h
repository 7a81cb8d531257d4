// Family: one named topology family of the generator expression language
// (`collsynth topo gen 'EXPR'`, docs/topologies.md). An expression such as
// line(line(circulant(16,3,4))) is evaluated by graphs/expression.{h,cc}, which looks the
// name up in AllFamilies() (graphs/families.cc), the concatenation of each generator group's
// list. A family's build function validates its arguments and throws std::invalid_argument
// with a clear message (the evaluator adds the expression as the item).
//
// A family may also say how large its topology will be without building it (`size`): the
// evaluator computes the size of the whole expression bottom-up first, from the parameters
// and the operands' sizes, and refuses a sub-expression above the generator limits
// (graphs/generators/family_args.h) before anything is built.
#ifndef COLLSYNTH_GRAPHS_FAMILY_H_
#define COLLSYNTH_GRAPHS_FAMILY_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// The size of a topology, known before it is built. BigInt, so that no size overflows.
//  * nodes: exact.
//  * links: merged links (distinct (from, to) pairs); exact when links_exact, otherwise an
//    upper bound (e.g. a circulant whose offsets coincide merges links).
//  * unit_links: exact sum of multiplicities.
//  * max_out / max_in: upper bounds on any node's unit out-/in-degree.
//  * degree: d when every node is a compute node with unit in- and out-degree d; -1 when
//    unknown or not regular.
struct TopologySize {
  BigInt nodes = 0;
  BigInt links = 0;
  bool links_exact = true;
  BigInt unit_links = 0;
  BigInt max_out = 0, max_in = 0;
  BigInt degree = -1;
  bool has_switches = false;
};

// One argument of a family call: a number (exact rational; integers have denominator 1),
// a bare word (e.g. `iq`, `paley`), or a nested topology expression.
struct GenArg {
  enum class Kind { kNumber, kWord, kTopology };
  Kind kind = Kind::kNumber;
  Rational number;
  std::string word;
  std::shared_ptr<const Topology> topology;
  // Size of the nested topology when only its size is known (Family::size); topology is
  // then null.
  std::optional<TopologySize> size;
};

struct Family {
  std::string name;         // e.g. "kautz"
  std::string signature;    // e.g. "kautz(d,n)"
  std::string reference;    // e.g. "seed 000 App. E.2"
  std::string description;  // one line
  std::function<Topology(const std::vector<GenArg>&)> build;
  // Optional: the size `build` would produce for the same arguments, where nested topology
  // arguments carry only `size` (use TopologySizeArg). Validates the arguments like build
  // (std::invalid_argument). O(number of arguments); never builds anything. Families
  // without it are measured once built (their generators check their own size first).
  std::function<TopologySize(const std::vector<GenArg>&)> size = nullptr;
};

// Every family, sorted by name (graphs/families.cc).
const std::vector<Family>& AllFamilies();

// Groups, each defined next to its generators.
std::vector<Family> Seed000Families();    // graphs/generators/seed000_families.cc
std::vector<Family> ExpansionFamilies();  // graphs/expansions_families.cc: line, degree, ...
std::vector<Family> OtherFamilies();      // graphs/generators/other_families.cc: PolarStar,
                                          // TopoOpt, switch topologies, DGX-1
std::vector<Family> Seed003ComparisonFamilies();  // graphs/generators/seed003_families.cc

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_FAMILY_H_
