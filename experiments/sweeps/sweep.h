// Theorem sweeps (`collsynth prove NAME`): numerical verification of the papers' theorems over
// families and ranges of instances. A sweep loops over a family range, calls the producer
// (solvers/), the independent checker (proofs_check/) and the theorem's formula (theory/),
// and compares exactly; every mismatch is a counterexample carrying the instance (a `topo gen`
// expression or a generated topology) so that it can be saved and replayed.
//
// Ranges: each sweep documents what its range is (nodes, m, n, instance count); the default
// runs in seconds and --range widens it. Sweeps that check a formula take it as a parameter
// (tests give a perturbed formula and expect a counterexample).
// Entry points: AllSweeps() (the registry, sorted by name), FindSweep(name), ParseSweepRange.
#ifndef COLLSYNTH_EXPERIMENTS_SWEEPS_SWEEP_H_
#define COLLSYNTH_EXPERIMENTS_SWEEPS_SWEEP_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graphs/topology.h"

namespace collsynth::sweeps {

struct Counterexample {
  std::string instance;              // e.g. "circulant(12,2,3)" or "random(seed 7, #3)"
  std::string detail;                // what differed: "T_B 5/4, theorem says 4/3"
  std::optional<Topology> topology;  // saved by `collsynth prove --out DIR`
};

struct SweepReport {
  std::string name;
  std::int64_t instances = 0;  // instances checked
  std::vector<Counterexample> counterexamples;
  std::vector<std::string> notes;  // e.g. "spot-checked 4 with BFB + checker"
  bool ok() const { return counterexamples.empty(); }
  // Records a failure (the first kMaxCounterexamples only keep their topology).
  void Fail(std::string instance, std::string detail, std::optional<Topology> g = std::nullopt);
};

// Inclusive integer range [lo, hi], written "lo..hi" (or "hi" = default lo..hi).
struct SweepRange {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
};
// InputError("<args>", "--range", ...) on malformed text.
SweepRange ParseSweepRange(const std::string& text, const SweepRange& defaults);

struct SweepSpec {
  std::string name;           // e.g. "s000-thm10"
  std::string source;         // "seed 000 Thm 10 / Cor 10.1"
  std::string statement;      // one line
  std::string range_meaning;  // "n: circulant size", ...
  SweepRange default_range;
  std::function<SweepReport(const SweepRange&)> run;
};

const std::vector<SweepSpec>& AllSweeps();
const SweepSpec* FindSweep(const std::string& name);

// Groups, each defined in its own file.
std::vector<SweepSpec> ExpansionSweeps();  // sweeps/expansion_sweeps.cc: seed 000 Thm 1, 2, 10–13
std::vector<SweepSpec> BfbSweeps();        // sweeps/bfb_sweeps.cc: Thm 17–22, Conj 1, Fig 12
std::vector<SweepSpec>
PipelineSweeps();  // sweeps/pipeline_sweeps.cc: seed 004 Thm 1, 5, 8, 10, 15, 19

}  // namespace collsynth::sweeps

#endif  // COLLSYNTH_EXPERIMENTS_SWEEPS_SWEEP_H_
