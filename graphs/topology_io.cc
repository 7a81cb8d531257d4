#include "graphs/topology_io.h"

#include <cctype>
#include <charconv>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "core/input_error.h"
#include "core/json_io.h"
#include "core/json_writer.h"
#include "graphs/failed_links.h"
#include "graphs/generators/family_args.h"
#include "graphs/symmetry.h"

namespace collsynth {
namespace {

using nlohmann::json;

std::string JsonTypeName(const json& v) { return v.type_name(); }

const json& Field(const json& obj, const char* key, const std::string& file,
                  const std::string& item) {
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, item, std::string("missing field '") + key + "'");
  return *it;
}

std::string StringField(const json& obj, const char* key, const std::string& file,
                        const std::string& item) {
  const json& v = Field(obj, key, file, item);
  if (!v.is_string()) {
    throw InputError(file, item,
                     std::string("field '") + key + "' must be a string, got " + JsonTypeName(v));
  }
  return v.get<std::string>();
}

int NodeByName(const Topology& g, const std::string& name, const std::string& file,
               const std::string& item) {
  auto id = g.FindNode(name);
  if (!id) throw InputError(file, item, "unknown node '" + Abbreviated(name) + "'");
  return *id;
}

// InputError unless `name` can name a node (what = "node name") or the topology.
void CheckName(const std::string& name, const char* what, const std::string& file,
               const std::string& item) {
  if (std::string p = NameProblem(name); !p.empty()) throw InputError(file, item, what + (" " + p));
}

// A new node, within the generators' size limit.
int AddNodeChecked(Topology& g, const std::string& name, NodeKind kind, const std::string& file,
                   const std::string& item) {
  if (name.empty()) throw InputError(file, item, "empty node name");
  CheckName(name, "node name", file, item);
  if (g.FindNode(name))
    throw InputError(file, item, "duplicate node name '" + Abbreviated(name) + "'");
  if (g.num_nodes() >= kMaxGeneratedNodes) {
    throw InputError(
        file, item,
        "more than " + std::to_string(kMaxGeneratedNodes) + " nodes (the limit of a topology)");
  }
  return g.AddNode(name, kind);
}

// g.AddLink, with its overflow and the link limit as InputErrors naming the item.
void AddLinkChecked(Topology& g, int a, int b, const Rational& bw, std::int64_t mult,
                    const std::string& file, const std::string& item) {
  int id = -1;
  try {
    id = g.AddLink(a, b, bw, mult);
  } catch (const std::overflow_error& e) {
    throw InputError(file, item, std::string("multiplicity: ") + e.what());
  }
  // Merged links add their bandwidths: with many distinct denominators the sum would grow
  // without bound (and every later addition with it). The input limit on one number holds
  // for the merged one too. mpz_sizeinbase is exact or one too large.
  const Rational& sum = g.link(id).bandwidth;
  const std::size_t digits = mpz_sizeinbase(mpq_numref(sum.backend().data()), 10) +
                             mpz_sizeinbase(mpq_denref(sum.backend().data()), 10);
  if (digits > kMaxDigits + 1) {
    throw InputError(file, item,
                     "the merged bandwidth of the links " + Abbreviated(g.node(a).name) + " -> " +
                         Abbreviated(g.node(b).name) + " has more than " +
                         std::to_string(kMaxDigits) + " digits");
  }
  if (g.num_links() > kMaxGeneratedLinks) {
    throw InputError(
        file, item,
        "more than " + std::to_string(kMaxGeneratedLinks) + " links (the limit of a topology)");
  }
}

Rational PositiveBandwidth(const Rational& b, const std::string& file, const std::string& item) {
  if (b <= 0) {
    throw InputError(file, item, "bandwidth must be positive, got " + ToString(b));
  }
  return b;
}

// The optional field "automorphisms" (docs/formats.md): an array of permutations, each an
// array of node indices (entry v = the image of node v in node order). Checked to be
// permutations of the right length; whether they are automorphisms is CheckAutomorphism's
// business (`collsynth topo info`). O(|field|).
void ReadAutomorphisms(const json& j, Topology& g, const std::string& file) {
  auto it = j.find("automorphisms");
  if (it == j.end()) return;
  if (!it->is_array())
    throw InputError(file, "automorphisms", "must be an array, got " + JsonTypeName(*it));
  std::vector<std::vector<int>> generators;
  generators.reserve(it->size());
  for (std::size_t i = 0; i < it->size(); ++i) {
    const std::string item = "automorphisms[" + std::to_string(i) + "]";
    const json& a = (*it)[i];
    if (!a.is_array()) {
      throw InputError(file, item,
                       "must be an array of node indices (a permutation), got " + JsonTypeName(a));
    }
    std::vector<int> p;
    p.reserve(a.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      const json& x = a[k];
      const bool in_range =
          x.is_number_integer() &&
          (x.is_number_unsigned()
               ? x.get<std::uint64_t>() <= std::uint64_t{INT_MAX}
               : x.get<std::int64_t>() >= INT_MIN && x.get<std::int64_t>() <= INT_MAX);
      if (!in_range) {
        throw InputError(file, item,
                         "entry " + std::to_string(k) + " must be a node index (an integer in 0.." +
                             std::to_string(g.num_nodes() - 1) + "), got " + Abbreviated(x.dump()));
      }
      p.push_back(x.get<int>());
    }
    if (std::string problem = PermutationProblem(p, g.num_nodes()); !problem.empty())
      throw InputError(file, item, "is not a permutation of the nodes: " + problem);
    generators.push_back(std::move(p));
  }
  g.set_automorphisms(std::move(generators));
}

// The optional field "failed_links" (graphs/failed_links.h).
TopologyWithFailures ReadFailures(const json& j, Topology g, const std::string& file) {
  TopologyWithFailures t{std::move(g), {}};
  if (auto it = j.find("failed_links"); it != j.end())
    AppendFailedLinks(t.intact, *it, file, "failed_links", t.failed);
  return t;
}

}  // namespace

