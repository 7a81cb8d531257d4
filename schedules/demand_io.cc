#include "schedules/demand_io.h"

#include <set>
#include <utility>

#include "core/input_error.h"
#include "core/json_io.h"

namespace collsynth {
namespace {

const BigInt kMaxDemandTerm(1000000000);

int ComputeNode(const Topology& g, const nlohmann::json& v, const std::string& file,
                const std::string& item) {
  if (!v.is_string()) throw InputError(file, item, "must be a node name (string)");
  const std::string name = v.get<std::string>();
  auto id = g.FindNode(name);
  if (!id) throw InputError(file, item, "no node '" + Abbreviated(name) + "' in the topology");
  if (!g.IsCompute(*id)) {
    throw InputError(file, item, "'" + Abbreviated(name) + "' is a switch, not a compute node");
  }
  return *id;
}

}  // namespace

DemandMatrix ParseDemandText(const std::string& text, const std::string& file, const Topology& g) {
  const nlohmann::json doc = ParseJsonText(text, file);
  if (!doc.is_object()) throw InputError(file, "document", "must be a JSON object");
  for (const auto& [key, value] : doc.items()) {
    if (key != "format" && key != "demand") {
      throw InputError(file, Abbreviated(key), "unknown key (expected format, demand)");
    }
  }
  if (!doc.contains("format") || doc["format"] != "demand") {
    throw InputError(file, "format", "must be \"demand\"");
  }
  if (!doc.contains("demand")) {
    throw InputError(file, "demand", "must be an array of {from, to, amount}");
  }
  return DemandFromJson(doc["demand"], file, "demand", g);
}

DemandMatrix DemandFromJson(const nlohmann::json& list, const std::string& file,
                            const std::string& key, const Topology& g) {
  if (!list.is_array()) throw InputError(file, key, "must be an array of {from, to, amount}");
  if (list.empty()) throw InputError(file, key, "has no entry");
  DemandMatrix d;
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = key + "[" + std::to_string(i) + "]";
    const nlohmann::json& x = list[i];
    if (!x.is_object()) throw InputError(file, item, "must be an object {from, to, amount}");
    for (const auto& [member, value] : x.items()) {
      if (member != "from" && member != "to" && member != "amount") {
        throw InputError(file, item + "." + Abbreviated(member),
                         "unknown key (expected from, to, amount)");
      }
    }
    for (const char* member : {"from", "to", "amount"}) {
      if (!x.contains(member)) {
        throw InputError(file, item, std::string("missing \"") + member + "\"");
      }
    }
    DemandEntry e;
    e.from = ComputeNode(g, x["from"], file, item + ".from");
    e.to = ComputeNode(g, x["to"], file, item + ".to");
    if (e.from == e.to) throw InputError(file, item, "from and to are the same node");
    e.amount = RationalFromJson(x["amount"], file, item + ".amount");
    if (e.amount <= 0) throw InputError(file, item + ".amount", "must be > 0");
    if (Numerator(e.amount) > kMaxDemandTerm || Denominator(e.amount) > kMaxDemandTerm) {
      throw InputError(file, item + ".amount",
                       "numerator and denominator must be at most 10^9 (the LP works in double)");
    }
    if (!seen.insert({e.from, e.to}).second) {
      throw InputError(file, item,
                       "pair " + g.node(e.from).name + "->" + g.node(e.to).name + " given twice");
    }
    d.entries.push_back(std::move(e));
  }
  return d;
}

DemandMatrix ReadDemandFile(const std::string& path, const Topology& g) {
  return ParseDemandText(ReadTextFile(path), path, g);
}

}  // namespace collsynth
