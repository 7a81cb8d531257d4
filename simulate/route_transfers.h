// The transfers of one route cut into P chunks, shared by the builders of pipeline schedules
// (pipeline_simulation.h) and all-to-all flows (alltoall_simulation.h); the model is
// docs/simulate.md "Pipeline schedules" and "All-to-all flows". Store-and-forward: one transfer
// per (chunk, link), each after the same chunk's transfer on the previous link (a switch or
// relaying node passes a chunk on once it has all of it); cut-through: one transfer per chunk
// over all the links. Either way chunk j enters a link after chunk j-1 of the same route left
// it (a route sends its chunks in order). Cost O(P · hops) transfers and dependencies.
#ifndef COLLSYNTH_SIMULATE_ROUTE_TRANSFERS_H_
#define COLLSYNTH_SIMULATE_ROUTE_TRANSFERS_H_

#include <cstdint>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// The link ids a route's data crosses, in the order it crosses them: path[0] -> path[1] -> ...,
// or, `upward`, the path read backwards. std::logic_error on a missing link (a checked
// schedule has none).
std::vector<int> RouteLinks(const Topology& g, const std::vector<int>& path, bool upward);

// The transfers per chunk of a route of `links` links: 1 cut-through, else the links.
std::uint64_t RouteHops(std::uint64_t links, SwitchModel model);

// The ids of a route's transfers: chunk j on hop h is first + j·hops + h.
struct ChunkedRoute {
  int first = -1;
  int hops = 0;
  int Transfer(std::int64_t j, int h) const { return first + static_cast<int>(j) * hops + h; }
  int Last(std::int64_t j) const { return Transfer(j, hops - 1); }
};

// Adds P transfers of `bytes` per hop (bytes > 0, links not empty), labelled `label` with its
// chunk and hop (-1 for cut-through) filled in; `reduce_last`: the last hop's transfer is
// reduced at the receiver (γ per byte).
ChunkedRoute AddChunkedRoute(FlowSimulation* sim, const std::vector<int>& links,
                             const Rational& bytes, std::int64_t chunks, SwitchModel model,
                             bool reduce_last, TransferLabel label);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_ROUTE_TRANSFERS_H_