JsonStrings QuotedNodeNames(const Topology& g) {
  JsonStrings names;
  for (int v = 0; v < g.num_nodes(); ++v) names.Add(g.node(v).name);
  return names;
}

TopologyWithFailures TopologyWithFailuresFromJson(const json& j, const std::string& file) {
  if (!j.is_object())
    throw InputError(file, "top level", "expected a JSON object, got " + JsonTypeName(j));
  Topology g;
  if (auto it = j.find("name"); it != j.end()) {
    if (!it->is_string()) throw InputError(file, "name", "must be a string");
    CheckName(it->get_ref<const std::string&>(), "topology name", file, "name");
    g.set_name(it->get<std::string>());
  }
  const json& nodes = Field(j, "nodes", file, "top level");
  if (!nodes.is_array())
    throw InputError(file, "nodes", "must be an array, got " + JsonTypeName(nodes));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::string item = "nodes[" + std::to_string(i) + "]";
    const json& n = nodes[i];
    if (!n.is_object()) throw InputError(file, item, "must be an object, got " + JsonTypeName(n));
    std::string name = StringField(n, "name", file, item);
    NodeKind kind = NodeKind::kCompute;
    if (auto it = n.find("kind"); it != n.end()) {
      if (!it->is_string())
        throw InputError(file, item + " (" + Abbreviated(name) + ")",
                         "field 'kind' must be a string");
      const std::string& k = it->get_ref<const std::string&>();
      if (k == "compute")
        kind = NodeKind::kCompute;
      else if (k == "switch")
        kind = NodeKind::kSwitch;
      else
        throw InputError(file, item + " (" + Abbreviated(name) + ")",
                         "kind must be \"compute\" or \"switch\", got \"" + Abbreviated(k) + "\"");
    }
    AddNodeChecked(g, name, kind, file, item);
  }
  if (g.num_compute() == 0) throw InputError(file, "nodes", "the topology has no compute nodes");
  auto lit = j.find("links");
  if (lit == j.end()) {
    ReadAutomorphisms(j, g, file);
    return ReadFailures(j, std::move(g), file);
  }
  const json& links = *lit;
  if (!links.is_array())
    throw InputError(file, "links", "must be an array, got " + JsonTypeName(links));
  for (std::size_t i = 0; i < links.size(); ++i) {
    std::string item = "links[" + std::to_string(i) + "]";
    const json& l = links[i];
    if (!l.is_object()) throw InputError(file, item, "must be an object, got " + JsonTypeName(l));
    std::string from = StringField(l, "from", file, item);
    std::string to = StringField(l, "to", file, item);
    item += " (" + Abbreviated(from) + " -> " + Abbreviated(to) + ")";
    int a = NodeByName(g, from, file, item), b = NodeByName(g, to, file, item);
    Rational bw = PositiveBandwidth(
        RationalFromJson(Field(l, "bandwidth", file, item), file, item + " bandwidth"), file, item);
    std::int64_t mult = 1;
    if (auto it = l.find("multiplicity"); it != l.end()) {
      // A non-negative JSON integer is stored unsigned: check both ends in both cases (a
      // multiplicity 0 once reached Topology::AddLink, exit 3; found by the fuzzer).
      if (!it->is_number_integer() ||
          (it->is_number_unsigned()
               ? it->get<std::uint64_t>() > std::uint64_t{INT64_MAX} || it->get<std::uint64_t>() < 1
               : it->get<std::int64_t>() < 1)) {
        throw InputError(
            file, item,
            "multiplicity must be an integer in 1..2^63-1, got " + Abbreviated(it->dump()));
      }
      mult = it->get<std::int64_t>();
    }
    bool duplex = false;
    if (auto it = l.find("duplex"); it != l.end()) {
      if (!it->is_boolean()) throw InputError(file, item, "field 'duplex' must be true or false");
      duplex = it->get<bool>();
    }
    AddLinkChecked(g, a, b, bw, mult, file, item);
    if (duplex) AddLinkChecked(g, b, a, bw, mult, file, item + " (duplex)");
  }
  ReadAutomorphisms(j, g, file);
  return ReadFailures(j, std::move(g), file);
}

