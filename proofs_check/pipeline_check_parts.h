// The parts of the pipeline checker that the plain checker (pipeline_checker.h) and the
// symmetric one (symmetric_pipeline_checker.h) share, so that both check trees, routes and
// certificates with one code and report them with the same messages: the violation collector,
// the tree check, the bottleneck-cut and allreduce certificates and the verdict. Internal to
// proofs_check/ (the entry points are the two checkers).
#ifndef COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECK_PARTS_H_
#define COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECK_PARTS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "proofs_check/pipeline_checker.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

// Records violations into a report: the first `max_errors` with their messages (report.errors,
// report.violations), all of them counted (report.num_violations). The report must outlive it.
class PipelineViolationCollector {
 public:
  PipelineViolationCollector(PipelineCheckReport& report, int max_errors)
      : report_(report), max_(max_errors) {}
  void Add(PipelineViolationKind kind, std::string item, int node, int link,
           const std::string& message);
  // No room for more recorded violations: later ones are only counted.
  bool Full() const { return static_cast<int>(report_.violations.size()) >= max_; }
  // Counts violations found but not described (their messages could not be recorded).
  void AddUnrecorded(std::int64_t count) { report_.num_violations += count; }

 private:
  PipelineCheckReport& report_;
  int max_;
};

// The tree check (seed 004 §1.2/§2): an out-tree spanning the compute nodes rooted at its root
// (a compute node; for broadcast, `broadcast_root` when given), every compute node but the root
// with exactly one parent, all reachable from the root; routes are walks from the edge's tail to
// its head over existing links with only switches inside, their multiplicities adding up to the
// tree's. Reduce-scatter: the data flows child -> parent along the reversed path, whose links
// must exist and carry the load. Scratch over the nodes is allocated once and reset only where
// a tree touched it: a tree costs O(its size) (plus O(N) only to name unreached nodes when
// violations can still be recorded). Arguments must outlive the checker.
class PipelineTreeChecker {
 public:
  PipelineTreeChecker(const Topology& g, Collective collective, std::optional<int> broadcast_root,
                      PipelineViolationCollector& out);
  // Checks tree t (named `item` in messages, e.g. "trees[3]") and adds, for every route whose
  // path is valid, multiplicity · weight to load[l] of each link l it uses. load has one entry
  // per link.
  void Check(const std::string& item, const PipelineTree& t, std::vector<BigInt>& load,
             const BigInt& weight = BigInt(1));
  // The height of the tree Check saw last (docs/formats.md "Height"): the largest number of
  // links from its root to a node it reaches, an edge counting its longest route.
  std::int64_t height() const { return height_; }

 private:
  std::string Name(int v) const { return g_.node(v).name; }

  const Topology& g_;
  const Collective collective_;
  const std::optional<int> broadcast_root_;
  PipelineViolationCollector& out_;
  std::vector<int> compute_nodes_;
  std::vector<int> parent_, child_head_, mark_;
  std::vector<std::int64_t> depth_;  // links from the root, set while the DFS reaches a node
  std::int64_t height_ = 0;
  std::vector<char> seen_;
  std::vector<int> touched_;
};

// The certificate of an allgather, reduce-scatter or broadcast schedule whose recomputed ratio
// is report.ratio: CheckCutBound on `cut` (item names it); sets report.cut_ratio,
// certified_optimal and certified_by, or records kBadCut / kCutMismatch.
void CheckPipelineBottleneckCut(const Topology& g, Collective collective,
                                const std::vector<int>& cut, std::optional<int> root,
                                const std::string& item, PipelineCheckReport& report,
                                PipelineViolationCollector& out);

// An allreduce's phase report `sub` (checked with item prefix "phases[i]."): its violations are
// re-recorded in `report` (counted in full) and it is appended to report.phases.
void AddAllreducePhase(PipelineCheckReport sub, PipelineCheckReport& report,
                       PipelineViolationCollector& out);

// An allreduce's phases 0..num_phases-1 in order: check_phase(i, "phases[i].", sub) checks
// phase i into the fresh report `sub` (items prefixed so), which is then added with
// AddAllreducePhase. Returns the sum of the phases' ratios. O(the phases' checks).
Rational CheckAllreducePhases(
    std::size_t num_phases,
    const std::function<void(std::size_t, const std::string&, PipelineCheckReport&)>& check_phase,
    PipelineCheckReport& report, PipelineViolationCollector& out);

// The end of an allreduce check, after its phases (whose ratios sum to `total`): sets
// report.ratio = total, records kWrongRatio when `claimed_ratio` differs, the height (the sum
// of the phases'; CheckPipelineHeight against `claimed_height`) and its lower bound (the sum
// of the phases'), checks the certificate (CheckAllreduceCertificate) and sets the verdict
// (SetPipelineVerdict).
void FinishAllreduceCheck(const Topology& g, const Rational& claimed_ratio,
                          const std::optional<std::int64_t>& claimed_height,
                          const std::optional<std::vector<int>>& cut,
                          const std::optional<std::vector<std::vector<int>>>& single_node_cuts,
                          const Rational& total, PipelineCheckReport& report,
                          PipelineViolationCollector& out);

// The allreduce certificate (seed 004 App. B): bound (6) from `cut` and/or bound (7) from
// `single_node_cuts`; their maximum certifies when it equals `total` (the phases' summed
// ratio). Sets report.cut_ratio, certified_optimal, certified_by or records kBadCut /
// kCutMismatch.
void CheckAllreduceCertificate(const Topology& g, const std::optional<std::vector<int>>& cut,
                               const std::optional<std::vector<std::vector<int>>>& single_node_cuts,
                               const Rational& total, PipelineCheckReport& report,
                               PipelineViolationCollector& out);

// Sets report.height_hops = measured and records kWrongHeight (named `item`) when `claimed`
// is given and differs.
void CheckPipelineHeight(const std::optional<std::int64_t>& claimed, std::int64_t measured,
                         const std::string& item, PipelineCheckReport& report,
                         PipelineViolationCollector& out);

// report.ok and report.verdict from the violations counted and report.certified_optimal.
void SetPipelineVerdict(PipelineCheckReport& report);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_PIPELINE_CHECK_PARTS_H_
