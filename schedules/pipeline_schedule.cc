#include "schedules/pipeline_schedule.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/json_io.h"
#include "core/json_writer.h"
#include "graphs/topology_io.h"

namespace collsynth {
namespace {

using nlohmann::json;

bool IsKnownKey(const std::string& key) {
  return key == "format" || key == "collective" || key == "root" || key == "ratio" || key == "U" ||
         key == "k" || key == "bottleneck_cut" || key == "fixed_k_cut" || key == "trees" ||
         key == "phases" || key == "single_node_cuts" || key == "height_hops";
}

const json& RequireField(const json& obj, const char* key, const std::string& file,
                         const std::string& item) {
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, item, std::string("missing field '") + key + "'");
  return *it;
}

// Item names ("trees[3].edges[1].routes[0]") are built only when an error needs one: the
// reader visits millions of edges and routes in a large schedule (template ItemFn: a
// callable returning the item's name).
template <typename ItemFn>
int NodeFromJson(const json& v, const Topology& g, const std::string& file, const ItemFn& item) {
  if (!v.is_string()) {
    throw InputError(file, item(),
                     std::string("expected a node name (string), got ") + v.type_name());
  }
  const std::string& name = v.get_ref<const std::string&>();
  auto id = g.FindNode(name);
  if (!id) throw InputError(file, item(), "unknown node '" + name + "'");
  return *id;
}

int NodeFromJson(const json& v, const Topology& g, const std::string& file,
                 const std::string& item) {
  return NodeFromJson(v, g, file, [&] { return item; });
}

// A positive big integer: a JSON integer or a decimal string of digits.
template <typename ItemFn>
BigInt PositiveBigIntFromJson(const json& v, const std::string& file, const ItemFn& item) {
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    if (u < 1) throw InputError(file, item(), "must be a positive integer, got 0");
    return BigInt(u);
  }
  BigInt z;
  if (v.is_number_integer()) {
    z = BigInt(v.get<std::int64_t>());
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    bool digits = !s.empty() && s.size() <= kMaxDigits;
    for (char c : s) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits)
      throw InputError(file, item(),
                       "expected a positive integer, got \"" + s.substr(0, 40) + "\"");
    z.assign(s);
  } else {
    throw InputError(
        file, item(),
        std::string("expected a positive integer (number or decimal string), got ") +
            (v.is_number_float() ? "the non-integer " + v.dump() : std::string(v.type_name())));
  }
  if (z < 1) throw InputError(file, item(), "must be a positive integer, got " + z.str());
  return z;
}

BigInt PositiveBigIntFromJson(const json& v, const std::string& file, const std::string& item) {
  return PositiveBigIntFromJson(v, file, [&] { return item; });
}

json BigIntToJson(const BigInt& z) {
  if (z >= 0 && z <= BigInt(INT64_MAX)) return json(static_cast<std::int64_t>(z));
  return json(z.str());
}

template <typename ItemFn>
PipelineRoute ReadRoute(const json& r, const Topology& g, const std::string& file,
                        const ItemFn& item) {
  if (!r.is_object())
    throw InputError(file, item(), std::string("must be an object, got ") + r.type_name());
  PipelineRoute route;
  auto path_it = r.find("path");
  if (path_it == r.end()) throw InputError(file, item(), "missing field 'path'");
  const json& path = *path_it;
  if (!path.is_array() || path.size() < 2) {
    throw InputError(file, item(), "field 'path' must be an array of at least two node names");
  }
  route.path.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    route.path.push_back(NodeFromJson(path[i], g, file,
                                      [&] { return item() + ".path[" + std::to_string(i) + "]"; }));
  }
  auto mult = r.find("multiplicity");
  if (mult == r.end()) throw InputError(file, item(), "missing field 'multiplicity'");
  route.multiplicity =
      PositiveBigIntFromJson(*mult, file, [&] { return item() + ".multiplicity"; });
  return route;
}

PipelineTreeEdge ReadEdge(const json& e, const Topology& g, const std::string& file,
                          const std::string& item) {
  if (!e.is_object())
    throw InputError(file, item, std::string("must be an object, got ") + e.type_name());
  PipelineTreeEdge edge;
  auto field = [&](const char* key) -> const json& {
    auto it = e.find(key);
    if (it == e.end()) throw InputError(file, item, std::string("missing field '") + key + "'");
    return *it;
  };
  edge.from = NodeFromJson(field("from"), g, file, [&] { return item + ".from"; });
  edge.to = NodeFromJson(field("to"), g, file, [&] { return item + ".to"; });
  const json& routes = field("routes");
  if (!routes.is_array() || routes.empty()) {
    throw InputError(file, item + ".routes", "must be a non-empty array of routes");
  }
  edge.routes.reserve(routes.size());
  for (std::size_t k = 0; k < routes.size(); ++k) {
    edge.routes.push_back(
        ReadRoute(routes[k], g, file, [&] { return item + ".routes[" + std::to_string(k) + "]"; }));
  }
  return edge;
}

