#include "schedules/symmetric_pipeline_schedule.h"

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/symmetry.h"

namespace collsynth {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "pipeline-symmetric";
constexpr std::int64_t kMaxOrder = std::int64_t{1} << 31;
constexpr const char* kStabiliserInvariant = "stabiliser-invariant";

// Fields of the format. "trees", "root" and "fixed_k_cut" are fields of the plain format that
// this one does not have: known, so that they are refused rather than passed through as extras.
bool IsKnownKey(const std::string& key) {
  return key == "format" || key == "collective" || key == "ratio" || key == "U" || key == "k" ||
         key == "group" || key == "representatives" || key == "roots" || key == "bottleneck_cut" ||
         key == "single_node_cuts" || key == "phases" || key == "trees" || key == "root" ||
         key == "fixed_k_cut" || key == "height_hops" || key == "overrides";
}

const json& RequireField(const json& obj, const char* key, const std::string& file,
                         const std::string& item) {
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, item, std::string("missing field '") + key + "'");
  return *it;
}

// Refuses members of `obj` other than `keys` (the nested objects have no producer extras).
void RefuseUnknownMembers(const json& obj, std::initializer_list<const char*> keys,
                          const std::string& file, const std::string& item) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char* k : keys) known = known || it.key() == k;
    if (!known) throw InputError(file, item + "." + it.key(), "unknown field");
  }
}

int NodeFromJson(const json& v, const Topology& g, const std::string& file,
                 const std::string& item) {
  if (!v.is_string()) {
    throw InputError(file, item,
                     std::string("expected a node name (string), got ") + v.type_name());
  }
  const std::string& name = v.get_ref<const std::string&>();
  auto id = g.FindNode(name);
  if (!id) throw InputError(file, item, "unknown node '" + name + "'");
  return *id;
}

int ComputeNodeFromJson(const json& v, const Topology& g, const std::string& file,
                        const std::string& item) {
  const int id = NodeFromJson(v, g, file, item);
  if (!g.IsCompute(id)) {
    throw InputError(file, item, "'" + g.node(id).name + "' is a switch; roots are compute nodes");
  }
  return id;
}

// A JSON integer in [lo, hi] (no strings, no floats).
std::int64_t IntegerFromJson(const json& v, std::int64_t lo, std::int64_t hi,
                             const std::string& what, const std::string& file,
                             const std::string& item) {
  const std::string range = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(hi) && static_cast<std::int64_t>(u) >= lo) {
      return static_cast<std::int64_t>(u);
    }
  } else if (v.is_number_integer()) {
    const std::int64_t z = v.get<std::int64_t>();
    if (z >= lo && z <= hi) return z;
  }
  const std::string got = v.is_string()
                              ? "\"" + v.get_ref<const std::string&>().substr(0, 40) + "\""
                          : v.is_primitive() ? v.dump()
                                             : v.type_name();
  throw InputError(file, item, "must be " + what + " (" + range + "), got " + got);
}

std::optional<std::vector<int>> NodeSet(const json& j, const char* key, const Topology& g,
                                        const std::string& file, const std::string& item) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_array()) throw InputError(file, item, "must be an array of node names");
  std::vector<int> nodes;
  nodes.reserve(it->size());
  for (std::size_t i = 0; i < it->size(); ++i) {
    nodes.push_back(NodeFromJson((*it)[i], g, file, item + "[" + std::to_string(i) + "]"));
  }
  return nodes;
}

