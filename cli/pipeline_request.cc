#include "cli/pipeline_request.h"

#include <optional>
#include <stdexcept>

#include "core/input_error.h"
#include "core/rational.h"
#include "graphs/properties.h"
#include "schedules/collective.h"

namespace collsynth::cli {

PipelineOptions ParsePipelineOptions(const std::string& collective, const std::string& fixed_k,
                                     const PipelineOptionNames& names) {
  PipelineOptions opt;
  std::optional<Collective> c = ParseCollective(collective);
  if (!c) {
    throw InputError("<args>", names.collective,
                     "unknown collective '" + collective +
                         "' (allgather, reduce-scatter, allreduce, broadcast)");
  }
  opt.collective = *c;
  if (!fixed_k.empty()) {
    BigInt k;
    try {
      Rational r = ParseRational(fixed_k);
      if (Denominator(r) != 1 || r < 1) throw std::invalid_argument("not a positive integer");
      k = Numerator(r);
    } catch (const std::invalid_argument&) {
      throw InputError("<args>", names.fixed_k, "'" + fixed_k + "' is not a positive integer");
    }
    opt.fixed_k = k;
  }
  return opt;
}

void SetPipelineTopology(const Topology& g, const std::string& file, const std::string& root,
                         const PipelineOptionNames& names, PipelineOptions* opt) {
  RequireEulerianStronglyConnected(g, file);
  if (g.num_compute() < 2) throw InputError(file, "nodes", "needs at least 2 compute nodes");
  opt->root = g.ComputeNodes().front();
  if (!root.empty()) {
    std::optional<int> r = g.FindNode(root);
    if (!r || !g.IsCompute(*r)) {
      throw InputError("<args>", names.root, "'" + root + "' is not a compute node of " + file);
    }
    opt->root = *r;
  }
}

bool SymmetricPathApplies(const PipelineOptions& opt) {
  return (opt.collective == Collective::kAllgather ||
          opt.collective == Collective::kReduceScatter ||
          opt.collective == Collective::kAllreduce) &&
         !opt.fixed_k;
}

void ClaimMeasuredHeight(PipelineSchedule* s) {
  s->height_hops = PipelineScheduleHeightHops(*s);
  for (PipelineSchedule& phase : s->phases) phase.height_hops = PipelineScheduleHeightHops(phase);
}

void ClaimMeasuredHeight(SymmetricPipelineSchedule* s) {
  s->height_hops = SymmetricPipelineScheduleHeightHops(*s);
  for (SymmetricPipelineSchedule& phase : s->phases) {
    phase.height_hops = SymmetricPipelineScheduleHeightHops(phase);
  }
}

}  // namespace collsynth::cli
