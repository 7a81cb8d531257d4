// Height against ratio (docs/min_height.md): the checked pipeline schedules the workbench can
// build for a collective, each with the ratio and height the independent checker measured, and
// the choices `collsynth pipeline --min-height`, `--height H` and `collsynth pareto` make among
// them. Candidates: the shortest-path-DAG family (solvers/pipeline/min_height.h, height = the
// height lower bound by construction), the column generation at a height
// (solvers/pipeline/height_column_generation.h), the routed baselines (solvers/baselines/
// routed_baselines.h: direct, routed-ring, routed-recursive-doubling, routed-double-binary-tree,
// hierarchical), the plain pipeline path (up to kTunePlainPipelineMaxCompute compute nodes) and
// the symmetric path where the topology declares automorphisms. A candidate that does not apply or
// fails its checker is listed in `skipped` with the reason; none is ever reported unchecked. Never
// prints. Cost: that of the builders (the DAG program is capped by MinHeightOptions::max_columns)
// plus one check each.
#ifndef COLLSYNTH_EXPERIMENTS_PARETO_H_
#define COLLSYNTH_EXPERIMENTS_PARETO_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "solvers/pipeline/height_bound.h"
#include "solvers/pipeline/height_column_generation.h"
#include "solvers/pipeline/min_height.h"

namespace collsynth {

struct HeightCandidate {
  std::string algorithm;  // "shortest-path-dag", "direct", "pipeline", "pipeline-symmetric", ...
  // Exactly one of these: the schedule as it is written.
  std::optional<PipelineSchedule> pipeline;
  std::optional<SymmetricPipelineSchedule> symmetric;
  Rational ratio;                // measured by the checker
  std::int64_t height_hops = 0;  // measured by the checker
  std::string verdict;           // PipelineVerdictName of the check
};

struct HeightCandidates {
  std::vector<HeightCandidate> list;
  std::vector<std::pair<std::string, std::string>> skipped;  // (algorithm, why)
  // PipelineHeightLowerBound as the checker reports it (the same for every candidate).
  std::int64_t height_lower_bound_hops = 0;
  // The largest ratio bound a checker certified by a cut (seed 004 (1), (6), (7)): no schedule
  // of any height has a smaller ratio. nullopt when no candidate carried an accepted cut.
  std::optional<Rational> ratio_lower_bound;
  std::string ratio_lower_bound_by;
};

struct HeightCandidateOptions {
  MinHeightOptions dag;  // collective is taken from the call
  // The column generation at a height (collective taken from the call). With `max_height`
  // (`--height H`) it runs at H only; otherwise (`--min-height`, `pareto`) at each height from
  // the height lower bound up, while its ratio is above the certified ratio lower bound, below
  // the least height of another candidate of that ratio, for at most `cg_heights` heights.
  bool column_generation = true;
  HeightCgOptions cg;
  std::optional<std::int64_t> max_height;
  int cg_heights = 3;
  bool plain_pipeline = true;
  bool symmetric_pipeline = true;
  bool baselines = true;
};

// InputError for a broadcast (`file` names the topology in messages of the baselines).
HeightCandidates BuildHeightCandidates(const Topology& g, Collective collective,
                                       const std::string& file,
                                       const HeightCandidateOptions& options = {});

// The non-dominated (height, ratio) points: indices into c.list sorted by increasing height
// with strictly decreasing ratio (on equal points the first candidate). O(n log n).
std::vector<std::size_t> ParetoFront(const HeightCandidates& c);

// `--min-height`: among the candidates of least ratio, one of least height (the first on ties).
// nullopt when the list is empty.
std::optional<std::size_t> MinHeightChoice(const HeightCandidates& c);

// `--height H`: the least ratio among candidates of height <= H, then the least height (the
// first on ties). nullopt when no candidate is that low.
std::optional<std::size_t> BestRatioAtHeight(const HeightCandidates& c, std::int64_t max_height);

// Certified ratio bounds at a height (docs/min_height.md "A ratio bound at each height"): every
// schedule of height <= h has ratio >= bound(h), by a certificate of
// solvers/pipeline/height_bound.h that proofs_check/height_bound_check.h evaluated. Allreduce
// (reduce-scatter then allgather, heights and ratios adding up): the least
// bound_RS(h1) + bound_AG(h - h1) over the splits. Results are kept per (phase, height), so
// asking again costs nothing. Never prints.
class HeightRatioBounds {
 public:
  HeightRatioBounds(const Topology& g, Collective collective, HeightBoundOptions options = {});

  struct Bound {
    Rational ratio;            // every schedule of height <= h has at least this ratio
    bool no_schedule = false;  // no schedule is that low (then `ratio` means nothing)
  };
  // nullopt when some program needed was not built or solved (`why()` says which).
  std::optional<Bound> At(std::int64_t h);
  const std::string& why() const { return why_; }

  // The least height of a schedule of ratio <= `ratio`, as far as the bounds certify it: the
  // smallest h in [from, up_to] whose bound is not above `ratio` (up_to when every h below it
  // is certified too low; `from` when the first bound could not be computed).
  std::int64_t LeastHeightAtRatio(const Rational& ratio, std::int64_t from, std::int64_t up_to);

 private:
  std::optional<Bound> Phase(Collective phase, std::int64_t h);

  const Topology& g_;
  Collective collective_;
  HeightBoundOptions options_;
  std::map<std::pair<Collective, std::int64_t>, std::optional<Bound>> cache_;
  std::string why_;
};

}  // namespace collsynth

#endif  // COLLSYNTH_EXPERIMENTS_PARETO_H_
