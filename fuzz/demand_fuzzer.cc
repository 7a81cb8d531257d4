// libFuzzer target: demand-matrix files (schedules/demand_io.h, docs/formats.md "Demand
// matrix") against one of the fixed topologies (fuzz_common.h: a leading '0'..'3' picks it).
// Bad input must end in InputError. What reads must be a demand the certificate checker takes
// as well formed (compute nodes, from != to, amount > 0, no pair twice); when every pair is
// connected, the all-to-all optimum is computed: it must not fail in the LP, a certified λ* must
// be accepted by the checker, and the ECMP-like routing's λ may not exceed it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_common.h"
#include "proofs_check/alltoall_certificate_check.h"
#include "schedules/demand_io.h"
#include "solvers/alltoall/alltoall_metrics.h"
#include "solvers/alltoall/alltoall_optimum.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const fuzz::ScheduleInput in = fuzz::SplitScheduleInput(data, size);
  const Topology& g = *in.topology;
  fuzz::ExpectInputErrorOnly([&] {
    const DemandMatrix d = ParseDemandText(in.text, "fuzz.json", g);
    AlltoallCertificate probe;
    probe.demand = d;
    const AlltoallCheckReport shape = CheckAlltoallCertificate(g, probe);
    fuzz::Require(shape.violation.rfind("demand", 0) != 0,
                  "the reader accepted a demand the checker refuses: " + shape.violation);
    for (bool relay : {true, false}) {
      if (!DisconnectedDemandPair(g, d, relay).empty()) continue;
      const AlltoallOptimum opt = ComputeAlltoallOptimum(g, d, {relay});
      fuzz::Require(opt.outcome != AlltoallOutcome::kLpFailed, "LP failed: " + opt.detail);
      if (opt.outcome != AlltoallOutcome::kCertified) continue;
      const AlltoallCheckReport r = CheckAlltoallCertificate(g, opt.certificate);
      fuzz::Require(r.ok, "certified optimum rejected: " + r.violation);
      fuzz::Require(ComputeEcmpRouting(g, d, relay).lambda <= r.lower,
                    "ECMP-like routing beats the certified optimum");
    }
  });
  return 0;
}
