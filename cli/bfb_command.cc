// collsynth bfb FILE [--collective allgather|reduce-scatter|allreduce] [--chunks P]
//                    [--alpha-file F] [--clp-hint] [--threads N] [--json]
//                    [-o SCHEDULE.json] [--compact]
// BFB schedules (seed 000 §6, App. D): exact LP (3)/(13) per (node, step) with Thm 19
// certificates, discrete chunks (App. D.2), heterogeneous links (App. D.3). The schedule is
// checked by the independent step checker (exit 1 when invalid): with -o, as the written file
// read back from disk before it is renamed into place (cli/schedule_output.h), else in memory.
// --compact (or an output name ending in ".csteps.json") writes the "steps-compact" form
// (docs/formats.md); the flat fast path checks and writes it without Rationals per send.
// The solve and the in-memory check are cli/bfb_request.h's (shared with collsynth.bfb).
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <utility>

#include "cli/bfb_request.h"
#include "cli/command_registry.h"
#include "cli/schedule_output.h"
#include "core/stopwatch.h"
#include "graphs/topology_io.h"
#include "schedules/collective.h"
#include "solvers/bfb/discrete_chunks.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

struct BfbArgs {
  BfbRequest request;  // what decides the schedule (cli/bfb_request.h)
  std::string output;
  bool json = false;
  bool compact = false;
};

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int RunBfb(const BfbArgs& a) {
  Topology g = ReadTopologyFile(a.request.file);
  // With -o the check is the one of the written file, read back from disk (below): the same
  // checker with the same options on the same schedule, so a check of the schedule in memory
  // first would only repeat it (docs/performance.md, "A fast steps path"). The re-check must
  // then reproduce the producer's claimed T_L and T_B.
  BfbRequest request = a.request;
  request.check_in_memory = a.output.empty();
  BfbOutcome o = ComputeBfb(g, request);
  json& out = o.summary;
  int code = o.ok ? kExitOk : kExitCheckFailed;
  if (!a.output.empty() && code == kExitOk) {
    auto t0 = std::chrono::steady_clock::now();
    const bool write_compact = a.compact || EndsWith(a.output, ".csteps.json");
    PrepareBfbScheduleText(&o, write_compact);
    // Written to OUT.partial 16 KiB at a time (never held whole) from the form in memory.
    std::uint64_t bytes = 0;
    const ScheduleTextWriter write = [&](std::ostream& os) {
      const auto begin = os.tellp();
      WriteBfbScheduleText(o, g, write_compact, os);
      const auto end = os.tellp();
      if (begin >= 0 && end >= begin) bytes = static_cast<std::uint64_t>(end - begin);
    };
    // Release the in-memory schedule: the read-back check holds the file's copy only.
    const std::function<void()> released = [&] {
      o.schedule = StepSchedule();
      o.compact.reset();
    };
    OutputCheck written = WriteCheckedSchedule(g, write, released, a.output, o.verify, o.expected);
    out["output"] = a.output;
    out["output_bytes"] = bytes;
    out["output_format"] = write_compact ? "steps-compact" : "steps";
    AddOutputCheck(out, written);
    out["verified"] = written.ok;  // the check that ran: the written file's
    out["verify_seconds"] = written.seconds;
    out["write_seconds"] = SecondsSince(t0);
    if (!written.ok) {
      out["error"] = a.output + ": " + written.error + " (nothing written)";
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
  cmd->add_option("file", args->request.file, "topology file (JSON or edge list)")->required();
  cmd->add_option("--collective", args->request.collective,
                  "allgather | reduce-scatter | allreduce")
      ->check(CLI::IsMember(std::vector<std::string>{CollectiveName(Collective::kAllgather),
                                                     CollectiveName(Collective::kReduceScatter),
                                                     CollectiveName(Collective::kAllreduce)}));
  cmd->add_option(
         "--chunks", args->request.chunks,
         "exactly P chunks per shard: ILP (12) with CBC vs rounded LP (App. D.2), allgather")
      ->check(CLI::Range(std::int64_t{1}, kMaxChunks));
  cmd->add_option("--alpha-file", args->request.alpha_file,
                  "per-link alpha JSON for LP (13) (App. D.3)");
  cmd->add_option("-o,--output", args->output, "write the schedule (\"steps\" JSON) here");
  cmd->add_flag(
      "--compact", args->compact,
      "write the \"steps-compact\" form (also chosen by an output name ending in .csteps.json)");
  cmd->add_flag("--thm4", args->request.thm4,
                "reduce-scatter by Theorem 4 with a known reverse-symmetry isomorphism "
                "(identity or x -> -x mod n, validated) instead of the transpose");
  cmd->add_flag("--clp-hint", args->request.clp_hint,
                "start every exact solve from CLP's LP optimum");
  cmd->add_flag("--json", args->json, "print one JSON object");
  cmd->add_flag("--no-certificates", args->request.no_certificates,
                "omit per-(u,t) certificates from extra");
  cmd->add_option("--threads", args->request.threads, "worker threads (0 = all cores)");
}

CommandRegistrar reg_bfb(0, [](CLI::App& app) {
  AddCommand(app, "bfb",
             "BFB schedule (seed 000 §6, App. D): exact LP per (node, step), "
             "checked before it is written",
             AddBfbOptions, RunBfb);
});

}  // namespace
}  // namespace collsynth::cli
