#include "cli/bfb_request.h"

#include <chrono>
#include <numeric>
#include <sstream>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/json_io.h"
#include "core/stopwatch.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/bfb/discrete_chunks.h"
#include "solvers/bfb/heterogeneous_bfb.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// Reverse-symmetry isomorphisms f: V(G^T) -> V(G) the workbench knows, by node id (the
// generators number nodes 0..n-1): the identity (every bidirectional family: tori,
// hypercubes, circulants, Hamming, complete, K_{d,d}, rings) and negation x -> -x mod n
// (directed circulants and unidirectional rings: the G^T link y -> y-a maps to -y -> -y+a,
// a link of G).
std::vector<std::vector<int>> KnownReverseIsomorphisms(const Topology& g) {
  const int n = g.num_nodes();
  std::vector<int> identity(n), negation(n);
  for (int x = 0; x < n; ++x) {
    identity[x] = x;
    negation[x] = (n - x) % n;
  }
  return {identity, negation};
}

// Runs the BFB with Theorem 4 for the reduce-scatter: the first known isomorphism that the
// library validates (it throws InputError with item "reverse isomorphism" otherwise).
BfbResult GenerateWithThm4(const Topology& g, BfbOptions options) {
  for (const auto& f : KnownReverseIsomorphisms(g)) {
    options.reverse_isomorphism = f;
    try {
      return GenerateBfbSchedule(g, options);
    } catch (const InputError& e) {
      if (e.item() != "reverse isomorphism") throw;
    }
  }
  throw InputError(
      options.file, "--thm4",
      "no known reverse-symmetry isomorphism (identity or x -> -x mod n) maps G^T onto "
      "this topology; omit --thm4 to use the transpose (Cor. 3.1)");
}

// LCM chunk count (App. D.2 (a)) of a compact schedule: per step, den / gcd(den, all numerators).
BigInt CompactLcmChunks(const CompactStepSchedule& c) {
  BigInt lcm = 1;
  for (const CompactStep& cs : c.steps) {
    std::int64_t g = cs.denominator;
    for (std::size_t k = 0; k < cs.lo.size() && g > 1; ++k)
      g = std::gcd(std::gcd(g, cs.lo[k]), cs.hi[k]);
    BigInt den(cs.denominator / g);
    lcm = lcm / boost::multiprecision::gcd(lcm, den) * den;
  }
  return lcm;
}

// LCM chunk count (App. D.2 (a)) of an exact schedule.
BigInt LcmChunks(const StepSchedule& schedule) {
  BigInt lcm = 1;
  for (const StepSend& s : schedule.sends)
    for (const Interval& iv : s.chunk) {
      for (const Rational* x : {&iv.lo, &iv.hi}) {
        BigInt den = Denominator(*x);
        lcm = lcm / boost::multiprecision::gcd(lcm, den) * den;
      }
    }
  return lcm;
}

Collective BfbCollective(const std::string& name) {
  const std::optional<Collective> c = ParseCollective(name);
  if (!c || (*c != Collective::kAllgather && *c != Collective::kReduceScatter &&
             *c != Collective::kAllreduce)) {
    throw InputError("<args>", "--collective",
                     "'" + name + "' is not one of allgather, reduce-scatter, allreduce");
  }
  return *c;
}

}  // namespace

