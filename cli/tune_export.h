// `collsynth tune --export msccl|mscclpp` (docs/tune.md "Export"), shared with the Python
// package's `collsynth.tune`: the winners of a tuned set written as one runtime file per byte
// range (experiments/tune.h TuneByteRanges: disjoint, inclusive, covering every byte count),
// each through the exporters' own write-and-replay path (cli/export_msccl.h,
// cli/export_mscclpp.h: lowered, written, read back and replayed before it is kept), plus an
// index file mapping the ranges to the files, itself written through core/checked_output.h and
// accepted only when CheckTuneExportIndex (experiments/tune.h) accepts the bytes read back. Never
// prints.
#ifndef COLLSYNTH_CLI_TUNE_EXPORT_H_
#define COLLSYNTH_CLI_TUNE_EXPORT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command_outcome.h"
#include "core/rational.h"
#include "experiments/tune.h"
#include "graphs/topology.h"

namespace collsynth::cli {

struct TuneExportRequest {
  std::string target;                  // "msccl" (the MSCCL executor profile) or "mscclpp"
  std::string topology;                // the topology file, or empty: `g` in memory
  const Topology* g = nullptr;         // always set
  std::string out_dir;                 // tune's -o: files go to OUT/<target>/, the index to
                                       // OUT/<target>-index.json
  std::vector<std::string> sizes;      // as given to tune
  std::vector<Rational> bytes;         // the sizes in bytes, strictly increasing
  std::vector<std::string> winners;    // per size: the winning algorithm
  std::vector<std::string> schedules;  // per size: the checked schedule file tune wrote
};

// Writes every range's file and the index. ok: json is the index (also tune's "export"); !ok:
// the first exporter's failure (its file not kept). InputError for an unknown target or sizes
// that cannot form byte ranges (TuneByteRanges).
CommandOutcome ExportTuneRanges(const TuneExportRequest& request);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_TUNE_EXPORT_H_
