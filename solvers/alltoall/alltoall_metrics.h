// What TopoOpt measures of an all-to-all routing (seed 002 §5.4): the bandwidth tax (the
// traffic sent into the network by compute nodes, forwarded traffic included, over the
// demand; 1 when hosts do not relay, as on a fat-tree) and the average path length (hops of
// a shortest path per demand pair, weighted by demand), plus the naive routing it compares
// with: ECMP-like even splitting over hop-count shortest paths (at every node, traffic for t
// splits equally over the distinct out-links that lie on a shortest path to t), with its exact
// concurrent-flow value min_e c_e / load_e. Exact rationals throughout.
// Complexity: O(N·(V + E)) with relay (one pass per destination), O(P·(V + E)) without
// (one pass per demand pair P, since the source is the only compute node that may forward).
#ifndef COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_METRICS_H_
#define COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_METRICS_H_

#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"

namespace collsynth {

// Hop counts to t over the links, where only nodes with forwards[v] may pass data on (t is
// always reached); -1 where t is not reachable. O(V + E) breadth-first search backwards.
std::vector<int> HopsTo(const Topology& g, int t, const std::vector<bool>& forwards);
// The nodes that may forward data of a pair from `source`: switches, the source, and, when
// `relay`, every compute node.
std::vector<bool> Forwarders(const Topology& g, int source, bool relay);

// Σ_k Σ_{e leaving a compute node} flow[k][e] / (λ·Σ d): the bandwidth tax of a routing given
// as the certificate's flow. Precondition: lambda > 0.
Rational BandwidthTax(const Topology& g, const AlltoallCertificate& cert);

struct EcmpRouting {
  Rational lambda;               // min_e c_e / load_e (load of the demand d itself)
  Rational bandwidth_tax;        // as BandwidthTax
  Rational average_path_length;  // Σ d_st hops(s, t) / Σ d_st
  std::vector<Rational> load;    // per link, for the demand d
};

// Precondition: every demand pair is connected under the relay rule.
EcmpRouting ComputeEcmpRouting(const Topology& g, const DemandMatrix& demand, bool relay);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_ALLTOALL_ALLTOALL_METRICS_H_
