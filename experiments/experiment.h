// Reproducible experiments: the row model, the task model and the registry of experiment
// kinds.
//
// An experiment is a declarative file experiments/<name>.json (see ExperimentDefinition):
// it names a *kind* (C++ code registered here), the kind's parameters, seeds, plots and a
// README text. A kind turns the parameters into a list of independent tasks; the runner
// (experiments/runner.h) executes them on J threads and concatenates their rows in task
// order, so the CSV does not depend on J or on timing. Every row that stands for a schedule
// must have been accepted by the proofs_check checker (Verified::kYes); a row with
// Verified::kNo makes the run fail. Rows that are pure formulas (a theorem's prediction, a
// finder ranking) say Verified::kNotApplicable.
//
// Exactness: tl, tb and lower_bound are exact rationals; the CSV prints each as "p/q" and as
// a decimal. Time columns (wall_seconds and any extra column whose name ends in "_seconds")
// are the only ones allowed to differ between two runs of the same definition.
//
// Registering a kind (in its own experiments/<kind>.cc; the experiments library is linked
// whole-archive, so the static registrar is kept), with the extra columns its rows can have
// ("prefix_*" for a family of columns named from the parameters, e.g. "time_us_*"):
//   namespace { const ExperimentKindRegistrar kReg("my-kind", &MakeMyTasks, {"k", "U"}); }
// The declared columns let a definition's plots be checked before anything runs
// (experiments/definition.h); tests/experiments check them against the kinds' rows.
#ifndef COLLSYNTH_EXPERIMENTS_EXPERIMENT_H_
#define COLLSYNTH_EXPERIMENTS_EXPERIMENT_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "schedules/collective.h"

namespace collsynth::experiments {

enum class Verified { kNo, kYes, kNotApplicable };

// One CSV row: one (instance, algorithm) pair.
struct ExperimentRow {
  std::string instance;                  // a `topo gen` expression, a file name or a label
  std::string algorithm;                 // e.g. "bfb", "pipeline", "ring", "milp"
  std::optional<Collective> collective;  // nullopt: none (an empty CSV cell)
  int64_t nodes = 0;                     // compute nodes N
  std::optional<Rational> tl;            // latency term (steps, i.e. units of α)
  std::optional<Rational> tb;            // bandwidth term, in the unit given by tb_unit
  std::optional<Rational> lower_bound;   // a lower bound on tb in the same unit
  std::string tb_unit;                   // e.g. "M/B", "M/N per unit bandwidth"
  Verified verified = Verified::kNotApplicable;
  double wall_seconds = 0;  // time to produce (and check) the row
  // Kind-specific columns, in a fixed order (name, value). Values are exact strings;
  // a name ending in "_seconds" marks a time column.
  std::vector<std::pair<std::string, std::string>> extra;
};

// A unit of work; tasks run concurrently and must not share mutable state.
struct ExperimentTask {
  std::string label;  // for progress reports ("torus(8,8) bfb")
  std::function<std::vector<ExperimentRow>()> run;
};

// What a kind sees: the definition's "params" object, its "seeds" list and the definition
// file (named by parameter errors). Kinds read params through experiments/params.h.
struct ExperimentInput {
  nlohmann::json params = nlohmann::json::object();
  std::vector<uint64_t> seeds;
  std::string file;
};

// Builds the task list. Bad parameters: throw InputError (file = the definition file, item =
// the key path, experiments/params.h); every parameter is checked here, before any task runs.
using ExperimentKindFn = std::function<std::vector<ExperimentTask>(const ExperimentInput&)>;

struct ExperimentKindRegistrar {
  ExperimentKindRegistrar(const std::string& name, ExperimentKindFn fn,
                          std::vector<std::string> columns);
};

// nullptr when unknown.
const ExperimentKindFn* FindExperimentKind(const std::string& name);
// The extra columns kind `name` declares (nullptr when unknown).
const std::vector<std::string>* ExperimentKindColumns(const std::string& name);
// Whether `column` is one of `declared` (an exact name, or "prefix_*" matching prefix_...).
bool IsDeclaredColumn(const std::vector<std::string>& declared, const std::string& column);
std::vector<std::string> ExperimentKindNames();  // sorted

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_EXPERIMENT_H_
