// collsynth replay FILE [--profile executor|rccl|legacy] [--fifo N] [--root R] [--json]
// Replays an MSCCL XML file with the independent checker (proofs_check/msccl_replay.h).
// Exit 0 accepted, 1 rejected (any stage, including text the runtime's lexer refuses),
// 2 unreadable file (missing, a directory or device, larger than 256 MiB) or bad arguments.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>

#include "cli/command_registry.h"
#include "graphs/input_error.h"
#include "graphs/topology_io.h"
#include "proofs_check/msccl_replay.h"

namespace collsynth::cli {
namespace {

constexpr std::uintmax_t kMaxXmlBytes = std::uintmax_t{256} << 20;

std::string ReadXmlFile(const std::string& path) {
  if (path != "-") {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (std::filesystem::is_regular_file(st)) {
      const std::uintmax_t size = std::filesystem::file_size(path, ec);
      if (!ec && size > kMaxXmlBytes) {
        throw InputError(path, "", "file is larger than 256 MiB; no MSCCL XML is that large");
      }
    }
  }
  return ReadTextFile(path);  // missing, directory, device: InputError
}

nlohmann::json ToJson(const ReplayResult& r, const std::string& profile) {
  nlohmann::json violations = nlohmann::json::array();
  for (const ReplayViolation& v : r.violations) {
    nlohmann::json j = {{"stage", static_cast<int>(v.stage)},
                        {"stage_name", ReplayStageName(v.stage)},
                        {"kind", ReplayViolationKindName(v.kind)},
                        {"message", v.message}};
    if (v.gpu >= 0) j["gpu"] = v.gpu;
    if (v.tb >= 0) j["tb"] = v.tb;
    if (v.step >= 0) j["step"] = v.step;
    if (!v.cycle.empty()) {
      nlohmann::json c = nlohmann::json::array();
      for (const ReplayStepRef& s : v.cycle) {
        c.push_back({{"gpu", s.gpu}, {"tb", s.tb}, {"step", s.step}, {"round", s.iteration}});
      }
      j["cycle"] = c;
    }
    violations.push_back(j);
  }
  nlohmann::json pairs = nlohmann::json::array();
  for (const ReplayPairChunks& p : r.bytes_per_pair) {
    pairs.push_back({{"src", p.src}, {"dst", p.dst}, {"chunks", p.chunks}});
  }
  return {{"ok", r.ok},
          {"coll", r.coll},
          {"ngpus", r.ngpus},
          {"nchunksperloop", r.nchunksperloop},
          {"proto", r.proto},
          {"profile", profile},
          {"fifo_depth", r.fifo_depth},
          {"modes", r.modes},
          {"violations", violations},
          {"violations_total", r.violations_total},
          {"notes", r.notes},
          {"bytes_per_pair", pairs}};
}

std::string Text(const ReplayResult& r) {
  std::string s;
  for (const std::string& n : r.notes) s += "note: " + EscapeForMessage(n) + "\n";
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

CommandRegistrar reg_replay(0, [](CLI::App& app) {
  struct Args {
    std::string file, profile = "executor";
    bool json = false;
    ReplayOptions options;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "replay", "Prove that an MSCCL XML file loads in the runtime and implements its collective");
  cmd->add_option("file", args->file, "MSCCL XML file ('-' = stdin)")->required();
  cmd->add_option("--profile", args->profile, "runtime: executor (default), rccl, legacy")
      ->check(CLI::IsMember({"executor", "rccl", "legacy"}));
  cmd->add_option("--fifo", args->options.fifo_depth,
                  "one-chunk transfers a connector holds (default: Simple 2, LL/LL128 8)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--root", args->options.root, "broadcast: the root rank (default 0)")
      ->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--rounds", args->options.iterations,
                  "rounds of the chunk loop simulated (default 2)")
      ->check(CLI::Range(1, 8));
  cmd->add_option("--max-violations", args->options.max_violations,
                  "violations to list (default 50)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_flag("--json", args->json,
                "print one JSON object {ok, coll, ngpus, nchunksperloop, violations, "
                "bytes_per_pair, ...}");
  cmd->callback([args]() {
    RunCommand([&]() {
      static const std::map<std::string, MscclProfile> kProfiles = {
          {"executor", MscclProfile::kExecutor},
          {"rccl", MscclProfile::kRccl},
          {"legacy", MscclProfile::kLegacy}};
      args->options.profile = kProfiles.at(args->profile);
      const std::string name = args->file == "-" ? "<stdin>" : args->file;
      const std::string text = ReadXmlFile(args->file);
      const ReplayResult r = ReplayMscclXml(text, name, args->options);
      if (args->json) {
        // Names quoted from the file may be invalid UTF-8: replaced, never an exception.
        std::cout << ToJson(r, args->profile)
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n";
      } else {
        std::cout << Text(r);
      }
      return r.ok ? kExitOk : kExitCheckFailed;
    });
  });
});

}  // namespace
}  // namespace collsynth::cli
