// All-to-all demand matrices and the certificate of the maximum concurrent flow (the exact
// all-to-all throughput optimum, docs/cli.md "## optimum"): data only, no algorithm. The producer
// is solvers/alltoall/alltoall_optimum.h, the checker proofs_check/alltoall_certificate_check.h;
// the type lives here, below both, so the checker never includes a producer header.
//
// Model (maximum concurrent flow, Leighton–Rao; TopoOpt's routing question, seed 002 §5.4–5.5):
// each ordered pair (s, t) of compute nodes asks for d_st; a routing sends λ·d_st from s to t
// for every pair at once, the total load of every link e at most its bandwidth c_e. Switches
// forward; compute nodes other than the source forward unless `relay` is false. λ* is the
// largest such λ; moving d_st units per pair then takes 1/λ* time per unit bandwidth.
// Exact: every number is a Rational.
#ifndef COLLSYNTH_SCHEDULES_ALLTOALL_FLOW_H_
#define COLLSYNTH_SCHEDULES_ALLTOALL_FLOW_H_

#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth {

// One entry d_st > 0 of a demand matrix (node ids of compute nodes, from != to).
struct DemandEntry {
  int from = -1;
  int to = -1;
  Rational amount;
};

// A demand matrix: its positive entries, at most one per ordered pair (absent pairs ask 0).
struct DemandMatrix {
  std::vector<DemandEntry> entries;
};

// The uniform all-to-all: d_st = 1 for every ordered pair of distinct compute nodes (the unit
// is M/N, the block every node sends every other). O(N^2).
inline DemandMatrix UniformDemand(const Topology& g) {
  DemandMatrix d;
  const std::vector<int> c = g.ComputeNodes();
  for (int s : c) {
    for (int t : c) {
      if (s != t) d.entries.push_back({s, t, Rational(1)});
    }
  }
  return d;
}

// The two certificates of λ = λ*:
// - primal: a flow per commodity (one commodity per source node, `sources[k]`; `flow[k][e]` is
//   what it sends on link e) that delivers λ·d_st to every t, conserves flow at every other
//   node and keeps every link's total load within its bandwidth: λ* >= λ;
// - dual: a length ℓ_e >= 0 per link; any routing of λ·d pays
//   λ·Σ d_st·dist_ℓ(s,t) <= Σ c_e·ℓ_e, so λ* <= Σ c_e ℓ_e / Σ d_st dist_ℓ(s,t).
// The certificate proves λ* = λ when that ratio equals λ. With relay false, a commodity may
// leave a compute node only at its source, and dist_ℓ uses only such paths.
struct AlltoallCertificate {
  bool relay = true;
  DemandMatrix demand;
  Rational lambda;
  std::vector<int> sources;                 // one per commodity
  std::vector<std::vector<Rational>> flow;  // [commodity][link id]
  std::vector<Rational> length;             // [link id]
};

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_ALLTOALL_FLOW_H_
