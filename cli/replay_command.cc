// collsynth replay FILE [--profile executor|rccl|legacy] [--fifo N] [--root R] [--json]
// Replays an MSCCL XML file with the independent checker (proofs_check/msccl_replay.h), or an
// MSCCL++ JSON execution plan (proofs_check/mscclpp_replay.h): a file whose first byte other
// than JSON whitespace is '{', or whose name ends in ".json", is a plan. The XML-only options
// (--profile, --fifo, --root, --rounds) are ignored for a plan, with a note.
// Exit 0 accepted, 1 rejected (any stage, including text the runtime's lexer or JSON parser
// refuses), 2 unreadable file (missing, a directory or device, larger than 256 MiB) or bad
// arguments.
// Reading, telling XML from a plan, the replay and the JSON are cli/replay_request.h's
// (shared with collsynth.replay).
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command_registry.h"
#include "cli/replay_request.h"
#include "core/json_io.h"
#include "proofs_check/msccl_replay.h"

namespace collsynth::cli {
namespace {

std::string Text(const ReplayResult& r, bool plan) {
  std::string s;
  for (const std::string& n : r.notes) s += "note: " + EscapeForMessage(n) + "\n";
  if (r.ok && plan) {
    s += "accepted: MSCCL++ plan, " + r.coll + ", " + std::to_string(r.ngpus) + " gpus, " +
         std::to_string(r.nchunksperloop) + " chunks per buffer, " + r.proto + ", checked";
    for (const std::string& m : r.modes) s += " " + m;
    s += "\nchunks moved per launch (src -> dst: chunks):";
    for (const ReplayPairChunks& p : r.bytes_per_pair) {
      s += " " + std::to_string(p.src) + "->" + std::to_string(p.dst) + ":" +
           std::to_string(p.chunks);
    }
    return s + "\n";
  }
  if (r.ok) {
    s += "accepted: " + r.coll + ", " + std::to_string(r.ngpus) + " gpus, " +
         std::to_string(r.nchunksperloop) + " chunks per loop, " + r.proto + ", checked";
    for (const std::string& m : r.modes) s += " " + m;
    s += " with " + std::to_string(r.fifo_depth) + " transfers per connector\n";
    s += "chunks sent per loop iteration (src -> dst: chunks):";
    for (const ReplayPairChunks& p : r.bytes_per_pair) {
      s += " " + std::to_string(p.src) + "->" + std::to_string(p.dst) + ":" +
           std::to_string(p.chunks);
    }
    return s + "\n";
  }
  const ReplayStage stage = r.violations.front().stage;
  s += "rejected at stage " + std::to_string(static_cast<int>(stage)) + " (" +
       ReplayStageName(stage) + "): " + std::to_string(r.violations_total) + " violation" +
       (r.violations_total == 1 ? "" : "s") +
       (r.violations_total > static_cast<std::int64_t>(r.violations.size())
            ? ", first " + std::to_string(r.violations.size()) + " listed"
            : "") +
       "\n";
  for (const ReplayViolation& v : r.violations) {
    s += "  stage " + std::to_string(static_cast<int>(v.stage)) + " " + ReplayStageName(v.stage) +
         ", " + ReplayViolationKindName(v.kind) + ": " + EscapeForMessage(v.message) + "\n";
    for (const ReplayStepRef& c : v.cycle) {
      s += "    gpu " + std::to_string(c.gpu) + " tb " + std::to_string(c.tb) + " step " +
           std::to_string(c.step) + " round " + std::to_string(c.iteration) + "\n";
    }
  }
  return s;
}

struct ReplayArgs {
  std::string file, profile = "executor";
  bool json = false;
  ReplayOptions options;
  std::vector<const CLI::Option*> xml_only;  // the MSCCL-XML-only options (noted when given)
};

void AddReplayOptions(CLI::App* cmd, ReplayArgs* args) {
  cmd->add_option("file", args->file,
                  "MSCCL XML file or MSCCL++ plan (a .json name or text starting with '{'); "
                  "'-' = stdin")
      ->required();
  CLI::Option* xml_options[] = {
      cmd->add_option("--profile", args->profile, "XML runtime: executor (default), rccl, legacy")
          ->check(CLI::IsMember({"executor", "rccl", "legacy"})),
      cmd->add_option("--fifo", args->options.fifo_depth,
                      "XML: one-chunk transfers a connector holds (default: Simple 2, LL/LL128 8)")
          ->check(CLI::Range(1, 1024)),
      cmd->add_option("--root", args->options.root, "XML broadcast: the root rank (default 0)")
          ->check(CLI::Range(0, 1 << 20)),
      cmd->add_option("--rounds", args->options.iterations,
                      "XML: rounds of the chunk loop simulated (default 2)")
          ->check(CLI::Range(1, 8))};
  cmd->add_option("--max-violations", args->options.max_violations,
                  "violations to list (default 50)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_flag("--json", args->json,
                "print one JSON object {ok, coll, ngpus, nchunksperloop, violations, "
                "bytes_per_pair, ...}");
  args->xml_only.assign(std::begin(xml_options), std::end(xml_options));
}

int RunReplay(const ReplayArgs& a) {
  ReplayRequest request;
  request.profile = a.profile;
  request.options = a.options;
  for (const CLI::Option* opt : a.xml_only) {
    if (opt->count() > 0) request.xml_only_given.push_back(opt->get_name());
  }
  const std::string name = a.file == "-" ? "<stdin>" : a.file;
  const std::string text = ReadReplayFile(a.file);
  const ReplayOutcome o = ReplayText(text, name, IsMscclppPlan(a.file, text), request);
  if (a.json) {
    // Names quoted from the file may be invalid UTF-8: replaced, never an exception.
    std::cout << ReplayJson(o).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    std::cout << Text(o.result, o.plan);
  }
  return o.result.ok ? kExitOk : kExitCheckFailed;
}

CommandRegistrar reg_replay(0, [](CLI::App& app) {
  AddCommand(app, "replay",
             "Prove that an MSCCL XML file or an MSCCL++ JSON plan loads in the runtime and "
             "implements its collective",
             AddReplayOptions, RunReplay);
});

}  // namespace
}  // namespace collsynth::cli