PipelineTree ReadTree(const json& t, const Topology& g, const std::string& file,
                      const std::string& item) {
  if (!t.is_object())
    throw InputError(file, item, std::string("must be an object, got ") + t.type_name());
  PipelineTree tree;
  tree.root = NodeFromJson(RequireField(t, "root", file, item), g, file, item + ".root");
  tree.multiplicity = PositiveBigIntFromJson(RequireField(t, "multiplicity", file, item), file,
                                             item + ".multiplicity");
  const json& edges = RequireField(t, "edges", file, item);
  if (!edges.is_array()) throw InputError(file, item + ".edges", "must be an array");
  tree.edges.reserve(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    tree.edges.push_back(ReadEdge(edges[i], g, file, item + ".edges[" + std::to_string(i) + "]"));
  }
  return tree;
}

PipelineSchedule ReadSchedule(const json& j, const Topology& g, const std::string& file,
                              const std::string& prefix, bool is_phase, int which,
                              StreamedPipelineTrees* streamed) {
  const std::string top = prefix.empty() ? "top level" : prefix;
  auto item = [&](const std::string& key) { return prefix.empty() ? key : prefix + "." + key; };
  if (!j.is_object())
    throw InputError(file, top, std::string("expected a JSON object, got ") + j.type_name());
  PipelineSchedule s;
  if (auto it = j.find("format"); it != j.end() || !is_phase) {
    const json& format = RequireField(j, "format", file, top);
    if (!format.is_string() || format.get<std::string>() != "pipeline") {
      throw InputError(file, item("format"), "expected \"pipeline\", got " + format.dump());
    }
  }
  const json& collective = RequireField(j, "collective", file, top);
  if (!collective.is_string()) throw InputError(file, item("collective"), "must be a string");
  std::optional<Collective> parsed = ParseCollective(collective.get_ref<const std::string&>());
  if (!parsed) {
    throw InputError(
        file, item("collective"),
        "expected \"allgather\", \"reduce-scatter\", \"allreduce\" or \"broadcast\", got " +
            collective.dump());
  }
  s.collective = *parsed;
  if (is_phase && s.collective == Collective::kAllreduce) {
    throw InputError(file, item("collective"),
                     "an allreduce phase must be a reduce-scatter or an allgather");
  }
  if (auto it = j.find("root"); it != j.end() && !it->is_null()) {
    s.root = NodeFromJson(*it, g, file, item("root"));
  }
  if (s.collective == Collective::kBroadcast && !s.root) {
    throw InputError(file, top, "a broadcast schedule needs a \"root\"");
  }
  s.ratio = RationalFromJson(RequireField(j, "ratio", file, top), file, item("ratio"));
  const bool allreduce = s.collective == Collective::kAllreduce;
  if (!allreduce || j.contains("U")) {
    s.U = RationalFromJson(RequireField(j, "U", file, top), file, item("U"));
    if (s.U <= 0) throw InputError(file, item("U"), "must be positive, got " + ToString(s.U));
  }
  if (!allreduce || j.contains("k")) {
    s.k = PositiveBigIntFromJson(RequireField(j, "k", file, top), file, item("k"));
  }
  // An optional array of node names (a certificate set).
  auto node_set = [&](const char* key) -> std::optional<std::vector<int>> {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_array()) throw InputError(file, item(key), "must be an array of node names");
    std::vector<int> nodes;
    for (std::size_t i = 0; i < it->size(); ++i) {
      nodes.push_back(
          NodeFromJson((*it)[i], g, file, item(std::string(key) + "[" + std::to_string(i) + "]")));
    }
    return nodes;
  };
  s.bottleneck_cut = node_set("bottleneck_cut");
  s.fixed_k_cut = node_set("fixed_k_cut");
  s.single_node_cuts = ReadPipelineSingleNodeCuts(j, allreduce, g, file, prefix);
  s.height_hops = ReadPipelineHeightClaim(j, file, prefix);
  if (allreduce) {
    const json& phases = RequireField(j, "phases", file, top);
    if (!phases.is_array() || phases.size() != 2) {
      throw InputError(file, item("phases"),
                       "an allreduce needs exactly two phases: [reduce-scatter, allgather]");
    }
    for (std::size_t i = 0; i < 2; ++i) {
      s.phases.push_back(ReadSchedule(phases[i], g, file, item("phases[" + std::to_string(i) + "]"),
                                      true, 1 + static_cast<int>(i), streamed));
    }
    if (s.phases[0].collective != Collective::kReduceScatter ||
        s.phases[1].collective != Collective::kAllgather) {
      throw InputError(file, item("phases"),
                       "an allreduce's phases must be a reduce-scatter then an allgather");
    }
    if (auto it = j.find("trees"); it != j.end() && !(it->is_array() && it->empty())) {
      throw InputError(file, item("trees"), "an allreduce carries its trees in 'phases'");
    }
  } else {
    const json& trees = RequireField(j, "trees", file, top);
    if (!trees.is_array()) throw InputError(file, item("trees"), "must be an array");
    s.trees.reserve(trees.size());
    for (std::size_t i = 0; i < trees.size(); ++i) {
      if (streamed) {  // converted while parsing (PipelineTreeStreamHook)
        auto it = streamed->find({which, i});
        if (it != streamed->end()) {
          s.trees.push_back(std::move(it->second));
          streamed->erase(it);
          continue;
        }
      }
      s.trees.push_back(ReadTree(trees[i], g, file, item("trees[" + std::to_string(i) + "]")));
    }
  }
  ReadPipelineExtras(j, IsKnownKey, file, prefix, s.extra);
  return s;
}