BfbOutcome ComputeBfb(const Topology& g, const BfbRequest& a) {
  auto start = std::chrono::steady_clock::now();
  BfbOptions options;
  options.file = a.file;
  options.threads = a.threads;
  options.use_clp_hint = a.clp_hint;
  options.certificates = !a.no_certificates;
  options.collective = BfbCollective(a.collective);
  if (!a.alpha_file.empty())
    options.link_alpha = LinkAlphasFromJson(ParseJsonText(ReadTextFile(a.alpha_file), a.alpha_file),
                                            g, a.alpha_file);
  BfbOutcome o;
  json& out = o.summary;
  out["topology"] = g.name();
  out["collective"] = CollectiveName(options.collective);
  options.materialize_sends = false;
  if (a.chunks > 0) {
    if (options.collective != Collective::kAllgather)
      throw InputError("<args>", "--chunks", "discrete chunks are implemented for allgather only");
    if (!options.link_alpha.empty())
      throw InputError("<args>", "--chunks", "discrete chunks (ILP (12)) do not take --alpha-file");
    DiscreteChunkOptions dco;
    dco.file = a.file;
    dco.threads = a.threads;
    DiscreteChunkResult d = SolveDiscreteChunks(g, a.chunks, dco);
    out["chunks"] = d.chunks;
    out["tl"] = d.diameter;
    out["tb_lp"] = ToString(d.tb_lp);
    out["tb_ilp"] = ToString(d.tb_ilp);
    out["tb_rounded"] = ToString(d.tb_rounded);
    out["thm20_gap"] = ToString(d.thm20_gap);
    out["thm20_holds"] = d.thm20_holds;
    out["moore_optimal"] = d.moore_optimal;
    out["cbc_solves"] = d.cbc_solves;
    out["cbc_repaired"] = d.cbc_repaired;
    o.schedule = std::move(d.ilp_schedule);
    if (!d.thm20_holds) out["error"] = "Theorem 20's bound does not hold";
  } else {
    if (a.thm4 && options.collective == Collective::kAllgather)
      throw InputError("<args>", "--thm4", "applies to reduce-scatter and allreduce only");
    BfbResult r = a.thm4 ? GenerateWithThm4(g, options) : GenerateBfbSchedule(g, options);
    out["tl"] = r.tl;
    out["tb"] = ToString(r.tb);
    out["u_sum"] = ToString(r.u_sum);
    out["tb_lower_bound"] = r.tb_lower_bound ? json(ToString(*r.tb_lower_bound)) : json(nullptr);
    out["bandwidth_optimal"] = r.bandwidth_optimal ? json(*r.bandwidth_optimal) : json(nullptr);
    if (!r.reduce_scatter_method.empty()) out["reduce_scatter_method"] = r.reduce_scatter_method;
    out["subproblems"] = r.num_subproblems;
    out["max_flow_runs"] = r.flow_runs;
    o.schedule = std::move(r.schedule);
    o.compact = std::move(r.compact);
    out["lcm_chunks"] = ToString(o.compact ? CompactLcmChunks(*o.compact) : LcmChunks(o.schedule));
  }
  if (a.no_certificates) o.schedule.extra.erase("certificates");
  if (o.compact && a.no_certificates) o.compact->extra.erase("certificates");
  out["sends"] = o.compact ? o.compact->num_sends() : o.schedule.sends.size();
  out["solve_seconds"] = SecondsSince(start);
  StepCheckOptions co;
  co.check_bfb = options.collective == Collective::kAllgather;
  o.verify.check_bfb = co.check_bfb;
  if (!a.check_in_memory && !out.contains("error")) {
    o.expected.tl = o.compact ? o.compact->claimed_tl : o.schedule.claimed_tl;
    o.expected.tb = o.compact ? o.compact->claimed_tb : o.schedule.claimed_tb;
  } else {  // never reported unchecked
    auto t0 = std::chrono::steady_clock::now();
    StepCheckReport rep =
        o.compact ? CheckStepSchedule(g, *o.compact, co) : CheckStepSchedule(g, o.schedule, co);
    out["verified"] = rep.ok;
    out["verify_seconds"] = SecondsSince(t0);
    o.expected = SameFigures(rep);
    if (!rep.ok) {
      out["error"] = rep.errors.empty() ? "schedule rejected by the checker" : rep.errors.front();
    }
  }
  o.ok = !out.contains("error");
  return o;
}

void PrepareBfbScheduleText(BfbOutcome* o, bool compact) {
  if (!compact || o->compact) return;
  o->compact = CompactFromSteps(o->schedule);
  if (!o->compact)
    throw InputError("<args>", "--compact",
                     "a step's common denominator exceeds int64; write the \"steps\" form instead");
}

void WriteBfbScheduleText(const BfbOutcome& o, const Topology& g, bool compact, std::ostream& os) {
  if (compact) {
    WriteCompactStepScheduleText(*o.compact, g, os);
  } else if (o.compact) {
    WriteStepsJsonFromCompact(*o.compact, g, os);
  } else {
    os << StepScheduleToJsonText(o.schedule, g) << "\n";
  }
}

std::string BfbScheduleText(BfbOutcome* o, const Topology& g, bool compact) {
  PrepareBfbScheduleText(o, compact);
  std::ostringstream os;
  WriteBfbScheduleText(*o, g, compact, os);
  return os.str();
}

}  // namespace collsynth::cli