Topology TopologyFromJson(const json& j, const std::string& file) {
  TopologyWithFailures t = TopologyWithFailuresFromJson(j, file);
  if (t.failed.empty()) return std::move(t.intact);
  return DegradedTopology(t);
}

namespace {

// g's document, followed by "failed_links" when `failed` names some of its links.
std::string WriteJsonWithFailures(const Topology& g, const std::vector<int>* failed) {
  JsonWriter w(JsonWriter::Spacing::kSpaced);
  w.BeginObject().Key("name").String(g.name());
  w.LineBreak(1).Key("nodes").BeginArray();
  for (int v = 0; v < g.num_nodes(); ++v) {
    w.LineBreak(2).BeginObject().Key("name").String(g.node(v).name);
    w.Key("kind").String(g.IsCompute(v) ? "compute" : "switch").EndObject();
  }
  w.EndArray();
  w.LineBreak(1).Key("links").BeginArray();
  for (const Link& l : g.links()) {
    w.LineBreak(2)
        .BeginObject()
        .Key("from")
        .String(g.node(l.from).name)
        .Key("to")
        .String(g.node(l.to).name);
    w.Key("bandwidth").IntegerOrRational(l.bandwidth);
    if (l.multiplicity > 1) w.Key("multiplicity").Int(l.multiplicity);
    w.EndObject();
  }
  w.EndArray();
  if (!g.automorphisms().empty()) {
    w.LineBreak(1).Key("automorphisms").BeginArray();
    for (const std::vector<int>& p : g.automorphisms()) {
      w.LineBreak(2).BeginArray();
      for (int x : p) w.Int(x);
      w.EndArray();
    }
    w.EndArray();
  }
  if (failed != nullptr && !failed->empty()) {
    w.LineBreak(1).Key("failed_links").BeginArray();
    for (int e : *failed) {
      const Link& l = g.link(e);
      w.LineBreak(2).BeginArray().String(g.node(l.from).name).String("->");
      w.String(g.node(l.to).name).EndArray();
    }
    w.EndArray();
  }
  w.EndObject();
  std::string out = w.TakeText();
  out += '\n';
  return out;
}

}  // namespace

