#include "schedules/symmetric_flow_schedule.h"

#include <string>
#include <utility>

#include "core/input_error.h"
#include "core/json_writer.h"
#include "graphs/permutation_group.h"
#include "graphs/symmetry.h"

namespace collsynth {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxFlowGroupOrder = std::int64_t{1} << 31;

// An integer in [lo, hi] (a JSON integer; anything else names the item).
std::int64_t BoundedInteger(const json& v, std::int64_t lo, std::int64_t hi, const char* what,
                            const std::string& file, const std::string& item) {
  const bool integer = v.is_number_integer();
  const std::int64_t x = !integer ? 0
                         : v.is_number_unsigned()
                             ? (v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)
                                    ? hi + 1
                                    : static_cast<std::int64_t>(v.get<std::uint64_t>()))
                             : v.get<std::int64_t>();
  if (!integer || x < lo || x > hi) {
    throw InputError(file, item,
                     std::string("must be ") + what + ", an integer in [" + std::to_string(lo) +
                         ", " + std::to_string(hi) + "]");
  }
  return x;
}

std::vector<int> GeneratorFromJson(const json& p, const Topology& g, const std::string& file,
                                   const std::string& item) {
  const int n = g.num_nodes();
  if (!p.is_array() || p.size() != static_cast<std::size_t>(n)) {
    throw InputError(file, item,
                     "must be a permutation: an array of " + std::to_string(n) + " node indices");
  }
  std::vector<int> perm(n);
  for (int v = 0; v < n; ++v) {
    perm[v] = static_cast<int>(
        BoundedInteger(p[v], 0, n - 1, "a node index", file, item + "[" + std::to_string(v) + "]"));
  }
  if (std::string problem = PermutationProblem(perm, n); !problem.empty()) {
    throw InputError(file, item, "is not a permutation: " + problem);
  }
  return perm;
}

void GroupFromJson(const json& group, const Topology& g, const std::string& file,
                   SymmetricFlowSchedule* s) {
  if (!group.is_object()) throw InputError(file, "group", "must be an object {generators, orders}");
  FlowOnlyKeys(group, {"generators", "orders"}, file, "group", "generators, orders");
  const json& gens = FlowMember(group, "generators", file, "group");
  const json& orders = FlowMember(group, "orders", file, "group");
  if (!gens.is_array() || gens.size() > kMaxSymmetricFlowGenerators) {
    throw InputError(file, "group.generators",
                     "must be an array of at most " + std::to_string(kMaxSymmetricFlowGenerators) +
                         " node permutations");
  }
  if (!orders.is_array() || orders.size() != gens.size()) {
    throw InputError(file, "group.orders", "must be an array of one integer per generator");
  }
  for (std::size_t i = 0; i < gens.size(); ++i) {
    const std::string item = "group.generators[" + std::to_string(i) + "]";
    s->generators.push_back(GeneratorFromJson(gens[i], g, file, item));
    s->orders.push_back(BoundedInteger(orders[i], 1, kMaxFlowGroupOrder, "the generator's order",
                                       file, "group.orders[" + std::to_string(i) + "]"));
  }
}

void SourcesFromJson(const json& x, const Topology& g, const std::string& file,
                     SymmetricFlowSchedule* s) {
  if (!x.is_array() || x.size() > static_cast<std::size_t>(g.num_compute())) {
    throw InputError(file, "sources",
                     "must be an array of at most " + std::to_string(g.num_compute()) +
                         " {node, exponents} (one per compute node)");
  }
  const std::size_t m = s->generators.size();
  std::vector<bool> listed(g.num_nodes(), false);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::string item = "sources[" + std::to_string(i) + "]";
    if (!x[i].is_object()) throw InputError(file, item, "must be an object {node, exponents}");
    FlowOnlyKeys(x[i], {"node", "exponents"}, file, item, "node, exponents");
    SymmetricFlowSource src;
    src.node = FlowNodeFromJson(FlowMember(x[i], "node", file, item), g, file, item + ".node");
    if (!g.IsCompute(src.node) || listed[src.node]) {
      throw InputError(file, item + ".node",
                       "'" + g.node(src.node).name +
                           (listed[src.node] ? "' is listed twice" : "' is not a compute node"));
    }
    listed[src.node] = true;
    const json& e = FlowMember(x[i], "exponents", file, item);
    if (!e.is_array() || e.size() != m) {
      throw InputError(
          file, item + ".exponents",
          "must be an array of " + std::to_string(m) + " integers (one per generator)");
    }
    for (std::size_t j = 0; j < m; ++j) {
      src.exponents.push_back(BoundedInteger(e[j], 0, s->orders[j] - 1,
                                             "an exponent below the generator's order", file,
                                             item + ".exponents[" + std::to_string(j) + "]"));
    }
    s->sources.push_back(std::move(src));
  }
}

}  // namespace