void ReadGroup(const json& group, const Topology& g, const std::string& file,
               const std::string& item, SymmetricPipelineSchedule* s) {
  if (!group.is_object()) {
    throw InputError(file, item,
                     std::string("must be an object {\"generators\": [...], \"orders\": [...]}, "
                                 "got ") +
                         group.type_name());
  }
  RefuseUnknownMembers(group, {"generators", "orders", "action"}, file, item);
  if (auto action = group.find("action"); action != group.end()) {
    if (!action->is_string() || (action->get_ref<const std::string&>() != "regular" &&
                                 action->get_ref<const std::string&>() != kStabiliserInvariant)) {
      throw InputError(file, item + ".action",
                       std::string("expected \"regular\" or \"") + kStabiliserInvariant +
                           "\", got " + action->dump().substr(0, 60));
    }
    s->stabiliser_invariant = action->get_ref<const std::string&>() == kStabiliserInvariant;
  }
  const json& gens = RequireField(group, "generators", file, item);
  const json& orders = RequireField(group, "orders", file, item);
  if (!gens.is_array()) {
    throw InputError(file, item + ".generators",
                     "must be an array of node permutations (arrays of node indices)");
  }
  if (!orders.is_array()) {
    throw InputError(file, item + ".orders", "must be an array of integers");
  }
  if (gens.size() > kMaxSymmetricGenerators) {
    // A regular direct product of cyclic groups of order >= 2 on N <= 2^31 nodes has at most
    // 31 factors; the bound keeps the checker's pairwise commutation test O(V).
    throw InputError(file, item + ".generators",
                     "has " + std::to_string(gens.size()) + " generators, more than " +
                         std::to_string(kMaxSymmetricGenerators));
  }
  if (orders.size() != gens.size()) {
    throw InputError(file, item + ".orders",
                     "has " + std::to_string(orders.size()) + " entries for " +
                         std::to_string(gens.size()) + " generators");
  }
  const int n = g.num_nodes();
  s->generators.reserve(gens.size());
  for (std::size_t i = 0; i < gens.size(); ++i) {
    const std::string gitem = item + ".generators[" + std::to_string(i) + "]";
    const json& p = gens[i];
    if (!p.is_array()) {
      throw InputError(file, gitem,
                       std::string("must be an array of node indices, got ") + p.type_name());
    }
    if (p.size() != static_cast<std::size_t>(n)) {  // before reading: the size is the input's
      throw InputError(file, gitem,
                       "is not a permutation: has " + std::to_string(p.size()) +
                           " entries, the topology has " + std::to_string(n) + " nodes");
    }
    std::vector<int> perm;
    perm.reserve(p.size());
    for (std::size_t v = 0; v < p.size(); ++v) {
      perm.push_back(static_cast<int>(IntegerFromJson(p[v], 0, n - 1, "a node index", file,
                                                      gitem + "[" + std::to_string(v) + "]")));
    }
    if (std::string problem = PermutationProblem(perm, n); !problem.empty()) {
      throw InputError(file, gitem, "is not a permutation: " + problem);
    }
    s->generators.push_back(std::move(perm));
  }
  s->orders.reserve(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) {
    s->orders.push_back(IntegerFromJson(orders[i], 1, kMaxOrder, "the generator's order", file,
                                        item + ".orders[" + std::to_string(i) + "]"));
  }
}

void ReadRepresentatives(const json& reps, const Topology& g, const std::string& file,
                         const std::string& item, SymmetricPipelineSchedule* s) {
  if (!reps.is_array()) throw InputError(file, item, "must be an array");
  if (reps.size() > static_cast<std::size_t>(g.num_compute())) {
    throw InputError(file, item,
                     "lists " + std::to_string(reps.size()) +
                         " representatives, the topology has " + std::to_string(g.num_compute()) +
                         " compute nodes");
  }
  s->representatives.reserve(reps.size());
  for (std::size_t r = 0; r < reps.size(); ++r) {
    const std::string ritem = item + "[" + std::to_string(r) + "]";
    const json& rep = reps[r];
    if (!rep.is_object()) {
      throw InputError(file, ritem, std::string("must be an object, got ") + rep.type_name());
    }
    RefuseUnknownMembers(rep, {"root", "trees"}, file, ritem);
    SymmetricRepresentative out;
    out.root =
        ComputeNodeFromJson(RequireField(rep, "root", file, ritem), g, file, ritem + ".root");
    const json& trees = RequireField(rep, "trees", file, ritem);
    if (!trees.is_array()) throw InputError(file, ritem + ".trees", "must be an array");
    out.trees.reserve(trees.size());
    for (std::size_t t = 0; t < trees.size(); ++t) {
      const std::string titem = ritem + ".trees[" + std::to_string(t) + "]";
      PipelineTree tree = PipelineTreeFromJson(trees[t], g, file, titem);
      if (tree.root != out.root) {
        throw InputError(file, titem + ".root",
                         "is '" + g.node(tree.root).name + "', not the representative's root '" +
                             g.node(out.root).name + "'");
      }
      out.trees.push_back(std::move(tree));
    }
    s->representatives.push_back(std::move(out));
  }
}

