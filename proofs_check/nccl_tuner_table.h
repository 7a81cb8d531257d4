// The CSV table of NCCL's example tuner plugin, read as the plugin reads it, and the check of a
// table `tune --export nccl-tuner` wrote (docs/tune.md "NCCL tuner table"). Written from the
// plugin's source (NVIDIA/nccl plugins/tuner/example/plugin.c, `loadConfig` and
// `pluginGetCollInfo`) and NCCL's cost table (src/graph/tuning.cc, `ncclTopoTuneModel`: which
// algorithms a collective has), independent of the producer. Never prints.
//
// The plugin reads the file with fgets into a 256-byte buffer (a longer line is split into
// pieces read as lines), skips lines that start with '#' or are empty, splits the rest with
// strtok on ',' (so empty fields vanish), trims spaces and tabs, and keeps a line of 8 to 10
// fields: collective_type, min_bytes, max_bytes, algorithm, protocol, channels, nNodes, nRanks
// [, numPipeOps [, regBuff]]. Unknown names do not fail there: the collective becomes
// allreduce, the algorithm ring and the protocol simple; numbers are strtoull/atoi prefixes.
// A lookup takes the first config whose collective, [min_bytes, max_bytes] (both included),
// nNodes, nRanks, numPipeOps and regBuff (-1: any) match, and applies it only when NCCL's cost
// table has that algorithm and protocol for the collective. Every silent default above is a
// problem here: a table the check accepts means exactly what its text says.
#ifndef COLLSYNTH_PROOFS_CHECK_NCCL_TUNER_TABLE_H_
#define COLLSYNTH_PROOFS_CHECK_NCCL_TUNER_TABLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collsynth {

inline constexpr std::uint64_t kNcclTunerNoUpperBound = UINT64_MAX;  // size_t on LP64

struct NcclTunerConfig {
  int line = 0;  // 1-based line of the file
  std::string collective, algorithm, protocol;
  std::uint64_t min_bytes = 0, max_bytes = 0;
  int channels = -1, nodes = -1, ranks = -1, pipe_ops = -1, reg_buff = -1;
};

struct NcclTunerTable {
  std::vector<NcclTunerConfig> configs;  // in file order, as the plugin loads them
  std::vector<std::string> problems;     // "line N: ..." for each silent default or dropped line
};

// O(|text|).
NcclTunerTable ParseNcclTunerTable(const std::string& text);

// Whether NCCL's cost table can hold `algorithm` for `collective` (plugin names): broadcast and
// reduce ring only; allgather and reducescatter ring, pat, nvls, collnet_direct; allreduce all
// but pat (src/graph/tuning.cc). A config naming any other pair is ignored by the plugin.
bool NcclTunerAlgorithmApplies(const std::string& collective, const std::string& algorithm);

// The plugin's lookup for a call of `collective` on `bytes` (nBytes: the whole buffer of an
// allgather or reduce-scatter, the vector of an allreduce, src/enqueue.cc `ncclGetAlgoInfo`)
// in a communicator of `ranks` ranks and `nodes` nodes, with numPipeOps 1 and no registered
// buffer: the first matching config, or nullptr.
const NcclTunerConfig* NcclTunerLookup(const NcclTunerTable& table, const std::string& collective,
                                       std::uint64_t bytes, int ranks, int nodes);

// What a tuned table must say, per byte range in order: the NCCL algorithm ("" when the range
// has no line, left to NCCL's own tuning) and the tuned sizes that must select it.
struct NcclTunerExpectedRange {
  std::uint64_t min_bytes = 0;
  std::optional<std::uint64_t> max_bytes;  // nullopt: no upper bound
  std::string algorithm;
  std::vector<std::uint64_t> sizes;
};

// The check of a written table, on the text read back: no parse problem; the expected ranges
// ordered, disjoint and covering every byte count; one config per range with an algorithm, in
// order, of `collective`, these bounds, protocol simple, nRanks `ranks`, an algorithm NCCL has
// for the collective; and the plugin's lookup (any node count) selects each range's algorithm at
// its ends and at each tuned size (none for a range without a line). "" when accepted, else the
// first problem. O(ranges · configs).
std::string CheckNcclTunerTable(const std::string& text, const std::string& collective, int ranks,
                                const std::vector<NcclTunerExpectedRange>& ranges);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_NCCL_TUNER_TABLE_H_
