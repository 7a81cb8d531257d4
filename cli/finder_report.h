// What `collsynth finder` computes for one N (cli/finder_command.cc), shared with the Python
// package's `collsynth.finder` (docs/python.md): the options checked, the Pareto frontier of
// allgather (T_L, T_B) of seed 000 §5.4 (solvers/finder/finder.h), the best candidate for the
// workload, and the `finder --json` object. Never prints.
#ifndef COLLSYNTH_CLI_FINDER_REPORT_H_
#define COLLSYNTH_CLI_FINDER_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/rational.h"
#include "solvers/finder/finder.h"

namespace collsynth::cli {

struct FinderRequest {
  std::int64_t nodes = 0;
  int degree = 0;
  std::string alpha = "10us";         // s, ms, us (bare), ns
  std::string bandwidth = "100Gbps";  // bps .. Tbps (bare: Gbps)
  std::string size = "1MB";           // B (bare), KB, MB, GB, KiB, MiB, GiB
};

struct FinderReport {
  FinderResult result;
  FinderWorkload workload;
  std::size_t best = 0;  // index of the best candidate in result.frontier
  nlohmann::json json;   // `finder --json`
};

// The workload parsed and the degree checked (InputError naming the option).
FinderWorkload CheckFinderRequest(const FinderRequest& request);

// The frontier for request.nodes; no topology in the database is InputError.
FinderReport ComputeFinderReport(const FinderRequest& request);

// `finder --up-to NMAX` (seed 000 Figure 13): every N = 2..NMAX on one engine, the best
// candidate for the workload per N that has a topology in the database.
struct FinderUpToRow {
  std::int64_t nodes = 0;
  std::size_t frontier_size = 0;
  FinderCandidate best;
};

struct FinderUpToReport {
  FinderWorkload workload;
  std::vector<FinderUpToRow> rows;
  nlohmann::json results;  // `finder --up-to --json`'s "results": [{nodes, frontier_size, best}]
};

// The options checked as for one N (request.nodes is not used), then NMAX: InputError("<args>",
// "--up-to", ...) unless 2 <= up_to <= 100000.
FinderUpToReport ComputeFinderUpTo(const FinderRequest& request, std::int64_t up_to);

// A candidate as `finder --json` writes it.
nlohmann::json FinderCandidateJson(const FinderCandidate& c, const FinderWorkload& w);

// A decimal for people (never used in a decision).
std::string FinderDecimal(const Rational& r, int digits);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_FINDER_REPORT_H_
