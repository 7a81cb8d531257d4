#include "graphs/link_latency.h"

#include <cctype>

#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/topology_io.h"

namespace collsynth {

std::vector<std::optional<Rational>> LinkLatenciesFromJson(const nlohmann::json& doc,
                                                           const Topology& g,
                                                           const std::string& file) {
  std::vector<std::optional<Rational>> latency(g.num_links());
  std::vector<bool> seen(g.num_links(), false);
  auto links = doc.find("links");
  if (links == doc.end() || !links->is_array()) return latency;  // TopologyFromJson checked it
  for (std::size_t i = 0; i < links->size(); ++i) {
    const nlohmann::json& l = (*links)[i];
    // TopologyFromJson accepted the document: from/to are strings naming nodes.
    const std::string from = l.at("from").get<std::string>(), to = l.at("to").get<std::string>();
    const std::string item = "links[" + std::to_string(i) + "] (" + from + " -> " + to + ")";
    std::optional<Rational> value;
    if (auto it = l.find("latency"); it != l.end()) {
      value = RationalFromJson(*it, file, item + " latency");
      if (*value < 0) {
        throw InputError(file, item + " latency",
                         "must be a non-negative number of seconds, got " + ToString(*value));
      }
    }
    const int a = *g.FindNode(from), b = *g.FindNode(to);
    const bool duplex = l.value("duplex", false);
    for (int side = 0; side < (duplex ? 2 : 1); ++side) {
      const std::optional<int> found = side == 0 ? g.FindLink(a, b) : g.FindLink(b, a);
      if (!found) continue;  // a failed link (graphs/failed_links.h): g is the degraded topology
      const int e = *found;
      if (seen[e] && latency[e] != value) {
        throw InputError(file, item + " latency",
                         (value ? ToString(*value) : std::string("none")) + " differs from " +
                             (latency[e] ? ToString(*latency[e]) : std::string("none")) +
                             ", the latency of a link it merges with (parallel links share one)");
      }
      seen[e] = true;
      latency[e] = value;
    }
  }
  return latency;
}

TopologyWithLatencies ReadTopologyWithLatencies(const std::string& path) {
  std::string text = ReadTextFile(path);
  std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && (text[i] == '{' || text[i] == '[')) {
    const nlohmann::json doc = ParseJsonText(text, path);
    text.clear();
    Topology g = TopologyFromJson(doc, path);
    std::vector<std::optional<Rational>> latency = LinkLatenciesFromJson(doc, g, path);
    return {std::move(g), std::move(latency)};
  }
  if (i == text.size()) throw InputError(path, "", "file is empty");
  Topology g = ParseEdgeList(text, path);
  std::vector<std::optional<Rational>> none(g.num_links());
  return {std::move(g), std::move(none)};
}

}  // namespace collsynth