// Case 2: [[j, e], ...], 0 <= j < m, 0 <= e < orders[j], at most kMaxSymmetricWordLength.
GroupWord ReadWord(const json& w, const SymmetricPipelineSchedule& s, const std::string& file,
                   const std::string& item) {
  if (!w.is_array()) {
    throw InputError(file, item, "must be an array of [generator, exponent] pairs");
  }
  if (w.size() > kMaxSymmetricWordLength) {
    throw InputError(file, item,
                     "has " + std::to_string(w.size()) + " letters, more than " +
                         std::to_string(kMaxSymmetricWordLength));
  }
  const std::int64_t m = static_cast<std::int64_t>(s.generators.size());
  GroupWord word;
  word.reserve(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string litem = item + "[" + std::to_string(i) + "]";
    if (!w[i].is_array() || w[i].size() != 2) {
      throw InputError(file, litem, "must be a pair [generator index, exponent]");
    }
    if (m == 0) throw InputError(file, litem, "there are no generators");
    const int j = static_cast<int>(
        IntegerFromJson(w[i][0], 0, m - 1, "a generator index", file, litem + "[0]"));
    const std::int64_t e =
        IntegerFromJson(w[i][1], 0, s.orders[j] - 1, "an exponent below the generator's order",
                        file, litem + "[1]");
    word.emplace_back(j, e);
  }
  return word;
}

void ReadRoots(const json& roots, const Topology& g, const std::string& file,
               const std::string& item, SymmetricPipelineSchedule* s) {
  if (!roots.is_array()) throw InputError(file, item, "must be an array");
  if (roots.size() > static_cast<std::size_t>(g.num_compute())) {
    throw InputError(file, item,
                     "lists " + std::to_string(roots.size()) + " roots, the topology has " +
                         std::to_string(g.num_compute()) + " compute nodes");
  }
  const std::size_t m = s->generators.size();
  std::vector<std::int64_t> listed_at(g.num_nodes(), -1);
  s->roots.reserve(roots.size());
  for (std::size_t i = 0; i < roots.size(); ++i) {
    const std::string ritem = item + "[" + std::to_string(i) + "]";
    const json& entry = roots[i];
    if (!entry.is_object()) {
      throw InputError(file, ritem, std::string("must be an object, got ") + entry.type_name());
    }
    RefuseUnknownMembers(entry,
                         {"node", "representative", s->stabiliser_invariant ? "word" : "exponents"},
                         file, ritem);
    SymmetricRoot root;
    root.node =
        ComputeNodeFromJson(RequireField(entry, "node", file, ritem), g, file, ritem + ".node");
    if (listed_at[root.node] >= 0) {
      throw InputError(file, ritem + ".node",
                       "'" + g.node(root.node).name + "' is listed twice (also " + item + "[" +
                           std::to_string(listed_at[root.node]) + "])");
    }
    listed_at[root.node] = static_cast<std::int64_t>(i);
    if (s->representatives.empty()) {
      throw InputError(file, ritem + ".representative", "there are no representatives");
    }
    root.representative = static_cast<int>(
        IntegerFromJson(RequireField(entry, "representative", file, ritem), 0,
                        static_cast<std::int64_t>(s->representatives.size()) - 1,
                        "an index into representatives", file, ritem + ".representative"));
    if (s->stabiliser_invariant) {
      root.word = ReadWord(RequireField(entry, "word", file, ritem), *s, file, ritem + ".word");
      s->roots.push_back(std::move(root));
      continue;
    }
    const json& exps = RequireField(entry, "exponents", file, ritem);
    if (!exps.is_array()) {
      throw InputError(file, ritem + ".exponents", "must be an array of integers");
    }
    if (exps.size() != m) {
      throw InputError(file, ritem + ".exponents",
                       "has " + std::to_string(exps.size()) + " entries for " + std::to_string(m) +
                           " generators");
    }
    root.exponents.reserve(m);
    for (std::size_t e = 0; e < m; ++e) {
      root.exponents.push_back(IntegerFromJson(exps[e], 0, s->orders[e] - 1,
                                               "an exponent below the generator's order", file,
                                               ritem + ".exponents[" + std::to_string(e) + "]"));
    }
    s->roots.push_back(std::move(root));
  }
}

// The optional array member `key` of obj (absent: empty).
const json& OptionalArray(const json& obj, const char* key, const std::string& file,
                          const std::string& item) {
  static const json kEmpty = json::array();
  auto it = obj.find(key);
  if (it == obj.end()) return kEmpty;
  if (!it->is_array()) throw InputError(file, item + "." + key, "must be an array");
  return *it;
}

