#include "graphs/topology_io.h"

#include <cctype>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "graphs/input_error.h"

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
    throw InputError(file, item, std::string("field '") + key + "' must be a string, got " +
                                     JsonTypeName(v));
  }
  return v.get<std::string>();
}

int NodeByName(const Topology& g, const std::string& name, const std::string& file,
               const std::string& item) {
  auto id = g.FindNode(name);
  if (!id) throw InputError(file, item, "unknown node '" + name + "'");
  return *id;
}

Rational PositiveBandwidth(const Rational& b, const std::string& file, const std::string& item) {
  if (b <= 0) {
    throw InputError(file, item, "bandwidth must be positive, got " + ToString(b));
  }
  return b;
}

}  // namespace

std::string ReadTextFile(const std::string& path) {
  if (path == "-") {
    std::string s((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    return s;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open file (missing or unreadable)");
  in.seekg(0, std::ios::end);
  auto size = in.tellg();
  if (size < 0) throw InputError(path, "", "cannot read file");
  if (static_cast<std::size_t>(size) > kMaxInputBytes) {
    throw InputError(path, "", "file is larger than " + std::to_string(kMaxInputBytes) + " bytes");
  }
  in.seekg(0, std::ios::beg);
  std::string s(static_cast<std::size_t>(size), '\0');
  in.read(s.data(), size);
  if (!in) throw InputError(path, "", "cannot read file");
  return s;
}

void WriteTextFile(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(path, "", "cannot open file for writing");
  out << text;
  if (!out) throw InputError(path, "", "write failed");
}

json ParseJsonText(const std::string& text, const std::string& file) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(file, "byte " + std::to_string(e.byte), std::string("malformed JSON: ") + e.what());
  }
}

Rational RationalFromJson(const json& v, const std::string& file, const std::string& item) {
  if (v.is_number_integer()) {
    return v.is_number_unsigned() ? Rational(v.get<std::uint64_t>())
                                  : Rational(v.get<std::int64_t>());
  }
  if (v.is_number_float()) {
    throw InputError(file, item,
                     "floating-point number " + v.dump() +
                         " is not exact; write it as an integer or a string such as \"5/2\"");
  }
  if (v.is_string()) {
    try {
      return ParseRational(v.get_ref<const std::string&>());
    } catch (const std::invalid_argument& e) {
      throw InputError(file, item, e.what());
    }
  }
  throw InputError(file, item, "expected a number or an exact rational string, got " +
                                   JsonTypeName(v));
}

Topology TopologyFromJson(const json& j, const std::string& file) {
  if (!j.is_object()) throw InputError(file, "top level", "expected a JSON object, got " + JsonTypeName(j));
  Topology g;
  if (auto it = j.find("name"); it != j.end()) {
    if (!it->is_string()) throw InputError(file, "name", "must be a string");
    g.set_name(it->get<std::string>());
  }
  const json& nodes = Field(j, "nodes", file, "top level");
  if (!nodes.is_array()) throw InputError(file, "nodes", "must be an array, got " + JsonTypeName(nodes));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::string item = "nodes[" + std::to_string(i) + "]";
    const json& n = nodes[i];
    if (!n.is_object()) throw InputError(file, item, "must be an object, got " + JsonTypeName(n));
    std::string name = StringField(n, "name", file, item);
    NodeKind kind = NodeKind::kCompute;
    if (auto it = n.find("kind"); it != n.end()) {
      if (!it->is_string()) throw InputError(file, item + " (" + name + ")", "field 'kind' must be a string");
      const std::string& k = it->get_ref<const std::string&>();
      if (k == "compute") kind = NodeKind::kCompute;
      else if (k == "switch") kind = NodeKind::kSwitch;
      else throw InputError(file, item + " (" + name + ")", "kind must be \"compute\" or \"switch\", got \"" + k + "\"");
    }
    if (name.empty()) throw InputError(file, item, "empty node name");
    if (g.FindNode(name)) throw InputError(file, item, "duplicate node name '" + name + "'");
    g.AddNode(name, kind);
  }
  if (g.num_compute() == 0) throw InputError(file, "nodes", "the topology has no compute nodes");
  auto lit = j.find("links");
  if (lit == j.end()) return g;
  const json& links = *lit;
  if (!links.is_array()) throw InputError(file, "links", "must be an array, got " + JsonTypeName(links));
  for (std::size_t i = 0; i < links.size(); ++i) {
    std::string item = "links[" + std::to_string(i) + "]";
    const json& l = links[i];
    if (!l.is_object()) throw InputError(file, item, "must be an object, got " + JsonTypeName(l));
    std::string from = StringField(l, "from", file, item);
    std::string to = StringField(l, "to", file, item);
    item += " (" + from + " -> " + to + ")";
    int a = NodeByName(g, from, file, item), b = NodeByName(g, to, file, item);
    Rational bw = PositiveBandwidth(
        RationalFromJson(Field(l, "bandwidth", file, item), file, item + " bandwidth"), file, item);
    std::int64_t mult = 1;
    if (auto it = l.find("multiplicity"); it != l.end()) {
      if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
        throw InputError(file, item, "multiplicity must be a positive integer");
      }
      mult = it->get<std::int64_t>();
    }
    bool duplex = false;
    if (auto it = l.find("duplex"); it != l.end()) {
      if (!it->is_boolean()) throw InputError(file, item, "field 'duplex' must be true or false");
      duplex = it->get<bool>();
    }
    g.AddLink(a, b, bw, mult);
    if (duplex) g.AddLink(b, a, bw, mult);
  }
  return g;
}

