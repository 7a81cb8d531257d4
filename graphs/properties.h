// Structural queries on a Topology: Eulerian (per-node in = out bandwidth), strong
// connectivity over the compute nodes (paths may pass through switches), degrees and
// regularity. All O(V + E) except where noted; exact rationals throughout.
#ifndef COLLSYNTH_GRAPHS_PROPERTIES_H_
#define COLLSYNTH_GRAPHS_PROPERTIES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "graphs/topology.h"

namespace collsynth {

struct EulerianReport {
  bool eulerian = true;
  int node = -1;          // first node with in != out, when not Eulerian
  Rational in_bandwidth;  // its totals
  Rational out_bandwidth;
};
EulerianReport CheckEulerian(const Topology& g);

struct ConnectivityReport {
  bool strongly_connected = true;
  // When not: a compute node `to` that compute node `from` cannot reach.
  int from = -1;
  int to = -1;
};
// Every compute node reaches every other compute node (through any nodes).
ConnectivityReport CheckStronglyConnected(const Topology& g);

struct DegreeReport {
  std::int64_t min_out = 0, max_out = 0, min_in = 0, max_in = 0;  // over compute nodes
  bool regular = false;     // direct-connect, every compute node in = out = d, equal link bandwidth
  std::int64_t degree = 0;  // d when regular
  std::optional<Rational> link_bandwidth;  // b when every unit link has the same bandwidth
  std::int64_t self_loops = 0;
  std::int64_t multi_links = 0;  // links with multiplicity > 1
};
DegreeReport ComputeDegrees(const Topology& g);

// Throws InputError(file, "node NAME", "in-bandwidth X != out-bandwidth Y ...") or
// InputError(file, "node A", "cannot reach compute node B ...") for commands that need
// Eulerian, strongly connected input; also rejects a topology without compute nodes.
void RequireEulerianStronglyConnected(const Topology& g, const std::string& file);
void RequireStronglyConnected(const Topology& g, const std::string& file);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_PROPERTIES_H_
