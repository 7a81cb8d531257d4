// The one registry of the algorithms the experiment kinds run: a canonical name → the checked
// schedule (or model), the checker's T_L and T_B, and the certificate columns. Every kind that
// runs algorithms by name (collective-compare, time-vs-size, link-utilisation) goes through
// RunAlgorithm, so a name means the same schedule everywhere (docs/experiments.md "Algorithms").
//
// Canonical names:
//   bfb            BFB step schedule (seed 000 §6), checked by the step checker
//   pipeline       seed 004's optimal pipeline schedule (fluid: T_B only), checked by the
//                  pipeline checker, which also checks its own certificate
//   optimum        seed 004's exact optimum without a schedule: ratio*, or RS+AG = 2·ratio* for
//                  allreduce (verified n/a; the certificate columns re-check its cut)
//   baseline:NAME  solvers/baselines/baselines.h (NAME one of BaselineNames()); a baseline that
//                  has only one collective (dbtree and multitree allreduce, recursive-halving
//                  reduce-scatter) runs that one
//   tree:dbtree    NCCL's double binary tree allreduce as NCCL runs it (reduce to each tree's root,
//                  then broadcast, each tree half of the vector;
//                  simulate/tree_allreduce_simulation.h), the trees checked by
//                  proofs_check/tree_allreduce_checker.h (accepted: verified n/a, a model
//                  without a schedule file; rejected: verified no)
//   grid:ring      seed 001's RING: baseline:uniring over a Hamiltonian cycle of a 2-D grid with
//                  even rows (the snake order), checked by the step checker
//   grid:2dring    seed 001's 2D-RING (solvers/baselines/two_d_ring.h), checked line by line
// Aliases (the spellings the link-utilisation definitions use; a row keeps the spelling of its
// definition in its `algorithm` column): ring = grid:ring, 2dring = grid:2dring,
// torus = baseline:torus, multitree = baseline:multitree.
//
// Cost: that of the producer and its checker (e.g. BFB O(N·|E|) max-flows; the bound of
// ComputeRowBound: one allgather optimum, plus Hao-Orlin and N min cuts for allreduce).
// Bad input (a name not in the registry, a topology the algorithm cannot run on): InputError.
#ifndef COLLSYNTH_EXPERIMENTS_ALGORITHM_REGISTRY_H_
#define COLLSYNTH_EXPERIMENTS_ALGORITHM_REGISTRY_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "experiments/experiment.h"
#include "graphs/topology.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "simulate/tree_allreduce_simulation.h"
#include "solvers/baselines/two_d_ring.h"

namespace collsynth::experiments {

class Params;

// The canonical name of `spelled` (itself or through the alias table above), or nullopt when
// the registry has no such algorithm. "baseline:NAME" is canonical for any NAME (BuildBaseline
// rejects an unknown one when it runs).
std::optional<std::string> CanonicalAlgorithm(const std::string& spelled);

// Which algorithms a kind accepts: the canonical names, and "baseline:NAME" as a family.
struct AlgorithmSet {
  std::vector<std::string> names;  // canonical, in the order the error message lists them
  bool baselines = true;           // any baseline:NAME
};

// The canonical name of `spelled` when `allowed` has it; otherwise the problem, worded as
// "unknown algorithm 'X' (bfb, pipeline, baseline:NAME)" (the caller names the key).
std::pair<std::optional<std::string>, std::string> AcceptAlgorithm(const std::string& spelled,
                                                                   const AlgorithmSet& allowed);

// params "collective" (one name, default allreduce) or "collectives" (a list; when absent or
// empty, "collective" is read): allgather, reduce-scatter or allreduce, InputError naming the key
// otherwise.
std::vector<Collective> ReadCollectives(const Params& params);

struct AlgorithmSpec {
  std::string name;  // canonical
  std::string file;  // the topology's expression or file: BFB and baselines name it in errors
  // BFB: the per-(u,t) certificates in the schedule's extra (for a schedule that is written).
  bool certificates = false;
};

// One algorithm run on one topology. Exactly one of step / pipeline / trees / two_d_ring is
// set, or none (optimum).
struct AlgorithmRun {
  std::string algorithm;                           // canonical
  Collective collective = Collective::kAllreduce;  // the collective run (see baseline:NAME)
  Verified verified = Verified::kNotApplicable;
  std::optional<Rational> tl, tb;  // the checker's (pipeline: T_B only; optimum: ratio*)
  std::optional<StepSchedule> step;
  std::optional<StepCheckReport> step_report;  // with `step`
  std::optional<PipelineSchedule> pipeline;
  std::optional<PipelineCheckReport> pipeline_report;  // with `pipeline`
  std::optional<std::vector<ReductionTree>> trees;
  std::optional<TwoDRingResult> two_d_ring;
  // The columns only this algorithm has, in CSV order: pipeline k, U, trees; optimum
  // rs_ag_optimal (allreduce), cut_compute, cut_bandwidth.
  std::vector<std::pair<std::string, std::string>> columns;
};

AlgorithmRun RunAlgorithm(const Topology& g, const AlgorithmSpec& spec, Collective collective);

// The solvers' exact lower bound on T_B (units (M/N)/b) and the part the checker certifies: the
// solvers' cuts (bottleneck cut S* of (1), of G^T for reduce-scatter; the (6) cut and the (7)
// cuts S_v for allreduce, seed 004) re-evaluated by CheckCutBound / CheckSingleNodeCutsBound.
struct RowBound {
  Rational lower_bound;             // the solvers' value (max of (6), (7) for allreduce)
  std::vector<CutBound> certified;  // the bounds the checker accepted
};
RowBound ComputeRowBound(const Topology& g, Collective collective);

// Columns certified_optimal and certificate: "yes" exactly when a bound the checker derived from
// a cut equals the run's checked T_B (a pipeline schedule: its own certificate, checked with it);
// the certificate names that bound, or says why there is none. `bound`: nullopt when none was
// computed.
struct RunCertificate {
  bool certified = false;
  std::string certificate;
};
RunCertificate CertifyRun(const AlgorithmRun& run, const std::optional<RowBound>& bound);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_ALGORITHM_REGISTRY_H_
