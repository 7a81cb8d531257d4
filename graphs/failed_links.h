// Failed links (docs/formats.md "Failed links", docs/symmetry.md "Failures"): a topology as it
// was built (its links and declared automorphisms) together with the links that have failed.
// The topology JSON's optional field "failed_links" carries them; every reader of a topology
// file (ReadTopologyFile, TopologyFromJson) returns the degraded topology, so every command
// inherits the failures; `topo symmetry` keeps the intact topology's generators to compute the
// automorphisms that map the failed set to itself (graphs/perm_group_schreier_sims.h).
//
// A failed-link list is a JSON array of items ["u", "->", "v"] (the directed link u -> v) or
// ["u", "-", "v"] (both u -> v and v -> u), by node name. A failed link removes the whole merged
// link (every unit link of its multiplicity). Errors are InputError(file, "failed_links[i]
// (u -> v)", ...): not such an item, unknown node, not a link of the topology, a link named
// twice. O(items) expected.
#ifndef COLLSYNTH_GRAPHS_FAILED_LINKS_H_
#define COLLSYNTH_GRAPHS_FAILED_LINKS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graphs/topology.h"

namespace collsynth {

struct TopologyWithFailures {
  Topology intact;          // as built, with its declared automorphisms
  std::vector<int> failed;  // link ids of `intact`, in the order listed, each once
};

// Appends the links named by `list` (a failed-link list, above) to `failed` (ids of `intact`'s
// links; a link already in `failed` is a duplicate). `field` names the list in errors
// ("failed_links").
void AppendFailedLinks(const Topology& intact, const nlohmann::json& list, const std::string& file,
                       const std::string& field, std::vector<int>& failed);

// The failed-link list of a `--fail FILE` document: a failed-link list, or an object whose field
// "failed_links" is one. InputError naming the file otherwise.
const nlohmann::json& FailedLinkList(const nlohmann::json& doc, const std::string& file);

// The degraded topology: the same name and nodes (same ids), every link of `t.intact` but the
// failed ones, in link-id order (a link keeps its bandwidth and multiplicity), and no declared
// automorphisms (the intact topology's need not map the degraded one onto itself). O(V + E).
Topology DegradedTopology(const TopologyWithFailures& t);

// The failed links as a JSON failed-link list of directed items ["u", "->", "v"].
nlohmann::json FailedLinksJson(const TopologyWithFailures& t);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_FAILED_LINKS_H_
