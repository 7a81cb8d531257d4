#include "schedules/flow_schedule.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "core/input_error.h"
#include "core/json_io.h"
#include "core/json_writer.h"
#include "schedules/demand_io.h"

namespace collsynth {

using nlohmann::json;

namespace {

const BigInt& RationalTermLimit() {
  static const BigInt limit =
      Numerator(ParseRational("1" + std::string(kMaxFlowRationalDigits, '0')));
  return limit;
}

}  // namespace

Rational FlowRationalFromJson(const json& v, const std::string& file, const std::string& item) {
  Rational r = RationalFromJson(v, file, item);
  const BigInt num = Numerator(r);
  if ((num < 0 ? BigInt(-num) : num) >= RationalTermLimit() ||
      Denominator(r) >= RationalTermLimit()) {
    throw InputError(file, item,
                     "numerator and denominator must have at most " +
                         std::to_string(kMaxFlowRationalDigits) + " digits");
  }
  return r;
}

void FlowOnlyKeys(const json& x, std::initializer_list<const char*> keys, const std::string& file,
                  const std::string& item, const char* expected) {
  for (const auto& [key, value] : x.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) {
      throw InputError(file, item.empty() ? Abbreviated(key) : item + "." + Abbreviated(key),
                       std::string("unknown key (expected ") + expected + ")");
    }
  }
}

const json& FlowMember(const json& x, const char* key, const std::string& file,
                       const std::string& item) {
  auto it = x.find(key);
  if (it == x.end()) {
    throw InputError(file, item.empty() ? "top level" : item,
                     std::string("missing field '") + key + "'");
  }
  return *it;
}

int FlowNodeFromJson(const json& v, const Topology& g, const std::string& file,
                     const std::string& item) {
  if (!v.is_string()) throw InputError(file, item, "must be a node name (string)");
  const std::string& name = v.get_ref<const std::string&>();
  std::optional<int> id = g.FindNode(name);
  if (!id) throw InputError(file, item, "unknown node '" + Abbreviated(name) + "'");
  return *id;
}

namespace {

FlowPath PathFromJson(const json& x, const Topology& g, const std::string& file,
                      const std::string& item) {
  if (!x.is_object()) throw InputError(file, item, "must be an object {path, share}");
  FlowOnlyKeys(x, {"path", "share"}, file, item, "path, share");
  FlowPath p;
  const json& nodes = FlowMember(x, "path", file, item);
  if (!nodes.is_array()) throw InputError(file, item + ".path", "must be an array of node names");
  if (nodes.size() > static_cast<std::size_t>(g.num_nodes())) {
    throw InputError(file, item + ".path",
                     "has " + std::to_string(nodes.size()) + " nodes, more than the topology's " +
                         std::to_string(g.num_nodes()));
  }
  p.nodes.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    p.nodes.push_back(
        FlowNodeFromJson(nodes[i], g, file, item + ".path[" + std::to_string(i) + "]"));
  }
  p.share = FlowRationalFromJson(FlowMember(x, "share", file, item), file, item + ".share");
  return p;
}

}  // namespace

PairFlows FlowPairFromJson(const json& x, const Topology& g, const std::string& file,
                           const std::string& item, std::size_t* paths_read) {
  if (!x.is_object()) throw InputError(file, item, "must be an object {from, to, paths}");
  FlowOnlyKeys(x, {"from", "to", "paths"}, file, item, "from, to, paths");
  PairFlows f;
  f.from = FlowNodeFromJson(FlowMember(x, "from", file, item), g, file, item + ".from");
  f.to = FlowNodeFromJson(FlowMember(x, "to", file, item), g, file, item + ".to");
  const json& paths = FlowMember(x, "paths", file, item);
  if (!paths.is_array()) throw InputError(file, item + ".paths", "must be an array");
  *paths_read += paths.size();
  if (*paths_read > kMaxFlowPaths) {
    throw InputError(file, item + ".paths",
                     "more than " + std::to_string(kMaxFlowPaths) + " paths in the file");
  }
  f.paths.reserve(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    f.paths.push_back(PathFromJson(paths[i], g, file, item + ".paths[" + std::to_string(i) + "]"));
  }
  return f;
}

std::vector<std::pair<int, Rational>> FlowLengthEntriesFromJson(const json& x, const Topology& g,
                                                                const std::string& file) {
  if (!x.is_array()) throw InputError(file, "lengths", "must be an array of {from, to, length}");
  if (x.size() > static_cast<std::size_t>(g.num_links())) {
    throw InputError(file, "lengths",
                     "has " + std::to_string(x.size()) + " entries, more than the topology's " +
                         std::to_string(g.num_links()) + " links");
  }
  std::vector<std::pair<int, Rational>> entries;
  std::vector<bool> given(g.num_links(), false);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::string item = "lengths[" + std::to_string(i) + "]";
    const json& entry = x[i];
    if (!entry.is_object()) throw InputError(file, item, "must be an object {from, to, length}");
    FlowOnlyKeys(entry, {"from", "to", "length"}, file, item, "from, to, length");
    const int from =
        FlowNodeFromJson(FlowMember(entry, "from", file, item), g, file, item + ".from");
    const int to = FlowNodeFromJson(FlowMember(entry, "to", file, item), g, file, item + ".to");
    const std::optional<int> e = g.FindLink(from, to);
    if (!e) {
      throw InputError(file, item,
                       "no link " + Abbreviated(g.node(from).name) + "->" +
                           Abbreviated(g.node(to).name) + " in the topology");
    }
    if (given[*e]) {
      throw InputError(file, item,
                       "link " + g.node(from).name + "->" + g.node(to).name + " given twice");
    }
    given[*e] = true;
    entries.emplace_back(
        *e, FlowRationalFromJson(FlowMember(entry, "length", file, item), file, item + ".length"));
  }
  return entries;
}

