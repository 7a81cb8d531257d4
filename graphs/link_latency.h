// Link latencies (the α of the α-β model, seconds) from a topology JSON file's optional
// per-link `latency` field (docs/formats.md "Topology JSON"). The topology model itself has no
// latency (every algorithm but the simulator ignores it), so the reader keeps them in a side
// table indexed by link id, as TopologyFromJson numbers the links of the same document.
// Validation: a non-negative exact number (JSON integer or "p/q" / decimal string; floats are
// rejected as for bandwidths); `duplex` gives the reverse link the same latency; links merged
// into one (same from and to) must agree: all without a latency or all with the same value.
// Errors are InputError(file, "links[i] (a -> b) latency", ...). Cost O(links). Never prints.
#ifndef COLLSYNTH_GRAPHS_LINK_LATENCY_H_
#define COLLSYNTH_GRAPHS_LINK_LATENCY_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// One entry per link of g (g = TopologyFromJson(doc, file)): its latency, or nullopt.
std::vector<std::optional<Rational>> LinkLatenciesFromJson(const nlohmann::json& doc,
                                                           const Topology& g,
                                                           const std::string& file);

struct TopologyWithLatencies {
  Topology topology;
  std::vector<std::optional<Rational>> latency;  // per link id; all nullopt for edge lists
};

// ReadTopologyFile(path) plus the latencies of a JSON file (an edge list has no latency column).
TopologyWithLatencies ReadTopologyWithLatencies(const std::string& path);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_LINK_LATENCY_H_