json TopologyToJson(const Topology& g) {
  json j;
  j["name"] = g.name();
  json nodes = json::array();
  for (const Node& n : g.nodes()) {
    nodes.push_back({{"name", n.name}, {"kind", n.kind == NodeKind::kCompute ? "compute" : "switch"}});
  }
  j["nodes"] = std::move(nodes);
  json links = json::array();
  for (const Link& l : g.links()) {
    json o = {{"from", g.node(l.from).name}, {"to", g.node(l.to).name}};
    if (Denominator(l.bandwidth) == 1 && l.bandwidth <= Rational(std::numeric_limits<std::int64_t>::max())) {
      o["bandwidth"] = Numerator(l.bandwidth).convert_to<std::int64_t>();
    } else {
      o["bandwidth"] = ToString(l.bandwidth);
    }
    if (l.multiplicity > 1) o["multiplicity"] = l.multiplicity;
    links.push_back(std::move(o));
  }
  j["links"] = std::move(links);
  return j;
}

namespace {

void AppendJsonString(std::string& out, const std::string& s) {
  bool plain = true;
  for (unsigned char c : s) {
    if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain) {
    out += '"';
    out += s;
    out += '"';
  } else {
    out += json(s).dump();  // nlohmann escapes (and validates UTF-8)
  }
}

}  // namespace

std::string WriteTopologyJson(const Topology& g) {
  std::string out;
  out.reserve(64 + 48 * static_cast<std::size_t>(g.num_nodes()) +
              64 * static_cast<std::size_t>(g.num_links()));
  out += "{\"name\": ";
  AppendJsonString(out, g.name());
  out += ",\n \"nodes\": [";
  for (int v = 0; v < g.num_nodes(); ++v) {
    out += v ? ",\n  {\"name\": " : "\n  {\"name\": ";
    AppendJsonString(out, g.node(v).name);
    out += g.IsCompute(v) ? ", \"kind\": \"compute\"}" : ", \"kind\": \"switch\"}";
  }
  out += "],\n \"links\": [";
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    out += e ? ",\n  {\"from\": " : "\n  {\"from\": ";
    AppendJsonString(out, g.node(l.from).name);
    out += ", \"to\": ";
    AppendJsonString(out, g.node(l.to).name);
    out += ", \"bandwidth\": ";
    if (Denominator(l.bandwidth) == 1 &&
        l.bandwidth <= Rational(std::numeric_limits<std::int64_t>::max())) {
      out += Numerator(l.bandwidth).str();
    } else {
      out += '"' + ToString(l.bandwidth) + '"';
    }
    if (l.multiplicity > 1) out += ", \"multiplicity\": " + std::to_string(l.multiplicity);
    out += '}';
  }
  out += "]}\n";
  return out;
}