SymmetricFailedLink ReadFailedLink(const json& f, const Topology& g, const std::string& file,
                                   const std::string& item) {
  if (!f.is_object()) {
    throw InputError(file, item, std::string("must be an object, got ") + f.type_name());
  }
  RefuseUnknownMembers(f, {"from", "to", "bandwidth", "multiplicity"}, file, item);
  SymmetricFailedLink link;
  link.from = NodeFromJson(RequireField(f, "from", file, item), g, file, item + ".from");
  link.to = NodeFromJson(RequireField(f, "to", file, item), g, file, item + ".to");
  link.bandwidth =
      RationalFromJson(RequireField(f, "bandwidth", file, item), file, item + ".bandwidth");
  if (link.bandwidth <= 0) {
    throw InputError(file, item + ".bandwidth",
                     "must be positive, got " + ToString(link.bandwidth));
  }
  if (auto m = f.find("multiplicity"); m != f.end()) {
    link.multiplicity = IntegerFromJson(*m, 1, std::int64_t{1} << 31, "a multiplicity", file,
                                        item + ".multiplicity");
  }
  return link;
}

SymmetricRouteOverride ReadRouteOverride(const json& o, const Topology& g, const std::string& file,
                                         const std::string& item) {
  if (!o.is_object()) {
    throw InputError(file, item, std::string("must be an object, got ") + o.type_name());
  }
  RefuseUnknownMembers(o, {"root", "tree", "edge"}, file, item);
  SymmetricRouteOverride out;
  out.root = ComputeNodeFromJson(RequireField(o, "root", file, item), g, file, item + ".root");
  out.tree = static_cast<std::size_t>(IntegerFromJson(RequireField(o, "tree", file, item), 0,
                                                      std::int64_t{1} << 31, "a tree index", file,
                                                      item + ".tree"));
  PipelineTreeEdge edge =
      PipelineTreeEdgeFromJson(RequireField(o, "edge", file, item), g, file, item + ".edge");
  out.from = edge.from;
  out.to = edge.to;
  out.routes = std::move(edge.routes);
  return out;
}

SymmetricRootReplacement ReadReplacement(const json& o, const Topology& g, const std::string& file,
                                         const std::string& item) {
  if (!o.is_object()) {
    throw InputError(file, item, std::string("must be an object, got ") + o.type_name());
  }
  RefuseUnknownMembers(o, {"root", "trees"}, file, item);
  SymmetricRootReplacement out;
  out.root = ComputeNodeFromJson(RequireField(o, "root", file, item), g, file, item + ".root");
  const json& trees = RequireField(o, "trees", file, item);
  if (!trees.is_array()) throw InputError(file, item + ".trees", "must be an array");
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const std::string titem = item + ".trees[" + std::to_string(t) + "]";
    out.trees.push_back(PipelineTreeFromJson(trees[t], g, file, titem));
    if (out.trees.back().root != out.root) {
      throw InputError(file, titem + ".root",
                       "is '" + g.node(out.trees.back().root).name + "', not the replaced root '" +
                           g.node(out.root).name + "'");
    }
  }
  return out;
}

// "overrides" (docs/formats.md "Overrides"): case 1 only, not at an allreduce's top level.
std::optional<SymmetricOverrides> ReadOverrides(const json& j, const Topology& g,
                                                const std::string& file, const std::string& item,
                                                const SymmetricPipelineSchedule& s) {
  auto it = j.find("overrides");
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (s.collective == Collective::kAllreduce) {
    throw InputError(file, item, "an allreduce carries overrides in its phases");
  }
  if (s.stabiliser_invariant) {
    throw InputError(file, item, "overrides need group.action \"regular\" (case 1)");
  }
  if (!it->is_object()) {
    throw InputError(file, item, std::string("must be an object, got ") + it->type_name());
  }
  RefuseUnknownMembers(*it, {"failed_links", "routes", "replaced_roots"}, file, item);
  SymmetricOverrides o;
  const json& failed = OptionalArray(*it, "failed_links", file, item);
  for (std::size_t i = 0; i < failed.size(); ++i) {
    o.failed_links.push_back(
        ReadFailedLink(failed[i], g, file, item + ".failed_links[" + std::to_string(i) + "]"));
  }
  const json& routes = OptionalArray(*it, "routes", file, item);
  for (std::size_t i = 0; i < routes.size(); ++i) {
    o.routes.push_back(
        ReadRouteOverride(routes[i], g, file, item + ".routes[" + std::to_string(i) + "]"));
  }
  const json& replaced = OptionalArray(*it, "replaced_roots", file, item);
  for (std::size_t i = 0; i < replaced.size(); ++i) {
    o.replaced_roots.push_back(
        ReadReplacement(replaced[i], g, file, item + ".replaced_roots[" + std::to_string(i) + "]"));
  }
  return o;
}

