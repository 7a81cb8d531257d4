// The pieces `topo info` and `topo symmetry` share (topo_info_command.cc,
// topo_symmetry_command.cc): the declared automorphisms checked, orbits printed, and the
// metrics of `topo info --json` (also the Python package's Topology.info(), docs/python.md).
#ifndef COLLSYNTH_CLI_TOPO_COMMON_H_
#define COLLSYNTH_CLI_TOPO_COMMON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/progress.h"
#include "graphs/failed_links.h"
#include "graphs/topology.h"

namespace collsynth::cli {

// InputError(file, "automorphisms[i]", ...) for the first declared automorphism that is not
// one (naming one offending node or link).
void RequireAutomorphisms(const Topology& g, const std::string& file);

// Adds the failed links of a `--fail FILE` document (graphs/failed_links.h: a failed-link list,
// or an object with "failed_links") to t; errors name FILE and the item. No-op for "".
void AddFailFile(TopologyWithFailures& t, const std::string& fail_file);

// Orbits as lists of node names.
nlohmann::json OrbitNames(const Topology& g, const std::vector<std::vector<int>>& orbits);

// What `topo info --json` prints (docs/cli.md "topo info"): sizes, degrees, Eulerian and strong
// connectivity, distances (BFS on `threads` threads, 0 = all cores; `progress` counts sources),
// the Moore bound and T_B lower bound of a regular topology, the declared automorphisms (checked
// by the caller) and the compute orbits.
nlohmann::json InfoJson(const Topology& g, unsigned threads, const ProgressCallback& progress);

// "3 (sizes 8, 8, 4)", at most 10 sizes shown.
std::string OrbitSummary(const std::vector<std::vector<int>>& orbits);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_TOPO_COMMON_H_
