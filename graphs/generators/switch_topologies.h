// Switch topologies (seed 004 §1.3 Figure 1; fat-tree and dragonfly baselines of seed 003
// §9.1) and GPU-server clusters (docs/topologies.md "Other families").
//
// Problem: build the switch networks that the bandwidth-optimal pipeline paper (seed 004)
// evaluates: its two-cluster example, k-ary fat-trees, dragonflies, rail-optimized GPU-box
// clusters and the DGX-1 (V100) hybrid cube-mesh box. GPUs / hosts are compute nodes,
// everything else is a switch. Every link is duplex (one directed link each way) with the
// stated exact bandwidth; unit bandwidth unless a parameter says otherwise.
//
// Complexity: O(V + E) each. Every generator first checks CheckTopologySize
// (graphs/generators/family_args.h) and throws std::invalid_argument on bad parameters
// (naming the parameter) or absurd sizes, before allocating anything.
// Node names are deterministic and readable; docs/topologies.md ("Other families") lists
// every naming scheme.
#ifndef COLLSYNTH_GRAPHS_GENERATORS_SWITCH_TOPOLOGIES_H_
#define COLLSYNTH_GRAPHS_GENERATORS_SWITCH_TOPOLOGIES_H_

#include <cstdint>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// Seed 004 Figure 1: `clusters` clusters of `size` compute nodes. Each compute node has a
// duplex link of bandwidth local_bw to its cluster switch s1..sC and one of bandwidth
// global_bw to the global switch s0. Compute names "c<i><j>" (cluster i, node j, both
// 1-based; "c<i>_<j>" when clusters > 9 or size > 9). Node order: compute nodes cluster by
// cluster, then s1..sC, then s0 — TwoCluster(2, 4, 10, 1) equals
// experiments/topologies/two_cluster.json. clusters >= 1, size >= 1, bandwidths > 0.
Topology TwoCluster(std::int64_t clusters, std::int64_t size, const Rational& local_bw,
                    const Rational& global_bw);

// k-ary fat-tree (Al-Fares et al. 2008, the 3-level fat-tree of seed 003 §9 and seed 001):
// k pods, each with k/2 edge and k/2 aggregation switches; (k/2)^2 core switches; k^3/4
// hosts, k/2 per edge switch. Edge switch e of pod p links to every aggregation switch of
// pod p; aggregation switch a links to core switches a·k/2 .. a·k/2 + k/2 - 1. Unit
// bandwidth. Names: hosts "p<p>e<e>h<h>", edge "p<p>e<e>", aggregation "p<p>a<a>",
// core "core<i>" (all 0-based). k even, k >= 2.
Topology FatTree(std::int64_t k);

// Dragonfly (Kim et al. 2008, seed 004 ref. [11]): g = a·h + 1 groups of a routers; the
// routers of a group form a clique; each router has p terminals (compute nodes) and h
// global links; every pair of groups is joined by exactly one global link ("consecutive"
// arrangement: global port o = r·h + j of group G, 0 <= o < a·h, leads to group
// (G + o + 1) mod g, arriving there on port g - 2 - o). Unit bandwidth.
// Names: routers "g<G>r<r>", terminals "g<G>r<r>t<t>". a >= 1, p >= 1, h >= 1.
Topology Dragonfly(std::int64_t a, std::int64_t p, std::int64_t h);

// GPU-server cluster: `boxes` boxes of g GPUs; GPU i of box b links to the box's switch
// "b<b>sw" at bandwidth box_bw and to rail switch "rail<i mod r>" (shared by all boxes) at
// bandwidth nic_bw. GPU names "b<b>g<i>" (0-based). Node order: GPUs box by box, box
// switches, rail switches. boxes >= 1, 1 <= r <= g, bandwidths > 0.
Topology GpuBoxes(std::int64_t boxes, std::int64_t g, const Rational& box_bw,
                  const Rational& nic_bw, std::int64_t r);

// Number of NVLinks between GPUs i and j (0..7) of one DGX-1 (V100 generation, 6 NVLinks
// per GPU): the hybrid cube-mesh — two fully connected quads {0,1,2,3}, {4,5,6,7} plus
// i -- i+4 — with the pairs 0-3, 1-2, 2-3, 0-4, 1-5, 4-7, 5-6, 6-7 doubled. 0 when not
// linked or i == j.
int Dgx1NvLinks(int i, int j);

// `boxes` DGX-1V boxes; each NVLink contributes bandwidth 1 (a doubled pair is one duplex
// link of bandwidth 2 and multiplicity 2). With boxes > 1, every GPU also has a NIC link of
// bandwidth nic_bw to one shared switch "sw". GPU names "b<b>g<i>". The seed-004 allgather
// optimum ratio* = max_{S ⊉ V_c} |S∩V_c| / B+(S) of one box is 7/6 (S = all GPUs but one,
// whose in-bandwidth is 6), the value the issue expects; the P100 variant (4 single NVLinks
// per GPU) would give 7/4, so the V100 variant is the one built. boxes >= 1, nic_bw > 0.
Topology Dgx1(std::int64_t boxes, const Rational& nic_bw = Rational(1));

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_GENERATORS_SWITCH_TOPOLOGIES_H_