json OverridesToJson(const SymmetricOverrides& o, const Topology& g) {
  json failed = json::array(), routes = json::array(), replaced = json::array();
  for (const SymmetricFailedLink& f : o.failed_links) {
    failed.push_back({{"from", g.node(f.from).name},
                      {"to", g.node(f.to).name},
                      {"bandwidth", RationalToJson(f.bandwidth)},
                      {"multiplicity", f.multiplicity}});
  }
  for (const SymmetricRouteOverride& r : o.routes) {
    PipelineTreeEdge edge{r.from, r.to, r.routes};
    routes.push_back({{"root", g.node(r.root).name},
                      {"tree", r.tree},
                      {"edge", PipelineTreeEdgeToJson(edge, g)}});
  }
  for (const SymmetricRootReplacement& r : o.replaced_roots) {
    json trees = json::array();
    for (const PipelineTree& t : r.trees) trees.push_back(PipelineTreeToJson(t, g));
    replaced.push_back({{"root", g.node(r.root).name}, {"trees", std::move(trees)}});
  }
  return {{"failed_links", std::move(failed)},
          {"routes", std::move(routes)},
          {"replaced_roots", std::move(replaced)}};
}

SymmetricPipelineSchedule ReadSchedule(const json& j, const Topology& g, const std::string& file,
                                       const std::string& prefix, bool is_phase) {
  const std::string top = prefix.empty() ? "top level" : prefix;
  auto item = [&](const std::string& key) { return prefix.empty() ? key : prefix + "." + key; };
  if (!j.is_object()) {
    throw InputError(file, top, std::string("expected a JSON object, got ") + j.type_name());
  }
  SymmetricPipelineSchedule s;
  if (auto it = j.find("format"); it != j.end() || !is_phase) {
    const json& format = RequireField(j, "format", file, top);
    if (!format.is_string() || format.get_ref<const std::string&>() != kFormat) {
      throw InputError(file, item("format"),
                       std::string("expected \"") + kFormat + "\", got " + format.dump());
    }
  }
  const json& collective = RequireField(j, "collective", file, top);
  const std::optional<Collective> parsed =
      collective.is_string() ? ParseCollective(collective.get_ref<const std::string&>())
                             : std::nullopt;
  if (!parsed || *parsed == Collective::kBroadcast ||
      (is_phase && *parsed == Collective::kAllreduce)) {
    throw InputError(file, item("collective"),
                     std::string(is_phase ? "an allreduce phase must be \"reduce-scatter\" or "
                                            "\"allgather\""
                                          : "expected \"allgather\", \"reduce-scatter\" or "
                                            "\"allreduce\"") +
                         ", got " + collective.dump());
  }
  s.collective = *parsed;
  const bool allreduce = s.collective == Collective::kAllreduce;
  for (const char* plain_only : {"trees", "root", "fixed_k_cut"}) {
    if (j.contains(plain_only)) {
      throw InputError(file, item(plain_only),
                       std::string("not a field of the ") + kFormat +
                           " format (trees are in 'representatives'; no broadcast, no fixed-k "
                           "certificate)");
    }
  }
  s.ratio = RationalFromJson(RequireField(j, "ratio", file, top), file, item("ratio"));
  if (!allreduce || j.contains("U")) {
    s.U = RationalFromJson(RequireField(j, "U", file, top), file, item("U"));
    if (s.U <= 0) throw InputError(file, item("U"), "must be positive, got " + ToString(s.U));
  }
  if (!allreduce || j.contains("k")) {
    s.k = PipelinePositiveBigIntFromJson(RequireField(j, "k", file, top), file, item("k"));
  }
  s.bottleneck_cut = NodeSet(j, "bottleneck_cut", g, file, item("bottleneck_cut"));
  s.single_node_cuts = ReadPipelineSingleNodeCuts(j, allreduce, g, file, prefix);
  s.height_hops = ReadPipelineHeightClaim(j, file, prefix);
  if (allreduce) {
    for (const char* phase_only : {"group", "representatives", "roots"}) {
      if (j.contains(phase_only)) {
        throw InputError(file, item(phase_only),
                         "an allreduce carries its group, representatives and roots in 'phases'");
      }
    }
    const json& phases = RequireField(j, "phases", file, top);
    if (!phases.is_array() || phases.size() != 2) {
      throw InputError(file, item("phases"),
                       "an allreduce needs exactly two phases: [reduce-scatter, allgather]");
    }
    for (std::size_t i = 0; i < 2; ++i) {
      s.phases.push_back(
          ReadSchedule(phases[i], g, file, item("phases[" + std::to_string(i) + "]"), true));
    }
    if (s.phases[0].collective != Collective::kReduceScatter ||
        s.phases[1].collective != Collective::kAllgather) {
      throw InputError(file, item("phases"),
                       "an allreduce's phases must be a reduce-scatter then an allgather");
    }
  } else {
    if (j.contains("phases")) {
      throw InputError(file, item("phases"), "only an allreduce has phases");
    }
    ReadGroup(RequireField(j, "group", file, top), g, file, item("group"), &s);
    ReadRepresentatives(RequireField(j, "representatives", file, top), g, file,
                        item("representatives"), &s);
    ReadRoots(RequireField(j, "roots", file, top), g, file, item("roots"), &s);
  }
  s.overrides = ReadOverrides(j, g, file, item("overrides"), s);
  ReadPipelineExtras(j, IsKnownKey, file, prefix, s.extra);
  return s;
}