Topology ParseEdgeList(const std::string& text, const std::string& file) {
  Topology g;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  // Nodes not declared in a header line are compute nodes, created on first use.
  auto ensure = [&](const std::string& name) {
    if (auto id = g.FindNode(name)) return *id;
    return g.AddCompute(name);
  };
  while (std::getline(in, line)) {
    ++line_no;
    std::string item = "line " + std::to_string(line_no);
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream ls(line);
    std::vector<std::string> tok;
    for (std::string t; ls >> t;) tok.push_back(t);
    if (tok.empty()) continue;
    const std::string& head = tok[0];
    if (head == "name:" ) {
      if (tok.size() != 2) throw InputError(file, item, "expected 'name: NAME'");
      g.set_name(tok[1]);
      continue;
    }
    if (head == "switches:" || head == "compute:") {
      NodeKind kind = head == "switches:" ? NodeKind::kSwitch : NodeKind::kCompute;
      for (std::size_t i = 1; i < tok.size(); ++i) {
        if (g.FindNode(tok[i])) throw InputError(file, item, "duplicate node name '" + tok[i] + "'");
        g.AddNode(tok[i], kind);
      }
      continue;
    }
    if (tok.size() < 3 || tok.size() > 4) {
      throw InputError(file, item, "expected 'FROM TO BANDWIDTH [MULTIPLICITY]' or a header line");
    }
    int a = ensure(tok[0]);
    int b = ensure(tok[1]);
    item += " (" + tok[0] + " -> " + tok[1] + ")";
    Rational bw;
    try {
      bw = ParseRational(tok[2]);
    } catch (const std::invalid_argument& e) {
      throw InputError(file, item + " bandwidth", e.what());
    }
    PositiveBandwidth(bw, file, item);
    std::int64_t mult = 1;
    if (tok.size() == 4) {
      try {
        std::size_t pos = 0;
        mult = std::stoll(tok[3], &pos);
        if (pos != tok[3].size() || mult < 1) throw std::invalid_argument("");
      } catch (const std::exception&) {
        throw InputError(file, item, "multiplicity must be a positive integer, got '" + tok[3] + "'");
      }
    }
    g.AddLink(a, b, bw, mult);
  }
  if (g.num_compute() == 0) throw InputError(file, "nodes", "the topology has no compute nodes");
  return g;
}

std::string WriteEdgeList(const Topology& g) {
  for (const Node& n : g.nodes()) {
    for (unsigned char c : n.name) {
      if (std::isspace(c) || c == '#') {
        throw InputError("<edge list output>", "node \"" + n.name + "\"",
                         "a name with whitespace or '#' cannot be written as an edge list; use JSON");
      }
    }
  }
  std::ostringstream out;
  out << "# collsynth edge list: FROM TO BANDWIDTH [MULTIPLICITY]\n";
  if (!g.name().empty()) out << "name: " << g.name() << "\n";
  // Node declarations in id order, one header line per run of equal kind.
  for (int v = 0; v < g.num_nodes();) {
    NodeKind k = g.node(v).kind;
    out << (k == NodeKind::kSwitch ? "switches:" : "compute:");
    for (; v < g.num_nodes() && g.node(v).kind == k; ++v) out << ' ' << g.node(v).name;
    out << "\n";
  }
  for (const Link& l : g.links()) {
    out << g.node(l.from).name << ' ' << g.node(l.to).name << ' ' << ToString(l.bandwidth);
    if (l.multiplicity > 1) out << ' ' << l.multiplicity;
    out << "\n";
  }
  return out.str();
}

Topology ReadTopologyFile(const std::string& path) {
  std::string text = ReadTextFile(path);
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && (text[i] == '{' || text[i] == '[')) {
    return TopologyFromJson(ParseJsonText(text, path), path);
  }
  if (i == text.size()) throw InputError(path, "", "file is empty");
  return ParseEdgeList(text, path);
}

void WriteTopologyFile(const Topology& g, const std::string& path) {
  bool json_out = path == "-" || (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0);
  WriteTextFile(path, json_out ? WriteTopologyJson(g) : WriteEdgeList(g));
}

}  // namespace collsynth