std::string WriteTopologyJson(const Topology& g) { return WriteJsonWithFailures(g, nullptr); }

std::string WriteTopologyJson(const TopologyWithFailures& t) {
  return WriteJsonWithFailures(t.intact, &t.failed);
}

namespace {

constexpr char kUtf8Bom[] = "\xEF\xBB\xBF";

// The edge list's blanks (ASCII whitespace other than the line break).
bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

struct EdgeListToken {
  std::string text;
  bool quoted = false;  // written "..." (never a header keyword)
};

// Splits one edge-list line into tokens: runs of non-blank characters, or a quoted token
// "..." in which \" and \\ stand for " and \. '#' outside quotes starts a comment. An
// unquoted token may not contain '"'; a quoted one must be followed by a blank or the end.
std::vector<EdgeListToken> SplitEdgeListLine(const std::string& line, const std::string& file,
                                             const std::string& item) {
  std::vector<EdgeListToken> tokens;
  const std::size_t n = line.size();
  std::size_t i = 0;
  while (true) {
    while (i < n && IsBlank(line[i])) ++i;
    if (i == n || line[i] == '#') break;
    EdgeListToken t;
    if (line[i] == '"') {
      t.quoted = true;
      for (++i;; ++i) {
        if (i == n) throw InputError(file, item, "unterminated quoted name (missing '\"')");
        char c = line[i];
        if (c == '"') break;
        if (c == '\\') {
          if (i + 1 == n || (line[i + 1] != '"' && line[i + 1] != '\\')) {
            throw InputError(file, item, "in a quoted name '\\' must be followed by '\"' or '\\'");
          }
          c = line[++i];
        }
        t.text += c;
      }
      ++i;  // the closing quote
      if (i < n && !IsBlank(line[i]) && line[i] != '#') {
        throw InputError(file, item, "a quoted name must be followed by a blank");
      }
    } else {
      const std::size_t start = i;
      for (; i < n && !IsBlank(line[i]) && line[i] != '#'; ++i) {
        if (line[i] == '"') {
          throw InputError(file, item,
                           "'\"' inside a name: quote the whole name, as in \"a\\\"b\"");
        }
      }
      t.text.assign(line, start, i - start);
    }
    tokens.push_back(std::move(t));
  }
  return tokens;
}

bool IsEdgeListKeyword(const std::string& s) {
  return s == "name:" || s == "compute:" || s == "switches:";
}

// A name as an edge-list token: quoted when it would otherwise be split, cut by '#', taken
// for a header keyword or be empty.
std::string EdgeListName(const std::string& s) {
  bool quote = s.empty() || IsEdgeListKeyword(s);
  for (char c : s) quote = quote || IsBlank(c) || c == '#' || c == '"';
  if (!quote) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

}  // namespace

Topology ParseEdgeList(const std::string& text, const std::string& file) {
  Topology g;
  // A byte-order mark (some editors write one) is no part of the first node's name.
  std::size_t pos = text.compare(0, 3, kUtf8Bom) == 0 ? 3 : 0;
  std::int64_t line_no = 0;
  // Nodes not declared in a header line are compute nodes, created on first use.
  auto ensure = [&](const std::string& name, const std::string& item) {
    if (auto id = g.FindNode(name)) return *id;
    return AddNodeChecked(g, name, NodeKind::kCompute, file, item);
  };
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    const std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    std::string item = "line " + std::to_string(line_no);
    std::vector<EdgeListToken> tok = SplitEdgeListLine(line, file, item);
    if (tok.empty()) continue;
    const std::string head = tok[0].quoted ? "" : tok[0].text;
    if (head == "name:") {
      if (tok.size() != 2) {
        throw InputError(file, item, "expected 'name: NAME' (quote a name with blanks: \"a b\")");
      }
      CheckName(tok[1].text, "topology name", file, item);
      g.set_name(tok[1].text);
      continue;
    }
    if (head == "switches:" || head == "compute:") {
      NodeKind kind = head == "switches:" ? NodeKind::kSwitch : NodeKind::kCompute;
      for (std::size_t i = 1; i < tok.size(); ++i) AddNodeChecked(g, tok[i].text, kind, file, item);
      continue;
    }
    if (tok.size() < 3 || tok.size() > 4) {
      throw InputError(file, item, "expected 'FROM TO BANDWIDTH [MULTIPLICITY]' or a header line");
    }
    int a = ensure(tok[0].text, item);
    int b = ensure(tok[1].text, item);
    item += " (" + Abbreviated(tok[0].text) + " -> " + Abbreviated(tok[1].text) + ")";
    Rational bw;
    try {
      bw = ParseRational(tok[2].text);
    } catch (const std::invalid_argument& e) {
      throw InputError(file, item + " bandwidth", e.what());
    }
    PositiveBandwidth(bw, file, item);
    std::int64_t mult = 1;
    if (tok.size() == 4) {
      const std::string& m = tok[3].text;
      auto [end, ec] = std::from_chars(m.data(), m.data() + m.size(), mult);
      if (ec != std::errc() || end != m.data() + m.size() || mult < 1) {
        throw InputError(
            file, item,
            "multiplicity must be an integer in 1..2^63-1, got '" + Abbreviated(m) + "'");
      }
    }
    AddLinkChecked(g, a, b, bw, mult, file, item);
  }
  if (g.num_compute() == 0) throw InputError(file, "nodes", "the topology has no compute nodes");
  return g;
}