json NamesToJson(const std::vector<int>& nodes, const Topology& g) {
  json names = json::array();
  for (int v : nodes) names.push_back(g.node(v).name);
  return names;
}

json ScheduleToJson(const SymmetricPipelineSchedule& s, const Topology& g, bool is_phase) {
  json j = json::object();
  for (auto it = s.extra.begin(); it != s.extra.end(); ++it) {
    if (!IsKnownKey(it.key())) j[it.key()] = it.value();
  }
  if (!is_phase) j["format"] = kFormat;
  j["collective"] = CollectiveName(s.collective);
  j["ratio"] = RationalToJson(s.ratio);
  const bool allreduce = s.collective == Collective::kAllreduce;
  if (!allreduce || s.U > 0) j["U"] = RationalToJson(s.U);
  if (!allreduce || s.k > 0) j["k"] = PipelineBigIntToJson(s.k);
  if (s.bottleneck_cut) j["bottleneck_cut"] = NamesToJson(*s.bottleneck_cut, g);
  if (s.single_node_cuts) {
    json cuts = json::array();
    for (const std::vector<int>& cut : *s.single_node_cuts) cuts.push_back(NamesToJson(cut, g));
    j["single_node_cuts"] = std::move(cuts);
  }
  if (s.height_hops) j["height_hops"] = *s.height_hops;
  if (s.overrides) j["overrides"] = OverridesToJson(*s.overrides, g);
  if (allreduce) {
    json phases = json::array();
    for (const SymmetricPipelineSchedule& p : s.phases) {
      phases.push_back(ScheduleToJson(p, g, true));
    }
    j["phases"] = std::move(phases);
    return j;
  }
  json generators = json::array();
  for (const std::vector<int>& p : s.generators) generators.push_back(p);
  j["group"] = {{"generators", std::move(generators)}, {"orders", s.orders}};
  if (s.stabiliser_invariant) j["group"]["action"] = kStabiliserInvariant;
  json reps = json::array();
  for (const SymmetricRepresentative& r : s.representatives) {
    json trees = json::array();
    for (const PipelineTree& t : r.trees) trees.push_back(PipelineTreeToJson(t, g));
    reps.push_back({{"root", g.node(r.root).name}, {"trees", std::move(trees)}});
  }
  j["representatives"] = std::move(reps);
  json roots = json::array();
  for (const SymmetricRoot& r : s.roots) {
    if (s.stabiliser_invariant) {
      json word = json::array();
      for (const auto& [gen, e] : r.word) word.push_back({gen, e});
      roots.push_back({{"node", g.node(r.node).name},
                       {"representative", r.representative},
                       {"word", std::move(word)}});
      continue;
    }
    roots.push_back({{"node", g.node(r.node).name},
                     {"representative", r.representative},
                     {"exponents", r.exponents}});
  }
  j["roots"] = std::move(roots);
  return j;
}

// Preconditions of the expansion (what the reader guarantees); a violation is a program
// fault, not bad input.
void RequireWellFormed(const SymmetricPipelineSchedule& s, const Topology& g) {
  auto fail = [](const std::string& what) {
    throw std::logic_error("pipeline-symmetric schedule: " + what);
  };
  if (s.orders.size() != s.generators.size()) fail("orders and generators differ in number");
  for (const std::vector<int>& p : s.generators) {
    if (!PermutationProblem(p, g.num_nodes()).empty()) fail("a generator is not a permutation");
  }
  for (const SymmetricRoot& r : s.roots) {
    if (r.representative < 0 || r.representative >= static_cast<int>(s.representatives.size()))
      fail("a root's representative index is out of range");
    if (s.stabiliser_invariant) {
      for (const auto& letter : r.word) {
        if (letter.first < 0 || letter.first >= static_cast<int>(s.generators.size()) ||
            letter.second < 0)
          fail("a root's word names no generator or has a negative exponent");
      }
    } else if (r.exponents.size() != s.generators.size()) {
      fail("a root's exponents differ in number");
    }
  }
}