json EdgeToJson(const PipelineTreeEdge& e, const Topology& g) {
  json routes = json::array();
  for (const PipelineRoute& r : e.routes) {
    json path = json::array();
    for (int v : r.path) path.push_back(g.node(v).name);
    routes.push_back({{"path", std::move(path)}, {"multiplicity", BigIntToJson(r.multiplicity)}});
  }
  return {{"from", g.node(e.from).name}, {"to", g.node(e.to).name}, {"routes", std::move(routes)}};
}

json TreeToJson(const PipelineTree& t, const Topology& g) {
  json edges = json::array();
  for (const PipelineTreeEdge& e : t.edges) edges.push_back(EdgeToJson(e, g));
  return {{"root", g.node(t.root).name},
          {"multiplicity", BigIntToJson(t.multiplicity)},
          {"edges", std::move(edges)}};
}

// The members of the document, streamed: nlohmann's tree sorts keys, so the
// top-level members (producer metadata among them) go through SortedMembers and the trees'
// objects are written in sorted key order, checked by the writer (KeyOrder::kSorted).
void WriteSchedule(JsonWriter& w, const PipelineSchedule& s, const JsonStrings& name) {
  using Order = JsonWriter::KeyOrder;
  auto names = [&name](const std::vector<int>& nodes) {
    return [&nodes, &name](JsonWriter& w) {
      w.BeginArray();
      for (int v : nodes) w.String(name, v);
      w.EndArray();
    };
  };
  SortedMembers top;
  top.AddJsonMembers(s.extra, IsKnownKey);
  top.Add("format", [](JsonWriter& w) { w.String("pipeline"); });
  top.Add("collective", [&s](JsonWriter& w) { w.String(CollectiveName(s.collective)); });
  if (s.root) top.Add("root", [&](JsonWriter& w) { w.String(name, *s.root); });
  top.Add("ratio", [&s](JsonWriter& w) { w.RationalString(s.ratio); });
  if (s.collective != Collective::kAllreduce || s.U > 0)
    top.Add("U", [&s](JsonWriter& w) { w.RationalString(s.U); });
  if (s.collective != Collective::kAllreduce || s.k > 0)
    top.Add("k", [&s](JsonWriter& w) { w.BigInteger(s.k); });
  if (s.bottleneck_cut) top.Add("bottleneck_cut", names(*s.bottleneck_cut));
  if (s.fixed_k_cut) top.Add("fixed_k_cut", names(*s.fixed_k_cut));
  if (s.single_node_cuts) {
    top.Add("single_node_cuts", [&](JsonWriter& w) {
      w.BeginArray();
      for (const std::vector<int>& cut : *s.single_node_cuts) names(cut)(w);
      w.EndArray();
    });
  }
  if (s.height_hops) top.Add("height_hops", [&s](JsonWriter& w) { w.Int(*s.height_hops); });
  if (s.collective == Collective::kAllreduce) {
    top.Add("phases", [&](JsonWriter& w) {
      w.BeginArray();
      for (const PipelineSchedule& p : s.phases) WriteSchedule(w, p, name);
      w.EndArray();
    });
  } else {
    top.Add("trees", [&](JsonWriter& w) {
      w.BeginArray();
      for (const PipelineTree& t : s.trees) {
        w.BeginObject(Order::kSorted).Key("edges").BeginArray();
        for (const PipelineTreeEdge& e : t.edges) {
          w.BeginObject(Order::kSorted).Key("from").String(name, e.from).Key("routes").BeginArray();
          for (const PipelineRoute& r : e.routes) {
            w.BeginObject(Order::kSorted)
                .Key("multiplicity")
                .BigInteger(r.multiplicity)
                .Key("path")
                .BeginArray();
            for (int v : r.path) w.String(name, v);
            w.EndArray().EndObject();
          }
          w.EndArray().Key("to").String(name, e.to).EndObject();
        }
        w.EndArray()
            .Key("multiplicity")
            .BigInteger(t.multiplicity)
            .Key("root")
            .String(name, t.root)
            .EndObject();
      }
      w.EndArray();
    });
  }
  top.Write(w);
}

}  // namespace

