// Reading files and JSON text, and writing text files: the project's one JSON reader (every
// format, the topology JSON of graphs/topology_io.h as well as the schedule and report files,
// is parsed here) and the JSON encoding of exact rationals. Every error is an InputError
// naming the file, the item (e.g. "byte 17") and the problem; the limits below keep any input
// from exhausting memory or the stack.
#ifndef COLLSYNTH_CORE_JSON_IO_H_
#define COLLSYNTH_CORE_JSON_IO_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/rational.h"

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

// Writes `text` to `path` ("-": stdout). Throws InputError when the file cannot be written.
void WriteTextFile(const std::string& path, const std::string& text);

// Exact rational from a JSON integer or string; InputError(file, item, ...) otherwise.
// Floating-point JSON numbers are rejected (they are not exact).
Rational RationalFromJson(const nlohmann::json& v, const std::string& file,
                          const std::string& item);
// "p/q" string (or "p"), the contract's encoding of rationals.
inline nlohmann::json RationalToJson(const Rational& r) { return ToString(r); }

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_JSON_IO_H_