// The overrides by key: replaced roots' explicit trees, route overrides by (root, tree, from,
// to) (the reader guarantees nothing about duplicates: the first one wins, the checker rejects
// the rest).
struct OverrideIndex {
  std::map<int, const std::vector<PipelineTree>*> replaced;
  std::map<std::tuple<int, std::size_t, int, int>, const std::vector<PipelineRoute>*> rerouted;
  explicit OverrideIndex(const SymmetricPipelineSchedule& s) {
    if (!s.overrides) return;
    for (const SymmetricRootReplacement& r : s.overrides->replaced_roots)
      replaced.emplace(r.root, &r.trees);
    for (const SymmetricRouteOverride& r : s.overrides->routes)
      rerouted.emplace(std::tuple{r.root, r.tree, r.from, r.to}, &r.routes);
  }
};

// One root's expanded trees: g_s of its representative's trees, the overrides applied. g_s(v) is
// computed once per root and node (a node recurs in many edges and routes).
class RootExpander {
 public:
  RootExpander(const SymmetricPipelineSchedule& s, int num_nodes)
      : s_(s), image_(num_nodes, -1), computed_for_(num_nodes, static_cast<std::size_t>(-1)) {
    powers_.reserve(s.generators.size());
    for (const std::vector<int>& p : s.generators) powers_.emplace_back(p);
  }

  void Run(std::size_t i, const OverrideIndex& index, std::vector<PipelineTree>* out) {
    const SymmetricRoot& root = s_.roots[i];
    if (auto it = index.replaced.find(root.node); it != index.replaced.end()) {
      out->insert(out->end(), it->second->begin(), it->second->end());
      return;
    }
    auto map = [&](int v) {
      if (computed_for_[v] != i) {
        image_[v] = s_.stabiliser_invariant ? ApplyGroupWord(powers_, v, root.word)
                                            : ApplyGroupElement(powers_, v, root.exponents);
        computed_for_[v] = i;
      }
      return image_[v];
    };
    const std::vector<PipelineTree>& trees = s_.representatives[root.representative].trees;
    for (std::size_t t = 0; t < trees.size(); ++t) {
      PipelineTree mapped;
      mapped.root = map(trees[t].root);
      mapped.multiplicity = trees[t].multiplicity;
      mapped.edges.reserve(trees[t].edges.size());
      for (const PipelineTreeEdge& e : trees[t].edges) {
        PipelineTreeEdge me;
        me.from = map(e.from);
        me.to = map(e.to);
        auto over = index.rerouted.empty()
                        ? index.rerouted.end()
                        : index.rerouted.find(std::tuple{root.node, t, me.from, me.to});
        if (over != index.rerouted.end()) {
          me.routes = *over->second;
        } else {
          me.routes.reserve(e.routes.size());
          for (const PipelineRoute& r : e.routes) {
            PipelineRoute mr;
            mr.path.reserve(r.path.size());
            for (int v : r.path) mr.path.push_back(map(v));
            mr.multiplicity = r.multiplicity;
            me.routes.push_back(std::move(mr));
          }
        }
        mapped.edges.push_back(std::move(me));
      }
      out->push_back(std::move(mapped));
    }
  }

 private:
  const SymmetricPipelineSchedule& s_;
  std::vector<PermutationPowers> powers_;
  std::vector<int> image_;
  std::vector<std::size_t> computed_for_;
};

PipelineSchedule Expand(const SymmetricPipelineSchedule& s, const Topology& g) {
  PipelineSchedule out;
  out.collective = s.collective;
  out.ratio = s.ratio;
  out.U = s.U;
  out.k = s.k;
  out.bottleneck_cut = s.bottleneck_cut;
  out.single_node_cuts = s.single_node_cuts;
  out.height_hops = s.height_hops;
  out.extra = s.extra;
  if (s.collective == Collective::kAllreduce) {
    for (const SymmetricPipelineSchedule& p : s.phases) out.phases.push_back(Expand(p, g));
    return out;
  }
  RequireWellFormed(s, g);
  std::size_t num_trees = 0;
  for (const SymmetricRoot& r : s.roots)
    num_trees += s.representatives[r.representative].trees.size();
  out.trees.reserve(num_trees);
  const OverrideIndex index(s);
  RootExpander expand(s, g.num_nodes());
  for (std::size_t i = 0; i < s.roots.size(); ++i) expand.Run(i, index, &out.trees);
  return out;
}

}  // namespace

