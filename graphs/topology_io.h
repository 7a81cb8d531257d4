// Reading and writing topologies: the JSON contract and a plain edge-list text form.
// Formats are documented in docs/formats.md. Every reader error is an InputError naming the
// file, the item (e.g. "links[3] (a -> b)", "line 7") and the problem. Write-then-read is
// lossless (same nodes in the same order, same links, bandwidths, multiplicities).
#ifndef COLLSYNTH_GRAPHS_TOPOLOGY_IO_H_
#define COLLSYNTH_GRAPHS_TOPOLOGY_IO_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

// Files larger than this are refused before parsing (an "absurd size" guard).
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;
// A parsed JSON document's approximate memory (values, containers, strings) is limited to
// this: refused while parsing, so no input under kMaxInputBytes exhausts memory.
inline constexpr std::size_t kMaxJsonMemory = std::size_t{6} << 30;

// JSON containers (objects and arrays) nested deeper than this are refused while parsing:
// nlohmann's copy, dump and comparison recurse, so a deep document would overflow the stack.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Reads a whole file ("-": stdin); InputError when missing, unreadable, a directory, a device
// or socket, or larger than kMaxInputBytes. Pipes and stdin are read as streams and refused
// once they pass kMaxInputBytes.
std::string ReadTextFile(const std::string& path);
// Parses JSON text: the project's only JSON entry point. O(size) time, memory O(size) plus
// the document. InputError(file, "byte N", problem) on malformed JSON, on nesting deeper than
// kMaxJsonDepth, on a key repeated within one object and on numbers beyond double's range.
// An unquoted integer literal outside int64/uint64 is stored as a JSON string of its digits
// (the contract's encoding of a rational), so RationalFromJson reads it exactly.
// `max_memory` (tests lower it) bounds the document's approximate memory.
nlohmann::json ParseJsonText(const std::string& text, const std::string& file,
                             std::size_t max_memory = kMaxJsonMemory);
// Streaming: `hook(path, element, root)` is called for every container that is an array
// element, as soon as it is complete. `path` names the element from the root: object keys,
// and array indices as decimal strings (the root itself is ""), e.g. {"", "phases", "1",
// "trees", "7"}; `root` is the document built so far. When the hook returns true it has consumed
// the element, which is replaced by null in the document (and no longer counts towards
// max_memory): a reader can convert large arrays element by element without holding the
// whole tree. Exceptions from the hook propagate.
using JsonElementHook = std::function<bool(const std::vector<std::string>& path,
                                           nlohmann::json& element, const nlohmann::json& root)>;
nlohmann::json ParseJsonText(const std::string& text, const std::string& file,
                             const JsonElementHook& hook, std::size_t max_memory = kMaxJsonMemory);
// The same from the file at `path`, read as it is parsed (never the whole text in memory:
// with a hook that consumes the large arrays, memory is what the hook keeps; docs/performance.md
// "Plain pipeline path: where the memory goes").
// Same result and errors as ParseJsonText(ReadTextFile(path), file, hook, max_memory) for
// a regular file (size limit kMaxInputBytes; errors while parsing name `file`, errors of the
// file itself name `path`); "-", pipes and other files go through exactly that.
nlohmann::json ParseJsonFile(const std::string& path, const std::string& file,
                             const JsonElementHook& hook, std::size_t max_memory = kMaxJsonMemory);

Topology TopologyFromJson(const nlohmann::json& j, const std::string& file);
nlohmann::json TopologyToJson(const Topology& g);
// The same document as TopologyToJson(g), streamed straight to text (one node or link per
// line): several times faster for large topologies, as it builds no JSON tree.
std::string WriteTopologyJson(const Topology& g);

// The edge-list text form (docs/formats.md): names with blanks, '#' or '"', and names equal
// to a header keyword, are written quoted ("a b", "compute:", "q\"uote"), so any topology
// round-trips. Readers validate names (NameProblem), multiplicities (their total fits in
// int64) and bandwidths (positive, merged sums within kMaxDigits); O(size of the text).
Topology ParseEdgeList(const std::string& text, const std::string& file);
std::string WriteEdgeList(const Topology& g);

// By content: JSON if the first non-blank character is '{', else edge list. "-" is stdin.
Topology ReadTopologyFile(const std::string& path);
// By extension: ".json" -> JSON (pretty), anything else -> edge list. Throws InputError
// when the file cannot be written.
void WriteTopologyFile(const Topology& g, const std::string& path);
void WriteTextFile(const std::string& path, const std::string& text);

// Exact rational from a JSON integer or string; InputError(file, item, ...) otherwise.
// Floating-point JSON numbers are rejected (they are not exact).
Rational RationalFromJson(const nlohmann::json& v, const std::string& file,
                          const std::string& item);
// "p/q" string (or "p"), the contract's encoding of rationals.
inline nlohmann::json RationalToJson(const Rational& r) { return ToString(r); }

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_TOPOLOGY_IO_H_