PipelineSchedule PipelineScheduleFromJson(const json& j, const Topology& g,
                                          const std::string& file) {
  return ReadSchedule(j, g, file, "", false, 0, nullptr);
}

PipelineSchedule PipelineScheduleFromJson(const json& j, const Topology& g, const std::string& file,
                                          StreamedPipelineTrees* streamed) {
  return ReadSchedule(j, g, file, "", false, 0, streamed);
}

JsonElementHook PipelineTreeStreamHook(const Topology& g, const std::string& file,
                                       StreamedPipelineTrees* trees) {
  return [&g, file, trees](const std::vector<std::string>& path, json& element, const json& root) {
    // {"", "trees", i} or {"", "phases", p, "trees", i} of a document already known to be a
    // pipeline schedule.
    int which = -1;
    if (path.size() == 3 && path[1] == "trees") {
      which = 0;
    } else if (path.size() == 5 && path[1] == "phases" && path[3] == "trees" &&
               (path[2] == "0" || path[2] == "1")) {
      which = 1 + (path[2] == "1");
    } else {
      return false;
    }
    if (!root.is_object()) return false;
    auto format = root.find("format");
    if (format == root.end() || !format->is_string() ||
        format->get_ref<const std::string&>() != "pipeline")
      return false;
    const std::string& index = path.back();
    const std::size_t i = std::stoul(index);
    const std::string item =
        (which == 0 ? "" : "phases[" + path[2] + "].") + "trees[" + index + "]";
    (*trees)[{which, i}] = ReadTree(element, g, file, item);
    return true;
  };
}

PipelineTree PipelineTreeFromJson(const json& t, const Topology& g, const std::string& file,
                                  const std::string& item) {
  return ReadTree(t, g, file, item);
}

json PipelineTreeToJson(const PipelineTree& t, const Topology& g) { return TreeToJson(t, g); }

PipelineTreeEdge PipelineTreeEdgeFromJson(const json& e, const Topology& g, const std::string& file,
                                          const std::string& item) {
  return ReadEdge(e, g, file, item);
}

json PipelineTreeEdgeToJson(const PipelineTreeEdge& e, const Topology& g) {
  return EdgeToJson(e, g);
}

std::int64_t PipelineTreeHeightHops(const PipelineTree& t) {
  // child -> (parent, links of the edge's longest route)
  std::map<int, std::pair<int, std::int64_t>> up;
  for (const PipelineTreeEdge& e : t.edges) {
    std::int64_t links = 0;
    for (const PipelineRoute& r : e.routes)
      links = std::max(links, static_cast<std::int64_t>(r.path.size()) - 1);
    if (!up.emplace(e.to, std::pair{e.from, links}).second)
      throw std::logic_error("PipelineTreeHeightHops: a node with two parents");
  }
  std::map<int, std::int64_t> depth{{t.root, 0}};
  std::int64_t height = 0;
  std::vector<int> chain;
  for (const auto& [v, edge] : up) {
    chain.clear();
    int u = v;
    while (depth.find(u) == depth.end()) {  // climb to a node of known depth
      auto it = up.find(u);
      if (it == up.end() || chain.size() > up.size())
        throw std::logic_error("PipelineTreeHeightHops: an edge the root does not reach");
      chain.push_back(u);
      u = it->second.first;
    }
    for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
      const auto& [parent, links] = up.at(*c);
      const std::int64_t d = depth.at(parent) + links;
      depth.emplace(*c, d);
      height = std::max(height, d);
    }
  }
  return height;
}

