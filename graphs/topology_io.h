// Reading and writing topologies: the JSON contract and a plain edge-list text form.
// Formats are documented in docs/formats.md. Every reader error is an InputError naming the
// file, the item (e.g. "links[3] (a -> b)", "line 7") and the problem. Write-then-read is
// lossless (same nodes in the same order, same links, bandwidths, multiplicities).
#ifndef COLLSYNTH_GRAPHS_TOPOLOGY_IO_H_
#define COLLSYNTH_GRAPHS_TOPOLOGY_IO_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/json_writer.h"
#include "graphs/failed_links.h"
#include "graphs/topology.h"

namespace collsynth {

// The node names of g escaped once, index = node id (the schedule writers name each node
// many times).
JsonStrings QuotedNodeNames(const Topology& g);

// The topology of a JSON document; with the field "failed_links" (graphs/failed_links.h) the
// degraded topology (DegradedTopology: the failed links removed, no declared automorphisms).
Topology TopologyFromJson(const nlohmann::json& j, const std::string& file);
// The document as written: the intact topology with its declared automorphisms, and the
// failed links (none when the document has no "failed_links").
TopologyWithFailures TopologyWithFailuresFromJson(const nlohmann::json& j, const std::string& file);
// The topology JSON document (docs/formats.md), streamed straight to text (one node or link per
// line): several times faster for large topologies, as it builds no JSON tree.
std::string WriteTopologyJson(const Topology& g);
// The intact topology followed by "failed_links" (directed items, in the order of t.failed).
// Reading it back gives the same TopologyWithFailures.
std::string WriteTopologyJson(const TopologyWithFailures& t);

// The edge-list text form (docs/formats.md): names with blanks, '#' or '"', and names equal
// to a header keyword, are written quoted ("a b", "compute:", "q\"uote"), so any topology
// round-trips. Readers validate names (NameProblem), multiplicities (their total fits in
// int64) and bandwidths (positive, merged sums within kMaxDigits); O(size of the text).
Topology ParseEdgeList(const std::string& text, const std::string& file);
std::string WriteEdgeList(const Topology& g);

// By content: JSON if the first non-blank character is '{', else edge list. "-" is stdin.
// A JSON file with "failed_links" gives the degraded topology (TopologyFromJson).
Topology ReadTopologyFile(const std::string& path);
// The same file as written (an edge list has no failed links).
TopologyWithFailures ReadTopologyWithFailures(const std::string& path);
// By extension: ".json" -> JSON (pretty), anything else -> edge list. Throws InputError
// when the file cannot be written.
void WriteTopologyFile(const Topology& g, const std::string& path);
// The same for a topology with failed links: JSON keeps them ("failed_links"), an edge list
// gets the degraded topology (it has no field for them).
void WriteTopologyFile(const TopologyWithFailures& t, const std::string& path);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_TOPOLOGY_IO_H_
