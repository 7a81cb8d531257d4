#include "graphs/failed_links.h"

#include <unordered_set>

#include "core/input_error.h"

namespace collsynth {

using nlohmann::json;

void AppendFailedLinks(const Topology& intact, const json& list, const std::string& file,
                       const std::string& field, std::vector<int>& failed) {
  if (!list.is_array())
    throw InputError(file, field, std::string("must be an array, got ") + list.type_name());
  std::unordered_set<int> seen(failed.begin(), failed.end());
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string item = field + "[" + std::to_string(i) + "]";
    const json& x = list[i];
    if (!x.is_array() || x.size() != 3 || !x[0].is_string() || !x[1].is_string() ||
        !x[2].is_string() || (x[1] != "->" && x[1] != "-")) {
      throw InputError(file, item,
                       "must be [\"u\", \"->\", \"v\"] (one direction) or [\"u\", \"-\", \"v\"] "
                       "(both), got " +
                           Abbreviated(x.dump()));
    }
    const std::string& u = x[0].get_ref<const std::string&>();
    const std::string& v = x[2].get_ref<const std::string&>();
    const bool both = x[1] == "-";
    item += " (" + Abbreviated(u) + (both ? " - " : " -> ") + Abbreviated(v) + ")";
    const auto a = intact.FindNode(u), b = intact.FindNode(v);
    if (!a) throw InputError(file, item, "unknown node '" + Abbreviated(u) + "'");
    if (!b) throw InputError(file, item, "unknown node '" + Abbreviated(v) + "'");
    for (int side = 0; side < (both ? 2 : 1); ++side) {
      const int from = side == 0 ? *a : *b, to = side == 0 ? *b : *a;
      const std::string name =
          Abbreviated(intact.node(from).name) + " -> " + Abbreviated(intact.node(to).name);
      const auto e = intact.FindLink(from, to);
      if (!e) throw InputError(file, item, name + " is not a link of the topology");
      if (!seen.insert(*e).second) throw InputError(file, item, name + " is listed twice");
      failed.push_back(*e);
    }
  }
}

const json& FailedLinkList(const json& doc, const std::string& file) {
  if (doc.is_array()) return doc;
  if (doc.is_object()) {
    auto it = doc.find("failed_links");
    if (it != doc.end()) return *it;
    throw InputError(file, "top level", "missing field 'failed_links'");
  }
  throw InputError(file, "top level",
                   std::string("expected a failed-link list or an object with 'failed_links', "
                               "got ") +
                       doc.type_name());
}

Topology DegradedTopology(const TopologyWithFailures& t) {
  const Topology& g = t.intact;
  std::vector<bool> gone(g.num_links(), false);
  for (int e : t.failed) gone[e] = true;
  Topology d(g.name());
  for (const Node& n : g.nodes()) d.AddNode(n.name, n.kind);
  for (int e = 0; e < g.num_links(); ++e) {
    if (gone[e]) continue;
    const Link& l = g.link(e);
    d.AddLink(l.from, l.to, l.bandwidth, l.multiplicity);
  }
  return d;
}

json FailedLinksJson(const TopologyWithFailures& t) {
  json list = json::array();
  for (int e : t.failed) {
    const Link& l = t.intact.link(e);
    list.push_back({t.intact.node(l.from).name, "->", t.intact.node(l.to).name});
  }
  return list;
}

}  // namespace collsynth
