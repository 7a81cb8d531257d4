// Ranks of the compute nodes: the bijection between a topology's compute nodes and the ranks
// 0..N-1 of a runtime program (docs/export.md "--ranks", docs/simulate.md). The one reader of
// `--ranks FILE` and of the "ranks" member of the MSCCL routes side file, for the exporters and
// the simulator alike. O(N log N) (name lookups).
#ifndef COLLSYNTH_GRAPHS_RANK_MAP_H_
#define COLLSYNTH_GRAPHS_RANK_MAP_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

struct RankMap {
  std::vector<int> rank_of_node;  // node id -> rank; -1 for switches
  std::vector<int> node_of_rank;  // rank -> node id
};

// Compute nodes in topology order get 0..N-1.
RankMap DefaultRankMap(const Topology& g);

// From JSON: an array of compute node names in rank order, or an object {name: rank}; it must
// be a bijection of the compute nodes onto 0..N-1. InputError(file, item, problem) otherwise,
// with item the entry ("[3]", a node name) or, for the document as a whole, `document_item`.
RankMap RankMapFromJson(const Topology& g, const nlohmann::json& j, const std::string& file,
                        const std::string& document_item);

// The same from the JSON file at `path` (`--ranks FILE`).
RankMap ReadRankMapFile(const Topology& g, const std::string& path,
                        const std::string& document_item);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_RANK_MAP_H_