SymmetricPipelineSchedule SymmetricPipelineScheduleFromJson(const json& j, const Topology& g,
                                                            const std::string& file) {
  return ReadSchedule(j, g, file, "", false);
}

json SymmetricPipelineScheduleToJson(const SymmetricPipelineSchedule& s, const Topology& g) {
  return ScheduleToJson(s, g, false);
}

std::int64_t SymmetricPipelineScheduleHeightHops(const SymmetricPipelineSchedule& s) {
  std::int64_t height = 0;
  for (const SymmetricPipelineSchedule& p : s.phases)
    height += SymmetricPipelineScheduleHeightHops(p);
  // With overrides: the overridden roots' trees expanded, and a representative's tree only when
  // some image of it is left as it is.
  std::map<std::pair<int, std::size_t>, std::int64_t> changed;  // (rep, tree) -> images changed
  std::vector<std::int64_t> orbit(s.representatives.size(), 0);
  if (s.overrides && !s.roots.empty()) {
    const OverrideIndex index(s);
    std::map<int, std::size_t> entry;
    for (std::size_t i = 0; i < s.roots.size(); ++i) entry.emplace(s.roots[i].node, i);
    std::set<std::pair<int, std::size_t>> roots_trees;
    for (const auto& [key, routes] : index.rerouted)
      roots_trees.insert({std::get<0>(key), std::get<1>(key)});
    const int n = s.generators.empty() ? 0 : static_cast<int>(s.generators[0].size());
    RootExpander expand(s, n);
    std::set<std::size_t> expanded;
    for (const auto& [node, tree] : roots_trees) {
      if (index.replaced.count(node)) continue;
      const std::size_t i = entry.at(node);
      ++changed[{s.roots[i].representative, tree}];
      expanded.insert(i);
    }
    for (const auto& [node, trees] : index.replaced) {
      const std::size_t i = entry.at(node);
      const SymmetricRoot& root = s.roots[i];
      for (std::size_t t = 0; t < s.representatives[root.representative].trees.size(); ++t)
        ++changed[{root.representative, t}];
      expanded.insert(i);
    }
    for (std::size_t i : expanded) {
      std::vector<PipelineTree> trees;
      expand.Run(i, index, &trees);
      for (const PipelineTree& t : trees) height = std::max(height, PipelineTreeHeightHops(t));
    }
    for (const SymmetricRoot& root : s.roots) ++orbit[root.representative];
  }
  for (std::size_t r = 0; r < s.representatives.size(); ++r) {
    const std::vector<PipelineTree>& trees = s.representatives[r].trees;
    for (std::size_t t = 0; t < trees.size(); ++t) {
      auto it = changed.find({static_cast<int>(r), t});
      if (it != changed.end() && it->second >= orbit[r]) continue;  // every image changed
      height = std::max(height, PipelineTreeHeightHops(trees[t]));
    }
  }
  return height;
}

std::string SymmetricPipelineScheduleToJsonText(const SymmetricPipelineSchedule& s,
                                                const Topology& g) {
  return ScheduleToJson(s, g, false).dump();
}

std::vector<int> SymmetricGroupElement(const SymmetricPipelineSchedule& s,
                                       const std::vector<std::int64_t>& exponents) {
  if (exponents.size() != s.generators.size()) {
    throw std::logic_error("SymmetricGroupElement: " + std::to_string(exponents.size()) +
                           " exponents for " + std::to_string(s.generators.size()) + " generators");
  }
  const std::size_t n = s.generators.empty() ? 0 : s.generators[0].size();
  std::vector<int> element(n);
  for (std::size_t v = 0; v < n; ++v) element[v] = static_cast<int>(v);
  for (std::size_t k = s.generators.size(); k-- > 0;) {
    if (s.generators[k].size() != n ||
        !PermutationProblem(s.generators[k], static_cast<int>(n)).empty()) {
      throw std::logic_error("SymmetricGroupElement: generator " + std::to_string(k) +
                             " is not a permutation of the nodes");
    }
    if (exponents[k] == 0) continue;
    const PermutationPowers powers(s.generators[k]);
    for (int& w : element) w = powers.Apply(w, exponents[k]);
  }
  return element;
}

PipelineSchedule ExpandSymmetricPipelineSchedule(const SymmetricPipelineSchedule& s,
                                                 const Topology& g) {
  PipelineSchedule out = Expand(s, g);
  out.extra["expanded_from"] = kFormat;
  return out;
}

}  // namespace collsynth