std::string WriteEdgeList(const Topology& g) {
  std::ostringstream out;
  out << "# collsynth edge list: FROM TO BANDWIDTH [MULTIPLICITY]\n";
  if (!g.name().empty()) out << "name: " << EdgeListName(g.name()) << "\n";
  // Node declarations in id order, one header line per run of equal kind.
  for (int v = 0; v < g.num_nodes();) {
    NodeKind k = g.node(v).kind;
    out << (k == NodeKind::kSwitch ? "switches:" : "compute:");
    for (; v < g.num_nodes() && g.node(v).kind == k; ++v)
      out << ' ' << EdgeListName(g.node(v).name);
    out << "\n";
  }
  for (const Link& l : g.links()) {
    out << EdgeListName(g.node(l.from).name) << ' ' << EdgeListName(g.node(l.to).name) << ' '
        << ToString(l.bandwidth);
    if (l.multiplicity > 1) out << ' ' << l.multiplicity;
    out << "\n";
  }
  return out.str();
}

TopologyWithFailures ReadTopologyWithFailures(const std::string& path) {
  std::string text = ReadTextFile(path);
  std::size_t i = text.compare(0, 3, kUtf8Bom) == 0 ? 3 : 0;  // nlohmann skips it too
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && (text[i] == '{' || text[i] == '[')) {
    return TopologyWithFailuresFromJson(ParseJsonText(text, path), path);
  }
  if (i == text.size()) throw InputError(path, "", "file is empty");
  return {ParseEdgeList(text, path), {}};
}

Topology ReadTopologyFile(const std::string& path) {
  TopologyWithFailures t = ReadTopologyWithFailures(path);
  if (t.failed.empty()) return std::move(t.intact);
  return DegradedTopology(t);
}

namespace {
bool JsonPath(const std::string& path) {
  return path == "-" || (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0);
}
}  // namespace

void WriteTopologyFile(const Topology& g, const std::string& path) {
  WriteTextFile(path, JsonPath(path) ? WriteTopologyJson(g) : WriteEdgeList(g));
}

void WriteTopologyFile(const TopologyWithFailures& t, const std::string& path) {
  if (t.failed.empty()) return WriteTopologyFile(t.intact, path);
  WriteTextFile(path, JsonPath(path) ? WriteTopologyJson(t) : WriteEdgeList(DegradedTopology(t)));
}

}  // namespace collsynth