std::int64_t PipelineScheduleHeightHops(const PipelineSchedule& s) {
  std::int64_t height = 0;
  for (const PipelineSchedule& p : s.phases) height += PipelineScheduleHeightHops(p);
  for (const PipelineTree& t : s.trees) height = std::max(height, PipelineTreeHeightHops(t));
  return height;
}

std::optional<std::int64_t> ReadPipelineHeightClaim(const json& j, const std::string& file,
                                                    const std::string& prefix) {
  auto it = j.find("height_hops");
  if (it == j.end() || it->is_null()) return std::nullopt;
  const std::string item = prefix.empty() ? "height_hops" : prefix + ".height_hops";
  constexpr std::int64_t kMax = std::int64_t{1} << 62;
  if (it->is_number_unsigned() && it->get<std::uint64_t>() <= static_cast<std::uint64_t>(kMax))
    return static_cast<std::int64_t>(it->get<std::uint64_t>());
  if (it->is_number_integer() && it->get<std::int64_t>() >= 0 && it->get<std::int64_t>() <= kMax)
    return it->get<std::int64_t>();
  throw InputError(file, item, "must be an integer in [0, 2^62], got " + it->dump());
}

BigInt PipelinePositiveBigIntFromJson(const json& v, const std::string& file,
                                      const std::string& item) {
  return PositiveBigIntFromJson(v, file, item);
}

json PipelineBigIntToJson(const BigInt& z) { return BigIntToJson(z); }

// Stops at the first value past the limit: O(size of v) time, O(size of v) memory at most.
bool JsonNestedDeeperThan(const json& v, int limit) {
  std::vector<std::pair<const json*, int>> stack{{&v, 0}};
  while (!stack.empty()) {
    const auto [p, depth] = stack.back();
    stack.pop_back();
    if (!p->is_structured()) continue;
    if (depth + 1 > limit) return true;
    for (const json& child : *p) stack.emplace_back(&child, depth + 1);
  }
  return false;
}

// Producer extras (unknown keys) are copied and written back recursively; deeper nesting than
// kMaxPipelineExtraDepth is refused while reading (a 2·10^5-deep value overflowed the stack in
// the copy).
void ReadPipelineExtras(const json& j, bool (*is_known)(const std::string&),
                        const std::string& file, const std::string& prefix, json& extra) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (is_known(it.key())) continue;
    if (JsonNestedDeeperThan(it.value(), kMaxPipelineExtraDepth)) {
      throw InputError(file, prefix.empty() ? it.key() : prefix + "." + it.key(),
                       "nested deeper than " + std::to_string(kMaxPipelineExtraDepth) + " levels");
    }
    extra[it.key()] = it.value();
  }
}

std::optional<std::vector<std::vector<int>>> ReadPipelineSingleNodeCuts(const json& j,
                                                                        bool allreduce,
                                                                        const Topology& g,
                                                                        const std::string& file,
                                                                        const std::string& prefix) {
  auto item = [&](const std::string& key) { return prefix.empty() ? key : prefix + "." + key; };
  auto it = j.find("single_node_cuts");
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!allreduce) {
    throw InputError(file, item("single_node_cuts"), "only an allreduce carries bound (7) cuts");
  }
  if (!it->is_array()) {
    throw InputError(file, item("single_node_cuts"), "must be an array of arrays of node names");
  }
  std::vector<std::vector<int>> cuts;
  for (std::size_t c = 0; c < it->size(); ++c) {
    const std::string citem = item("single_node_cuts[" + std::to_string(c) + "]");
    const json& cut = (*it)[c];
    if (!cut.is_array()) throw InputError(file, citem, "must be an array of node names");
    std::vector<int> nodes;
    for (std::size_t i = 0; i < cut.size(); ++i) {
      nodes.push_back(NodeFromJson(cut[i], g, file, citem + "[" + std::to_string(i) + "]"));
    }
    cuts.push_back(std::move(nodes));
  }
  return cuts;
}

bool IsPipelineScheduleMember(const std::string& key) { return IsKnownKey(key); }

std::string PipelineScheduleToJsonText(const PipelineSchedule& s, const Topology& g) {
  JsonWriter w;
  WriteSchedule(w, s, QuotedNodeNames(g));
  return w.TakeText();
}

void WritePipelineScheduleJson(const PipelineSchedule& s, const Topology& g, std::ostream& out) {
  JsonWriter w(out);
  WriteSchedule(w, s, QuotedNodeNames(g));
  w.FlushToStream();
}

}  // namespace collsynth
