// `collsynth pipeline --min-height | --height H` and `collsynth pareto` (docs/cli.md, docs/
// min_height.md): the choices of experiments/pareto.h made on the command line. Every schedule
// reported is one the checker accepted, and every schedule written is read back and checked
// again (cli/schedule_output.h).
#ifndef COLLSYNTH_CLI_HEIGHT_CHOICE_H_
#define COLLSYNTH_CLI_HEIGHT_CHOICE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/schedule_output.h"
#include "experiments/pareto.h"
#include "graphs/topology.h"

namespace collsynth::cli {

struct HeightChoiceArgs {
  std::string file;  // topology
  Collective collective = Collective::kAllgather;
  bool min_height = false;     // --min-height
  std::string height;          // --height H (empty: not given)
  bool other_options = false;  // --fixed-k, --symmetric or --no-symmetric given too
  std::string output;          // schedule file ("-" = stdout)
  bool json = false;
};

// Builds the candidates, chooses, writes the choice checked. Returns the exit code; exit 1 with
// one line when no candidate has height <= H. InputError (exit 2) for both options, a height
// that is not a non-negative integer, a broadcast or other_options. The topology must already
// pass the pipeline command's input checks (Eulerian, strongly connected, N >= 2).
int RunPipelineHeightChoice(const Topology& g, const HeightChoiceArgs& args);

// {"algorithm", "height_hops", "ratio", "ratio_decimal", "verdict", "height_minimal",
//  "ratio_optimal"} of one candidate.
nlohmann::json HeightCandidateJson(const HeightCandidates& all, const HeightCandidate& c);

// The certified ratio bound at `height` (docs/min_height.md "A ratio bound at each height"):
// the larger of the cut bound (valid at every height) and the bound of the hop-bounded
// relaxation, as {"ratio_lower_bound_at_height", "ratio_lower_bound_at_height_decimal",
// "ratio_lower_bound_at_height_by"}, plus "ratio_optimal_at_height" (ratio equals it). When
// the relaxation could not be solved, "ratio_bound_at_height_why" says why and the cut bound
// alone is given (null when there is none).
nlohmann::json RatioBoundAtHeightJson(const HeightCandidates& all, HeightRatioBounds& bounds,
                                      std::int64_t height, const Rational& ratio);

// Writes the candidate to `path`, read back and checked against the ratio, verdict and height
// the in-memory check measured.
OutputCheck WriteHeightCandidate(const Topology& g, const HeightCandidate& c,
                                 const std::string& path);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_HEIGHT_CHOICE_H_
