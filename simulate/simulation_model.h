// SimulationModel: the parameters of `collsynth simulate` (docs/simulate.md) and
// the quantities derived from them: link rates in bytes/s, link latencies, shard sizes, and the
// exact parsing of the command line's quantities (sizes, times, bandwidth units).
// Every value is an exact Rational. Cost O(|E|) for the per-link vectors. Never prints.
#ifndef COLLSYNTH_SIMULATE_SIMULATION_MODEL_H_
#define COLLSYNTH_SIMULATE_SIMULATION_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"

namespace collsynth {

// How a pipeline route crosses switches: store-and-forward (a switch passes a chunk on once it
// has all of it; one transfer per link) or cut-through (one transfer holds the whole route,
// pays the sum of the α once and flows at the least share along it). Step schedules send over
// single links, so it does not affect them.
enum class SwitchModel { kStoreAndForward, kCutThrough };
// Step schedules: synchronous (step t starts when every transfer of the previous step is done,
// seed 000's model) or asynchronous (a send starts when the data it forwards has arrived).
enum class StepMode { kSync, kAsync };

const char* SwitchModelName(SwitchModel m);  // "store-and-forward", "cut-through"
const char* StepModeName(StepMode m);        // "sync", "async"
std::optional<SwitchModel> ParseSwitchModel(const std::string& text);
std::optional<StepMode> ParseStepMode(const std::string& text);

struct SimulationModel {
  Rational size;                                   // M, bytes (> 0); see ShardBytes
  Rational bytes_per_unit = Rational(1000000000);  // bytes/s per unit of topology bandwidth
  Rational default_alpha = 0;                      // seconds, links without a `latency`
  Rational gamma = 0;                              // seconds per byte reduced at a compute node
  SwitchModel switch_model = SwitchModel::kStoreAndForward;
  StepMode step_mode = StepMode::kSync;
  std::int64_t chunks = 1;  // P, pipeline schedules
  // Per link id: the topology file's `latency` (graphs/link_latency.h), nullopt = default_alpha.
  // Empty: default_alpha everywhere.
  std::vector<std::optional<Rational>> link_latency;
};

// The bytes of one shard: M/N for allgather (M is the output size), reduce-scatter (M is each
// node's input size) and allreduce (M is the vector size), M for broadcast (the root's data).
Rational ShardBytes(const SimulationModel& m, Collective c, int num_compute);
// bandwidth · bytes_per_unit, per link.
std::vector<Rational> LinkRates(const Topology& g, const SimulationModel& m);
// m.link_latency[e] when given, else default_alpha, per link.
std::vector<Rational> LinkLatencies(const Topology& g, const SimulationModel& m);

// Quantity parsing for the command line: "<number>[<unit>]", the number exact (ParseRational:
// "3", "2.5", "1/3"), the unit from the table (a bare number takes `bare`). InputError("<args>",
// option, ...) on a malformed number, an unknown unit (the message lists the known ones), or a
// negative value (also zero unless allow_zero).
using UnitTable = std::vector<std::pair<std::string, Rational>>;
Rational ParseQuantity(const std::string& option, const std::string& text, const UnitTable& units,
                       const std::string& bare, bool allow_zero);
// Sizes: B, KB/MB/GB = 2^10/2^20/2^30 bytes as in `finder`, KiB/MiB/GiB the same; bare = B.
const UnitTable& SizeUnits();
// Times: s, ms, us, ns; bare = s.
const UnitTable& TimeUnits();
// Seconds per byte: s/B, ms/B, us/B, ns/B, ps/B; bare = s/B.
const UnitTable& TimePerByteUnits();
// Bandwidth units (bytes/s per unit of topology bandwidth): B/s, KB/s, MB/s, GB/s, TB/s
// (decimal, 10^3k: network convention), KiB/s, MiB/s, GiB/s (binary), bps, Kbps, Mbps, Gbps,
// Tbps (bits, decimal), or a bare positive number of bytes/s.
const UnitTable& BandwidthUnits();
// A chunk count P: an integer in 1..max_chunks; InputError("<args>", option, ...) otherwise
// ("'0' must be positive", "'3/2' must be an integer in 1..MAX").
std::int64_t ParseChunkCount(const std::string& option, const std::string& text,
                             std::int64_t max_chunks);
// --bandwidth-unit: a quantity of BandwidthUnits; a unit alone ("GB/s") means one of it.
Rational ParseBandwidthUnit(const std::string& option, const std::string& text);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_SIMULATION_MODEL_H_
