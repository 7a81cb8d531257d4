// Simulation of an MSCCL executor XML file (docs/simulate.md
// "Exported MSCCL XML"): the thread blocks, connectors and chunk loop of the file the runtime
// would run, on the topology, in exact time.
//
// The file is read with the replay checker's reader (proofs_check lexer and schema, read-only:
// the simulator sees exactly what the checker accepted; docs/architecture.md) and must have
// passed ReplayMscclXml first (the CLI refuses it otherwise). Semantics, per gridOffset
// iteration i = 0..P-1 (every block runs its whole step list once per iteration, as the
// kernel's loop does):
//   - a block runs its steps in order; a step first waits for its dependency: block depid's
//     first flag publication at or after step deps in iteration i (flags are published when a
//     transmission with hasdep ends: a nop chain with the step after it, a fused re group);
//   - a step of cnt c is c one-chunk units in order (the replay's §8.7 reading); a unit moves
//     M / nchunksperloop / P bytes;
//   - a sending unit (s, rcs, rrs, rrcs) needs a free connector slot: the connector (src, dst,
//     channel) holds `fifo_depth` units, so unit k waits until the receiver has taken unit
//     k - depth; it is one transfer per route share (store-and-forward: one per link of the
//     route, chained; cut-through: one over the route); the sending block moves on once the
//     unit's bytes have left the first link (store-and-forward; cut-through: once they
//     arrived), and the receiver sees the data when the last link delivered it;
//   - a receiving unit (r, rrc, rcs, rrs, rrcs) needs the matching unit's data (the k-th
//     unit sent on the connector is the k-th received, H2); receptions by rrc/rrs/rrcs are
//     reductions (γ per byte at arrival); rcs/rrs/rrcs send what they received after it came;
//   - cpy, re and nop cost nothing (no bytes cross a link).
// Cost: O(units · P · hops) transfers and barriers, O(steps · P) for dependencies.
// Never prints.
#ifndef COLLSYNTH_SIMULATE_MSCCL_SIMULATION_H_
#define COLLSYNTH_SIMULATE_MSCCL_SIMULATION_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "proofs_check/msccl_model.h"
#include "schedules/collective.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// Reads an XML file the replay checker accepted into the checker's typed model (lexer and
// schema of proofs_check) with the rules of `options.profile` (the legacy runtime spells
// `reduce_scatter` and needs no `outofplace`, for example). Throws InputError(file, "xml", ...)
// if the reader reports a violation (cannot happen after an accepting replay with the same
// options).
msccl::Algo ReadMscclProgram(const std::string& text, const std::string& file,
                             const ReplayOptions& options);

Collective MscclCollective(const msccl::Algo& algo);

// The simulator's limit on the transfers of an MSCCL XML file's run (sending units x P x route
// links): the run keeps about 220 bytes per transfer (fattree(8) allgather with its side file,
// 390,144 and 780,288 transfers: 120 and 206 MB peak), so 2^23 transfers stay near 2 GB.
inline constexpr std::uint64_t kMaxMscclSimulatedTransfers = std::uint64_t{1} << 23;

// One path of a route: topology links in the order data crosses them, and its share of the
// bytes (shares of a route sum to 1).
struct MscclRoutePart {
  std::vector<int> links;
  Rational share = 1;
};

// Where the transfers of a program go on the topology.
struct MscclRouting {
  std::vector<int> node_of_rank;  // rank -> topology node
  std::vector<std::vector<MscclRoutePart>> routes;
  // Per connector (src rank, dst rank, channel): the route of each unit sent on it in one
  // iteration, in document order. A connector without an entry uses the shortest path.
  std::map<std::tuple<int, int, int>, std::vector<int>> connector_routes;
};

// The fewest-links path from node a to node b (ties: the first found by breadth-first search
// over links in id order), as link ids; empty when a == b. InputError-free: nullopt when b is
// unreachable.
std::optional<std::vector<int>> ShortestLinkPath(const Topology& g, int a, int b);

// Fills `routing` from the export side file (`OUT.routes.json`, docs/export.md): its ranks
// (unless `keep_ranks`), routes, and for each connector the route of every unit. The rows are
// in lowering order, so each receiving step is matched to the row with its (phase, first
// global chunk, cnt) on its connector: the chunk of its destination (rrs: of its local
// operand), scratch indexed like the full buffer, an allgather input and a reduce-scatter
// output as the rank's slice; phase 1 for allreduce receives that do not reduce.
// InputError(file, ...) when it does not fit the program (a rank or path not in the
// topology, a step without a row or a row without a step).
void ReadMscclRoutes(const Topology& g, const msccl::Algo& algo, const nlohmann::json& j,
                     const std::string& file, bool keep_ranks, MscclRouting* routing);

// One-chunk units of the program per iteration (sending units counted once per route hop
// and share, as transfers): the simulator builds P times this many transfers.
std::uint64_t MscclTransferCount(const msccl::Algo& algo, const MscclRouting& routing,
                                 const Topology& g, const SimulationModel& m);

// The connector depth in units: `fifo_depth` if > 0, else as the kernel: 2 on Simple (a
// transfer takes 4 of NCCL_STEPS = 8 slots), 8 on LL and LL128.
int MscclFifoDepth(const msccl::Algo& algo, int fifo_depth);

// Builds the simulation of m.chunks iterations of the chunk loop. Labels: group = gpu, item =
// thread block, route = step index, chunk = iteration, unit = unit in the step, hop = link
// index on the route (store-and-forward), phase = route share index. Throws InputError("<args>",
// "--ranks", ...) when two ranks' nodes are not connected.
FlowSimulation BuildMscclSimulation(const msccl::Algo& algo, const Topology& g,
                                    MscclRouting routing, const SimulationModel& m, int fifo_depth);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_MSCCL_SIMULATION_H_
