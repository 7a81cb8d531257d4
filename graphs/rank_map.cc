#include "graphs/rank_map.h"

#include <cstdint>
#include <optional>

#include "core/input_error.h"
#include "core/json_io.h"

namespace collsynth {

RankMap DefaultRankMap(const Topology& g) {
  RankMap m;
  m.rank_of_node.assign(g.num_nodes(), -1);
  for (int v : g.ComputeNodes()) {
    m.rank_of_node[v] = static_cast<int>(m.node_of_rank.size());
    m.node_of_rank.push_back(v);
  }
  return m;
}

RankMap RankMapFromJson(const Topology& g, const nlohmann::json& j, const std::string& file,
                        const std::string& document_item) {
  const int n = g.num_compute();
  RankMap m;
  m.rank_of_node.assign(g.num_nodes(), -1);
  m.node_of_rank.assign(n, -1);
  auto assign = [&](const std::string& name, std::int64_t r, const std::string& item) {
    const std::optional<int> v = g.FindNode(name);
    if (!v) throw InputError(file, item, "no node named '" + name + "' in the topology");
    if (!g.IsCompute(*v)) throw InputError(file, item, "'" + name + "' is a switch, not a GPU");
    if (r < 0 || r >= n) {
      throw InputError(file, item,
                       "rank " + std::to_string(r) + " outside 0.." + std::to_string(n - 1));
    }
    if (m.rank_of_node[*v] >= 0) throw InputError(file, item, "'" + name + "' is given two ranks");
    if (m.node_of_rank[r] >= 0) {
      throw InputError(file, item, "rank " + std::to_string(r) + " is given twice");
    }
    m.rank_of_node[*v] = static_cast<int>(r);
    m.node_of_rank[r] = *v;
  };
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      const std::string item = "[" + std::to_string(i) + "]";
      if (!j[i].is_string()) throw InputError(file, item, "not a node name");
      assign(j[i].get<std::string>(), static_cast<std::int64_t>(i), item);
    }
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!it.value().is_number_integer()) {
        throw InputError(file, it.key(), "the rank is not an integer");
      }
      assign(it.key(), it.value().get<std::int64_t>(), it.key());
    }
  } else {
    throw InputError(file, document_item,
                     "expected an array of node names or an object {name: rank}");
  }
  for (int r = 0; r < n; ++r) {
    if (m.node_of_rank[r] < 0) {
      throw InputError(file, document_item, "rank " + std::to_string(r) + " has no node");
    }
  }
  return m;
}

RankMap ReadRankMapFile(const Topology& g, const std::string& path,
                        const std::string& document_item) {
  return RankMapFromJson(g, ParseJsonText(ReadTextFile(path), path), path, document_item);
}

}  // namespace collsynth
