// collsynth bfb FILE [--collective allgather|reduce-scatter|allreduce] [--chunks P]
//                    [--alpha-file F] [--clp-hint] [--threads N] [--json]
//                    [-o SCHEDULE.json] [--compact]
// BFB schedules (seed 000 §6, App. D): exact LP (3)/(13) per (node, step) with Thm 19
// certificates, discrete chunks (App. D.2), heterogeneous links (App. D.3). The schedule is
// checked by the independent step checker (exit 1 when invalid): with -o, as the written file
// read back from disk before it is renamed into place (cli/schedule_output.h), else in memory.
// --compact (or an output name ending in ".csteps.json") writes the "steps-compact" form
// (docs/formats.md); the flat fast path checks and writes it without Rationals per send.
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/schedule_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "core/stopwatch.h"
#include "graphs/topology_io.h"
#include "proofs_check/step_checker.h"
#include "schedules/collective.h"
#include "schedules/compact_schedule.h"
#include "schedules/step_schedule.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/bfb/discrete_chunks.h"
#include "solvers/bfb/heterogeneous_bfb.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct BfbArgs {
  std::string file;
  std::string collective = "allgather";
  std::int64_t chunks = 0;
  std::string alpha_file;
  std::string output;
  bool clp_hint = false;
  bool json = false;
  bool no_certificates = false;
  bool compact = false;
  bool thm4 = false;
  unsigned threads = 0;
};

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

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
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

int RunBfb(const BfbArgs& a) {
  auto start = std::chrono::steady_clock::now();
  Topology g = ReadTopologyFile(a.file);
  BfbOptions options;
  options.file = a.file;
  options.threads = a.threads;
  options.use_clp_hint = a.clp_hint;
  options.certificates = !a.no_certificates;
  options.collective = *ParseCollective(a.collective);  // checked by the option's IsMember
  if (!a.alpha_file.empty())
    options.link_alpha = LinkAlphasFromJson(ParseJsonText(ReadTextFile(a.alpha_file), a.alpha_file),
                                            g, a.alpha_file);
  json out;
  out["topology"] = g.name();
  out["collective"] = CollectiveName(options.collective);
  StepSchedule schedule;
  std::optional<CompactStepSchedule> compact;  // the flat path's schedule (schedule.sends empty)
  const bool write_compact = a.compact || EndsWith(a.output, ".csteps.json");
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
    schedule = std::move(d.ilp_schedule);
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
    schedule = std::move(r.schedule);
    compact = std::move(r.compact);
    if (compact) {
      out["lcm_chunks"] = ToString(CompactLcmChunks(*compact));
    } else {
      // LCM chunk count (App. D.2 (a)) of the exact schedule.
      BigInt lcm = 1;
      for (const StepSend& s : schedule.sends)
        for (const Interval& iv : s.chunk) {
          for (const Rational* x : {&iv.lo, &iv.hi}) {
            BigInt den = Denominator(*x);
            lcm = lcm / boost::multiprecision::gcd(lcm, den) * den;
          }
        }
      out["lcm_chunks"] = ToString(lcm);
    }
  }
  if (a.no_certificates) schedule.extra.erase("certificates");
  if (compact && a.no_certificates) compact->extra.erase("certificates");
  out["sends"] = compact ? compact->num_sends() : schedule.sends.size();
  out["solve_seconds"] = SecondsSince(start);
  int code = kExitOk;
  if (out.contains("error")) code = kExitCheckFailed;
  StepCheckOptions co;
  co.check_bfb = options.collective == Collective::kAllgather;
  ExpectedCheck expected;
  // With -o the check is the one of the written file, read back from disk (below): the same
  // checker with the same options on the same schedule, so a check of the schedule in memory
  // first would only repeat it (docs/performance.md, "A fast steps path"). The re-check must
  // then reproduce the producer's claimed T_L and T_B (the checker also rejects a file whose
  // claims it does not reproduce).
  const bool checked_when_written = !a.output.empty() && code == kExitOk;
  if (checked_when_written) {
    if (compact) {
      expected.tl = compact->claimed_tl;
      expected.tb = compact->claimed_tb;
    } else {
      expected.tl = schedule.claimed_tl;
      expected.tb = schedule.claimed_tb;
    }
  } else {  // never reported unchecked
    auto t0 = std::chrono::steady_clock::now();
    StepCheckReport rep =
        compact ? CheckStepSchedule(g, *compact, co) : CheckStepSchedule(g, schedule, co);
    out["verified"] = rep.ok;
    out["verify_seconds"] = SecondsSince(t0);
    expected = SameFigures(rep);
    if (!rep.ok) {
      out["error"] = rep.errors.empty() ? "schedule rejected by the checker" : rep.errors.front();
      code = kExitCheckFailed;
    }
  }
  if (checked_when_written) {
    auto t0 = std::chrono::steady_clock::now();
    if (write_compact && !compact) {
      compact = CompactFromSteps(schedule);
      if (!compact)
        throw InputError(
            "<args>", "--compact",
            "a step's common denominator exceeds int64; write the \"steps\" form instead");
    }
    // Written to OUT.partial 16 KiB at a time (never held whole) from the form in memory.
    std::uint64_t bytes = 0;
    const ScheduleTextWriter write = [&](std::ostream& os) {
      const auto begin = os.tellp();
      if (write_compact) {
        WriteCompactStepScheduleText(*compact, g, os);
      } else if (compact) {
        WriteStepsJsonFromCompact(*compact, g, os);
      } else {
        os << StepScheduleToJsonText(schedule, g) << "\n";
      }
      const auto end = os.tellp();
      if (begin >= 0 && end >= begin) bytes = static_cast<std::uint64_t>(end - begin);
    };
    // Release the in-memory schedule: the read-back check holds the file's copy only.
    const std::function<void()> written = [&] {
      schedule = StepSchedule();
      compact.reset();
    };
    VerifyOptions vo;
    vo.check_bfb = co.check_bfb;
    OutputCheck written_check = WriteCheckedSchedule(g, write, written, a.output, vo, expected);
    out["output"] = a.output;
    out["output_bytes"] = bytes;
    out["output_format"] = write_compact ? "steps-compact" : "steps";
    AddOutputCheck(out, written_check);
    out["verified"] = written_check.ok;  // the check that ran: the written file's
    out["verify_seconds"] = written_check.seconds;
    out["write_seconds"] = SecondsSince(t0);
    if (!written_check.ok) {
      out["error"] = a.output + ": " + written_check.error + " (nothing written)";
      code = kExitCheckFailed;
    }
  }
  if (a.json) {
    std::cout << out.dump() << "\n";
  } else {
    std::ostringstream o;
    auto s = [](const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    for (auto it = out.begin(); it != out.end(); ++it) {
      std::string key = it.key();
      key.resize(std::max<std::size_t>(key.size() + 1, 22), ' ');
      o << key << s(it.value()) << "\n";
    }
    std::cout << o.str();
  }
  if (code != kExitOk && out.contains("error"))
    PrintFailure("bfb: " + out["error"].get<std::string>());
  return code;
}

