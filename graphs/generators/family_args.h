// Argument helpers for topology families (graphs/family.h) and the size guard every
// generator runs BEFORE building.
//
// A family's build function receives the evaluated arguments of `name(arg, ...)`; these
// helpers check count and kind and convert numbers, throwing std::invalid_argument with a
// message that names the parameter (the expression evaluator adds the sub-expression).
// CheckTopologySize refuses topologies above kMaxGeneratedNodes / kMaxGeneratedLinks so that
// an absurd expression such as hypercube(60) fails at once instead of exhausting memory.
// Sizes are passed as BigInt so that the estimate itself cannot overflow. O(1) each.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_FAMILY_ARGS_H_
#define COLLSYNTH_GRAPHS_GENERATORS_FAMILY_ARGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/family.h"
#include "graphs/topology.h"

namespace collsynth {

// What `topo gen` builds in seconds and about 3 GB at most (docs/cli.md, docs/performance.md);
// was 10^7 / 2·10^7, where circulant(10000000,1) took minutes and ~7 GB.
inline constexpr std::int64_t kMaxGeneratedNodes = std::int64_t{1} << 20;  // 1048576
inline constexpr std::int64_t kMaxGeneratedLinks = std::int64_t{1} << 23;  // 8388608
// Integer family parameters (sizes, offsets) accepted by the expression language; a
// parameter within this range can still give a topology above the limits above, which the
// size estimate refuses by name before building.
inline constexpr std::int64_t kMaxFamilyParameter = 10'000'000;

// Throws std::invalid_argument("WHAT would have N nodes and L links; the limit is ...")
// when nodes > kMaxGeneratedNodes or links > kMaxGeneratedLinks (links = directed links,
// counting each unit link of a multi-link once is not needed: pass merged-link counts or
// an upper bound).
void CheckTopologySize(const BigInt& nodes, const BigInt& links, const std::string& what);
// The same for a size computed before building: "WHAT would have N nodes and L links" (or
// "up to L links" when the link count is an upper bound). An upper bound alone never
// refuses: the generator then counts the links exactly before building.
void CheckTopologySize(const TopologySize& size, const std::string& what);

// The size of a built topology (exact). O(V + E).
TopologySize MeasureTopology(const Topology& g);
// The size of a regular direct-connect topology with `nodes` nodes, unit degree `degree`
// and at most `links` merged links (exact when links_exact). O(1).
TopologySize RegularSize(const BigInt& nodes, const BigInt& degree, const BigInt& links,
                         bool links_exact);

// Exactly `count` arguments (or between min_count and max_count).
void RequireArgCount(const std::vector<GenArg>& args, std::size_t count,
                     const std::string& signature);
void RequireArgCount(const std::vector<GenArg>& args, std::size_t min_count, std::size_t max_count,
                     const std::string& signature);

// args[i] must be an integer number in [lo, hi]; `param` names it in the message.
std::int64_t IntArg(const std::vector<GenArg>& args, std::size_t i, const std::string& param,
                    std::int64_t lo, std::int64_t hi);
// args[i] must be a positive number (e.g. a bandwidth).
Rational PositiveArg(const std::vector<GenArg>& args, std::size_t i, const std::string& param);
// args[i] must be a bare word; returned lower-case as written.
std::string WordArg(const std::vector<GenArg>& args, std::size_t i, const std::string& param);
// args[i] must be a nested topology expression.
const Topology& TopologyArg(const std::vector<GenArg>& args, std::size_t i,
                            const std::string& param);

// args[i] must be a nested topology expression; its size (from GenArg::size, or measured
// when the topology itself is given).
TopologySize TopologySizeArg(const std::vector<GenArg>& args, std::size_t i,
                             const std::string& param);

// "integer 3", "number 3/2", "word iq", "topology kautz(2,3)"-style description for errors.
std::string DescribeArg(const GenArg& arg);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_FAMILY_ARGS_H_