namespace {

// The optional "lengths": [{from, to, length}], one entry per link with a length (others 0).
std::vector<Rational> LengthsFromJson(const json& x, const Topology& g, const std::string& file) {
  std::vector<Rational> length(g.num_links());
  for (auto& [e, l] : FlowLengthEntriesFromJson(x, g, file)) length[e] = std::move(l);
  return length;
}

}  // namespace

FlowSchedule FlowScheduleFromJson(const json& doc, const Topology& g, const std::string& file) {
  if (!doc.is_object()) throw InputError(file, "top level", "expected a JSON object");
  FlowSchedule s;
  const json& collective = FlowMember(doc, "collective", file, "");
  if (collective != "alltoall") {
    throw InputError(file, "collective", "must be \"alltoall\" (the only flows collective)");
  }
  s.collective = Collective::kAlltoall;
  if (auto it = doc.find("relay"); it != doc.end()) {
    if (!it->is_boolean()) throw InputError(file, "relay", "must be true or false");
    s.relay = it->get<bool>();
  }
  const json& demand = FlowMember(doc, "demand", file, "");
  if (demand.is_string()) {
    if (demand != "uniform") {
      throw InputError(file, "demand", "must be \"uniform\" or an array of {from, to, amount}");
    }
    s.uniform = true;
    s.demand = UniformDemand(g);
  } else {
    s.uniform = false;
    s.demand = DemandFromJson(demand, file, "demand", g);
  }
  s.time = FlowRationalFromJson(FlowMember(doc, "time", file, ""), file, "time");
  if (auto it = doc.find("lengths"); it != doc.end()) s.lengths = LengthsFromJson(*it, g, file);
  const json& flows = FlowMember(doc, "flows", file, "");
  if (!flows.is_array()) throw InputError(file, "flows", "must be an array of {from, to, paths}");
  std::size_t paths_read = 0;
  s.flows.reserve(flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    s.flows.push_back(
        FlowPairFromJson(flows[i], g, file, "flows[" + std::to_string(i) + "]", &paths_read));
  }
  return s;
}

void WriteFlowSchedule(std::ostream& out, const FlowSchedule& s, const Topology& g) {
  JsonStrings names;
  for (int v = 0; v < g.num_nodes(); ++v) names.Add(g.node(v).name);
  JsonWriter w(out);
  w.BeginObject().Key("format").String("flows");
  w.Key("collective").String(CollectiveName(s.collective));
  w.Key("relay").Json(json(s.relay));
  w.Key("demand");
  if (s.uniform) {
    w.String("uniform");
  } else {
    w.BeginArray();
    for (const DemandEntry& d : s.demand.entries) {
      w.LineBreak().BeginObject();
      w.Key("from").String(names, d.from).Key("to").String(names, d.to);
      w.Key("amount").IntegerOrRational(d.amount).EndObject();
    }
    w.EndArray();
  }
  w.Key("time").RationalString(s.time);
  if (s.lengths) {
    w.Key("lengths").BeginArray();
    for (int e = 0; e < g.num_links() && e < static_cast<int>(s.lengths->size()); ++e) {
      if ((*s.lengths)[e] == 0) continue;
      w.LineBreak().BeginObject();
      w.Key("from").String(names, g.link(e).from).Key("to").String(names, g.link(e).to);
      w.Key("length").RationalString((*s.lengths)[e]).EndObject();
    }
    w.EndArray();
  }
  WriteFlowPairs(w, names, s.flows);
  w.EndObject();
  w.FlushToStream();
  out << "\n";
}

void WriteFlowPairs(JsonWriter& w, const JsonStrings& names, const std::vector<PairFlows>& flows) {
  w.Key("flows").BeginArray();
  for (const PairFlows& f : flows) {
    w.LineBreak().BeginObject();
    w.Key("from").String(names, f.from).Key("to").String(names, f.to);
    w.Key("paths").BeginArray();
    for (const FlowPath& p : f.paths) {
      w.BeginObject().Key("path").BeginArray();
      for (int v : p.nodes) w.String(names, v);
      w.EndArray().Key("share").RationalString(p.share).EndObject();
    }
    w.EndArray().EndObject();
  }
  w.EndArray();
}

}  // namespace collsynth
