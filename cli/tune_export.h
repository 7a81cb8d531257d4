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
#include "schedules/collective.h"

namespace collsynth::cli {

struct TuneExportRequest {
  std::string target;           // "msccl" (the MSCCL executor profile), "mscclpp" or "nccl-tuner"
  std::string topology;         // the topology file, or empty: `g` in memory
  const Topology* g = nullptr;  // always set
  std::string out_dir;          // tune's -o: files go to OUT/<target>/, the index to
                                // OUT/<target>-index.json
  std::vector<std::string> sizes;      // as given to tune
  std::vector<Rational> bytes;         // the sizes in bytes, strictly increasing
  std::vector<std::string> winners;    // per size: the winning algorithm
  std::vector<std::string> schedules;  // per size: the checked schedule file tune wrote
  // "nccl-tuner" only: the collective, and per size the fastest NCCL-runnable candidate
  // (TuneNcclBest; "" when none was simulated) and its checked schedule file ("" when none).
  Collective collective = Collective::kAllgather;
  std::vector<std::string> nccl_winners, nccl_schedules;
};

// "nccl-tuner": one CSV, OUT/nccl_tuner.conf, in the format of NCCL's example tuner plugin
// (NVIDIA/nccl plugins/tuner/example/README.md), one line per byte range of the NCCL winners
// (ranges whose sizes have none get no line: NCCL's own tuning), and its index
// OUT/nccl-tuner-index.json, both through core/checked_output.h: accepted only when
// CheckTuneExportIndex accepts the index and proofs_check's CheckNcclTunerTable accepts the CSV
// read back against the index read back (docs/tune.md "NCCL tuner table").
//
// Writes every range's file and the index. ok: json is the index (also tune's "export"); !ok:
// the first exporter's failure (its file not kept). InputError for an unknown target or sizes
// that cannot form byte ranges (TuneByteRanges).
CommandOutcome ExportTuneRanges(const TuneExportRequest& request);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_TUNE_EXPORT_H_