void AddBfbOptions(CLI::App* cmd, BfbArgs* args) {
  cmd->add_option("file", args->file, "topology file (JSON or edge list)")->required();
  cmd->add_option("--collective", args->collective, "allgather | reduce-scatter | allreduce")
      ->check(CLI::IsMember(std::vector<std::string>{CollectiveName(Collective::kAllgather),
                                                     CollectiveName(Collective::kReduceScatter),
                                                     CollectiveName(Collective::kAllreduce)}));
  cmd->add_option(
         "--chunks", args->chunks,
         "exactly P chunks per shard: ILP (12) with CBC vs rounded LP (App. D.2), allgather")
      ->check(CLI::Range(std::int64_t{1}, kMaxChunks));
  cmd->add_option("--alpha-file", args->alpha_file, "per-link alpha JSON for LP (13) (App. D.3)");
  cmd->add_option("-o,--output", args->output, "write the schedule (\"steps\" JSON) here");
  cmd->add_flag(
      "--compact", args->compact,
      "write the \"steps-compact\" form (also chosen by an output name ending in .csteps.json)");
  cmd->add_flag("--thm4", args->thm4,
                "reduce-scatter by Theorem 4 with a known reverse-symmetry isomorphism "
                "(identity or x -> -x mod n, validated) instead of the transpose");
  cmd->add_flag("--clp-hint", args->clp_hint, "start every exact solve from CLP's LP optimum");
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_flag("--no-certificates", args->no_certificates,
                "omit per-(u,t) certificates from extra");
  cmd->add_option("--threads", args->threads, "worker threads (0 = all cores)");
}

CommandRegistrar reg_bfb(0, [](CLI::App& app) {
  AddCommand(app, "bfb",
             "BFB schedule (seed 000 §6, App. D): exact LP per (node, step), "
             "checked before it is written",
             AddBfbOptions, RunBfb);
});

}  // namespace
}  // namespace collsynth::cli
