// Experiment kind "time-vs-size" (docs/experiments.md "`time-vs-size`"): the simulated completion
// time (simulate/, exact rational seconds, docs/simulate.md) of every algorithm on a topology at
// each message size, the fastest algorithm per size and the crossover points where the fastest one
// changes; for pipeline schedules the chunk count P that minimises the time at each size (Choosing
// P).
//
// params:
//   "collective": "allreduce" (default) | "allgather" | "reduce-scatter", or "collectives": [...]
//   "cases": [{"topology": EXPR, "algorithms": ["bfb", "pipeline", "baseline:NAME", ...],
//              "label": "optional", "paper_us": {"SIZE": "printed µs", ...} (optional),
//              "series": "optional family name: column series = \"<series> <algorithm>\""}]
//   "sizes": ["1KB", "1MB", ...]  sizes as `simulate --size`: KB/MB/GB = 2^10/2^20/2^30 bytes
//   "alpha_us": "10"     α of every link, µs (exact; links' own `latency` are not used: the
//                        topologies are `topo gen` expressions)
//   "link_gbps": "25"    one unit of topology bandwidth = link_gbps·10^9 bits/s (decimal)
//   "chunks": [1, 2, 4, ...]  candidate P for pipeline schedules (default [1])
//   "max_transfers": N   skip candidates whose simulation has more transfers (default 2^22)
// One task per (case, collective): every algorithm's schedule is built, checked by proofs_check
// (the row's T_L, T_B are the checker's) and simulated (step schedules: sync mode, seed 000's
// model; pipelines: store-and-forward, the best P of "chunks") at every size.
// Rows: one per (algorithm, size) with series, size, size_bytes, time_us (exact µs),
// time_us_decimal, best_chunks (pipelines), time_us_p1 (pipelines: the time with one chunk),
// fastest (yes/no), paper_us when given; then one row per crossover (algorithm "crossover": between
// the sizes size_below and size, the fastest changes from `from` to `to`).
#ifndef COLLSYNTH_EXPERIMENTS_TIME_VS_SIZE_H_
#define COLLSYNTH_EXPERIMENTS_TIME_VS_SIZE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "experiments/params.h"

namespace collsynth::experiments {

// times[a][s]: algorithm a's time at size s (nullopt: not simulated). Returns, per size, the
// index of the fastest algorithm (the first among equal times; -1 when none has a time).
// Cost O(algorithms · sizes).
std::vector<int> FastestPerSize(const std::vector<std::vector<std::optional<Rational>>>& times);

struct Crossover {
  std::size_t size = 0;  // the fastest changes between sizes size-1 and size
  int from = -1, to = -1;
};

// The sizes where FastestPerSize changes (sizes without any time are skipped: the change is
// reported at the next size that has one, from the last size that had one).
std::vector<Crossover> FindCrossovers(const std::vector<int>& fastest);

struct MessageSize {
  std::string label;  // as written, e.g. "1KB"
  Rational bytes;
};

// params "sizes": ["1KB", "1MB", ...] read as `simulate --size` (KB/MB/GB = 2^10/2^20/2^30
// bytes); InputError naming "sizes" on a bad or empty list. Shared by the time kinds.
std::vector<MessageSize> ReadMessageSizes(const Params& params);

// params "alpha_us" (α of every link, µs, default `default_alpha_us`) and "link_gbps" (one
// bandwidth unit in Gbit/s, default 8), as α in seconds and bytes per second per unit;
// InputError naming "alpha_us" unless α >= 0 and the bandwidth > 0.
struct LinkParams {
  Rational alpha_seconds, bytes_per_unit;
};
LinkParams ReadLinkParams(const Params& params, const std::string& default_alpha_us);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_TIME_VS_SIZE_H_