SymmetricFlowSchedule SymmetricFlowScheduleFromJson(const json& doc, const Topology& g,
                                                    const std::string& file) {
  if (!doc.is_object()) throw InputError(file, "top level", "expected a JSON object");
  SymmetricFlowSchedule s;
  if (FlowMember(doc, "collective", file, "") != "alltoall") {
    throw InputError(file, "collective", "must be \"alltoall\" (the only flows collective)");
  }
  if (FlowMember(doc, "demand", file, "") != "uniform") {
    throw InputError(file, "demand", "must be \"uniform\" (the only H-invariant demand written)");
  }
  if (auto it = doc.find("relay"); it != doc.end()) {
    if (!it->is_boolean()) throw InputError(file, "relay", "must be true or false");
    s.relay = it->get<bool>();
  }
  s.time = FlowRationalFromJson(FlowMember(doc, "time", file, ""), file, "time");
  GroupFromJson(FlowMember(doc, "group", file, ""), g, file, &s);
  s.root = FlowNodeFromJson(FlowMember(doc, "root", file, ""), g, file, "root");
  if (!g.IsCompute(s.root)) throw InputError(file, "root", "must be a compute node");
  SourcesFromJson(FlowMember(doc, "sources", file, ""), g, file, &s);
  if (auto it = doc.find("lengths"); it != doc.end()) {
    s.lengths = FlowLengthEntriesFromJson(*it, g, file);
  }
  const json& flows = FlowMember(doc, "flows", file, "");
  if (!flows.is_array() || flows.size() > static_cast<std::size_t>(g.num_compute())) {
    throw InputError(file, "flows",
                     "must be an array of at most one {from, to, paths} per compute node");
  }
  std::size_t paths_read = 0;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const std::string item = "flows[" + std::to_string(i) + "]";
    s.flows.push_back(FlowPairFromJson(flows[i], g, file, item, &paths_read));
    if (s.flows.back().from != s.root) {
      throw InputError(file, item + ".from", "must be the root '" + g.node(s.root).name + "'");
    }
  }
  return s;
}

void WriteSymmetricFlowSchedule(std::ostream& out, const SymmetricFlowSchedule& s,
                                const Topology& g) {
  JsonStrings names;
  for (int v = 0; v < g.num_nodes(); ++v) names.Add(g.node(v).name);
  JsonWriter w(out);
  w.BeginObject().Key("format").String("flows-symmetric");
  w.Key("collective").String("alltoall").Key("relay").Json(json(s.relay));
  w.Key("demand").String("uniform").Key("time").RationalString(s.time);
  w.Key("group").BeginObject().Key("generators").BeginArray();
  for (const std::vector<int>& p : s.generators) {
    w.LineBreak().BeginArray();
    for (int v : p) w.Int(v);
    w.EndArray();
  }
  w.EndArray().Key("orders").BeginArray();
  for (std::int64_t o : s.orders) w.Int(o);
  w.EndArray().EndObject();
  w.Key("root").String(names, s.root).Key("sources").BeginArray();
  for (const SymmetricFlowSource& src : s.sources) {
    w.LineBreak().BeginObject().Key("node").String(names, src.node).Key("exponents").BeginArray();
    for (std::int64_t e : src.exponents) w.Int(e);
    w.EndArray().EndObject();
  }
  w.EndArray();
  if (s.lengths) {
    w.Key("lengths").BeginArray();
    for (const auto& [e, len] : *s.lengths) {
      w.LineBreak().BeginObject();
      w.Key("from").String(names, g.link(e).from).Key("to").String(names, g.link(e).to);
      w.Key("length").RationalString(len).EndObject();
    }
    w.EndArray();
  }
  WriteFlowPairs(w, names, s.flows);
  w.EndObject();
  w.FlushToStream();
  out << "\n";
}

FlowSchedule ExpandSymmetricFlowSchedule(const SymmetricFlowSchedule& s, const Topology& g) {
  std::vector<PermutationPowers> powers;
  for (const std::vector<int>& p : s.generators) powers.emplace_back(p);
  FlowSchedule out;
  out.relay = s.relay;
  out.uniform = true;
  out.demand = UniformDemand(g);
  out.time = s.time;
  if (s.lengths) out.lengths = std::vector<Rational>(g.num_links());
  std::vector<int> image(g.num_nodes());
  for (const SymmetricFlowSource& src : s.sources) {
    for (int v = 0; v < g.num_nodes(); ++v) image[v] = ApplyGroupElement(powers, v, src.exponents);
    for (const PairFlows& f : s.flows) {
      PairFlows mapped{image[f.from], image[f.to], f.paths};
      for (FlowPath& p : mapped.paths) {
        for (int& v : p.nodes) v = image[v];
      }
      out.flows.push_back(std::move(mapped));
    }
    if (!s.lengths) continue;
    for (const auto& [e, len] : *s.lengths) {  // the orbit of e is {g_s(e)}: H acts regularly
      const std::optional<int> to = g.FindLink(image[g.link(e).from], image[g.link(e).to]);
      if (to) (*out.lengths)[*to] = len;
    }
  }
  return out;
}

}  // namespace collsynth
